"""May this caller send this event now: the rights checked when a command is decided.

Each check is a pure function of the held night's frozen state (the night before the
command, :class:`~bunco.web.decision.frozen_state.HeldState`) and what the command asks
(:class:`~bunco.web.decision.frozen_state.Asked`: the event's type and table): it raises a
:class:`~bunco.web.decision.refusals.Refused` when the caller may not (``forbidden``; a
roll out of turn: ``conflict``, ``not_your_turn``), and returns otherwise.
The route makes one for its caller (who is asking is known once the token is read);
:func:`bunco.web.decision.decide.decide` runs it in the command's turn, under the night's lock.
Who may call a route at all is :func:`bunco.web.api.access.require`.
"""

from __future__ import annotations

from collections.abc import Callable

from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.core.undo import undo_effect
from bunco.web.decision.frozen_state import TABLE_EVENTS, Asked, HeldState
from bunco.web.decision.refusals import Refused
from bunco.web.gate.principal import Principal

Check = Callable[[HeldState, Asked], None]
"""A check of rights: the state before the command and what it asks; raises
:class:`~bunco.web.decision.refusals.Refused`."""


def table_writer(who: Principal, table: int | None) -> Check:
    """The check of a roll, tally or undo at ``table`` by ``who``.

    The host may write anywhere. A table's scorekeeper writes at its own table only. A
    player may roll (not tally or undo) when it is their own turn, at a table or in a
    roll-off. Viewers write nothing.
    """

    def check(state: HeldState, asked: Asked) -> None:
        if who.role == "host":
            return
        if asked.kind not in TABLE_EVENTS:
            raise Refused(
                "forbidden",
                "forbidden",
                f"{who.describe()} may not send a {asked.kind!r} event",
                "the host's token",
            )
        if who.role == "table":
            if table is None or table != who.table:
                where = "a roll-off" if table is None else f"table {table}"
                raise Refused(
                    "forbidden",
                    "forbidden",
                    f"this phone scores table {who.table}, not {where}",
                    f"entries at table {who.table} only",
                )
            return
        if who.role == "player":
            if asked.kind != "roll":
                raise Refused(
                    "forbidden",
                    "forbidden",
                    "a player may only roll their own dice",
                    "dice or roll_for_me on your turn",
                )
            if not is_turn_of(state.night, table, who.player):
                raise not_your_turn(who.player, table)
            return
        raise Refused(
            "forbidden",
            "forbidden",
            f"{who.describe()} may not write",
            "a host, table or player token",
        )

    return check


def not_your_turn(player: str | None, table: int | None = None) -> Refused:
    """The refusal of a roll out of ``player``'s turn (at ``table``)."""
    return Refused(
        "conflict",
        "not_your_turn",
        f"it is not {player}'s turn" + ("" if table is None else f" at table {table}"),
        "your roll when the night shows it is your turn",
    )


def is_turn_of(night: Night, table: int | None, player: str | None) -> bool:
    """Whether ``player`` may roll now at ``table`` (``None``: in the roll-off)."""
    if table is None:
        return (None, player) in night.expected_rollers()
    if night.phase != "playing" or not 1 <= table <= len(night.tables):
        return False
    return night.tables[table - 1].roller == player


def host_only(who: Principal) -> Check:
    """The check of a command of the whole night (host only)."""

    def check(_state: HeldState, asked: Asked) -> None:
        if who.role != "host":
            raise Refused(
                "forbidden",
                "forbidden",
                f"{who.describe()} may not send a {asked.kind!r} event",
                "the host's token",
            )

    return check


def host_or_head_table(who: Principal) -> Check:
    """The check of the starting bell: the host, or the head table's (table 1's) scorekeeper."""

    def check(_state: HeldState, _asked: Asked) -> None:
        if who.role == "table" and who.table != 1:
            raise Refused(
                "forbidden",
                "forbidden",
                f"this phone scores table {who.table}; the "
                "head table rings the bell to start a round",
                "the host's or table 1's scorekeeper's token",
            )

    return check


def seating_writer(who: Principal, table: int) -> Check:
    """The check of a table's confirmed seating (``seated``): the host, that table's
    scorekeeper, or a player seated there (online play: :mod:`bunco.core.seating_confirm`)."""

    def check(state: HeldState, _asked: Asked) -> None:
        if who.role == "player":
            tables = state.night.tables
            if not 1 <= table <= len(tables) or who.player not in tables[table - 1].seats:
                raise Refused(
                    "forbidden",
                    "forbidden",
                    f"{who.player} does not sit at table {table} this round",
                    "the seating of your own table only",
                )
            return
        if who.role == "table" and who.table != table:
            raise Refused(
                "forbidden",
                "forbidden",
                f"this phone scores table {who.table}, not table {table}",
                f"the seating of table {who.table} only",
            )

    return check


def undo_writer(who: Principal, table: int) -> Check:
    """The check of an undo at ``table``: :func:`table_writer`, and a table's phone may
    undo only its own table's entries of the round in play. An undo that would reopen a
    finished round, cancel the bell for the room or change another table is the host's
    (``forbidden``, saying to ask the host)."""
    writer = table_writer(who, table)

    def check(state: HeldState, asked: Asked) -> None:
        writer(state, asked)
        if who.role == "host":
            return
        try:
            effect = undo_effect(state.night, table)
        except BuncoError:
            return  # nothing to undo here: the engine says so when it applies the undo
        if effect.host_only:
            more = "; ".join(effect.consequences())
            raise Refused(
                "forbidden",
                "forbidden",
                f"only the host can undo {effect.what()}: {more}",
                "ask the host to undo it on the host page (it asks first and names what "
                "it reopens), or a correcting entry at this table",
            )

    return check


def own_turn(who: Principal) -> Check:
    """The check of a player's roll wherever it is their turn: it is their turn there."""

    def check(state: HeldState, asked: Asked) -> None:
        if not is_turn_of(state.night, asked.table, who.player):
            raise not_your_turn(who.player)

    return check
