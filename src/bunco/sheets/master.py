"""The host's sheets: the master score sheet (a W per round won, a B per Bunco), the
prize sheet of presets without a set winner, and the night's standings.

All are ruled tables of players; :func:`draw_sheet_tables` paginates them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.lib.units import inch

from bunco.core.rules import RuleSet, SetWinner
from bunco.sheets.pdfkit import GREY, LIGHT, MARGIN, Doc, Page
from bunco.sheets.wording import minis_header

ROW: float = 0.27 * inch


@dataclass
class SheetTable:
    """A titled table of rows with lines of text under it."""

    title: str
    subtitle: str
    headers: tuple[str, ...]
    widths: tuple[float, ...]  # fractions of the page's inner width
    rows: list[tuple[str, ...]]
    lines_after: list[str] = field(default_factory=list)
    align: tuple[str, ...] | None = None
    groups: tuple[tuple[str, int], ...] = ()  # a header row above: (label, columns spanned)
    landscape: bool = False


def has_set_winner(rules: RuleSet) -> bool:
    return rules.set_winner is SetWinner.MOST_WINS


def master_headers(rules: RuleSet) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Column heads and widths of one set's master sheet in the rule set's words: the
    master score sheet has a column per round; the host's sheet (a landscape page) two,
    the table the player sat at and W or L (see :func:`master_groups`)."""
    rounds = tuple(str(r) for r in range(1, 7))
    if has_set_winner(rules):
        return ("Player", *rounds, "Total W", "Total B"), (0.34, *(0.07,) * 6, 0.12, 0.12)
    return (
        ("Player", *(("Table", "W / L") * 6), "W", "L", "Buncos", minis_header(rules)),
        (0.17, *(0.05,) * 12, 0.045, 0.045, 0.065, 0.075),
    )


def master_groups(rules: RuleSet) -> tuple[tuple[str, int], ...]:
    """The host's sheet's row above the heads: each round over its two columns."""
    if has_set_winner(rules):
        return ()
    return (("", 1), *((f"Round {r}", 2) for r in range(1, 7)), ("The set", 4))


def master_title(rules: RuleSet, set_no: int) -> str:
    name = "Master score sheet" if has_set_winner(rules) else "Host's sheet"
    return f"{name}, set {set_no}"


def standings_headers(rules: RuleSet) -> tuple[tuple[str, ...], tuple[float, ...]]:
    return (
        ("#", "Player", "W", "L", "Buncos", minis_header(rules), "Points", "Prizes"),
        (0.05, 0.21, 0.06, 0.06, 0.08, 0.12, 0.08, 0.34),
    )


def _group_row(
    page: Page, y: float, widths: Sequence[float], groups: Sequence[tuple[str, int]]
) -> float:
    """The row of group heads over the columns; returns the y of its bottom edge."""
    x, i = page.left, 0
    for label, span in groups:
        w = sum(widths[i : i + span])
        if label:
            page.box(x, y - ROW, w, ROW, fill=LIGHT, width=0.6)
            page.text(x + w / 2, y - ROW * 0.68, label, 10, bold=True, align="center", width=w - 6)
        x, i = x + w, i + span
    return y - ROW


def _heading(page: Page, table: SheetTable, first: bool) -> float:
    top = page.top
    page.text(
        page.left,
        top - 0.15 * inch,
        table.title + ("" if first else " (cont.)"),
        18,
        bold=True,
        width=page.inner_width * 0.65,
    )
    page.text(
        page.right,
        top - 0.15 * inch,
        table.subtitle,
        9,
        align="right",
        color=GREY,
        width=page.inner_width * 0.35,
    )
    page.footer(f"Bunco · {table.title}")
    return float(top - 0.35 * inch)


def draw_sheet_tables(doc: Doc, tables: Sequence[SheetTable]) -> None:
    """Each table from the top of a new portrait page, its header repeated on every page."""
    for table in tables:
        page = doc.page(turned=table.landscape)
        widths = [w * page.inner_width for w in table.widths]
        align = table.align or ("left", *("center",) * (len(table.headers) - 1))
        y = _heading(page, table, True)
        rows = list(table.rows)
        while True:
            if table.groups:
                y = _group_row(page, y, widths, table.groups)
            fit = max(1, int((y - MARGIN - 0.1 * inch) / ROW) - 1)
            chunk, rows = rows[:fit], rows[fit:]
            y = page.grid(page.left, y, widths, [table.headers, *chunk], ROW, size=10, align=align)
            if not rows:
                break
            page = doc.page(turned=table.landscape)
            y = _heading(page, table, False)
        y -= 0.3 * inch
        for line in table.lines_after:
            if y < MARGIN + 0.2 * inch:
                page = doc.page(turned=table.landscape)
                y = _heading(page, table, False)
            page.text(page.left, y, line, 11, width=page.inner_width)
            y -= 0.3 * inch
