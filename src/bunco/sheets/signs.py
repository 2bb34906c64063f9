"""Table signs: which table this is and where its winners and losers go next.

The moves are not worked out here: :func:`table_signs` seats placeholder players with
:func:`~bunco.core.seating.first_seating`, plays sample results through
:func:`~bunco.core.seating.next_seating` and reads the destinations back with
:func:`~bunco.core.seating.describe_moves`, so a sign always says what the engine does.

>>> from bunco.core.presets import get_rules
>>> [(s.table, s.winners_to, s.losers_to) for s in table_signs(get_rules("classic"), 12)]
[(1, (1,), (2,)), (2, (1,), (3,)), (3, (2,), (3,))]
>>> [(s.table, s.winners_to, s.losers_to) for s in table_signs(get_rules("wm"), 5)]
[(1, (1,), (2,)), (2, (1,), (1,))]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import inch

from bunco.core.rules import RoundEnd, RuleSet
from bunco.core.seating import (
    Tables,
    describe_moves,
    first_seating,
    ghost_seats,
    is_team_table,
    next_seating,
)
from bunco.sheets.pdfkit import INK, Page, text_width
from bunco.sheets.wording import after_bell_text, head_table_text

MAX_SAMPLES = 64


@dataclass(frozen=True, slots=True)
class TableSign:
    """What one table's sign says."""

    table: int
    tables: int
    seats: int
    ghosts: int
    team: bool
    target: int
    ends_round: bool  # this table's target (its bell) ends the round for everyone
    head: bool  # table 1 of several: the bell is here
    winners_to: tuple[int, ...]
    losers_to: tuple[int, ...]
    first_round: tuple[str | None, ...] | None  # round 1's seats when the names are known


def _options(seating: Tables, rules: RuleSet) -> list[list[frozenset[int]]]:
    n = len(seating)
    out = []
    for seats in seating:
        if is_team_table(len(seats), n, rules):
            out.append([frozenset({0, 2}), frozenset({1, 3})])
        else:
            out.append([frozenset({s}) for s in range(len(seats))])
    return out


def _samples(options: list[list[frozenset[int]]]) -> list[tuple[frozenset[int], ...]]:
    """Every combination of results when there are few; else a spread of them."""
    count = 1
    for opts in options:
        count *= len(opts)
    if count <= MAX_SAMPLES:
        return list(itertools.product(*options))
    widest = max(len(opts) for opts in options)
    out = []
    for shift in range(widest):
        out.append(tuple(opts[shift % len(opts)] for opts in options))
        out.append(tuple(opts[(shift + k) % len(opts)] for k, opts in enumerate(options)))
    return out


def destinations(seating: Tables, rules: RuleSet) -> tuple[list[set[int]], list[set[int]]]:
    """For each table (0-based list), the tables its winners and its losers may go to next."""
    n = len(seating)
    winners_to: list[set[int]] = [set() for _ in range(n)]
    losers_to: list[set[int]] = [set() for _ in range(n)]
    for sample in _samples(_options(seating, rules)):
        after = next_seating(seating, list(sample), rules)
        for move in describe_moves(seating, after):
            won = (move.from_seat - 1) in sample[move.from_table - 1]
            (winners_to if won else losers_to)[move.from_table - 1].add(move.to_table)
    return winners_to, losers_to


def table_signs(
    rules: RuleSet, n_players: int, names: Sequence[str] | None = None
) -> list[TableSign]:
    """One sign per table for ``n_players`` under ``rules``; ``names`` (in seating order)
    put round 1's seats on the signs."""
    known = names is not None and all(names) and len(names) == n_players
    placeholders = (
        list(names) if known and names else [f"Player {i}" for i in range(1, n_players + 1)]
    )
    seating = first_seating(placeholders, rules)
    ghosts = ghost_seats(n_players, rules)
    winners_to, losers_to = destinations(seating, rules)
    n = len(seating)
    signs = []
    for k, seats in enumerate(seating):
        team = is_team_table(len(seats), n, rules)
        signs.append(
            TableSign(
                table=k + 1,
                tables=n,
                seats=len(seats),
                ghosts=ghosts[k],
                team=team,
                target=rules.target(team=team, single_table=n == 1),
                ends_round=n == 1 or (k == 0 and rules.round_end is RoundEnd.HEAD_TABLE),
                head=n > 1 and k == 0,
                winners_to=tuple(sorted(winners_to[k])),
                losers_to=tuple(sorted(losers_to[k])),
                first_round=seats if known else None,
            )
        )
    return signs


def where_text(here: int, tables: Sequence[int]) -> str:
    """``(1,)`` seen from table 2 → "table 1"; the table itself is "this table".

    >>> where_text(2, (1, 2))
    'table 1 or this table'
    """
    names = [("this table" if t == here else f"table {t}") for t in tables]
    if not names:
        return "this table"
    return " or ".join(names)


def _arrow(page: Page, x: float, y: float, length: float, direction: int) -> None:
    """A bold arrow centred in the square of side ``length`` whose left middle is (x, y):
    ``direction`` −1 points up (toward the head table), 1 down, 2 right (either way), 0 a
    circle (stay)."""
    c = page.canvas
    c.saveState()
    c.setFillColorRGB(*INK)
    c.setStrokeColorRGB(*INK)
    c.translate(x + length / 2, y)
    if direction == 0:
        c.setLineWidth(length * 0.09)
        c.circle(0, 0, length * 0.3, stroke=1, fill=0)
        c.restoreState()
        return
    c.rotate({-1: 90, 1: -90}.get(direction, 0))
    half = length * 0.45
    head = length * 0.4
    shaft = length * 0.09
    path = c.beginPath()
    path.moveTo(-half, -shaft)
    path.lineTo(half - head, -shaft)
    path.lineTo(half - head, -head * 0.6)
    path.lineTo(half, 0)
    path.lineTo(half - head, head * 0.6)
    path.lineTo(half - head, shaft)
    path.lineTo(-half, shaft)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


def _direction(here: int, tables: Sequence[int]) -> int:
    if not tables or all(t == here for t in tables):
        return 0
    away = [t for t in tables if t != here]
    if all(t < here for t in away):
        return -1
    return 1 if all(t > here for t in away) else 2


def draw_sign(page: Page, sign: TableSign, rules: RuleSet, title: str) -> None:
    """Draw one sign on a landscape page."""
    mid = page.width / 2
    y = page.poster_title(f"TABLE {sign.table}") - 0.55 * inch
    if sign.head:
        wide = text_width("HEAD TABLE", 28, bold=True)
        page.text(mid + 0.3 * inch, y, "HEAD TABLE", 28, bold=True, align="center")
        page.bell(mid + 0.3 * inch - wide / 2 - 0.35 * inch, y - 0.06 * inch, 0.45 * inch)
        y -= 0.45 * inch
    kind = (
        "Team table: partners sit opposite (seats 1 & 3 against seats 2 & 4)"
        if sign.team
        else f"{sign.seats} players, each for themselves"
    )
    page.text(mid, y, f"{kind} · play to {sign.target}", 16, align="center", width=page.inner_width)
    y -= 0.3 * inch
    if sign.ghosts:
        page.text(
            mid,
            y,
            "This table has a ghost seat: the ghost's partner rolls for both.",
            13,
            align="center",
            width=page.inner_width,
        )
        y -= 0.3 * inch
    y -= 0.35 * inch
    single = not sign.team
    rows = (
        ("Winner" if single else "Winners", sign.winners_to),
        ("Loser" if single and sign.seats == 2 else "Losers", sign.losers_to),
    )
    for who, tables in rows:
        one = not who.endswith("s")
        stays = tables == (sign.table,)
        verb = {
            (True, True): "stays at",
            (True, False): "stay at",
            (False, True): "goes to",
            (False, False): "go to",
        }[(stays, one)]
        left = page.left + 0.3 * inch
        page.text(left, y - 12, f"{who} {verb}", 34, bold=True, width=4.0 * inch)
        _arrow(page, left + 4.2 * inch, y, 1.1 * inch, _direction(sign.table, tables))
        page.text(
            left + 5.5 * inch,
            y - 12,
            where_text(sign.table, tables),
            34,
            bold=True,
            width=page.right - left - 5.5 * inch,
        )
        y -= 1.2 * inch
    notes = []
    if not sign.team:
        notes.append("No partners here: one winner, everyone else loses.")
    elif sign.tables > 1:
        notes.append("Everyone who stays at this table gets a new partner.")
    bell_ends = sign.tables > 1 and rules.round_end is RoundEnd.HEAD_TABLE
    if sign.head:
        notes.append(head_table_text(rules, sign.target, sign.team))
    elif bell_ends:
        notes.append("When the head table rings the bell, the round ends here too.")
    if bell_ends:
        notes.append(after_bell_text(rules))
    if rules.bunco_ends_round:
        notes.append("A Bunco at any table ends the round at once, at every table: call it out!")
    if sign.first_round:
        seats = [s if s is not None else "(ghost)" for s in sign.first_round]
        notes.append("Round 1: " + seats[0] + " (scorekeeper), " + ", ".join(seats[1:]))
    for note in notes:
        page.text(mid, y, note, 16, align="center", width=page.inner_width)
        y -= 0.32 * inch
    page.footer(f"{title} · Bunco · rules: {rules.name} · table {sign.table} of {sign.tables}")
