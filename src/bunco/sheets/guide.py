"""Seating guide cards: one printed card per table of the night as it stands, to put on
the table before a round starts.

A card says which table it is and who sits where this round (seat by seat, with the
partners at a table of four, and a ghost's seat as such), where the table's winners and
losers go next by the rules, and for the later rounds, whose seating depends on the
results, a QR code to the players' page ("pick your name: your next table and seat show
after each round"). With a single table nobody changes table and the seats turn by a
fixed rule, so its card lists every round left in the set instead.

>>> from bunco.core.night import Night
>>> night = Night.start({"players": ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"],
...                      "rules": "classic"})
>>> [(g.table, g.seats[0].player, g.partners) for g in table_guides(night)]
[(1, 'Ann', ('Ann & Cat', 'Bea & Dee')), (2, 'Eve', ('Eve & Gus', 'Fay & Hal'))]
>>> table_guides(night)[1].winners_to, table_guides(night)[1].losers_to
('table 1', 'this table')
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import inch

from bunco.core.night import Night
from bunco.core.rules import RuleSet
from bunco.core.seating import Seat, Tables, is_team_table, next_seating
from bunco.sheets.pdfkit import GREY, LIGHT, Doc, Page
from bunco.sheets.rulecard import draw_qr
from bunco.sheets.signs import destinations, where_text
from bunco.sheets.wording import preset_title

ROUNDS = 6
QR_SIZE = 1.9 * inch
CARDS_PER_PAGE = 2


class GuideError(ValueError):
    """No guide can be printed for the night as it stands."""


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of a card: its number (1-based) and who sits there (``None``: a ghost)."""

    seat: int
    player: str | None


@dataclass(frozen=True, slots=True)
class RoundSeats:
    """A later round whose seating is known already (a single table): its seats."""

    round_no: int
    seats: tuple[SeatLine, ...]


@dataclass(frozen=True, slots=True)
class TableGuide:
    """What one table's card says."""

    table: int
    tables: int
    set_no: int
    round_no: int
    team: bool
    seats: tuple[SeatLine, ...]
    partners: tuple[str, ...]  # "Ann & Cat" per team at a table of four, else empty
    winners_to: str  # "table 1", "this table", or "" with a single table
    losers_to: str
    later: tuple[RoundSeats, ...]  # the rounds after this one whose seating is known


def seat_text(line: SeatLine) -> str:
    """``Seat 1 · Ann (keeps score)``; a ghost's seat says its partner rolls for it.

    >>> seat_text(SeatLine(4, None))
    'Seat 4 · ghost (the partner rolls for it)'
    """
    who = line.player if line.player is not None else "ghost (the partner rolls for it)"
    keeper = " (keeps score)" if line.seat == 1 and line.player is not None else ""
    return f"Seat {line.seat} · {who}{keeper}"


def _lines(seats: tuple[Seat, ...]) -> tuple[SeatLine, ...]:
    return tuple(SeatLine(k + 1, name) for k, name in enumerate(seats))


def _partners(seats: tuple[Seat, ...], team: bool) -> tuple[str, ...]:
    if not team:
        return ()
    name = [s if s is not None else "a ghost" for s in seats]
    return (f"{name[0]} & {name[2]}", f"{name[1]} & {name[3]}")


def _winners(seating: Tables, rules: RuleSet, first: bool) -> list[frozenset[int]]:
    """One possible result of every table (the first or the last side wins)."""
    n = len(seating)
    out = []
    for seats in seating:
        if is_team_table(len(seats), n, rules):
            out.append(frozenset({0, 2}) if first else frozenset({1, 3}))
        else:
            out.append(frozenset({0 if first else len(seats) - 1}))
    return out


def later_seatings(seating: Tables, rules: RuleSet, round_no: int) -> list[Tables]:
    """The seatings of the rounds after ``round_no`` in the set that do not depend on who
    wins: with one table the seats turn by a fixed rule; with several, winners and losers
    change tables, so none is known.

    >>> from bunco.core.presets import get_rules
    >>> later_seatings((("Ann", "Bea", "Cat", "Dee"),), get_rules("classic"), 4)
    [(('Ann', 'Cat', 'Dee', 'Bea'),), (('Ann', 'Dee', 'Bea', 'Cat'),)]
    """
    out: list[Tables] = []
    if len(seating) != 1:
        return out
    for _ in range(round_no, ROUNDS):
        one = next_seating(seating, _winners(seating, rules, True), rules)
        other = next_seating(seating, _winners(seating, rules, False), rules)
        if one != other:  # the rule looks at the result after all: stop at what is known
            break
        out.append(one)
        seating = one
    return out


def table_guides(night: Night) -> list[TableGuide]:
    """A guide per table of the night's current (or next) round; raises
    :class:`GuideError` when the night is over."""
    if night.phase == "over":
        raise GuideError("the night is over: nobody sits anywhere any more")
    seating = night.seating
    rules = night.rules
    n = len(seating)
    winners, losers = destinations(seating, rules) if n > 1 else ([], [])
    later = later_seatings(seating, rules, night.round_no)
    guides = []
    for k, seats in enumerate(seating):
        team = is_team_table(len(seats), n, rules)
        guides.append(
            TableGuide(
                table=k + 1,
                tables=n,
                set_no=night.set_no,
                round_no=night.round_no,
                team=team,
                seats=_lines(seats),
                partners=_partners(seats, team),
                winners_to=where_text(k + 1, sorted(winners[k])) if n > 1 else "",
                losers_to=where_text(k + 1, sorted(losers[k])) if n > 1 else "",
                later=tuple(
                    RoundSeats(night.round_no + j + 1, _lines(s[k])) for j, s in enumerate(later)
                ),
            )
        )
    return guides


def _title(guide: TableGuide) -> str:
    if guide.tables == 1:
        return "Your table"
    head = " · head table" if guide.table == 1 else ""
    return f"Table {guide.table} of {guide.tables}{head}"


def _round_label(guide: TableGuide, sets: int) -> str:
    where = (
        f"Set {guide.set_no} · round {guide.round_no}" if sets > 1 else f"Round {guide.round_no}"
    )
    return f"{where}: who sits where"


QR_FORM = "guide-qr"
"""The name of the QR code drawn once per document and placed on every card."""


def define_qr(page: Page, qr_url: str) -> None:
    """Draw the QR code of ``qr_url`` once, as a form every card places (a 250-table night's
    cards would otherwise repeat its few hundred squares 250 times)."""
    c = page.canvas
    c.beginForm(QR_FORM, lowerx=0, lowery=0, upperx=QR_SIZE, uppery=QR_SIZE)
    draw_qr(page, 0, 0, QR_SIZE, qr_url)
    c.endForm()


def draw_guide(
    page: Page, guide: TableGuide, top: float, height: float, label: str, sets: int
) -> None:
    """One card in the band of ``height`` below ``top`` (its QR code the form
    :func:`define_qr` drew); ``label`` goes small in its corner."""
    left = page.left
    width = page.inner_width
    bottom = top - height
    page.box(left, bottom + 6, width, height - 12, width=1.4, radius=10)
    pad = 0.25 * inch
    x = left + pad
    y = top - pad - 28
    page.text(x, y, _title(guide), 30, bold=True, width=width - 2 * pad)
    y -= 26
    page.text(x, y, _round_label(guide, sets), 15, width=width - 2 * pad)
    y -= 8
    text_w = width - 2 * pad - QR_SIZE - 0.25 * inch
    for line in guide.seats:
        y -= 27
        page.box(x, y - 7, text_w, 25, width=0.4, fill=LIGHT if line.seat % 2 else None)
        page.text(x + 6, y, seat_text(line), 18, bold=line.seat == 1, width=text_w - 12)
    y -= 10
    if guide.partners:
        said = f"Partners sit opposite: {guide.partners[0]} against {guide.partners[1]}."
    else:
        said = "Each player plays for themselves at this table."
    if guide.winners_to:
        said += (
            f" Next round the winners go to {guide.winners_to}, the losers to {guide.losers_to}."
        )
    y = page.paragraph(x, y - 14, said, text_w, 14)
    for later in guide.later:
        seats = ", ".join(
            f"{s.seat} {s.player if s.player is not None else 'ghost'}" for s in later.seats
        )
        page.text(x, y, f"Round {later.round_no}: seats {seats}", 14, width=text_w)
        y -= 18
    qr_x = left + width - pad - QR_SIZE
    qr_y = bottom + 6 + pad + 30
    page.canvas.saveState()
    page.canvas.translate(qr_x, qr_y)
    page.canvas.doForm(QR_FORM)
    page.canvas.restoreState()
    page.text(
        qr_x + QR_SIZE / 2,
        qr_y - 16,
        "Scan, pick your name:",
        13,
        align="center",
        width=QR_SIZE + 40,
    )
    page.text(
        qr_x + QR_SIZE / 2,
        qr_y - 31,
        "where you go next" if guide.tables > 1 else "your score card",
        13,
        bold=True,
        align="center",
        width=QR_SIZE + 40,
    )
    if guide.tables > 1:
        page.paragraph(
            x,
            max(y - 4, bottom + 6 + pad + 18),
            "Later rounds depend on who wins: after each round your phone shows your next "
            "table and seat.",
            text_w,
            13,
        )
    page.text(
        left + width - pad, top - pad - 12, label, 9, align="right", color=GREY, width=2.5 * inch
    )


def guide_cards_pdf(night: Night, qr_url: str, *, paper: str = "letter") -> bytes:
    """The night's seating guide cards, two to a page with a line to cut along; ``qr_url``
    is the players' page the QR codes open. Raises :class:`GuideError` when the night is
    over."""
    guides = table_guides(night)
    title = f"Bunco · {preset_title(night.rules)}"
    doc = Doc(paper, title=f"{title}: seating guide cards")
    page: Page | None = None
    for k, guide in enumerate(guides):
        slot = k % CARDS_PER_PAGE
        if slot == 0:
            page = doc.page()
            if k == 0:
                define_qr(page, qr_url)
        assert page is not None
        band = (page.height - 2 * page.left) / CARDS_PER_PAGE
        top = page.top - slot * band
        draw_guide(page, guide, top, band, title, night.sets)
        if slot == 0 and k + 1 < len(guides):
            page.cut_line(0, top - band, page.width, top - band)
        if slot == CARDS_PER_PAGE - 1 or k + 1 == len(guides):
            page.footer(f"{title} · seating guide · round {guide.round_no}")
    return doc.finish()
