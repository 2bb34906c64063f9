"""Late arrivals and early leavers between rounds.

Part of :mod:`bunco.core.seating` (import :func:`reseat` from there).

With ``Fill.GHOSTS`` (``scil``) the party changes as little as possible: joiners
first take ghost seats, a leaver's seat becomes a ghost when that leaves at most one
ghost at the table (only in a party of several tables of four), and further joiners
take those seats. When that does not work, or with ``Fill.INDIVIDUALS``, everyone is
re-laid out to :func:`~bunco.core.seating_layout.table_layout` of the new count,
keeping as many people as possible in their table and seat, then at their table.

>>> from bunco.core.presets import get_rules
>>> reseat((("A", "B", "C", "D"), ("E", "F", "G", None)), get_rules("scil"), join=["H"])
(('A', 'B', 'C', 'D'), ('E', 'F', 'G', 'H'))
>>> reseat((("A", "B", "C", "D"), ("E", "F")), get_rules("classic"), leave=["B"])
(('A', 'D', 'C'), ('E', 'F'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bunco.core.errors import InvalidSetup
from bunco.core.rules import Fill, RuleSet
from bunco.core.seating_layout import (
    MIN_PLAYERS,
    Seat,
    Tables,
    check_name,
    check_structure,
    is_team_table,
    table_layout,
)


def reseat(
    tables: Tables,
    rules: RuleSet,
    *,
    join: Sequence[str] = (),
    leave: Sequence[str] = (),
) -> Tables:
    """The seating after ``join`` arrive and ``leave`` go (between rounds).

    Deterministic. A joiner already seated, a leaver not seated, a name given twice,
    or fewer than two players left raise :class:`InvalidSetup`.
    """
    current = check_structure(tables, rules)
    seated = [seat for table in current for seat in table if seat is not None]
    joiners = _names(join, "join")
    leavers = _names(leave, "leave")
    for name in joiners:
        if name in seated:
            raise InvalidSetup(f"{name!r} is already seated", expected="a new player's name")
    for name in leavers:
        if name not in seated:
            raise InvalidSetup(
                f"{name!r} is not seated, so cannot leave", expected="the name of a seated player"
            )
    remaining = len(seated) - len(leavers) + len(joiners)
    if remaining < MIN_PLAYERS:
        raise InvalidSetup(
            f"only {remaining} player(s) would be left", expected=f"{MIN_PLAYERS} or more players"
        )
    if not joiners and not leavers:
        return current
    if rules.fill is Fill.GHOSTS:
        quick = _ghost_swap(current, rules, joiners, leavers)
        if quick is not None:
            return quick
    return relayout(current, rules, joiners, leavers)


def _names(names: Any, what: str) -> tuple[str, ...]:
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise InvalidSetup(f"{what} must be a list of names, got {names!r}", expected="a list")
    out = tuple(check_name(name, what) for name in names)
    if len(set(out)) != len(out):
        raise InvalidSetup(f"a name appears twice in {what}: {list(out)}", expected="each once")
    return out


def _ghost_swap(
    tables: Tables, rules: RuleSet, joiners: Sequence[str], leavers: Sequence[str]
) -> Tables | None:
    """Joiners into ghost seats, leavers into ghosts; ``None`` when that cannot be done."""
    grid: list[list[Seat]] = [list(table) for table in tables]
    waiting = list(joiners)
    _fill_ghosts(grid, waiting)
    for name in leavers:
        k, s = next((k, t.index(name)) for k, t in enumerate(grid) if name in t)
        table = grid[k]
        if len(grid) == 1 or not is_team_table(len(table), len(grid), rules) or None in table:
            return None
        table[s] = None
    _fill_ghosts(grid, waiting)
    if waiting:
        return None
    for table in grid:
        if table[0] is None and table[2] is not None:
            table[0], table[2] = table[2], None
    return tuple(tuple(table) for table in grid)


def _fill_ghosts(grid: list[list[Seat]], waiting: list[str]) -> None:
    for table in grid:
        for s, seat in enumerate(table):
            if seat is None and waiting:
                table[s] = waiting.pop(0)


def relayout(
    tables: Tables, rules: RuleSet, joiners: Sequence[str], leavers: Sequence[str]
) -> Tables:
    """Seat the new count afresh, moving as few people as possible.

    Everyone whose table and seat still exist keeps them; a ghost seat goes to a seat
    nobody keeps where there is one (never seat 1); people who lost their seat take a
    free seat at their own table, then the remaining free seats in table order, after
    them the joiners.
    """
    gone = set(leavers)
    old = [[None if seat in gone else seat for seat in table] for table in tables]
    layout = table_layout(sum(seat is not None for t in old for seat in t) + len(joiners), rules)
    free = object()
    grid: list[list[Seat | object]] = [[free] * size for size, _ in layout]
    for k, (size, ghosts) in enumerate(layout):
        if ghosts:
            grid[k][_ghost_place(old[k] if k < len(old) else [], size)] = None
    unplaced: list[tuple[str, int]] = []
    for k, table in enumerate(old):
        for s, seat in enumerate(table):
            if seat is None:
                continue
            if k < len(grid) and s < len(grid[k]) and grid[k][s] is free:
                grid[k][s] = seat
            else:
                unplaced.append((seat, k))
    later: list[str] = []
    for name, k in unplaced:
        row = grid[k] if k < len(grid) else []
        spot = next((s for s, v in enumerate(row) if v is free), None)
        if spot is None:
            later.append(name)
        else:
            grid[k][spot] = name
    later.extend(joiners)
    places = iter((k, s) for k, row in enumerate(grid) for s, v in enumerate(row) if v is free)
    for name in later:
        k, s = next(places)
        grid[k][s] = name
    out = tuple(tuple(v if isinstance(v, str) else None for v in row) for row in grid)
    return check_structure(out, rules)


def _ghost_place(old_table: Sequence[Seat], size: int) -> int:
    """Where a table's one ghost sits after a re-layout: an empty seat other than the
    scorekeeper's, the highest first; else the last seat."""
    for s in range(size - 1, 0, -1):
        if s >= len(old_table) or old_table[s] is None:
            return s
    return size - 1
