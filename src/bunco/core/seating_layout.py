"""Table layouts: the seating types, seats per table, ghost seats, and structural checks.

Part of :mod:`bunco.core.seating` (import the public names from there). A seating is a
tuple of tables, table 1 (the head table) first; each table lists its seats clockwise
starting with the scorekeeper. ``None`` is a ghost seat. At a team table of four the
partners sit opposite: seats 0 and 2, seats 1 and 3.

>>> from bunco.core.presets import get_rules
>>> table_sizes(9, get_rules("winning-moves"))
(4, 3, 2)
>>> table_sizes(9, get_rules("scil")), ghost_seats(9, get_rules("scil"))
((4, 4, 4), (1, 1, 1))
>>> table_sizes(5, get_rules("scil"))
(3, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

from bunco.core.errors import InvalidSetup
from bunco.core.rules import Fill, RuleSet

Seat: TypeAlias = str | None
"""A player's name, or ``None`` for a ghost seat (only with ``Fill.GHOSTS``)."""

Tables: TypeAlias = tuple[tuple[Seat, ...], ...]
"""A seating: table 1 first; each table's seats clockwise from its scorekeeper."""

MIN_PLAYERS = 2
TABLE_SEATS = (2, 3, 4)


def table_layout(n_players: int, rules: RuleSet) -> tuple[tuple[int, int], ...]:
    """``(seats, ghosts)`` for each table of a party of ``n_players``.

    2 or 3 players sit at one individual table and 4 at one table of four. Larger
    parties get as many tables of four as possible; the remainder is seated as
    RULES.md §6 says: with ``Fill.INDIVIDUALS`` a table of 2 (N % 4 == 2), a table
    of 3 (N % 4 == 3), or one table of four replaced by 3 + 2 (N % 4 == 1); with
    ``Fill.GHOSTS`` every table has four seats and the gaps are ghosts, one per
    table at the last tables, unless that needs more ghosts than tables (only 5
    players), when the individual layout is used.

    >>> from bunco.core.presets import get_rules
    >>> table_layout(7, get_rules("scil"))
    ((4, 0), (4, 1))
    >>> table_layout(13, get_rules("classic"))
    ((4, 0), (4, 0), (3, 0), (2, 0))
    """
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise InvalidSetup(
            f"the number of players must be a whole number, got {n_players!r}",
            expected=f"{MIN_PLAYERS} or more players",
        )
    if n_players < MIN_PLAYERS:
        raise InvalidSetup(
            f"a party needs at least {MIN_PLAYERS} players, got {n_players}",
            expected=f"{MIN_PLAYERS} or more players",
        )
    if n_players <= 4:
        return ((n_players, 0),)
    if rules.fill is Fill.GHOSTS:
        n_tables = -(-n_players // 4)
        ghosts = 4 * n_tables - n_players
        if ghosts <= n_tables:
            return tuple((4, 1 if k >= n_tables - ghosts else 0) for k in range(n_tables))
    fours, rest = divmod(n_players, 4)
    if rest == 0:
        return ((4, 0),) * fours
    if rest == 1:
        return ((4, 0),) * (fours - 1) + ((3, 0), (2, 0))
    return ((4, 0),) * fours + ((rest, 0),)


def table_sizes(n_players: int, rules: RuleSet) -> tuple[int, ...]:
    """Seats per table (ghost seats counted) for ``n_players``; see :func:`table_layout`.

    >>> from bunco.core.presets import get_rules
    >>> [table_sizes(n, get_rules("classic")) for n in (2, 3, 4, 5, 6, 7, 8)]
    [(2,), (3,), (4,), (3, 2), (4, 2), (4, 3), (4, 4)]
    """
    return tuple(seats for seats, _ in table_layout(n_players, rules))


def ghost_seats(n_players: int, rules: RuleSet) -> tuple[int, ...]:
    """How many ghost seats each table has when ``n_players`` are first seated.

    >>> from bunco.core.presets import get_rules
    >>> ghost_seats(10, get_rules("scil"))
    (0, 1, 1)
    """
    return tuple(ghosts for _, ghosts in table_layout(n_players, rules))


def is_team_table(size: int, n_tables: int, rules: RuleSet) -> bool:
    """Whether a table of ``size`` seats in a party of ``n_tables`` plays as two teams.

    >>> from bunco.core.presets import get_rules
    >>> is_team_table(4, 1, get_rules("classic")), is_team_table(4, 1, get_rules("winning-moves"))
    (True, False)
    >>> is_team_table(3, 2, get_rules("classic"))
    False
    """
    return size == 4 and (n_tables > 1 or rules.single_table_teams)


def partner_seat(seat: int) -> int:
    """The seat opposite ``seat`` at a table of four: 0 ↔ 2, 1 ↔ 3."""
    return (seat + 2) % 4


def check_name(name: Any, where: str) -> str:
    """A player's name: non-empty text, else :class:`InvalidSetup`."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidSetup(
            f"{where}: {name!r} is not a player's name", expected="a non-empty name as text"
        )
    return name


def check_players(players: Any) -> tuple[str, ...]:
    """A list of distinct player names, at least two."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidSetup(
            f"players must be a list of names, got {players!r}",
            expected=f"a list of {MIN_PLAYERS} or more distinct names",
        )
    names = tuple(check_name(p, f"player {i + 1}") for i, p in enumerate(players))
    _no_duplicates(names, "the player list")
    if len(names) < MIN_PLAYERS:
        raise InvalidSetup(
            f"a party needs at least {MIN_PLAYERS} players, got {len(names)}",
            expected=f"{MIN_PLAYERS} or more players",
        )
    return names


def _no_duplicates(names: Sequence[str], where: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise InvalidSetup(f"{name!r} appears twice in {where}", expected="each name once")
        seen.add(name)


def check_structure(tables: Any, rules: RuleSet) -> Tables:
    """The shape of a seating, whoever made it; returns it as tuples.

    Checks: at least one table; each table a list of 2 to 4 seats; each seat a name or
    ``None``; no name twice; ghosts only with ``Fill.GHOSTS``, only when every table is
    a team table of four, and never two ghosts as partners (opposite each other).
    """
    if isinstance(tables, (str, bytes)) or not isinstance(tables, Sequence) or not tables:
        raise InvalidSetup(
            f"a seating must be a non-empty list of tables, got {tables!r}",
            expected="a list of tables, each a list of 2 to 4 seats (names, or null for a ghost)",
        )
    out: list[tuple[Seat, ...]] = []
    for k, table in enumerate(tables, start=1):
        if isinstance(table, (str, bytes)) or not isinstance(table, Sequence):
            raise InvalidSetup(
                f"table {k} must be a list of seats, got {table!r}",
                expected="a list of 2 to 4 seats (names, or null for a ghost)",
            )
        if len(table) not in TABLE_SEATS:
            raise InvalidSetup(
                f"table {k} has {len(table)} seats", expected="2, 3 or 4 seats at every table"
            )
        out.append(
            tuple(
                None if seat is None else check_name(seat, f"table {k} seat {s}")
                for s, seat in enumerate(table, start=1)
            )
        )
    _no_duplicates([seat for table in out for seat in table if seat is not None], "the seating")
    _check_ghosts(out, rules)
    return tuple(out)


def _check_ghosts(tables: Sequence[tuple[Seat, ...]], rules: RuleSet) -> None:
    ghost_tables = [k for k, table in enumerate(tables, start=1) if None in table]
    if not ghost_tables:
        return
    first = ghost_tables[0]
    if rules.fill is not Fill.GHOSTS:
        raise InvalidSetup(
            f"table {first} has a ghost seat (null), but these rules seat individuals",
            expected="a name in every seat, or the house rule fill=ghosts",
        )
    for k, table in enumerate(tables, start=1):
        if not is_team_table(len(table), len(tables), rules):
            raise InvalidSetup(
                f"table {k} has {len(table)} seats and does not play in teams, "
                f"so ghost seats (table {first}) cannot be used",
                expected="every table a team table of four when any seat is a ghost",
            )
        for seat in (0, 1):
            if table[seat] is None and table[partner_seat(seat)] is None:
                raise InvalidSetup(
                    f"table {k}: the ghosts in seats {seat + 1} and {seat + 3} would be partners",
                    expected="at most one ghost in each partnership (seats 1&3, 2&4)",
                )
