"""Blank, print-ready sheets for a night that has not been played yet.

:func:`blank_sheets_pdf` prints, in the chosen rule set's words: a score card per player,
a tally page per table and set (Us/Them, or a column per seat at a table of
individuals), the master score sheet (or the host's prize sheet where the rules name no
set winner), a sign per table saying where its winners and losers go, and the
house-rules card (with the night's QR code when a URL is given). Six round cards ("We're
rolling for 3s") hang at the head table; name tags are optional. The last page of score
cards is filled with spare cards for late arrivals.

>>> from bunco.core.presets import get_rules
>>> pdf = blank_sheets_pdf(get_rules("classic"), ["Ann", "Bea", "Cat", "Dee"], qr_url=None)
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bunco.core.errors import InvalidSetup
from bunco.core.rules import RuleSet
from bunco.core.seating import first_seating, is_team_table
from bunco.core.setup import MAX_PLAYERS
from bunco.sheets.cards import CardData, blank_set, draw_cards, per_page, spare_card, spare_count
from bunco.sheets.master import (
    SheetTable,
    draw_sheet_tables,
    has_set_winner,
    master_groups,
    master_headers,
    master_title,
)
from bunco.sheets.nametags import NameTag, draw_name_tags
from bunco.sheets.pdfkit import Doc, Rendered
from bunco.sheets.roundcards import draw_round_card
from bunco.sheets.rulecard import draw_rules_card
from bunco.sheets.signs import draw_sign, table_signs
from bunco.sheets.tallies import TallyBlock, TallyColumn, TallyPage, draw_tally_pages
from bunco.sheets.wording import THEM, US, head_table_text, preset_title, prize_labels

BLANK_LINE = "_" * 28
MAX_SPARES = 48


def check_players(players: Sequence[str]) -> list[str]:
    """The names to print: text, each non-empty name once; an empty name is a blank line."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidSetup(
            f"players must be a list of names, got {players!r}",
            expected="a list of 2 or more names (empty for a blank line)",
        )
    names = [" ".join(str(p).split()) if p is not None else "" for p in players]
    if len(names) < 2:
        raise InvalidSetup(
            f"a party needs at least 2 players, got {len(names)}", expected="2 or more players"
        )
    if len(names) > MAX_PLAYERS:
        raise InvalidSetup(f"{len(names)} players is too many", expected=f"at most {MAX_PLAYERS}")
    seen: set[str] = set()
    for name in names:
        if name and name in seen:
            raise InvalidSetup(f"player {name!r} is listed twice", expected="every name once")
        seen.add(name)
    return names


def _tally_pages(rules: RuleSet, n_players: int, sets: int, title: str) -> list[TallyPage]:
    seating = first_seating([f"P{i}" for i in range(n_players)], rules)
    n = len(seating)
    pages = []
    for set_no in range(1, sets + 1):
        for k, seats in enumerate(seating, start=1):
            team = is_team_table(len(seats), n, rules)
            target = rules.target(team=team, single_table=n == 1)
            if team:
                columns = [TallyColumn(US, "seats 1 & 3"), TallyColumn(THEM, "seats 2 & 4")]
            else:
                columns = [TallyColumn(f"Seat {s}", "name:") for s in range(1, len(seats) + 1)]
            winners = "Winners: " if team else "Winner: "
            blocks = [
                TallyBlock(
                    f"Round {r}: roll {r}s",
                    columns,
                    footer=winners + BLANK_LINE,
                    note=f"play to {target}",
                )
                for r in range(1, 7)
            ]
            head = head_table_text(rules, target, team) if k == 1 and n > 1 else ""
            pages.append(TallyPage(f"Table {k} tally", f"{title} · set {set_no}", blocks, head))
    return pages


def _master_tables(rules: RuleSet, names: list[str], sets: int) -> list[SheetTable]:
    heads, widths = master_headers(rules)
    rows = [(name, *("",) * (len(heads) - 1)) for name in names]
    out = []
    for set_no in range(1, sets + 1):
        after: list[str] = []
        if has_set_winner(rules):
            after = [
                f"Winner of set {set_no}: {BLANK_LINE}",
                "Most W's wins; tied, the most B's among them; still tied, a roll-off to "
                f"{rules.roll_off_target} points.",
            ]
        elif set_no == sets:
            after = [f"{label}: {BLANK_LINE}" for label in prize_labels(rules)]
        out.append(
            SheetTable(
                master_title(rules, set_no),
                rules.name,
                heads,
                widths,
                list(rows),
                after,
                groups=master_groups(rules),
                landscape=not has_set_winner(rules),
            )
        )
    return out


def render_blank(
    rules: RuleSet,
    players: Sequence[str],
    *,
    qr_url: str | None = None,
    sets: int = 1,
    paper: str = "letter",
    title: str | None = None,
    spares: int = 0,
    name_tags: bool = False,
    groups: Mapping[str, Sequence[str]] | None = None,
) -> Rendered:
    """The blank sheets and their page count (see :func:`blank_sheets_pdf`)."""
    names = check_players(players)
    if isinstance(sets, bool) or not isinstance(sets, int) or not 1 <= sets <= 4:
        raise InvalidSetup(f"sets {sets!r} is not allowed", expected="1 to 4 sets")
    if isinstance(spares, bool) or not isinstance(spares, int) or not 0 <= spares <= MAX_SPARES:
        raise InvalidSetup(
            f"spares {spares!r} is not allowed", expected=f"0 to {MAX_SPARES} spare score cards"
        )
    title = title or f"Bunco night ({preset_title(rules)}, {len(names)} players)"
    doc = Doc(paper, title=title)
    known = all(names)
    signs = table_signs(rules, len(names), names if known else None)
    start = {}
    for sign in signs:
        for name in sign.first_round or ():
            if name:
                start[name] = sign.table
    cards = [
        CardData(
            player=name,
            sets=[blank_set(s) for s in range(1, sets + 1)],
            note=f"Round 1: table {start[name]}" if name in start else "",
            group=next((g for g, members in (groups or {}).items() if name in members), ""),
        )
        for name in names
    ]
    cards += [spare_card(sets) for _ in range(spare_count(len(cards), per_page(sets), spares))]
    draw_cards(doc, cards, rules, title)
    draw_tally_pages(doc, _tally_pages(rules, len(names), sets, title), title)
    draw_sheet_tables(doc, _master_tables(rules, names, sets))
    for sign in signs:
        draw_sign(doc.page(turned=True), sign, rules, title)
    for round_no in range(1, 7):
        draw_round_card(doc.page(turned=True), rules, round_no, title)
    draw_rules_card(doc.page(), rules, title, qr_url)
    if name_tags:
        draw_name_tags(
            doc,
            [
                NameTag(name, f"Round 1: table {start[name]}" if name in start else "")
                for name in names
            ],
            title,
        )
    pages = doc.pages
    return Rendered(doc.finish(), pages)


def blank_sheets_pdf(
    rules: RuleSet,
    players: list[str],
    *,
    qr_url: str | None = None,
    sets: int = 1,
    paper: str = "letter",
    title: str | None = None,
    spares: int = 0,
    name_tags: bool = False,
    groups: Mapping[str, Sequence[str]] | None = None,
) -> bytes:
    """Print-ready blank sheets for ``players`` (an empty name prints a line to write on).

    The last page of score cards is filled with spare cards for late arrivals; ``spares``
    asks for at least that many. ``name_tags`` adds a page of name tags per eight players.
    ``groups`` (prize groups) puts each player's team on their card.
    Raises :class:`~bunco.core.errors.InvalidSetup` for fewer than two players, a name
    listed twice, a set count outside 1–4 or a spare count outside 0–48, and
    ``PaperError`` for an unknown paper.
    """
    return render_blank(
        rules,
        players,
        qr_url=qr_url,
        sets=sets,
        paper=paper,
        title=title,
        spares=spares,
        name_tags=name_tags,
        groups=groups,
    ).data
