"""The club's events as the API takes and documents them, made from the core's types.

Each club event's shape is defined once, by its ``TypedDict`` in
:mod:`bunco.core.club_events`; :func:`bunco.web.values.event_models.event_model` makes the
pydantic model of each (``ClubPlanEvent``, ``ClubRsvpEvent``, ...: the OpenAPI components),
as it makes the night's. What the API adds is only the check of each field's value, by
its name (:data:`CLUB_FIELD_CHECKS`, and :data:`KIND_CHECKS` where one event's field of
that name means something else: a mail server's ``host`` is no member). A route whose
body is one event's fields takes that event's model, its ``type`` left out (the route says
which event it makes); a route that gives some fields itself (a date in its path, the
member a link answers for) takes the model without them (``MoveIn``, ``AnswerIn``).

:func:`body_event` turns a body into the typed event the club's fold and store take.

>>> sorted(CLUB_EVENT_MODELS["plan"].model_fields)
['address', 'date', 'deadline', 'host', 'seats', 'time', 'type']
>>> PlanBody.model_validate({"date": "2026-02-10", "seats": 8}).model_dump(exclude_none=True)
{'type': 'plan', 'date': '2026-02-10', 'seats': 8}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, TypeVar, cast

from pydantic import BaseModel, Field, TypeAdapter
from pydantic.json_schema import JsonSchemaValue

from bunco.club.events import normalize_club_event
from bunco.core.club_events import (
    ClubEvent,
    ClubMemberEvent,
    ClubMovePlanEvent,
    ClubRsvpEvent,
    club_event_types,
    event_kind,
)
from bunco.core.errors import BuncoError, InvalidEvent
from bunco.web.values.event_models import EventModel, event_model
from bunco.web.values.fields import Label, Name, Title, Word
from bunco.web.values.replies import ServiceError

DateText = Annotated[Word, Field(min_length=10, max_length=10, description="YYYY-MM-DD")]
Deadline = Annotated[
    Word, Field(max_length=16, description="answer by then (YYYY-MM-DDTHH:MM, the club's time)")
]
Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="a SHA-256, in hex")]
Short = Annotated[str, Field(min_length=1, max_length=400)]

CLUB_FIELD_CHECKS: dict[str, object] = {
    "name": Name,
    "role": Annotated[Word, Field(description="regular or substitute")],
    "email": Annotated[str, Field(max_length=254)],
    "address": Annotated[str, Field(max_length=300)],
    "month": Annotated[Word, Field(min_length=7, max_length=7, description="YYYY-MM")],
    "host": Name,
    "night": Annotated[
        str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="its id")
    ],
    "date": DateText,
    "to": DateText,
    "guests": Annotated[list[Name], Field(max_length=200)],
    "digest": Hex64,
    "player": Name,
    "amount": Word | int,
    "note": Title,
    "time": Annotated[Word, Field(max_length=5, description="HH:MM")],
    "seats": Annotated[int, Field(ge=2, le=200)],
    "deadline": Deadline,
    "order": Annotated[list[Name], Field(min_length=1, max_length=200)],
    "dates": Annotated[list[DateText], Field(min_length=2, max_length=2)],
    "answer": Annotated[Word, Field(description="yes, no or maybe")],
    "for": Annotated[Word, Field(description="member, night, season or calendar")],
    "subject": Label,
    "hash": Hex64,
    "measure": Annotated[Word, Field(description="wins, points, buncos or place_points")],
    "average": bool,
    "min_nights": Annotated[int, Field(ge=0, le=100)],
    "best": Annotated[int, Field(ge=1, le=100)],
    "drop": Annotated[int, Field(ge=0, le=100)],
    "place_points": Annotated[list[int], Field(max_length=100)],
    "port": Annotated[int, Field(ge=1, le=65535)],
    "sender": Annotated[str, Field(min_length=3, max_length=254)],
    "username": Annotated[str, Field(max_length=200)],
    "password": Annotated[str, Field(max_length=200)],
    "starttls": bool,
    "names": Annotated[list[Name], Field(min_length=1, max_length=200)],
    "zone": Annotated[str, Field(min_length=1, max_length=64, description="e.g. America/Chicago")],
    "public": Short,
    "private": Short,
    "contact": Annotated[str, Field(min_length=1, max_length=300)],
    "endpoint": Annotated[str, Field(min_length=8, max_length=1000)],
    "p256dh": Annotated[str, Field(min_length=1, max_length=200)],
    "auth": Annotated[str, Field(min_length=1, max_length=200)],
    "kind": Word,
    "sealed": Short,
}
"""The API's check of a club event's field, by the field's name."""

KIND_CHECKS: dict[str, dict[str, object]] = {
    "season": {"name": Label},
    "plan": {"host": Annotated[Name, Field(description="default: whose turn it is")]},
    "mail": {"host": Annotated[str, Field(min_length=1, max_length=253)]},
}
"""Where one event's field means something else than the same name elsewhere."""


def _model(
    typed: type,
    name: str | None = None,
    leave_out: tuple[str, ...] = (),
    own: dict[str, object] | None = None,
) -> Any:
    kind = event_kind(typed)
    checks = {**CLUB_FIELD_CHECKS, **KIND_CHECKS.get(kind, {}), **(own or {})}
    return event_model(typed, checks, model_name=name, leave_out=leave_out, typed_by_route=True)


CLUB_EVENT_MODELS: dict[str, type[EventModel]] = {
    event_kind(t): _model(t) for t in club_event_types()
}
"""Every club event type → its API model (``ClubPlanEvent``, ...)."""

if TYPE_CHECKING:  # for the type checker, a route's body is a model of the club's events
    SeasonBody: TypeAlias = EventModel
    HostBody: TypeAlias = EventModel
    PaymentBody: TypeAlias = EventModel
    PlanBody: TypeAlias = EventModel
    SwapBody: TypeAlias = EventModel
    RotationBody: TypeAlias = EventModel
    RsvpBody: TypeAlias = EventModel
    LadderBody: TypeAlias = EventModel
    MailBody: TypeAlias = EventModel
    ZoneBody: TypeAlias = EventModel
    MemberIn: TypeAlias = EventModel
    MoveIn: TypeAlias = EventModel
    AnswerIn: TypeAlias = EventModel
else:
    SeasonBody = CLUB_EVENT_MODELS["season"]
    HostBody = CLUB_EVENT_MODELS["host"]
    PaymentBody = CLUB_EVENT_MODELS["payment"]
    PlanBody = CLUB_EVENT_MODELS["plan"]
    SwapBody = CLUB_EVENT_MODELS["swap_hosts"]
    RotationBody = CLUB_EVENT_MODELS["rotation"]
    RsvpBody = CLUB_EVENT_MODELS["rsvp"]
    LadderBody = CLUB_EVENT_MODELS["ladder"]
    MailBody = CLUB_EVENT_MODELS["mail"]
    ZoneBody = CLUB_EVENT_MODELS["timezone"]
    MemberIn = _model(  # a role "gone": the member leaves the club (leave_club)
        ClubMemberEvent,
        "MemberIn",
        own={"role": Annotated[Word, Field(description="regular, substitute, or gone")]},
    )
    MoveIn = _model(ClubMovePlanEvent, "MoveIn", ("type", "date"))  # the date: the route's path
    AnswerIn = _model(ClubRsvpEvent, "AnswerIn", ("type", "name"))  # the name: the member's link

_Event = TypeVar("_Event")


def body_event(body: BaseModel, typed: type[_Event], **given: object) -> _Event:
    """The event of type ``typed`` a request's body makes (with the fields the route
    gives: ``given``), checked and in canonical form
    (:func:`~bunco.club.events.normalize_club_event`). A value the club refuses is a 422
    that says what was wrong and what was expected (as the fold says it)."""
    kind = event_kind(typed)
    fields = body.model_dump(by_alias=True, exclude_none=True)
    try:
        event = normalize_club_event({**fields, **given, "type": kind})
    except BuncoError as exc:
        raise ServiceError(422, exc.code, exc.message, exc.expected) from None
    if event["type"] != kind:  # normalize_club_event keeps the type it was given
        raise InvalidEvent(f"a {event['type']} event", expected=f"a {kind} event")
    return cast(_Event, event)  # its type checked: the TypedDict of ``kind``


_CLUB_EVENTS: TypeAdapter[ClubEvent] = TypeAdapter(
    Annotated[ClubEvent, Field(discriminator="type")]
)


def club_event_schemas(ref_template: str) -> dict[str, JsonSchemaValue]:
    """The JSON Schema of every club event by its type's name (``ClubPlanEvent``, ...,
    ``ClubNotifiedEvent``: those the server writes itself too), with ``ClubEvent`` their
    union (``ref_template``: where the schemas are referred to, as
    ``"#/components/schemas/{model}"``).

    >>> schemas = club_event_schemas("#/components/schemas/{model}")
    >>> schemas["ClubEvent"]["discriminator"]["propertyName"], "ClubRecoveryEvent" in schemas
    ('type', True)
    """
    schema = _CLUB_EVENTS.json_schema(ref_template=ref_template, mode="serialization")
    named: dict[str, JsonSchemaValue] = schema.pop("$defs")
    return {**named, "ClubEvent": schema}
