"""Table tallies on paper: one page per table and set, a block per round.

A block has a column per side: Us and Them at a team table (the scorekeeper's team is
Us), one per player at a table of individuals. Under the turns come a labelled Total row
and a Tie-break row (each side's points in a tie-break), then the line for the winners.
Filled blocks list the points of every scoring turn in the order written, the totals,
any tie-break's points and the winners. The head table's page carries the bell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import inch

from bunco.sheets.pdfkit import GREY, LIGHT, Doc, Page, text_width

BLANK_LINES = 10
LABEL_W: float = 0.62 * inch
TOTAL = "Total"
TIE = "Tie-break"


@dataclass
class TallyColumn:
    """One side of a table in one round (``tie``: its points in a tie-break)."""

    header: str
    names: str = ""
    entries: tuple[str, ...] = ()
    total: str = ""
    tie: str = ""


@dataclass
class TallyBlock:
    """One round at one table."""

    title: str
    columns: list[TallyColumn]
    footer: str = ""
    note: str = ""
    lines: int = BLANK_LINES


@dataclass
class TallyPage:
    """A table's page for one set; ``head`` says what the head table's bell does."""

    heading: str
    subheading: str
    blocks: list[TallyBlock]
    head: str = ""


def _draw_entries(
    page: Page, x: float, y_top: float, w: float, rows: int, row_h: float, entries: Sequence[str]
) -> None:
    subs = max(1, math.ceil(len(entries) / rows))
    sub_w = w / subs
    for i, entry in enumerate(entries):
        col, row = divmod(i, rows)
        page.text(
            x + col * sub_w + sub_w / 2,
            y_top - (row + 1) * row_h + row_h * 0.28,
            entry,
            min(9, row_h * 0.75),
            align="center",
            width=sub_w - 2,
        )


def draw_block(
    page: Page, x: float, y_top: float, width: float, height: float, block: TallyBlock
) -> None:
    """One round's block with its top-left corner at (x, y_top)."""
    page.box(x, y_top - height, width, height, width=1.0, radius=4)
    pad = 0.08 * inch
    page.text(x + pad, y_top - 0.19 * inch, block.title, 10, bold=True, width=width * 0.6)
    if block.note:
        page.text(
            x + width - pad,
            y_top - 0.19 * inch,
            block.note,
            7,
            align="right",
            color=GREY,
            width=width * 0.38,
        )
    head_top = y_top - 0.28 * inch
    head_h = 0.36 * inch
    foot_h = 0.24 * inch
    sum_h = 0.22 * inch  # the Total row and the Tie-break row
    inner_x, inner_w = x + pad, width - 2 * pad
    cols_x, cols_w = inner_x + LABEL_W, inner_w - LABEL_W
    n = max(1, len(block.columns))
    col_w = cols_w / n
    body_top = head_top - head_h
    body_bottom = y_top - height + foot_h + 2 * sum_h
    bottom = body_bottom - 2 * sum_h
    rows = max(1, block.lines)
    row_h = (body_top - body_bottom) / rows
    page.box(inner_x, body_top, inner_w, head_h, fill=LIGHT, width=0.5)
    for r in range(1, rows):
        yy = body_top - r * row_h
        page.line(inner_x, yy, inner_x + inner_w, yy, width=0.25, color=GREY)
    page.box(inner_x, bottom, LABEL_W, 2 * sum_h, fill=LIGHT, width=0.5)
    for yy in (body_bottom, body_bottom - sum_h, bottom):
        page.line(inner_x, yy, inner_x + inner_w, yy, width=0.9)
    page.line(inner_x, head_top, inner_x, bottom, width=0.6)
    for c, column in enumerate(block.columns):
        cx = cols_x + c * col_w
        page.line(cx, head_top, cx, bottom, width=0.6)
        page.text(
            cx + col_w / 2,
            head_top - 0.15 * inch,
            column.header,
            10,
            bold=True,
            align="center",
            width=col_w - 4,
        )
        if column.names:
            page.text(
                cx + col_w / 2,
                head_top - 0.3 * inch,
                column.names,
                7,
                align="center",
                width=col_w - 4,
            )
        _draw_entries(page, cx, body_top, col_w, rows, row_h, column.entries)
        page.text(
            cx + col_w / 2,
            body_bottom - sum_h + 0.06 * inch,
            column.total,
            10,
            bold=True,
            align="center",
            width=col_w - 4,
        )
        page.text(
            cx + col_w / 2,
            bottom + 0.06 * inch,
            column.tie,
            10,
            bold=True,
            align="center",
            width=col_w - 4,
        )
    page.line(inner_x + inner_w, head_top, inner_x + inner_w, bottom, width=0.6)
    page.text(x + pad, y_top - height + 0.08 * inch, block.footer, 8, width=inner_w)
    # the row labels come last, so a page's text reads column by column, then the labels
    for label, base in ((TOTAL, body_bottom - sum_h), (TIE, bottom)):
        page.text(inner_x + 3, base + 0.07 * inch, label, 7.5, bold=True, width=LABEL_W - 6)


def draw_tally_pages(doc: Doc, pages: Sequence[TallyPage], title: str) -> None:
    """Each tally page: a heading and six round blocks, two across and three down."""
    for tp in pages:
        page = doc.page()
        y = page.top - 0.1 * inch
        page.text(page.left, y, tp.heading, 18, bold=True, width=page.inner_width * 0.45)
        page.text(
            page.right, y, tp.subheading, 9, align="right", color=GREY, width=page.inner_width * 0.4
        )
        if tp.head:
            x = page.left + min(text_width(tp.heading, 18, True), page.inner_width * 0.45)
            page.bell(x + 0.25 * inch, y - 0.04 * inch, 0.3 * inch)
            page.text(x + 0.45 * inch, y, "HEAD TABLE", 14, bold=True)
            page.text(page.left, y - 0.22 * inch, tp.head, 8.5, width=page.inner_width)
        gap = 0.15 * inch
        top = page.top - 0.42 * inch
        width = (page.inner_width - gap) / 2
        height = (top - page.left - 2 * gap) / 3
        for i, block in enumerate(tp.blocks):
            row, col = divmod(i, 2)
            draw_block(
                page,
                page.left + col * (width + gap),
                top - row * (height + gap),
                width,
                height,
                block,
            )
        page.footer(f"{title} · {tp.heading}")
