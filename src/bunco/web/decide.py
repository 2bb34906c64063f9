"""The server's one decision about a command: :func:`decide`.

A typed command (:class:`~bunco.web.commands.NightCommand`), a frozen state of the held
night (:class:`~bunco.web.held_state.HeldState`) and the dice (:class:`~bunco.web.commands.Luck`)
in; a :class:`Decision` out: *accept* (with the event as the engine normalized it and the
night after it), *repeat* (the command id was used before: the event it stored) or
*refuse* (the status, code, reason and what is expected instead). No I/O, no clock, no
lock: the command path (:mod:`bunco.web.command_path`) builds the state under the
night's lock, decides each command of a batch on the state the batch leaves, stores what
was accepted and answers.

The checks, in order (the first that fails is the reason):

1. the command id: the same caller's id seen before is a repeat, answered with the first
   reply; with another request it is refused (409 ``id_reused``);
2. what the command writes: a player's roll "wherever it is my turn" finds that turn
   (409 ``not_your_turn`` if there is none);
3. the caller's rights (:mod:`bunco.web.rights`, e.g. 403 ``forbidden``, 409
   ``not_your_turn``, 409 ``name_taken``); a drawing picks its winner then (409 when
   nobody may win);
4. where an entry was tapped (:mod:`bunco.web.entry_rules`: 422 ``wrong_table``, 409
   ``round_closed``, ``roller_changed``);
5. the version the command was sent with (``expected_seq``): a table's (or, for a
   command of the whole night, the night's seq); 409 ``stale`` with the events missed;
6. the server's dice, if it rolls, its time (timed rounds, ``now``:
   :func:`bunco.web.timed_rounds.stamped`), and the engine's rules (``Night.apply``): 409 for a
   command that does not fit the night now (``not_your_turn``, ``round_over``,
   ``not_allowed_now``), 422 for a malformed one.

>>> import json, datetime
>>> from bunco.core.night import Night
>>> from bunco.store import StoredEvent
>>> from bunco.web.commands import NightCommand
>>> from bunco.web.held_state import started
>>> setup = {"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]}
>>> first = StoredEvent("n1", 0, None, None, json.dumps(setup), datetime.datetime.now())
>>> state = started("n1", Night.start(setup), first)
>>> roll = {"type": "roll", "table": 1, "dice": [1, 2, 3]}
>>> decide(NightCommand.of(roll, command_id="c1"), state, ServerLuck()).verdict
'accept'
>>> decide(NightCommand.of(roll, command_id="c2", expected_seq=5), state, ServerLuck()).code
'stale'
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.hosting import drawing_event
from bunco.store import StoredEvent
from bunco.web.commands import (
    Drawing,
    Given,
    Intent,
    Luck,
    MyTurnRoll,
    NightCommand,
    RollForMe,
    ServerLuck,
)
from bunco.web.entry_rules import Decision, Entry, HeldTable, Tapped, decide_entry
from bunco.web.held_state import TABLE_EVENTS, HeldState
from bunco.web.replies import ServiceError, envelope_dict, event_table
from bunco.web.rights import not_your_turn
from bunco.web.timed_rounds import stamped

__all__ = [
    "Decision",
    "Entry",
    "HeldTable",
    "ServerLuck",
    "Tapped",
    "decide",
    "decide_entry",
    "refusal",
    "repeat_of",
]


def decide(
    command: NightCommand, state: HeldState, luck: Luck, now: datetime | None = None
) -> Decision:
    """Accept, repeat or refuse ``command`` on the night ``state``, with ``luck`` for the
    server's dice and picks and ``now`` for its time (see the module's docstring for the
    checks, in order)."""
    seen = state.known(command.caller, command.command_id)
    if seen is not None:
        return repeat_of(command, seen)
    intent = command.intent
    try:
        event = _shape(intent, state)
        if command.authorize is not None:
            command.authorize(state, event)
        if isinstance(intent, Drawing):
            event = _drawn(intent, event, state, luck)
        table = event_table(event)
        kind = event.get("type")
        if command.tapped is not None and table is not None and kind in TABLE_EVENTS:
            _check_entry(command, kind, table, state)
        if command.expected_seq is not None:
            _check_version(
                state,
                table,
                command.expected_seq,
                night_wide=kind not in TABLE_EVENTS and table is None,
            )
        if isinstance(intent, RollForMe) or (
            isinstance(intent, MyTurnRoll) and intent.dice is None
        ):
            event = {**event, "dice": luck.dice()}
        if now is not None:
            event = stamped(event, state.night, now)
        after = state.night.apply(event)
    except ServiceError as exc:
        return refusal(exc)
    except BuncoError as exc:
        return Decision("refuse", exc.code, _status_of(exc), exc.message, exc.expected or "")
    return Decision("accept", event=after.events[-1], after=after)


def repeat_of(command: NightCommand, stored: StoredEvent) -> Decision:
    """The decision about a command whose id stored ``stored`` before: a repeat if the
    request is the same (or either is not known), else 409 ``id_reused``."""
    if (
        stored.request_hash is not None
        and command.request is not None
        and stored.request_hash != command.request
    ):
        return Decision(
            "refuse",
            "id_reused",
            409,
            f"command id {stored.command_id!r} was already used "
            f"for another request (event {stored.seq})",
            "a new command_id for each new "
            "command (the same one only to retry the very same request)",
            extra={"seq": stored.seq},
            stored=stored,
        )
    return Decision("repeat", repeats=stored.seq, stored=stored)


def refusal(error: ServiceError) -> Decision:
    """The decision refusing with ``error``."""
    return Decision(
        "refuse", error.code, error.status, error.message, error.expected or "", extra=error.extra
    )


def as_error(decision: Decision) -> ServiceError:
    """The :class:`ServiceError` a refusal answers."""
    return ServiceError(
        decision.status,
        decision.code,
        decision.reason,
        decision.expected or None,
        **dict(decision.extra or {}),
    )


def _shape(intent: Intent, state: HeldState) -> dict[str, Any]:
    """The event ``intent`` writes, before the server's dice or picks."""
    if isinstance(intent, Given | RollForMe):
        return dict(intent.event)
    if isinstance(intent, Drawing):
        return {"type": "drawing"}
    table = next((t for t, p in state.night.expected_rollers() if p == intent.player), "none")
    if table == "none":
        raise not_your_turn(intent.player)
    event: dict[str, Any] = {"type": "roll", "dice": intent.dice, "player": intent.player}
    if table is not None:
        event["table"] = table
    return event


def _drawn(intent: Drawing, event: dict[str, Any], state: HeldState, luck: Luck) -> dict[str, Any]:
    try:
        return {
            **event,
            **drawing_event(
                state.night, luck.below, exclude_winners=intent.exclude_winners, name=intent.name
            ),
        }
    except BuncoError as exc:
        raise ServiceError(409, exc.code, exc.message, exc.expected) from None


def _check_entry(command: NightCommand, kind: Any, table: int, state: HeldState) -> None:
    """The rules of where an entry was tapped (:mod:`bunco.web.entry_rules`)."""
    assert command.tapped is not None
    held = HeldTable.of(state.night, table, state.version(table), state.seq)
    decision = decide_entry(Entry(kind, table, command.tapped, command.expected_seq), held)
    if decision.code == "stale" and command.expected_seq is not None:
        # the refusal with the events the entry missed
        _check_version(state, table, command.expected_seq, night_wide=False)
    if decision.refused:
        raise ServiceError(
            decision.status,
            decision.code,
            decision.reason,
            decision.expected,
            tapped=command.tapped.as_dict(),
            now=held.where(),
        )


def _check_version(state: HeldState, table: int | None, expected: int, *, night_wide: bool) -> None:
    """Refuse as ``stale`` a command sent with another version than its table's (the
    night's seq for a command of the whole night), listing the events it missed."""
    seq = state.seq
    current = seq if night_wide else state.version(table)
    if expected == current:
        return
    if expected > seq or expected < 0:
        raise ServiceError(
            409,
            "stale",
            f"expected_seq {expected} is not a version of this night (its last event is {seq})",
            f"expected_seq {current}, the seq of the last event you saw here",
            current_seq=current,
            missed=[],
        )
    events = state.since(expected)
    missed = events if night_wide else [e for e in events if e.table is None or e.table == table]
    where = "the night" if table is None else f"table {table}"
    raise ServiceError(
        409,
        "stale",
        f"{where} changed since you last looked: {len(missed)} event(s) you have not seen",
        f"expected_seq {current} after looking at the missed events",
        current_seq=current,
        missed=[envelope_dict(e) for e in missed],
    )


def _status_of(exc: BuncoError) -> int:
    """409 for a command that does not fit the night now; 422 for a malformed one."""
    if exc.code in ("not_your_turn", "round_over", "not_allowed_now"):
        return 409
    return 422
