"""Score cards on paper: one box per player, a ruled grid of rounds 1–6 for every set.

A card is plain data (:class:`CardData`, every cell a string, empty when blank) drawn by
:func:`draw_cards`; :mod:`bunco.sheets.blank` and :mod:`bunco.sheets.filled` build it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.lib.units import inch

from bunco.core.rules import RuleSet
from bunco.sheets.pdfkit import GREY, MARGIN, Doc, Page, text_width
from bunco.sheets.wording import LOSS, WIN, minis_header

ROW: float = 0.25 * inch
SET_GAP: float = 0.12 * inch
HEAD: float = 0.62 * inch
FOOT: float = 0.28 * inch
GAP: float = 0.18 * inch
PROPORTIONS = (0.12, 0.13, 0.15, 0.16, 0.26, 0.18)


@dataclass
class CardSet:
    """One set's grid: six round rows and a total row (tuples of cell text)."""

    set_no: int
    rows: list[tuple[str, ...]]
    total: tuple[str, ...]


@dataclass
class CardData:
    """Everything printed on one player's card."""

    player: str
    sets: list[CardSet]
    note: str = ""
    night: str = ""
    extra: list[str] = field(default_factory=list)


def headers(rules: RuleSet) -> tuple[str, ...]:
    """The column heads of a card, in the rule set's words."""
    return ("Round", "Table", f"{WIN} / {LOSS}", "Buncos", minis_header(rules), "Points")


def blank_set(set_no: int) -> CardSet:
    return CardSet(set_no, [(str(r), "", "", "", "", "") for r in range(1, 7)],
                   ("Total", "", "", "", "", ""))


def card_height(card: CardData, row: float = ROW) -> float:
    grid = len(card.sets) * (8 * row + 0.2 * inch) + (len(card.sets) - 1) * SET_GAP
    return float(HEAD + grid + FOOT)


def row_height(sets: int, page_height: float) -> float:
    """The grid's row height: cards of one set go three down a page, of two sets two down,
    longer cards one down; rows are never taller than :data:`ROW`."""
    down = {1: 3, 2: 2}.get(sets, 1)
    room = (page_height - 2 * MARGIN - (down - 1) * GAP) / down - 0.02 * inch
    fixed = HEAD + FOOT + sets * 0.2 * inch + (sets - 1) * SET_GAP
    return float(min(ROW, (room - fixed) / (8 * sets)))


def draw_card(page: Page, x: float, y_top: float, width: float, card: CardData,
              rules: RuleSet, title: str, row: float = ROW) -> None:
    """One card with its top-left corner at (x, y_top)."""
    height = card_height(card, row)
    page.box(x, y_top - height, width, height, width=1.2, radius=6)
    pad = 0.1 * inch
    label = "BUNCO SCORE CARD"
    page.text(x + pad, y_top - 0.22 * inch, label, 10, bold=True)
    page.text(x + width - pad, y_top - 0.22 * inch, title, 7, align="right", color=GREY,
              width=width - 2 * pad - text_width(label, 10, bold=True) - 0.12 * inch)
    name_y = y_top - 0.48 * inch
    page.text(x + pad, name_y, "Name:", 10)
    if card.player:
        page.text(x + pad + 0.5 * inch, name_y, card.player, 13, bold=True,
                  width=width - 0.7 * inch)
    else:
        page.line(x + pad + 0.5 * inch, name_y - 2, x + width - pad, name_y - 2, width=0.5)
    widths = [width * p - (2 * pad * p) for p in PROPORTIONS]
    y = y_top - HEAD
    for block in card.sets:
        page.text(x + pad, y - 0.14 * inch, f"Set {block.set_no}", 8, bold=True)
        y -= 0.2 * inch
        rows = [headers(rules), *block.rows, block.total]
        y = page.grid(x + pad, y, widths, rows, row, size=8, bold_rows=(len(rows) - 1,),
                      align=("center",) * len(widths))
        y -= SET_GAP
    foot = card.night or card.note
    if foot:
        page.text(x + pad, y_top - height + 0.1 * inch, foot, 8, width=width - 2 * pad)


def draw_cards(doc: Doc, cards: Sequence[CardData], rules: RuleSet, title: str) -> None:
    """Two cards across, as many down as fit, on as many portrait pages as needed."""
    if not cards:
        return
    page = doc.page()
    row = row_height(max(len(c.sets) for c in cards), page.height)
    width = (page.inner_width - GAP) / 2
    x_slots = (page.left, page.left + width + GAP)
    y = page.top
    column = 0
    tallest = 0.0
    page.footer(f"{title} · score cards")
    for card in cards:
        height = card_height(card, row)
        if column == 0 and y - height < MARGIN and y != page.top:
            page = doc.page()
            page.footer(f"{title} · score cards")
            y = page.top
        draw_card(page, x_slots[column], y, width, card, rules, title, row)
        tallest = max(tallest, height)
        column += 1
        if column == 2:
            column = 0
            y -= tallest + GAP
            tallest = 0.0
