"""The party log's events as the API takes and documents them, made from the core's types.

Each event's shape (which fields, which are required, the ``type`` it carries) is defined
once, by the core's ``TypedDict`` of it (:mod:`bunco.core.events`,
:mod:`bunco.core.host_events`). This module reads those types and makes one pydantic model
per event type, with the same class name (``RollEvent``, ``JudgeEvent``, ...), so the
OpenAPI components are named as the party log documents them (docs/party-log.md). What the
API adds is only the check of each field's value, by the field's name (:data:`FIELD_CHECKS`):
a ``table`` is a table number, ``dice`` three faces, a ``player`` a person's name. A field a
new event type brings that has no named check gets its core type with the API's general
limits (a short clean text, a bounded whole number).

The keys any event may carry but the fold never reads (``id``, ``at``) are the server's
to keep beside the event, so the models leave them out.

>>> EVENT_MODELS["roll"].__name__, sorted(EVENT_MODELS["roll"].model_fields)
('RollEvent', ['dice', 'player', 'table', 'type'])
>>> EVENT_MODELS["substitute"].model_validate({"type": "substitute", "out": "Ann", "in": "Bea"}).model_dump(by_alias=True)
{'type': 'substitute', 'out': 'Ann', 'in': 'Bea'}
"""

from __future__ import annotations

import keyword
import types
import typing
from collections.abc import Collection, Mapping
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, Strict, create_model

from bunco.core.events import Event, StandingEvent, UndoEvent
from bunco.core.host_events import HostEvent
from bunco.core.late_entries import MAX_COUNT, MAX_POINTS
from bunco.web.values.fields import (
    Dice,
    HighTotal,
    Label,
    Name,
    Outcome,
    Seating,
    SeatOverrides,
    TableNumber,
    Title,
)

KEPT_KEYS = frozenset({"id", "at"})
"""Keys an event may carry that the fold keeps but never reads: the server keeps them
beside the event (its command id and time), not in the API's event bodies."""

WholeNumber = Annotated[int, Strict(), Field(ge=-1_000_000_000, le=1_000_000_000)]

FIELD_CHECKS: dict[str, Any] = {
    "table": TableNumber,
    "dice": Dice,
    "outcome": Outcome,
    "total": HighTotal,
    "player": Name,
    "out": Name,
    "in": Name,
    "winner": Name,
    "checker": Label,
    "group": Label,
    "prize": Label,
    "name": Title,
    "tables": Seating,
    "overrides": SeatOverrides,
    "ranking": Annotated[list[Name], Field(min_length=1, max_length=2000)],
    "candidates": Annotated[list[Name], Field(min_length=1, max_length=2000)],
    "unverified": Annotated[list[Name], Field(max_length=2000)],
    "minutes": Annotated[int, Strict(), Field(ge=1, le=240)],
    "pick": Annotated[int, Strict(), Field(ge=0, le=2000)],
    "started_at": Annotated[str, Strict(), Field(min_length=1, max_length=40)],
    "clock": Annotated[str, Strict(), Field(min_length=1, max_length=40)],
    # a table's score from its paper tally (go_on): player → points, Buncos, Mini Buncos
    "points": Annotated[
        dict[Name, Annotated[int, Strict(), Field(ge=0, le=MAX_POINTS)]], Field(max_length=8)
    ],
    "buncos": Annotated[
        dict[Name, Annotated[int, Strict(), Field(ge=0, le=MAX_COUNT)]], Field(max_length=8)
    ],
    "minis": Annotated[
        dict[Name, Annotated[int, Strict(), Field(ge=0, le=MAX_COUNT)]], Field(max_length=8)
    ],
}
"""The API's check of a field's value, by the field's name (the same check as every other
write path of the API: one :data:`Name`, one :data:`Dice`, ...)."""


class EventModel(BaseModel):
    """An event of the party log: unknown fields are refused, no value is coerced."""

    model_config = ConfigDict(
        extra="forbid", strict=True, allow_inf_nan=False, populate_by_name=True
    )


def _general(annotation: Any) -> Any:
    """The API's check of a field with no named check, from its core type."""
    origin = get_origin(annotation)
    if annotation is str:
        return Label
    if annotation is int:
        return WholeNumber
    if annotation is bool:
        return Annotated[bool, Strict()]
    if origin is list:
        (item,) = get_args(annotation)
        return Annotated[list[_general(item)], Field(max_length=2000)]  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        return Union[tuple(_general(a) for a in get_args(annotation))]  # noqa: UP007
    if annotation is type(None):
        return annotation
    if origin is Literal:
        return annotation
    if origin is dict or annotation is dict:
        return dict[str, Any]  # a JSON object, checked by the core when the event is applied
    return Any  # checked by the core (normalize_event) when the event is applied


def _event_types(union: Any) -> list[type]:
    """The ``TypedDict`` classes of a union of them, in order."""
    return [t for t in get_args(union) if isinstance(t, type)]


def event_model(
    typed: type,
    checks: Mapping[str, object] = FIELD_CHECKS,
    *,
    model_name: str | None = None,
    leave_out: Collection[str] = (),
    typed_by_route: bool = False,
) -> type[EventModel]:
    """The pydantic model of one core event type (same name, same fields, the API's checks).

    For a route's body made from an event type (the club's): ``checks`` are its field
    checks by name, ``model_name`` the model's (else the type's), ``leave_out`` the fields the
    route gives itself (a date in its path), and ``typed_by_route``: the ``type`` may be
    left out (the route says which event it makes)."""
    hints = typing.get_type_hints(typed)
    required: frozenset[str] = typed.__required_keys__  # type: ignore[attr-defined]
    fields: dict[str, Any] = {}
    for key, annotation in hints.items():
        if key in KEPT_KEYS or key in leave_out:
            continue
        if key == "type":
            fields["type"] = (annotation, get_args(annotation)[0] if typed_by_route else ...)
            continue
        check: Any = checks.get(key) or _general(annotation)
        name = f"{key}_" if keyword.iskeyword(key) else key
        default = Field(...) if key in required else Field(None)
        if name != key:
            default = Field(... if key in required else None, alias=key)
        fields[name] = (check if key in required else check | None, default)
    model: type[EventModel] = create_model(
        model_name or typed.__name__,
        __base__=EventModel,
        __module__=__name__,
        __doc__=typed.__doc__,
        **fields,
    )
    return model


def _kind(typed: type) -> str:
    (kind,) = get_args(typing.get_type_hints(typed)["type"])
    return str(kind)


ALL_EVENT_TYPES: list[type] = [
    *(t for t in _event_types(StandingEvent) if t not in _event_types(HostEvent)),
    UndoEvent,
    *_event_types(HostEvent),
]
EVENT_MODELS: dict[str, type[EventModel]] = {_kind(t): event_model(t) for t in ALL_EVENT_TYPES}
"""Every event type of the party log → its API model (``RollEvent``, ...)."""

assert set(EVENT_MODELS) == {_kind(t) for t in _event_types(Event) if t in ALL_EVENT_TYPES}

HOST_KINDS = frozenset(_kind(t) for t in _event_types(HostEvent))
"""The host's events beside the dice: each has its own route (``/judged``, ``/drawings``,
...), so ``POST .../events`` does not take them."""


def _union(kinds: list[str]) -> Any:
    models = tuple(EVENT_MODELS[k] for k in kinds)
    return Annotated[Union[models], Field(discriminator="type")]  # noqa: UP007


PlayEvent = _union([k for k in EVENT_MODELS if k not in HOST_KINDS])
"""An event ``POST .../events`` takes: the dice, the undo and the changes between rounds."""

AnyEvent = _union(list(EVENT_MODELS))
"""Any event of the party log, as replies and the event list carry it."""
