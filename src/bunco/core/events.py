"""Events of the party log: checking their shape and writing them in one canonical form.

Every line of a party log after the first is one event (DESIGN.md). This module only
checks each event's fields; whether it fits the night is decided by the fold.

>>> normalize_event({"type": "roll", "table": "2", "dice": [1, 1, 4]})
{'type': 'roll', 'table': 2, 'dice': [1, 1, 4]}
>>> normalize_event({"type": "tally", "table": 1, "outcome": "b"})
{'type': 'tally', 'table': 1, 'outcome': 'bunco'}
"""

import json
from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, cast

from bunco.core.dice import parse_tally, validate_dice
from bunco.core.errors import InvalidEvent
from bunco.core.host_events import HostEvent
from bunco.core.hosting import HOST_EVENT_TYPES, normalize_host_event
from bunco.core.seating_partners import OVERRIDABLE

EVENT_TYPES: dict[str, str] = {
    "roll": "three dice rolled at a table (or at no table, in a roll-off): table, dice, player?",
    "tally": "a quick-tally outcome a scorekeeper tapped: table (none in a roll-off), outcome, player?",
    "undo": "remove the last roll or tally entered at a table: table",
    "substitute": "between rounds, a substitute takes over a seat: out, in",
    "join": "between rounds, a late arrival joins: player",
    "leave": "between rounds, a player leaves: player",
    "verify": "a checker verifies a player's card (Buncos, Minis, Wins so far): player, checker?",
    "seat": "between rounds, the host seats everyone by hand: tables, overrides?",
    "end_night": "between rounds, the host ends the night early with the rounds played so far",
    "start_round": "between rounds, the head table rings the bell to start the round (optional)",
    **HOST_EVENT_TYPES,
}


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


class TallyEvent(_Kept):
    """A quick-tally outcome a scorekeeper tapped (``outcome``: a :class:`~bunco.core.dice.Tally` value)."""

    type: Literal["tally"]
    table: NotRequired[int]
    outcome: str
    player: NotRequired[str]


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
    """Between rounds, the head table rings the bell to start the round."""

    type: Literal["start_round"]


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
    | HostEvent
)
"""An event that stays in force once applied: any event but an undo (which removes one)."""

Event: TypeAlias = StandingEvent | UndoEvent
"""One event of the party log, as :func:`normalize_event` returns it."""

ScoringEvent: TypeAlias = RollEvent | TallyEvent
"""An event that scores: three faces, or a tally that stands for them."""

ChangeEvent: TypeAlias = SubstituteEvent | JoinEvent | LeaveEvent | SeatEvent
"""A change of who sits where, made between rounds."""


def _name(event: Mapping[str, Any], key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InvalidEvent(
            f"{event.get('type')} event needs a {key!r} player name, got {value!r}",
            expected=f"a non-empty name in {key!r}",
        )
    return value.strip()


def _table(event: Mapping[str, Any], *, required: bool) -> int | None:
    value = event.get("table")
    if value is None:
        if required:
            raise InvalidEvent(
                f"{event.get('type')} event has no table", expected="a table number such as 1"
            )
        return None
    if isinstance(value, bool):
        raise InvalidEvent(f"table {value!r} is not a number", expected="a table number such as 1")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InvalidEvent(
            f"table {value!r} is not a number", expected="a table number such as 1"
        ) from None
    if number < 1 or (isinstance(value, float) and value != number):
        raise InvalidEvent(
            f"table {value!r} does not exist", expected="a table number of 1 or more"
        )
    return number


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
    if not isinstance(event, Mapping):
        raise InvalidEvent(
            f"an event must be a JSON object, got {type(event).__name__}",
            expected='an object such as {"type": "roll", "table": 1, "dice": [1, 2, 3]}',
        )
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise InvalidEvent(
            f"unknown event type {kind!r}", expected="one of " + ", ".join(EVENT_TYPES)
        )
    out: dict[str, Any] = {"type": kind}
    if kind in ("roll", "tally"):
        table = _table(event, required=False)
        if table is not None:
            out["table"] = table
        if kind == "roll":
            out["dice"] = list(validate_dice(event.get("dice")))
        else:
            out["outcome"] = parse_tally(str(event.get("outcome", ""))).value
        if event.get("player") is not None:
            out["player"] = _name(event, "player")
    elif kind == "undo":
        out["table"] = _table(event, required=True)
    elif kind == "substitute":
        out["out"] = _name(event, "out")
        out["in"] = _name(event, "in")
    elif kind in ("join", "leave"):
        out["player"] = _name(event, "player")
    elif kind == "verify":
        out["player"] = _name(event, "player")
        if event.get("checker") is not None:
            out["checker"] = str(event["checker"])
    elif kind == "seat":
        tables = event.get("tables")
        if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
            raise InvalidEvent(
                "seat event needs tables as a list of lists of names",
                expected='"tables": [["Ann", "Bea", "Cat", "Dee"], ...]',
            )
        out["tables"] = [[None if s is None else str(s) for s in t] for t in tables]
        if event.get("overrides") is not None:
            out["overrides"] = _overrides(event["overrides"])
    elif kind in HOST_EVENT_TYPES:
        out.update(normalize_host_event(event))
    for key in ("id", "at"):  # client command id and wall-clock time, kept but not interpreted
        if key in event:
            out[key] = event[key]
    return cast(Event, out)  # built key by key above, in the canonical order


def dump_event(event: Mapping[str, Any]) -> str:
    """One line of a party log (no trailing newline): the set-up line or an event, as given.

    The one serializer of party logs: ``bunco play`` writes through it, and
    :func:`~bunco.core.party_log.write_log` too. Give it a normalized event
    (:func:`normalize_event`) and equal events give equal lines.

    >>> dump_event(normalize_event({"type": "roll", "table": "1", "dice": ["1", 1, 4]}))
    '{"type": "roll", "table": 1, "dice": [1, 1, 4]}'
    """
    return json.dumps(dict(event), separators=(", ", ": "), ensure_ascii=False)
