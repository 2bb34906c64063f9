"""Events of the party log: checking their shape and writing them in one canonical form.

Every line of a party log after the first is one event (DESIGN.md). This module only
checks each event's fields; whether it fits the night is decided by the fold. The checks
are the API's (:mod:`bunco.web.values.schemas`): numbers are JSON integers (``"2"``, ``2.0`` and
``true`` are no table and no die), names are people's names (:mod:`bunco.core.names`).

>>> normalize_event({"type": "roll", "table": 2, "dice": [1, 1, 4]})
{'type': 'roll', 'table': 2, 'dice': [1, 1, 4]}
>>> normalize_event({"type": "tally", "table": 1, "outcome": "b"})
{'type': 'tally', 'table': 1, 'outcome': 'bunco'}
"""

import json
from collections.abc import Callable, Mapping
from typing import Any, Literal, NotRequired, TypeAlias, TypeGuard

from typing_extensions import TypedDict

from bunco.core.corrections import (
    CORRECTION_EVENT_TYPES,
    CloseNightEvent,
    CorrectEvent,
    normalize_correction,
)
from bunco.core.dice import parse_tally, validate_dice
from bunco.core.errors import InvalidDice, InvalidEvent, shown
from bunco.core.host_events import HostEvent
from bunco.core.hosting import HOST_EVENT_TYPES, normalize_host_event
from bunco.core.late_entries import (
    LATE_EVENT_TYPES,
    GoOnEvent,
    WaitForPhoneEvent,
    before_bell,
    normalize_late,
)
from bunco.core.names import clean_text, person_name
from bunco.core.round_clock import (
    CLOCK_EVENT_TYPES,
    TimeUpEvent,
    normalize_clock,
    normalize_time_up,
)
from bunco.core.seating_partners import OVERRIDABLE

MAX_TABLE = 10_000
"""The highest table number the API and the log take (2,000 players sit at 500 tables)."""

EVENT_TYPES: dict[str, str] = {
    "roll": "three dice rolled at a table (or at no table, in a roll-off): table, dice, player?",
    "tally": "a quick-tally outcome a scorekeeper tapped: table (none in a roll-off), outcome "
    "(or total: a roll for high's total, 3 to 18), player?",
    "undo": "remove the last roll or tally entered at a table: table",
    "substitute": "between rounds, a substitute takes over a seat: out, in",
    "join": "between rounds, a late arrival joins: player",
    "leave": "between rounds, a player leaves: player",
    "verify": "a checker verifies a player's card (Buncos, Minis, Wins so far): player, checker?",
    "seat": "between rounds, the host seats everyone by hand: tables, overrides?",
    "end_night": "between rounds, the host ends the night early with the rounds played so far",
    "start_round": "between rounds, the head table rings the bell to start the round (optional): "
    "clock? (timed rounds: when the round's clock started)",
    "seated": "between rounds, a table confirms its new seating: the round begins there "
    "(bunco.core.seating_confirm): table",
    **CLOCK_EVENT_TYPES,
    **HOST_EVENT_TYPES,
    **CORRECTION_EVENT_TYPES,
    **LATE_EVENT_TYPES,
}


_KINDS: dict[str, str] = {kind: kind for kind in EVENT_TYPES}

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation, so the runtime __required_keys__ / __optional_keys__ match what mypy sees.


class _Kept(TypedDict, total=False):
    """Keys any event may carry that the fold keeps but does not read."""

    id: object  # a client's command id
    at: object  # the wall-clock time it was entered


class RollEvent(_Kept):
    """Three dice rolled at a table, or at no table in a roll-off."""

    type: Literal["roll"]
    table: NotRequired[int]
    dice: list[int]
    player: NotRequired[str]
    before_bell: NotRequired[bool]  # tapped before the bell (bunco.core.late_entries)


class TallyEvent(_Kept):
    """A quick-tally outcome a scorekeeper tapped (``outcome``: a :class:`~bunco.core.dice.Tally`
    value), or instead a roll for high's ``total`` (3 to 18: only the total counts there)."""

    type: Literal["tally"]
    table: NotRequired[int]
    outcome: NotRequired[str]
    total: NotRequired[int]
    player: NotRequired[str]
    before_bell: NotRequired[bool]  # tapped before the bell (bunco.core.late_entries)


class UndoEvent(_Kept):
    """Remove the last roll or tally entered at ``table``."""

    type: Literal["undo"]
    table: int


SubstituteEvent = TypedDict(  # functional form: ``in`` is a Python keyword
    "SubstituteEvent",
    {
        "type": Literal["substitute"],
        "out": str,
        "in": str,
        "id": NotRequired[object],
        "at": NotRequired[object],
    },
)
"""Between rounds, ``in`` takes over the seat of ``out``."""


class JoinEvent(_Kept):
    """Between rounds, a late arrival joins."""

    type: Literal["join"]
    player: str


class LeaveEvent(_Kept):
    """Between rounds, a player leaves."""

    type: Literal["leave"]
    player: str


class VerifyEvent(_Kept):
    """A checker verifies a player's card."""

    type: Literal["verify"]
    player: str
    checker: NotRequired[str]


class SeatEvent(_Kept):
    """Between rounds, the host seats everyone by hand (``None``: a ghost seat)."""

    type: Literal["seat"]
    tables: list[list[str | None]]
    overrides: NotRequired[list[str]]  # rules this seating breaks on purpose (no_repeat_partners)


class EndNightEvent(_Kept):
    """Between rounds, the host ends the night early."""

    type: Literal["end_night"]


class StartRoundEvent(_Kept):
    """Between rounds, the head table rings the bell to start the round; with timed rounds,
    ``clock`` is when the round's clock started (:mod:`bunco.core.round_clock`)."""

    type: Literal["start_round"]
    clock: NotRequired[str]


class SeatedEvent(_Kept):
    """A table confirms its new seating for the round about to start: the round begins
    there (:mod:`bunco.core.seating_confirm`)."""

    type: Literal["seated"]
    table: int


StandingEvent: TypeAlias = (
    RollEvent
    | TallyEvent
    | SubstituteEvent
    | JoinEvent
    | LeaveEvent
    | VerifyEvent
    | SeatEvent
    | EndNightEvent
    | StartRoundEvent
    | SeatedEvent
    | TimeUpEvent
    | HostEvent
    | CorrectEvent
    | CloseNightEvent
    | WaitForPhoneEvent
    | GoOnEvent
)
"""An event that stays in force once applied: any event but an undo (which removes one)."""

Event: TypeAlias = StandingEvent | UndoEvent
"""One event of the party log, as :func:`normalize_event` returns it."""

ScoringEvent: TypeAlias = RollEvent | TallyEvent
"""An event that scores: three faces, or a tally that stands for them."""

ChangeEvent: TypeAlias = SubstituteEvent | JoinEvent | LeaveEvent | SeatEvent
"""A change of who sits where, made between rounds."""


def _name(event: Mapping[str, object], key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InvalidEvent(
            f"{event.get('type')} event needs a {key!r} player name, got {shown(value)}",
            expected=f"a non-empty name in {key!r}",
        )
    return person_name(value, f"{event.get('type')} event's {key!r}", InvalidEvent)


def _label(value: object, what: str) -> str:
    """A short text such as a checker's name: 1 to 60 characters, nothing unprintable."""
    if not isinstance(value, str) or not value.strip() or len(value) > 60:
        raise InvalidEvent(
            f"{what} {shown(value)} is not a short text", expected="1 to 60 characters"
        )
    return clean_text(value, what, InvalidEvent)


def whole_number(value: object) -> TypeGuard[int]:
    """True for a JSON integer: an int that is not a boolean (``"2"`` and ``2.0`` are not).

    >>> whole_number(2), whole_number("2"), whole_number(2.0), whole_number(True)
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def _table(event: Mapping[str, object], *, required: bool) -> int | None:
    value = event.get("table")
    if type(value) is int and 1 <= value <= MAX_TABLE:  # the usual case, at once
        return value
    if value is None:
        if required:
            raise InvalidEvent(
                f"{event.get('type')} event has no table", expected="a table number such as 1"
            )
        return None
    if not whole_number(value):
        raise InvalidEvent(
            f"table {shown(value)} is not a whole number",
            expected="a table number written as a JSON integer, such as 1",
        )
    assert isinstance(value, int)
    if not 1 <= value <= MAX_TABLE:
        raise InvalidEvent(
            f"table {shown(value)} does not exist",
            expected=f"a table number from 1 to {MAX_TABLE:,}",
        )
    return value


def _total(event: Mapping[str, object]) -> int:
    """A roll for high's total: a JSON integer from 3 to 18, and no outcome beside it."""
    value = event["total"]
    if not whole_number(value) or not 3 <= value <= 18:
        raise InvalidEvent(
            f"total {shown(value)} is not what three dice can show",
            expected="a whole number from 3 to 18",
        )
    if event.get("outcome") is not None:
        raise InvalidEvent(
            "a tally gives an outcome or a total, not both",
            expected="outcome (a quick tally) or total (a roll for high)",
        )
    return int(value)


def _dice(value: object) -> list[int]:
    """Three faces, each a JSON integer from 1 to 6 (the API's one dice check)."""
    if type(value) is list and len(value) == 3:
        a, b, c = value
        if (
            type(a) is int
            and type(b) is int
            and type(c) is int
            and (1 <= a <= 6 and 1 <= b <= 6 and 1 <= c <= 6)
        ):
            return [a, b, c]  # the usual case, at once (``type is int``: no bool)
    if isinstance(value, list) and len(value) == 3:
        for face in value:
            if not whole_number(face):
                raise InvalidDice(
                    f"die face {shown(face)} is not a whole number",
                    expected="three JSON integers from 1 to 6, such as [4, 4, 1]",
                )
    elif isinstance(value, str | bytes) or not isinstance(value, list):
        raise InvalidDice(
            f"dice must be a list of three faces, got {shown(value)}",
            expected="three JSON integers from 1 to 6, such as [4, 4, 1]",
        )
    return list(validate_dice(value))


def _overrides(value: Any) -> list[str]:
    """A seat event's ``overrides``: rule names the host's seating breaks on purpose."""
    if not isinstance(value, list) or any(v not in OVERRIDABLE for v in value):
        raise InvalidEvent(
            f"seat event overrides {value!r}: not a list of rules a seating may override",
            expected='"overrides": [' + ", ".join(f'"{r}"' for r in OVERRIDABLE) + "]",
        )
    return sorted(set(value))


def normalize_event(event: Any) -> Event:
    """The canonical form of one event; raises :class:`InvalidEvent` for a bad shape.

    Keys come out in one order (``type`` first), so equal events serialize alike.
    """
    if type(event) is not dict and not isinstance(event, Mapping):
        raise InvalidEvent(
            f"an event must be a JSON object, got {type(event).__name__}",
            expected='an object such as {"type": "roll", "table": 1, "dice": [1, 2, 3]}',
        )
    given = event.get("type")
    kind = _KINDS.get(given) if isinstance(given, str) else None
    if kind is None:
        raise InvalidEvent(
            f"unknown event type {shown(given)}",
            expected="one of " + ", ".join(EVENT_TYPES),
        )
    out = _BUILDERS[kind](event)  # the one string of each type, not the line's copy
    for key in ("id", "at"):  # client command id and wall-clock time, kept but not interpreted
        if key in event:
            if isinstance(event[key], str):
                clean_text(event[key], key, InvalidEvent)
            if key == "id":
                out["id"] = event[key]
            else:
                out["at"] = event[key]
    return out


def _roll(event: Mapping[str, object]) -> RollEvent:
    table = _table(event, required=False)
    dice = _dice(event.get("dice"))
    out: RollEvent
    if table is None:
        out = {"type": "roll", "dice": dice}
    else:
        out = {"type": "roll", "table": table, "dice": dice}
    if event.get("player") is not None:
        out["player"] = _name(event, "player")
    if before_bell(event):
        out["before_bell"] = True
    return out


def _tally(event: Mapping[str, object]) -> TallyEvent:
    out: TallyEvent = {"type": "tally"}
    table = _table(event, required=False)
    if table is not None:
        out["table"] = table
    if event.get("total") is not None:
        out["total"] = _total(event)
    else:
        outcome = event.get("outcome", "")
        if not isinstance(outcome, str) or len(outcome) > 20:
            raise InvalidEvent(
                f"outcome {shown(outcome)} is not a tally",
                expected="a quick tally such as +1, +2, miss, bunco or mini",
            )
        out["outcome"] = parse_tally(outcome).value
    if event.get("player") is not None:
        out["player"] = _name(event, "player")
    if before_bell(event):
        out["before_bell"] = True
    return out


def _at_table(event: Mapping[str, object]) -> int:
    table = _table(event, required=True)
    assert table is not None  # required: None raises
    return table


def _verify(event: Mapping[str, object]) -> VerifyEvent:
    out: VerifyEvent = {"type": "verify", "player": _name(event, "player")}
    if event.get("checker") is not None:
        out["checker"] = _label(event["checker"], "checker")
    return out


def _seat(event: Mapping[str, object]) -> SeatEvent:
    tables = event.get("tables")
    if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
        raise InvalidEvent(
            "seat event needs tables as a list of lists of names",
            expected='"tables": [["Ann", "Bea", "Cat", "Dee"], ...]',
        )
    out: SeatEvent = {
        "type": "seat",
        "tables": [
            [None if s is None else person_name(s, "seat", InvalidEvent) for s in t] for t in tables
        ],
    }
    if event.get("overrides") is not None:
        out["overrides"] = _overrides(event["overrides"])
    return out


def _start_round(event: Mapping[str, object]) -> StartRoundEvent:
    out: StartRoundEvent = {"type": "start_round"}
    if event.get("clock") is not None:
        out["clock"] = normalize_clock(event["clock"])
    return out


_BUILDERS: dict[str, Callable[[Mapping[str, object]], Event]] = {
    "roll": _roll,
    "tally": _tally,
    "undo": lambda e: {"type": "undo", "table": _at_table(e)},
    "seated": lambda e: {"type": "seated", "table": _at_table(e)},
    "substitute": lambda e: {"type": "substitute", "out": _name(e, "out"), "in": _name(e, "in")},
    "join": lambda e: {"type": "join", "player": _name(e, "player")},
    "leave": lambda e: {"type": "leave", "player": _name(e, "player")},
    "verify": _verify,
    "seat": _seat,
    "end_night": lambda e: {"type": "end_night"},
    "start_round": _start_round,
    "time_up": normalize_time_up,
    **{kind: normalize_host_event for kind in HOST_EVENT_TYPES},
    **{kind: lambda e: normalize_correction(e, _dice) for kind in CORRECTION_EVENT_TYPES},
    **{kind: normalize_late for kind in LATE_EVENT_TYPES},
}
"""How each type of event is checked and written in canonical form (``type`` first)."""
assert set(_BUILDERS) == set(EVENT_TYPES)


def dump_event(event: Mapping[str, object]) -> str:
    """One line of a party log (no trailing newline): the set-up line or an event, as given.

    The one serializer of party logs: ``bunco play`` writes through it, and
    :func:`~bunco.core.party_log.write_log` too. Give it a normalized event
    (:func:`normalize_event`) and equal events give equal lines.

    >>> dump_event(normalize_event({"type": "roll", "table": 1, "dice": [1, 1, 4]}))
    '{"type": "roll", "table": 1, "dice": [1, 1, 4]}'

    Unicode's line and paragraph separators (U+2028, U+2029), which no text the checks
    let in holds but which a reader of lines may take for the end of one, are written as
    JSON escapes, never raw: a line of the log is always one line.

    >>> dump_event({"type": "party", "name": "A\u2028B"})
    '{"type": "party", "name": "A\\\\u2028B"}'
    """
    line = json.dumps(dict(event), separators=(", ", ": "), ensure_ascii=False)
    return line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
