"""Score cards on paper: one box per player, a ruled grid of rounds 1–6 for every set.

A card is plain data (:class:`CardData`, every cell a string, empty when blank) drawn by
:func:`draw_cards`; :mod:`bunco.sheets.blank` and :mod:`bunco.sheets.filled` build it.
Each round's row has room for tally marks in the Buncos and Mini Buncos boxes; under the
grid a box is ticked by whoever holds the traveler at the end. Cards are laid out two
across with dashed cut lines between them, and no page holds a single card: blank sheets
fill the last page with spare cards for late arrivals (:func:`spare_count`), filled
sheets share the cards out evenly over their pages (:func:`cards_per_page`).

>>> per_page(1), per_page(2), per_page(4)
(6, 4, 2)
>>> spare_count(7, 6), spare_count(12, 6), spare_count(12, 6, at_least=1)
(5, 0, 6)
>>> cards_per_page(8, 6), cards_per_page(7, 6), cards_per_page(3, 2)
([4, 4], [4, 3], [2, 2])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.lib.units import inch

from bunco.core.rules import RuleSet
from bunco.party.words import plural
from bunco.sheets.pdfkit import GREY, MARGIN, Doc, Page, text_width
from bunco.sheets.wording import LOSS, WIN, minis_header

ROW: float = 0.25 * inch
SET_GAP: float = 0.12 * inch
HEAD: float = 0.62 * inch
TRAVEL: float = 0.26 * inch
FOOT: float = 0.28 * inch
GAP: float = 0.24 * inch
# Round, Table, W / L, Buncos, Minis, Points: the Buncos and Minis boxes are wide enough
# for a row of tally marks.
PROPORTIONS = (0.12, 0.11, 0.12, 0.20, 0.25, 0.20)
SPARE_NOTE = "Spare card for a late arrival"
TRAVEL_TEXT = "Held the traveler at the end of the night"


@dataclass
class CardSet:
    """One set's grid: six round rows and a total row (tuples of cell text)."""

    set_no: int
    rows: list[tuple[str, ...]]
    total: tuple[str, ...]
    note: str = ""  # beside the set's label: a round whose seating the host overrode


@dataclass
class CardData:
    """Everything printed on one player's card (``traveler``: the text in its box)."""

    player: str
    sets: list[CardSet]
    note: str = ""
    night: str = ""
    extra: list[str] = field(default_factory=list)
    traveler: str = ""
    group: str = ""  # the player's prize group (seeds/004's team number)
    verified: str = ""  # who verified the card, on a filled card ("Staff 1")


def has_traveling(rules: RuleSet) -> bool:
    """True when the night can award the traveling prize (a trigger is set)."""
    return rules.traveling != "off"


def has_groups(rules: RuleSet) -> bool:
    """True when the cards ask for a team (prize group) number."""
    return rules.prize_groups


def headers(rules: RuleSet) -> tuple[str, ...]:
    """The column heads of a card, in the rule set's words."""
    return ("Round", "Table", f"{WIN} / {LOSS}", "Buncos", minis_header(rules), "Points")


def blank_set(set_no: int) -> CardSet:
    return CardSet(
        set_no, [(str(r), "", "", "", "", "") for r in range(1, 7)], ("Total", "", "", "", "", "")
    )


def spare_card(sets: int) -> CardData:
    """A blank card with no name, for someone who comes late."""
    return CardData(player="", sets=[blank_set(s) for s in range(1, sets + 1)], note=SPARE_NOTE)


def per_page(sets: int) -> int:
    """Cards on one page: two across; three down for one set, two for two, one for more."""
    return 2 * {1: 3, 2: 2}.get(sets, 1)


def spare_count(cards: int, page: int, at_least: int = 0) -> int:
    """Spare cards to print: at least ``at_least``, and enough to fill the last page."""
    total = cards + at_least
    return math.ceil(total / page) * page - cards


def cards_per_page(cards: int, page: int) -> list[int]:
    """How many cards each page holds when ``cards`` are shared out evenly over as few
    pages as hold them (a lone last card is avoided wherever a page holds more than two)."""
    if cards <= 0:
        return []
    pages = math.ceil(cards / page)
    base, extra = divmod(cards, pages)
    return [base + (1 if k < extra else 0) for k in range(pages)]


def card_height(card: CardData, row: float = ROW) -> float:
    grid = len(card.sets) * (8 * row + 0.2 * inch) + (len(card.sets) - 1) * SET_GAP
    return float(HEAD + grid + TRAVEL + FOOT)


def row_height(sets: int, page_height: float) -> float:
    """The grid's row height: as tall as :func:`per_page`'s cards allow, never taller than
    :data:`ROW`."""
    down = per_page(sets) // 2
    room = (page_height - 2 * MARGIN - (down - 1) * GAP) / down - 0.02 * inch
    fixed = HEAD + TRAVEL + FOOT + sets * 0.2 * inch + (sets - 1) * SET_GAP
    return float(min(ROW, (room - fixed) / (8 * sets)))


def draw_card(
    page: Page,
    x: float,
    y_top: float,
    width: float,
    card: CardData,
    rules: RuleSet,
    title: str,
    row: float = ROW,
) -> None:
    """One card with its top-left corner at (x, y_top)."""
    height = card_height(card, row)
    page.box(x, y_top - height, width, height, width=1.2, radius=6)
    pad = 0.1 * inch
    label = "BUNCO SCORE CARD"
    page.text(x + pad, y_top - 0.22 * inch, label, 10, bold=True)
    page.text(
        x + width - pad,
        y_top - 0.22 * inch,
        title,
        7,
        align="right",
        color=GREY,
        width=width - 2 * pad - text_width(label, 10, bold=True) - 0.12 * inch,
    )
    name_y = y_top - 0.48 * inch
    page.text(x + pad, name_y, "Name:", 10)
    team = has_groups(rules) or bool(card.group)
    team_x = x + width * 0.62 if team else x + width - pad
    if card.player:
        page.text(
            x + pad + 0.5 * inch,
            name_y,
            card.player,
            13,
            bold=True,
            width=team_x - x - pad - 0.6 * inch,
        )
    else:
        page.line(x + pad + 0.5 * inch, name_y - 2, team_x - 0.1 * inch, name_y - 2, width=0.5)
    if team:  # seeds/004: "write your NAME & TEAM NUMBER on your individual score card"
        page.text(team_x, name_y, "Team:", 10)
        if card.group:
            page.text(
                team_x + 0.45 * inch,
                name_y,
                card.group,
                11,
                bold=True,
                width=x + width - pad - team_x - 0.45 * inch,
            )
        else:
            page.line(team_x + 0.45 * inch, name_y - 2, x + width - pad, name_y - 2, width=0.5)
    widths = [width * p - (2 * pad * p) for p in PROPORTIONS]
    y = y_top - HEAD
    for block in card.sets:
        page.text(x + pad, y - 0.14 * inch, f"Set {block.set_no}", 8, bold=True)
        if block.note:  # "* Round 2: partner Cat kept by the host (overriding …)"
            at = x + pad + text_width(f"Set {block.set_no}", 8, bold=True) + 0.12 * inch
            page.text(
                x + width - pad,
                y - 0.14 * inch,
                block.note,
                7,
                align="right",
                width=x + width - pad - at,
            )
        y -= 0.2 * inch
        rows = [headers(rules), *block.rows, block.total]
        y = page.grid(
            x + pad,
            y,
            widths,
            rows,
            row,
            size=8,
            bold_rows=(len(rows) - 1,),
            align=("center",) * len(widths),
        )
        y -= SET_GAP
    foot_y = y_top - height + FOOT + 0.06 * inch
    if has_traveling(rules):
        _draw_traveler(page, x + pad, foot_y, width - 2 * pad, card.traveler)
    elif rules.verify_for_prizes:
        _draw_verified(
            page, x + pad, foot_y, width - 2 * pad, card.verified, plural(rules.mini_label)
        )
    foot = card.night or card.note
    if foot:
        page.text(x + pad, y_top - height + 0.1 * inch, foot, 8, width=width - 2 * pad)


def _draw_traveler(page: Page, x: float, y: float, width: float, mark: str) -> None:
    """The traveling prize's line: a box to tick and what it means."""
    side = 0.14 * inch
    page.box(x, y - 0.02 * inch, side, side, width=0.8)
    if mark:
        page.text(x + side / 2, y + 0.005 * inch, mark, 9, bold=True, align="center")
    page.text(
        x + side + 0.06 * inch,
        y,
        f"Traveling prize: {TRAVEL_TEXT.lower()}",
        8,
        width=width - side - 0.06 * inch,
    )


def _draw_verified(
    page: Page, x: float, y: float, width: float, checker: str, minis: str = "Minis"
) -> None:
    """seeds/004's staff check: a box each for Buncos, Minis (``minis``: the rules' name,
    "Babies" under ``scil``) and Wins, and who checked."""
    side = 0.14 * inch
    page.text(x, y, "Verified:", 8, bold=True)
    at = x + text_width("Verified:", 8, bold=True) + 0.06 * inch
    for what in ("Buncos", minis, "Wins"):
        page.box(at, y - 0.02 * inch, side, side, width=0.8)
        if checker:
            page.text(at + side / 2, y + 0.005 * inch, "✓", 9, bold=True, align="center")
        page.text(at + side + 0.04 * inch, y, what, 8)
        at += side + 0.04 * inch + text_width(what, 8) + 0.08 * inch
    page.text(at, y, "by", 8)
    at += text_width("by", 8) + 0.05 * inch
    if checker:
        page.text(at, y, checker, 8, bold=True, width=x + width - at)
    else:
        page.line(at, y - 2, x + width, y - 2, width=0.5)


def _cut_lines(
    page: Page, x: float, width: float, rows: Sequence[tuple[float, float]], two_across: bool
) -> None:
    """Dashed lines to cut along: between the two columns and between rows of cards."""
    if two_across:
        mid = x + width + GAP / 2
        page.cut_line(mid, rows[0][0] + 0.05 * inch, mid, rows[-1][1] - 0.05 * inch)
    for (_, bottom), (top, _) in itertools.pairwise(rows):
        y = (bottom + top) / 2
        page.cut_line(page.left - 0.3 * inch, y, page.right + 0.3 * inch, y)
    page.text(
        page.left - 0.05 * inch,
        rows[0][0] + 0.08 * inch,
        "✂ cut along the dashed lines",
        6.5,
        color=GREY,
    )


def draw_cards(doc: Doc, cards: Sequence[CardData], rules: RuleSet, title: str) -> None:
    """Two cards across, shared out over portrait pages by :func:`cards_per_page` (the
    caller adds spare cards to fill a page), with cut lines between them."""
    if not cards:
        return
    sets = max(len(c.sets) for c in cards)
    queue = list(cards)
    for count in cards_per_page(len(cards), per_page(sets)):
        page = doc.page()
        page.footer(f"{title} · score cards")
        row = row_height(sets, page.height)
        width = (page.inner_width - GAP) / 2
        x_slots = (page.left, page.left + width + GAP)
        on_page, queue = queue[:count], queue[count:]
        y = page.top
        rows: list[tuple[float, float]] = []
        for k in range(0, len(on_page), 2):
            pair = on_page[k : k + 2]
            for column, card in enumerate(pair):
                draw_card(page, x_slots[column], y, width, card, rules, title, row)
            tallest = max(card_height(card, row) for card in pair)
            rows.append((y, y - tallest))
            y -= tallest + GAP
        _cut_lines(page, page.left, width, rows, len(on_page) > 1)
