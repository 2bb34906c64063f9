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
   (409 ``not_your_turn`` if there is none); an entry credited to a player after
   ``passed`` turns (:class:`~bunco.web.commands.Credited`) needs its table playing its
   round and fewer turns passed than the table has rollers (422 ``invalid_request``);
3. the caller's rights (:mod:`bunco.web.rights`, e.g. 403 ``forbidden``, 409
   ``not_your_turn``, 409 ``name_taken``); a drawing picks its winner then (409 when
   nobody may win);
4. where an entry was tapped (:mod:`bunco.web.entry_rules`: 422 ``wrong_table``, 409
   ``round_closed``, ``roller_changed``); an entry tapped during play that arrives after
   the bell, while its table has not moved past it, is accepted *before the bell*: its
   event carries ``before_bell`` (and the roller it was tapped for as ``player``), and the
   fold places it there (:mod:`bunco.core.late_entries`); the acceptance says so
   (``code`` ``before_bell``);
5. the version the command was sent with (``expected_seq``): a table's (or, for a
   command of the whole night, the night's seq); 409 ``stale`` with the events missed
   and who changed the table (``cause``: :func:`stale_cause`);
6. the server's dice, if it rolls, its time (timed rounds, ``now``:
   :func:`bunco.web.timed_rounds.stamped`), and the engine's rules (``Night.apply``): 409 for a
   command that does not fit the night now (``not_your_turn``, ``round_over``,
   ``not_allowed_now``), 422 for a malformed one.

A credited entry writes the misses of the turns passed and then the entry: checks 3 to 5
are made on the first of them (where the entry was tapped is the turn the table showed),
the caller's rights again on each later one (on the night the earlier ones leave), the
entry must then be its player's turn (409 ``not_your_turn``), and if any of them does not
apply, the command is refused whole: nothing of it is written.

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

from dataclasses import replace
from datetime import datetime
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.hosting import drawing_event
from bunco.core.night import Night
from bunco.core.table import Status
from bunco.store import StoredEvent
from bunco.store.events import dump
from bunco.web.commands import (
    Credited,
    Drawing,
    Given,
    Intent,
    Luck,
    MyTurnRoll,
    NightCommand,
    RollForMe,
    ServerLuck,
)
from bunco.web.entry_rules import (
    PLAY_STAGES,
    Applied,
    Decision,
    Entry,
    HeldTable,
    Tapped,
    decide_entry,
)
from bunco.web.held_state import TABLE_EVENTS, HeldState
from bunco.web.replies import ServiceError, envelope_dict, event_table
from bunco.web.rights import Check, not_your_turn
from bunco.web.timed_rounds import stamped

__all__ = [
    "Applied",
    "Decision",
    "Entry",
    "HeldTable",
    "ServerLuck",
    "Tapped",
    "decide",
    "decide_entry",
    "refusal",
    "repeat_of",
    "stale_cause",
    "stored_events",
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
    late = False
    try:
        event = _shape(intent, state, _late_hint(command, state))
        if command.authorize is not None:
            command.authorize(state, event)
        if isinstance(intent, Drawing):
            event = _drawn(intent, event, state, luck)
        table = event_table(event)
        kind = event.get("type")
        if command.tapped is not None and table is not None and kind in TABLE_EVENTS:
            late = _check_entry(command, kind, table, state)
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
        if late:
            event = _before_bell(event, command.tapped, credited=isinstance(intent, Credited))
        if isinstance(intent, Credited):
            steps = _credited(intent, event, state, command.authorize, late=late)
        else:
            after = state.night.apply(event)
            steps = (Applied(after.events[-1], after),)
    except ServiceError as exc:
        return refusal(exc)
    except BuncoError as exc:
        if late and exc.code == "not_your_turn":  # the roller it was tapped for, before the bell
            return Decision(
                "refuse",
                "roller_changed",
                409,
                f"{exc.message}: this entry was tapped for another roller than the one "
                "whose turn it was before the bell",
                "a person's decision: send it to the host or discard it (it is never "
                "credited to another roller)",
                extra={"cause": "roller"},
            )
        return Decision("refuse", exc.code, _status_of(exc), exc.message, exc.expected or "")
    return Decision("accept", "before_bell" if late else "", steps=steps)


def _late_hint(command: NightCommand, state: HeldState) -> bool:
    """Whether ``command`` may be an entry tapped during play at a table whose bell has
    rung since (:func:`_check_entry` decides it): a credited entry then passes its turns
    before the bell too."""
    tapped = command.tapped
    night = state.night
    if tapped is None or tapped.stage not in PLAY_STAGES or night.bell_at is None:
        return False
    return 1 <= tapped.table <= len(night.tables) and night.phase == "playing"


def _before_bell(event: dict[str, Any], tapped: Tapped | None, *, credited: bool) -> dict[str, Any]:
    """An entry tapped before the bell, as the log keeps it: ``before_bell``, and the roller
    the page showed as ``player`` (the fold checks it where the entry is placed; a credited
    entry's misses name nobody: each is whoever's turn it was)."""
    out = {**event, "before_bell": True}
    if not credited and "player" not in out and tapped is not None and tapped.roller:
        out["player"] = tapped.roller
    return out


def stored_events(
    command: NightCommand, decision: Decision, state: HeldState, created: datetime
) -> tuple[StoredEvent, ...]:
    """The events an acceptance stores after ``state``, in order, as the store keeps them:
    the command's id and request go on its last event (a credited entry's misses carry
    none: the entry's id stands for the whole command, stored in the same transaction)."""
    last = len(decision.steps) - 1
    return tuple(
        StoredEvent(
            state.night_id,
            state.seq + 1 + i,
            event_table(step.event),
            command.command_id if i == last else None,
            dump(dict(step.event)),
            created,
            command.caller,
            command.request if i == last else None,
        )
        for i, step in enumerate(decision.steps)
    )


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


def _shape(intent: Intent, state: HeldState, late: bool = False) -> dict[str, Any]:
    """The (first) event ``intent`` writes, before the server's dice or picks (``late``:
    it may be an entry tapped before the bell)."""
    if isinstance(intent, Given | RollForMe):
        return dict(intent.event)
    if isinstance(intent, Credited):
        return _first_miss(intent, state.night, late)
    if isinstance(intent, Drawing):
        return {"type": "drawing"}
    table = next((t for t, p in state.night.expected_rollers() if p == intent.player), "none")
    if table == "none":
        raise not_your_turn(intent.player)
    event: dict[str, Any] = {"type": "roll", "dice": intent.dice, "player": intent.player}
    if table is not None:
        event["table"] = table
    return event


def _first_miss(intent: Credited, night: Night, late: bool = False) -> dict[str, Any]:
    """The miss of the first turn a credited entry passes (its table must be playing its
    round, or, ``late``, have played it before the bell; and fewer turns pass than it has
    rollers: none passes twice)."""
    table, kind = intent.event.get("table"), intent.event.get("type")
    if kind not in ("roll", "tally") or not isinstance(intent.event.get("player"), str):
        raise ServiceError(
            422,
            "invalid_request",
            "an entry credited after turns passed is a roll or tally naming its player",
            "dice or outcome, and player: who rolled it",
        )
    in_play = (
        isinstance(table, int)
        and night.phase == "playing"
        and 1 <= table <= len(night.tables)
        and (late or night.tables[table - 1].status is Status.PLAYING)
    )
    if not in_play:
        raise ServiceError(
            409,
            "not_allowed_now",
            f"turns can pass only while table {table} plays its round (not while rolling "
            "for who starts, after the bell, in a tie-break or between rounds)",
            "the entry without passed, for the roller whose turn it is",
        )
    assert isinstance(table, int)
    rollers = len(night.tables[table - 1].seats)
    if not 1 <= intent.passed < rollers:
        raise ServiceError(
            422,
            "invalid_request",
            f"passed {intent.passed} turns at table {table}, whose {rollers} rollers each "
            "roll once in a rotation",
            f"passed from 1 to {rollers - 1}: the turns from the roller now to the player credited",
        )
    return {"type": "tally", "table": table, "outcome": "miss"}


def _credited(
    intent: Credited,
    first: dict[str, Any],
    state: HeldState,
    authorize: Check | None,
    *,
    late: bool = False,
) -> tuple[Applied, ...]:
    """The misses of the turns a credited entry passes, then the entry, each applied on
    the night the ones before leave (and its rights checked there); refused whole if any
    of them does not apply. ``late``: all of them before the bell, the entry's player
    checked where it is placed."""
    night, steps = state.night, []
    for turn in range(intent.passed):
        if turn and authorize is not None:
            authorize(replace(state, night=night), first)
        try:
            night = night.apply(first)
        except BuncoError as exc:
            raise ServiceError(
                _status_of(exc),
                exc.code,
                f"the miss of turn {turn + 1} of the {intent.passed} passed: {exc.message}",
                exc.expected,
            ) from None
        steps.append(Applied(night.events[-1], night))
    table = first["table"]
    player = intent.event.get("player")
    entry = {**intent.event, "before_bell": True} if late else intent.event
    current = night.tables[table - 1] if night.phase == "playing" else None
    roller = current.roller if current is not None else None
    if late:
        roller = player  # the fold checks it before the bell (NotYourTurn otherwise)
    if roller != player:
        misses = f"{intent.passed} miss{'es' if intent.passed > 1 else ''}"
        now = f"it is {roller}'s turn" if roller else "nobody rolls there any more"
        raise ServiceError(
            409,
            "not_your_turn",
            f"after {misses} at table {table}, {now}, not {player}'s",
            "passed: the turns from the roller now to the player credited",
        )
    if authorize is not None:
        authorize(replace(state, night=night), entry)
    night = night.apply(entry)
    return (*steps, Applied(night.events[-1], night))


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


def _check_entry(command: NightCommand, kind: Any, table: int, state: HeldState) -> bool:
    """The rules of where an entry was tapped (:mod:`bunco.web.entry_rules`); whether it
    goes before the bell."""
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
            **dict(decision.extra or {}),
        )
    return decision.code == "before_bell"


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
    cause, by = stale_cause(missed, table)
    named: dict[str, Any] = {} if by is None else {"by_caller": by}
    raise ServiceError(
        409,
        "stale",
        f"{where} changed since you last looked: {_CAUSE_WORDS[cause]} "
        f"({len(missed)} event(s) you have not seen)",
        f"expected_seq {current} after looking at the missed events",
        current_seq=current,
        missed=[envelope_dict(e) for e in missed],
        cause=cause,
        **named,
    )


_RESEATING = frozenset({"substitute", "join", "leave", "seat", "end_night"})
_CAUSE_WORDS = {
    "undone": "an entry there was undone",
    "reseated": "the room was reseated",
    "other_phone": "another phone entered something there first",
    "changed": "it changed",
}


def stale_cause(missed: list[StoredEvent], table: int | None) -> tuple[str, str | None]:
    """Why a table's version moved past a command's: ``undone`` (an undo there), ``reseated``
    (the host changed the seating: a substitute, an arrival, a departure, a seating by
    hand), ``other_phone`` (another caller's entry there came first), else ``changed``;
    and the caller (its token's hash prefix) who did it, for the route to name.

    >>> from datetime import datetime
    >>> undo = StoredEvent("n", 9, 2, "c", '{"type":"undo","table":2}', datetime.now(), "ab")
    >>> stale_cause([undo], 2)
    ('undone', 'ab')
    """

    def first(cause: str) -> StoredEvent | None:
        for e in missed:
            kind = e.event.get("type")
            if cause == "undone" and e.table == table and kind == "undo":
                return e
            if cause == "reseated" and e.table is None and kind in _RESEATING:
                return e
            if cause == "other_phone" and e.table == table and kind in ("roll", "tally"):
                return e
        return None

    for cause in ("undone", "reseated", "other_phone"):
        found = first(cause)
        if found is not None:
            return cause, found.caller or None
    return "changed", None


def _status_of(exc: BuncoError) -> int:
    """409 for a command that does not fit the night now; 422 for a malformed one."""
    if exc.code in ("not_your_turn", "round_over", "not_allowed_now"):
        return 409
    return 422
