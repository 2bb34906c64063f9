"""Moving between rounds (RULES.md §6): who goes to which table, and who sits where.

Part of :mod:`bunco.core.seating` (import :func:`next_seating` from there). The steps:

1. Every seat's occupant (a ghost too: it wins and loses with its partner) gets the
   table the movement rule sends it to (:func:`destination`).
2. If the tables are uneven (tables of two or three), the counts may not fit the
   tables: ``LOSERS_ROTATE`` moves the surplus staying winners on, clockwise, to the
   nearest table that is short (this is exactly the 5–11 player table of RULES.md §6);
   ``UP_DOWN`` and ``HEAD_LOSERS_TO_LAST`` rank everyone by destination (winners before
   losers) and fill the tables in that order, so whoever is cut off moves one table
   further in the direction the rule sends them, or stays.
3. At each table of four the partners are chosen among the three possible pairings:
   no two ghosts together, everyone who stays gets a new partner, and with
   ``no_repeat_partners`` nobody keeps this round's partner. At most one pairing
   breaks those rules (plus one more for two ghosts), so one is always left. Among
   the allowed seatings: no ghost as scorekeeper (seat 1), as many stayers in their
   old seats as possible, then the first in a fixed order (stayers by seat, then
   arrivals by table and seat) in the lowest seat.

A game of one table never changes tables: a team table rotates seats 2–4 so the three
pairings come up in turn; an individual table keeps its seats.

>>> from bunco.core.presets import get_rules
>>> rules = get_rules("winning-moves")
>>> next_seating((("A", "B", "C"), ("D", "E")), [frozenset({0}), frozenset({1})], rules)
(('A', 'D', 'E'), ('B', 'C'))
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bunco.core.errors import InvalidSetup
from bunco.core.rules import Movement, RuleSet
from bunco.core.seating_layout import Seat, Tables, check_structure, is_team_table, partner_seat

GhostKey = tuple[int, int]
"""A ghost's identity during one move: the (table, seat) it sat in this round."""


@dataclass(frozen=True, slots=True)
class Occupant:
    """Whoever sits in one seat this round, with the round's result."""

    key: str | GhostKey
    table: int
    seat: int
    won: bool

    @property
    def name(self) -> Seat:
        return self.key if isinstance(self.key, str) else None


PERMUTATIONS_OF_FOUR = tuple(itertools.permutations(range(4)))


def next_seating(tables: Tables, winners: Sequence[frozenset[int]], rules: RuleSet) -> Tables:
    """The seating of the next round, given this round's winning seats at each table.

    ``winners[k]`` holds the winning seat indexes (0-based) at table ``k + 1``: a partner
    pair ({0, 2} or {1, 3}) at a team table, one seat at an individual table. Every
    table keeps its number of seats. Raises :class:`InvalidSetup` for a malformed
    seating or winners that do not fit it.
    """
    current = check_structure(tables, rules)
    won = check_winners(current, winners, rules)
    if len(current) == 1:
        return (rotate_single_table(current[0], rules),)
    occupants = [
        Occupant(seat if seat is not None else (k, s), k, s, s in won[k])
        for k, table in enumerate(current)
        for s, seat in enumerate(table)
    ]
    sizes = [len(table) for table in current]
    groups = assign_tables(occupants, sizes, rules.movement)
    partners = previous_partners(current, occupants, rules)
    return tuple(
        arrange_table(k, group, sizes[k], len(sizes), partners, rules)
        for k, group in enumerate(groups)
    )


def check_winners(
    tables: Tables, winners: Sequence[Iterable[int]], rules: RuleSet
) -> list[frozenset[int]]:
    """The winning seats of each table as sets, checked against the seating."""
    if isinstance(winners, (str, bytes)) or not isinstance(winners, Sequence):
        raise InvalidSetup(
            f"winners must be a list with one set of seats per table, got {winners!r}",
            expected=f"{len(tables)} sets of winning seats",
        )
    if len(winners) != len(tables):
        raise InvalidSetup(
            f"winners given for {len(winners)} tables, but the seating has {len(tables)}",
            expected=f"one set of winning seats for each of the {len(tables)} tables",
        )
    out: list[frozenset[int]] = []
    for k, (table, seats) in enumerate(zip(tables, winners, strict=True), start=1):
        won = _seat_set(seats, k)
        if is_team_table(len(table), len(tables), rules):
            if won not in (frozenset({0, 2}), frozenset({1, 3})):
                raise InvalidSetup(
                    f"table {k} plays in teams, winning seats {sorted(won)} are not partners",
                    expected="the seats of one partnership: {0, 2} or {1, 3}",
                )
        elif len(won) != 1 or not 0 <= next(iter(won)) < len(table):
            raise InvalidSetup(
                f"table {k} plays as individuals, winning seats {sorted(won)}",
                expected=f"one seat from 0 to {len(table) - 1}",
            )
        out.append(won)
    return out


def _seat_set(seats: Any, table: int) -> frozenset[int]:
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise InvalidSetup(
            f"winners at table {table} must be a set of seat numbers, got {seats!r}",
            expected="a set of 0-based seat indexes",
        )
    items = list(seats)
    if any(isinstance(s, bool) or not isinstance(s, int) for s in items):
        raise InvalidSetup(
            f"winners at table {table} must be seat indexes, got {items!r}",
            expected="whole numbers from 0 to 3",
        )
    return frozenset(items)


def rotate_single_table(table: tuple[Seat, ...], rules: RuleSet) -> tuple[Seat, ...]:
    """The next round at a one-table game: nobody changes table.

    A team table keeps its scorekeeper and rotates seats 2–4 one place, so the three
    pairings come up in turn (twice if that would pair two ghosts). An individual
    table keeps its seats.

    >>> from bunco.core.presets import get_rules
    >>> rotate_single_table(("A", "B", "C", "D"), get_rules("classic"))
    ('A', 'C', 'D', 'B')
    """
    if not is_team_table(len(table), 1, rules):
        return table
    out = (table[0], table[2], table[3], table[1])
    if (out[0] is None and out[2] is None) or (out[1] is None and out[3] is None):
        out = (out[0], out[2], out[3], out[1])
    return out


def destination(occ: Occupant, n_tables: int, movement: Movement) -> int:
    """The table (0-based) the movement rule sends an occupant to.

    >>> destination(Occupant("A", 2, 0, False), 3, Movement.LOSERS_ROTATE)
    0
    """
    k, last = occ.table, n_tables - 1
    if movement is Movement.LOSERS_ROTATE:
        return k if occ.won else (k + 1) % n_tables
    if occ.won:
        return max(k - 1, 0)
    if movement is Movement.UP_DOWN:
        return min(k + 1, last)
    return last if k == 0 else k


def assign_tables(
    occupants: Sequence[Occupant], sizes: Sequence[int], movement: Movement
) -> list[list[Occupant]]:
    """Who sits at which table next round: the movement rule, then rebalancing."""
    n = len(sizes)
    if movement is not Movement.LOSERS_ROTATE:
        ranked = sorted(
            occupants,
            key=lambda o: (destination(o, n, movement), not o.won, o.table, o.seat),
        )
        out: list[list[Occupant]] = []
        start = 0
        for size in sizes:
            out.append(ranked[start : start + size])
            start += size
        return out
    groups: list[list[Occupant]] = [[] for _ in sizes]
    for occ in occupants:
        groups[destination(occ, n, movement)].append(occ)
    for k in range(n):
        while len(groups[k]) > sizes[k]:
            mover = _surplus_mover(groups[k], k)
            groups[k].remove(mover)
            target = next(j % n for j in range(k + 1, k + n) if len(groups[j % n]) < sizes[j % n])
            groups[target].append(mover)
    return groups


def _surplus_mover(group: Sequence[Occupant], table: int) -> Occupant:
    """Who moves on from a table with too many: a staying winner (highest seat first),
    else the last to arrive."""
    stayers = [o for o in group if o.table == table and o.won]
    if stayers:
        return max(stayers, key=lambda o: o.seat)
    return group[-1]


def previous_partners(
    tables: Tables, occupants: Sequence[Occupant], rules: RuleSet
) -> dict[str | GhostKey, str | GhostKey]:
    """Each occupant's partner this round (only at team tables)."""
    by_place = {(o.table, o.seat): o.key for o in occupants}
    out: dict[str | GhostKey, str | GhostKey] = {}
    for k, table in enumerate(tables):
        if is_team_table(len(table), len(tables), rules):
            for s in range(4):
                out[by_place[(k, s)]] = by_place[(k, partner_seat(s))]
    return out


def arrange_table(
    k: int,
    group: Sequence[Occupant],
    size: int,
    n_tables: int,
    partners: dict[str | GhostKey, str | GhostKey],
    rules: RuleSet,
) -> tuple[Seat, ...]:
    """The seats of table ``k`` for the people assigned to it (see the module doc)."""
    stayers = sorted((o for o in group if o.table == k), key=lambda o: o.seat)
    arrivals = sorted((o for o in group if o.table != k), key=lambda o: (o.table, o.seat))
    order = stayers + arrivals
    if not is_team_table(size, n_tables, rules):
        seats: list[Occupant | None] = [None] * size
        for occ in stayers:
            seats[occ.seat] = occ
        free = iter(s for s in range(size) if seats[s] is None)
        for occ in arrivals:
            seats[next(free)] = occ
        return tuple(occ.name for occ in seats if occ is not None)
    best = min(
        PERMUTATIONS_OF_FOUR,
        key=lambda perm: _seating_key(perm, order, k, partners, rules),
    )
    return tuple(order[i].name for i in best)


def _breaks_rule(
    a: Occupant,
    b: Occupant,
    k: int,
    partners: dict[str | GhostKey, str | GhostKey],
    rules: RuleSet,
) -> bool:
    """Whether partnering ``a`` and ``b`` at table ``k`` breaks a partner rule."""
    if a.name is None and b.name is None:
        return True
    if partners.get(a.key) != b.key:
        return False
    return rules.no_repeat_partners or (a.table == k and b.table == k)


def _seating_key(
    perm: tuple[int, ...],
    order: Sequence[Occupant],
    k: int,
    partners: dict[str | GhostKey, str | GhostKey],
    rules: RuleSet,
) -> tuple[int, int, int, tuple[int, ...]]:
    seated = [order[i] for i in perm]
    broken = sum(
        _breaks_rule(a, b, k, partners, rules)
        for a, b in ((seated[0], seated[2]), (seated[1], seated[3]))
    )
    kept = sum(1 for s, occ in enumerate(seated) if occ.table == k and occ.seat == s)
    return (broken, int(seated[0].name is None), -kept, perm)
