"""The server's one decision about a command: :func:`decide`.

A typed command (:class:`~bunco.web.decision.commands.NightCommand`), a frozen state of the held
night (:class:`~bunco.web.decision.frozen_state.HeldState`) and the dice (:class:`~bunco.web.decision.commands.Luck`)
in; a :class:`Decision` out: *accept* (with the event as the engine normalized it and the
night after it), *repeat* (the command id was used before: the event it stored) or
*refuse* (the kind of refusal, the code, the reason and what is expected instead). No
I/O, no clock, no lock, no HTTP and no database: the command path
(:mod:`bunco.web.night.command_path`) builds the state under the night's lock, decides
each command of a batch on the state the batch leaves, stores what was accepted and
answers; it is the one place a refusal's kind becomes an HTTP status
(:data:`~bunco.web.night.command_path.STATUS_OF_KIND`: ``forbidden`` 403, ``conflict``
409, ``invalid`` 422, ``missing`` 404).

The checks, in order (the first that fails is the reason; each refusal's kind, then its
code, :mod:`bunco.web.decision.refusals`):

1. the command id: the same caller's id seen before is a repeat, answered with the first
   reply; with another request it is refused (``conflict``, ``id_reused``);
2. what the command writes: a player's roll "wherever it is my turn" finds that turn
   (``conflict``, ``not_your_turn`` if there is none); an entry credited to a player after
   ``passed`` turns (:class:`~bunco.web.decision.commands.Credited`) needs its table playing its
   round (``conflict``, ``not_allowed_now``) and fewer turns passed than the table has
   rollers (``invalid``, ``invalid_request``);
3. the caller's rights (:mod:`bunco.web.decision.rights`, e.g. ``forbidden``; ``conflict``:
   ``not_your_turn``, ``name_taken``); a drawing picks its winner then (``conflict`` when
   nobody may win);
4. where an entry was tapped (:mod:`bunco.web.decision.entry_rules`: ``invalid``,
   ``wrong_table``; ``conflict``: ``round_closed``, ``roller_changed``); an entry tapped
   during play that arrives after the bell, while its table has not moved past it, is
   accepted *before the bell*: its event carries ``before_bell`` (and the roller it was
   tapped for as ``player``), and the fold places it there (:mod:`bunco.core.late_entries`);
   the acceptance says so (``code`` ``before_bell``);
5. the version the command was sent with (``expected_seq``): a table's (or, for a
   command of the whole night, the night's seq); ``conflict``, ``stale``, with the events
   missed and who changed the table (``cause``: :func:`stale_cause`); then whether the
   round has begun at the entry's table (:mod:`bunco.core.seating_confirm`: ``conflict``,
   ``not_seated`` before the table's new seating is confirmed or the head table's bell,
   ``seating_changed`` when the host reseated the room after the table confirmed);
6. the server's dice, if it rolls, its time (timed rounds, ``now``:
   :func:`bunco.web.decision.timed_rounds.stamped`), and the engine's rules
   (``Night.apply``): a ``conflict`` for a command that does not fit the night now
   (``not_your_turn``, ``round_over``, ``not_allowed_now``), ``invalid`` for a malformed
   one.

A credited entry writes the misses of the turns passed and then the entry: checks 3 to 5
are made on the first of them (where the entry was tapped is the turn the table showed),
the caller's rights again on each later one (on the night the earlier ones leave), the
entry must then be its player's turn (``conflict``, ``not_your_turn``), and if any of them
does not apply, the command is refused whole: nothing of it is written.

>>> import json, datetime
>>> from bunco.core.night import Night
>>> from bunco.core.stored_event import StoredEvent
>>> from bunco.web.decision.commands import NightCommand
>>> from bunco.web.decision.frozen_state import started
>>> setup = {"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]}
>>> first = StoredEvent("n1", 0, None, None, json.dumps(setup), datetime.datetime.now())
>>> state = started("n1", Night.start(setup), first)
>>> roll = {"type": "roll", "table": 1, "dice": [1, 2, 3]}
>>> decide(NightCommand.of(roll, command_id="c1"), state, ServerLuck()).verdict
'accept'
>>> stale = decide(NightCommand.of(roll, command_id="c2", expected_seq=5), state, ServerLuck())
>>> stale.verdict, stale.kind, stale.code
('refuse', 'conflict', 'stale')
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Literal

from bunco.core.errors import BuncoError
from bunco.core.events import Event, RollEvent, ScoringEvent, TallyEvent
from bunco.core.host_events import DrawingEvent
from bunco.core.hosting import drawing_event
from bunco.core.night import Night
from bunco.core.seating_confirm import check_begun
from bunco.core.stored_event import StoredEvent
from bunco.core.table import Status
from bunco.web.decision.commands import (
    Credited,
    Drawing,
    Given,
    Intent,
    Luck,
    NightCommand,
    RollForMe,
    ServerLuck,
)
from bunco.web.decision.entry_rules import (
    PLAY_STAGES,
    Applied,
    Decision,
    Entry,
    HeldTable,
    Tapped,
    decide_entry,
)
from bunco.web.decision.frozen_state import (
    TABLE_EVENTS,
    Asked,
    DicelessRoll,
    HeldState,
    with_dice,
)
from bunco.web.decision.refusals import RefusalExtra, Refused, engine_kind, missed_event
from bunco.web.decision.rights import Check, not_your_turn
from bunco.web.decision.timed_rounds import stamped

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
        shaped = _shape(intent, state, _late_hint(command, state))
        asked = Asked("drawing") if shaped is None else Asked.of(shaped)
        if command.authorize is not None:
            command.authorize(state, asked)
        if isinstance(intent, Drawing):
            shaped = _drawn(intent, state, luck)
        assert shaped is not None
        table, kind = asked.table, asked.kind
        if command.tapped is not None and table is not None and kind in TABLE_EVENTS:
            late = _check_entry(command, kind, table, state)
        if command.expected_seq is not None:
            _check_version(
                state,
                table,
                command.expected_seq,
                night_wide=kind not in TABLE_EVENTS and table is None,
            )
        if table is not None and kind in ("roll", "tally") and not late:
            check_begun(state.night, table)  # bunco.core.seating_confirm: not_seated
        event = _with_dice(shaped, luck)
        if now is not None:
            event = stamped(event, state.night, now)
        if late:
            event = _before_bell(event, command.tapped, credited=isinstance(intent, Credited))
        if isinstance(intent, Credited):
            assert event["type"] == "tally"  # the first miss (_first_miss)
            steps = _credited(intent, event, state, command.authorize, late=late)
        else:
            after = state.night.apply(event)
            steps = (Applied(after.events[-1], after),)
    except Refused as exc:
        return refusal(exc)
    except BuncoError as exc:
        if late and exc.code == "not_your_turn":  # the roller it was tapped for, before the bell
            return Decision(
                "refuse",
                "roller_changed",
                "conflict",
                f"{exc.message}: this entry was tapped for another roller than the one "
                "whose turn it was before the bell",
                "a person's decision: send it to the host or discard it (it is never "
                "credited to another roller)",
                extra={"cause": "roller"},
            )
        return refusal(Refused.of_engine(exc))
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


def _with_dice(shaped: Event | DicelessRoll, luck: Luck) -> Event:
    """The event ``shaped``, a roll the server rolls with the dice it draws."""
    if shaped["type"] != "roll" or "dice" in shaped:
        return shaped
    return with_dice(shaped, luck.dice())


def _before_bell(event: Event, tapped: Tapped | None, *, credited: bool) -> Event:
    """An entry tapped before the bell, as the log keeps it: ``before_bell``, and the roller
    the page showed as ``player`` (the fold checks it where the entry is placed; a credited
    entry's misses name nobody: each is whoever's turn it was)."""
    if event["type"] not in ("roll", "tally"):
        return event  # only entries are tapped before the bell (the entry rules' check)
    out = scored(event)
    out["before_bell"] = True
    if not credited and "player" not in out and tapped is not None and tapped.roller:
        out["player"] = tapped.roller
    return out


def scored(event: ScoringEvent) -> ScoringEvent:
    """A copy of the scoring ``event`` (a roll or a tally), to change."""
    return event.copy()


def repeat_of(command: NightCommand, stored: StoredEvent) -> Decision:
    """The decision about a command whose id stored ``stored`` before: a repeat if the
    request is the same (or either is not known), else refused (``conflict``,
    ``id_reused``)."""
    if (
        stored.request_hash is not None
        and command.request is not None
        and stored.request_hash != command.request
    ):
        return Decision(
            "refuse",
            "id_reused",
            "conflict",
            f"command id {stored.command_id!r} was already used "
            f"for another request (event {stored.seq})",
            "a new command_id for each new "
            "command (the same one only to retry the very same request)",
            extra={"seq": stored.seq},
            stored=stored,
        )
    return Decision("repeat", repeats=stored.seq, stored=stored)


def refusal(error: Refused) -> Decision:
    """The decision refusing with ``error``."""
    return Decision(
        "refuse", error.code, error.kind, error.message, error.expected, extra=error.extra
    )


def _shape(intent: Intent, state: HeldState, late: bool = False) -> Event | DicelessRoll | None:
    """The (first) event ``intent`` writes, before the server's dice or picks (``late``:
    it may be an entry tapped before the bell); ``None`` for a drawing, which the server
    draws once the rights allow it."""
    if isinstance(intent, Given | RollForMe):
        return intent.event.copy()
    if isinstance(intent, Credited):
        return _first_miss(intent, state.night, late)
    if isinstance(intent, Drawing):
        return None
    turns = (t for t, p in state.night.expected_rollers() if p == intent.player)
    table: int | Literal["none"] | None = next(turns, "none")
    if table == "none":
        raise not_your_turn(intent.player)
    if intent.dice is None:
        asked: DicelessRoll = {"type": "roll", "player": intent.player}
        if table is not None:
            asked["table"] = table
        return asked
    event: RollEvent = {"type": "roll", "dice": intent.dice, "player": intent.player}
    if table is not None:
        event["table"] = table
    return event


def _first_miss(intent: Credited, night: Night, late: bool = False) -> TallyEvent:
    """The miss of the first turn a credited entry passes (its table must be playing its
    round, or, ``late``, have played it before the bell; and fewer turns pass than it has
    rollers: none passes twice)."""
    table, kind = intent.event.get("table"), intent.event["type"]
    if kind not in ("roll", "tally") or not isinstance(intent.event.get("player"), str):
        raise Refused(
            "invalid",
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
        raise Refused(
            "conflict",
            "not_allowed_now",
            f"turns can pass only while table {table} plays its round (not while rolling "
            "for who starts, after the bell, in a tie-break or between rounds)",
            "the entry without passed, for the roller whose turn it is",
        )
    assert isinstance(table, int)
    rollers = len(night.tables[table - 1].seats)
    if not 1 <= intent.passed < rollers:
        raise Refused(
            "invalid",
            "invalid_request",
            f"passed {intent.passed} turns at table {table}, whose {rollers} rollers each "
            "roll once in a rotation",
            f"passed from 1 to {rollers - 1}: the turns from the roller now to the player credited",
        )
    return {"type": "tally", "table": table, "outcome": "miss"}


def _credited(
    intent: Credited,
    first: TallyEvent,
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
            authorize(replace(state, night=night), Asked.of(first))
        try:
            night = night.apply(first)
        except BuncoError as exc:
            raise Refused(
                engine_kind(exc),
                exc.code,
                f"the miss of turn {turn + 1} of the {intent.passed} passed: {exc.message}",
                exc.expected or "",
            ) from None
        steps.append(Applied(night.events[-1], night))
    table = first["table"]
    player = intent.event.get("player")
    entry = scored(intent.event)
    if late:
        entry["before_bell"] = True
    current = night.tables[table - 1] if night.phase == "playing" else None
    roller = current.roller if current is not None else None
    if late:
        roller = player  # the fold checks it before the bell (NotYourTurn otherwise)
    if roller != player:
        misses = f"{intent.passed} miss{'es' if intent.passed > 1 else ''}"
        now = f"it is {roller}'s turn" if roller else "nobody rolls there any more"
        raise Refused(
            "conflict",
            "not_your_turn",
            f"after {misses} at table {table}, {now}, not {player}'s",
            "passed: the turns from the roller now to the player credited",
        )
    if authorize is not None:
        authorize(replace(state, night=night), Asked.of(entry))
    night = night.apply(entry)
    return (*steps, Applied(night.events[-1], night))


def _drawn(intent: Drawing, state: HeldState, luck: Luck) -> DrawingEvent:
    """The drawing ``intent`` asks, its winner picked by ``luck`` (``conflict`` when nobody
    may win)."""
    try:
        drawn = drawing_event(
            state.night, luck.below, exclude_winners=intent.exclude_winners, name=intent.name
        )
    except BuncoError as exc:
        raise Refused("conflict", exc.code, exc.message, exc.expected or "") from None
    event: DrawingEvent = {
        "type": "drawing",
        "candidates": list(drawn["candidates"]),
        "pick": int(drawn["pick"]),
        "winner": str(drawn["winner"]),
        "exclude_winners": bool(drawn["exclude_winners"]),
    }
    if "name" in drawn:
        event["name"] = str(drawn["name"])
    return event


def _check_entry(command: NightCommand, kind: str, table: int, state: HeldState) -> bool:
    """The rules of where an entry was tapped (:mod:`bunco.web.decision.entry_rules`); whether it
    goes before the bell."""
    assert command.tapped is not None
    held = HeldTable.of(state.night, table, state.version(table), state.seq)
    entry = Entry(_ENTRY_KINDS[kind], table, command.tapped, command.expected_seq)
    decision = decide_entry(entry, held)
    if decision.code == "stale" and command.expected_seq is not None:
        # the refusal with the events the entry missed
        _check_version(state, table, command.expected_seq, night_wide=False)
    if decision.refused:
        assert decision.kind is not None
        extra: RefusalExtra = {"tapped": command.tapped.as_dict(), "now": held.where()}
        extra.update(decision.extra or {})
        raise Refused(decision.kind, decision.code, decision.reason, decision.expected, **extra)
    return decision.code == "before_bell"


_ENTRY_KINDS: dict[str, Literal["roll", "tally", "undo"]] = {
    "roll": "roll",
    "tally": "tally",
    "undo": "undo",
}
"""The kinds of entry tapped at a table (:data:`TABLE_EVENTS`), as the entry rules name them."""


def _check_version(state: HeldState, table: int | None, expected: int, *, night_wide: bool) -> None:
    """Refuse as ``stale`` a command sent with another version than its table's (the
    night's seq for a command of the whole night), listing the events it missed."""
    seq = state.seq
    current = seq if night_wide else state.version(table)
    if expected == current:
        return
    if expected > seq or expected < 0:
        raise Refused(
            "conflict",
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
    extra: RefusalExtra = {
        "current_seq": current,
        "missed": [missed_event(e) for e in missed],
        "cause": cause,
    }
    if by is not None:
        extra["by_caller"] = by
    raise Refused(
        "conflict",
        "stale",
        f"{where} changed since you last looked: {_CAUSE_WORDS[cause]} "
        f"({len(missed)} event(s) you have not seen)",
        f"expected_seq {current} after looking at the missed events",
        **extra,
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
