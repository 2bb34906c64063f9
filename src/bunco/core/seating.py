"""Seating and movement for any number of players (RULES.md §2 and §6).

Pure functions over plain tuples: no randomness (shuffle the player list before
calling), no I/O. The work is split over sibling modules; import everything from here.

- :func:`table_sizes`, :func:`ghost_seats`, :func:`is_team_table` — the layout
  (:mod:`bunco.core.seating_layout`).
- :func:`first_seating`, :func:`validate_seating` — the first round's seating.
- :func:`next_seating` — who moves where after a round (:mod:`bunco.core.seating_moves`).
- :func:`describe_moves` — the moves between two seatings, for people to read.
- :func:`reseat` — late arrivals and leavers (:mod:`bunco.core.seating_reseat`).

See docs/seating.md for the rules chosen where RULES.md leaves a gap.

>>> from bunco.core.presets import get_rules
>>> rules = get_rules("classic")
>>> tables = first_seating([f"P{i}" for i in range(1, 9)], rules)
>>> tables
(('P1', 'P2', 'P3', 'P4'), ('P5', 'P6', 'P7', 'P8'))
>>> after = next_seating(tables, [frozenset({0, 2}), frozenset({1, 3})], rules)
>>> after
(('P1', 'P3', 'P6', 'P8'), ('P5', 'P7', 'P2', 'P4'))
>>> describe_moves(tables, after)[1]
Move(player='P2', from_table=1, from_seat=2, to_table=2, to_seat=3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typing_extensions import TypedDict

from bunco.core.errors import InvalidSetup
from bunco.core.rules import RuleSet
from bunco.core.seating_layout import (
    Seat,
    Tables,
    check_players,
    check_structure,
    ghost_seats,
    is_team_table,
    table_layout,
    table_sizes,
)
from bunco.core.seating_moves import next_seating
from bunco.core.seating_reseat import reseat

__all__ = [
    "Move",
    "Seat",
    "Tables",
    "describe_moves",
    "first_seating",
    "ghost_seats",
    "is_team_table",
    "next_seating",
    "reseat",
    "table_layout",
    "table_sizes",
    "validate_seating",
]


class MoveView(TypedDict):
    """Where one player sat and where they sit next, as JSON (:meth:`Move.as_dict`)."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


@dataclass(frozen=True, slots=True)
class Move:
    """Where one player sat and where they sit next (1-based table and seat)."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int

    @property
    def changes_table(self) -> bool:
        return self.from_table != self.to_table

    def as_dict(self) -> MoveView:
        return {
            "player": self.player,
            "from_table": self.from_table,
            "from_seat": self.from_seat,
            "to_table": self.to_table,
            "to_seat": self.to_seat,
        }


def first_seating(players: Sequence[str], rules: RuleSet) -> Tables:
    """Seat the players in the order given: table 1 seats 1–4, then table 2, …

    A table with a ghost (``Fill.GHOSTS``) gets its ghost in the last seat, so the
    scorekeeper is a person and ghosts are never partners (one per table).

    >>> from bunco.core.presets import get_rules
    >>> first_seating(["A", "B", "C", "D", "E", "F", "G"], get_rules("scil"))
    (('A', 'B', 'C', 'D'), ('E', 'F', 'G', None))
    >>> first_seating(["A", "B", "C", "D", "E"], get_rules("winning-moves"))
    (('A', 'B', 'C'), ('D', 'E'))
    """
    names = check_players(players)
    out: list[tuple[Seat, ...]] = []
    start = 0
    for size, ghosts in table_layout(len(names), rules):
        real = size - ghosts
        out.append(names[start : start + real] + (None,) * ghosts)
        start += real
    return tuple(out)


def validate_seating(
    tables: Sequence[Sequence[Seat]], players: Sequence[str], rules: RuleSet
) -> Tables:
    """A seating given by a host, checked against the player list; returns it as tuples.

    Every player exactly once, no unknown names, 2–4 seats at each table; ghosts
    (``None``) only with ``Fill.GHOSTS``, only when every table is a team table of four,
    and never two ghosts as partners. Anything else raises :class:`InvalidSetup`.

    >>> from bunco.core.presets import get_rules
    >>> validate_seating([["B", "A"]], ["A", "B"], get_rules("classic"))
    (('B', 'A'),)
    >>> validate_seating([["A", "B", "Zed"]], ["A", "B", "C"], get_rules("classic"))
    Traceback (most recent call last):
    ...
    bunco.core.errors.InvalidSetup: table 1 seat 3: 'Zed' is not one of the players; \
expected each of the 3 players exactly once (missing: 'C')
    """
    names = check_players(players)
    seating = check_structure(tables, rules)
    known = set(names)
    seated = {seat for table in seating for seat in table if seat is not None}
    missing = [name for name in names if name not in seated]
    missing_text = f" (missing: {', '.join(repr(m) for m in missing[:10])})" if missing else ""
    expected = f"each of the {len(names)} players exactly once{missing_text}"
    for k, table in enumerate(seating, start=1):
        for s, seat in enumerate(table, start=1):
            if seat is not None and seat not in known:
                raise InvalidSetup(
                    f"table {k} seat {s}: {seat!r} is not one of the players", expected=expected
                )
    if missing:
        raise InvalidSetup(
            f"{len(missing)} player(s) have no seat: {', '.join(repr(m) for m in missing[:10])}",
            expected=expected,
        )
    return seating


def describe_moves(old: Tables, new: Tables) -> list[Move]:
    """One :class:`Move` per real player, in the seat order of ``old``.

    >>> describe_moves((("A", "B"),), (("B", "A"),))
    [Move(player='A', from_table=1, from_seat=1, to_table=1, to_seat=2), \
Move(player='B', from_table=1, from_seat=2, to_table=1, to_seat=1)]
    """
    where: dict[str, tuple[int, int]] = {}
    for k, table in enumerate(new, start=1):
        for s, seat in enumerate(table, start=1):
            if seat is not None:
                where[seat] = (k, s)
    moves: list[Move] = []
    for k, table in enumerate(old, start=1):
        for s, seat in enumerate(table, start=1):
            if seat is None:
                continue
            if seat not in where:
                raise InvalidSetup(
                    f"{seat!r} sits at table {k} but has no seat in the new seating",
                    expected="the same players in both seatings",
                )
            to_table, to_seat = where.pop(seat)
            moves.append(Move(seat, k, s, to_table, to_seat))
    if where:
        raise InvalidSetup(
            f"{sorted(where)[0]!r} has a seat in the new seating but not in the old",
            expected="the same players in both seatings",
        )
    return moves
