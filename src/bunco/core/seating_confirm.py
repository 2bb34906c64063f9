"""When a round begins at a table: the head table's bell, or the table's new seating
confirmed (RULES.md §6: players move between rounds at a party of more than one table).

A round after the night's first one begins at a table only once its players have moved:

- the head table's bell to start the round (``start_round``) begins it at every table;
- a table's ``seated`` event (its phone showed who comes and who goes, and someone tapped
  "Everyone is seated") begins it at that table;
- a table that already has an entry this round has begun (a night kept from before this
  rule, or a log replayed, plays on).

The night's first round (set 1, round 1) begins with the night's start: everyone sits as
the start's seating says, and nobody has moved yet. A night of one table needs no
confirmation either: nobody changes tables there. The rule is the same for every preset.

The fold records the facts (:class:`~bunco.core.night.Night`: ``rung_in``,
``seated_tables``, ``unseated``); the server refuses a scoring entry at a table where the
round has not begun (:func:`check_begun`, 409 ``not_seated``; ``seating_changed`` when
the host reseated the room after the table confirmed). A replay of a log applies what the
log holds, as the fold always does.

>>> from bunco.core.night import Night
>>> players = [f"P{i}" for i in range(1, 9)]
>>> night = Night.start({"type": "party", "rules": "classic", "players": players})
>>> night.begun_at(2)  # round 1 begins with the night's start
True
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Protocol

from bunco.core.errors import BuncoError


class Night(Protocol):
    """What these rules read of a night (:class:`bunco.core.night.Night`)."""

    @property
    def phase(self) -> str: ...
    @property
    def tables(self) -> Sized: ...
    @property
    def set_no(self) -> int: ...
    @property
    def round_no(self) -> int: ...
    @property
    def rung_in(self) -> bool: ...
    @property
    def unseated(self) -> frozenset[int]: ...

    def begun_at(self, table: int) -> bool: ...


SEATED_TEXT = "Everyone is seated"
"""The words of the table page's button that confirms a table's new seating."""


class NotSeated(BuncoError):
    """An entry at a table whose round has not begun: its new seating is not confirmed."""

    code = "not_seated"


class SeatingChanged(NotSeated):
    """An entry at a table that confirmed its seating before the host changed it."""

    code = "seating_changed"


def waiting_tables(night: Night) -> tuple[int, ...]:
    """The tables where the round has not begun yet (their players still moving), in order.

    >>> from bunco.core.night import Night
    >>> night = Night.start({"rules": "classic", "players": [f"P{i}" for i in range(1, 9)]})
    >>> waiting_tables(night)
    ()
    """
    if not needs_seating(night):
        return ()
    return tuple(n for n in range(1, len(night.tables) + 1) if not night.begun_at(n))


def needs_seating(night: Night) -> bool:
    """Whether the round in play begins table by table (players moved before it): a round
    after the night's first, at a party of more than one table, before its start bell."""
    return (
        night.phase == "playing"
        and len(night.tables) > 1
        and (night.set_no, night.round_no) != (1, 1)
        and not night.rung_in
    )


def check_begun(night: Night, table: int) -> None:
    """Refuse a scoring entry at ``table`` whose round has not begun there
    (:class:`NotSeated`, or :class:`SeatingChanged` when the host reseated the room
    after the table confirmed its seating)."""
    if not 1 <= table <= len(night.tables) or night.begun_at(table):
        return
    if table in night.unseated:
        raise SeatingChanged(
            f"Table {table}'s seating changed after it was confirmed (the host moved players): "
            f"everyone sits at their new seat, then tap '{SEATED_TEXT}' again",
            expected=f"'{SEATED_TEXT}' at table {table}, or the head table's bell",
        )
    raise NotSeated(
        f"Table {table}'s new seating is not confirmed yet: everyone sits at their new "
        f"seat, then tap '{SEATED_TEXT}'",
        expected=f"'{SEATED_TEXT}' at table {table}, or the head table's bell",
    )
