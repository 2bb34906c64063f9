"""Name tags, eight to a page (two across, four down), with dashed cut lines: a
"HELLO my name is" band, the name (a line to write on when it is not known) and where
the player starts. The last page is filled with blank tags for late arrivals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import inch

from bunco.sheets.pdfkit import GREY, Doc, Page

ACROSS, DOWN = 2, 4
GAP: float = 0.25 * inch


@dataclass(frozen=True, slots=True)
class NameTag:
    """One tag: the name ("" for a line to write on) and a line under it."""

    name: str
    note: str = ""


def draw_tag(page: Page, x: float, y: float, w: float, h: float, tag: NameTag) -> None:
    """One tag with its lower-left corner at (x, y)."""
    band = 0.62 * inch
    page.banded_box(x, y, w, h, band)
    page.text(
        x + w / 2, y + h - 0.3 * inch, "HELLO", 20, bold=True, align="center", color=(1, 1, 1)
    )
    page.text(x + w / 2, y + h - 0.5 * inch, "my name is", 10, align="center", color=(1, 1, 1))
    name_y = y + (h - band) / 2 - 0.05 * inch
    if tag.name:
        page.text(x + w / 2, name_y, tag.name, 30, bold=True, align="center", width=w - 0.3 * inch)
    else:
        page.line(x + 0.3 * inch, name_y - 4, x + w - 0.3 * inch, name_y - 4, width=0.6)
    page.text(
        x + w / 2,
        y + 0.15 * inch,
        tag.note or "Bunco",
        8,
        align="center",
        color=GREY,
        width=w - 0.3 * inch,
    )


def draw_name_tags(doc: Doc, tags: Sequence[NameTag], title: str) -> None:
    """Every tag, then blank ones to fill the last page."""
    per_page = ACROSS * DOWN
    blanks = -len(tags) % per_page
    queue = [*tags, *(NameTag("") for _ in range(blanks))]
    for start in range(0, len(queue), per_page):
        page = doc.page()
        w = (page.inner_width - (ACROSS - 1) * GAP) / ACROSS
        h = (page.top - page.left - (DOWN - 1) * GAP) / DOWN
        for k, tag in enumerate(queue[start : start + per_page]):
            row, col = divmod(k, ACROSS)
            draw_tag(
                page, page.left + col * (w + GAP), page.top - (row + 1) * h - row * GAP, w, h, tag
            )
        mid = page.left + w + GAP / 2
        page.cut_line(mid, page.top + 0.1 * inch, mid, page.left - 0.1 * inch)
        for row in range(1, DOWN):
            yy = page.top - row * h - (row - 0.5) * GAP
            page.cut_line(page.left - 0.3 * inch, yy, page.right + 0.3 * inch, yy)
        page.footer(f"{title} · name tags")
