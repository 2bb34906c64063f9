"""The club's events in the API's published vocabulary: each is the core's ``TypedDict``
(:mod:`bunco.core.club_events`) made into a model, and the club's routes take them as
their bodies, so the OpenAPI document shows each event's fields and which are required."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from pydantic import ValidationError

from bunco.core.club_events import (
    ClubEvent,
    ClubMovePlanEvent,
    ClubPlanEvent,
    club_event_types,
    event_kind,
)
from bunco.web.app import create_app
from bunco.web.values.club_event_models import (
    CLUB_EVENT_MODELS,
    AnswerIn,
    MoveIn,
    PlanBody,
    body_event,
)
from bunco.web.values.event_models import KEPT_KEYS
from bunco.web.values.replies import ServiceError


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def body_of(spec: dict[str, Any], method: str, path: str) -> str:
    """The name of the component a route takes as its JSON body."""
    body = spec["paths"][path][method]["requestBody"]["content"]["application/json"]
    ref: str = body["schema"]["$ref"]
    return ref.rsplit("/", 1)[1]


def test_club_event_components_show_each_event_and_its_required_fields(
    spec: dict[str, Any],
) -> None:
    schemas = spec["components"]["schemas"]
    plan = schemas["ClubPlanEvent"]
    assert set(plan["properties"]) == {
        "type",
        "date",
        "time",
        "address",
        "host",
        "seats",
        "deadline",
    }
    assert plan["required"] == ["date"]  # the route says which event: type may be left out
    assert plan["properties"]["type"]["const"] == "plan"
    assert plan["properties"]["seats"]["anyOf"][0] == {
        "type": "integer",
        "maximum": 200,
        "minimum": 2,
    }
    assert plan["additionalProperties"] is False
    assert sorted(schemas["ClubRsvpEvent"]["required"]) == ["answer", "date", "name"]
    assert sorted(schemas["ClubHostEvent"]["required"]) == ["host", "month"]
    assert sorted(schemas["ClubPaymentEvent"]["required"]) == ["amount", "player"]
    assert schemas["ClubSwapHostsEvent"]["required"] == ["dates"]
    assert schemas["ClubTimezoneEvent"]["required"] == ["zone"]
    assert "required" not in schemas["ClubLadderEvent"]  # every rule has its default
    assert sorted(schemas["ClubMailEvent"]["required"]) == ["host", "sender"]
    assert schemas["ClubPlanEvent"]["description"].startswith("A night to come")


def test_club_routes_take_the_event_models(spec: dict[str, Any]) -> None:
    assert body_of(spec, "post", "/api/clubs/{club_id}/plans") == "ClubPlanEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/rsvps") == "ClubRsvpEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/seasons") == "ClubSeasonEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/hosts") == "ClubHostEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/payments") == "ClubPaymentEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/ladder") == "ClubLadderEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/mail") == "ClubMailEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/timezone") == "ClubTimezoneEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/plans/swap") == "ClubSwapHostsEvent"
    assert body_of(spec, "post", "/api/clubs/{club_id}/rotation") == "ClubRotationEvent"
    # a route that gives some of an event's fields itself takes the others
    move = spec["components"]["schemas"][
        body_of(spec, "post", "/api/clubs/{club_id}/plans/{date}/move")
    ]
    assert set(move["properties"]) == {"to", "time", "deadline"} and move["required"] == ["to"]
    answer = spec["components"]["schemas"][body_of(spec, "post", "/api/clubs/{club_id}/me/rsvp")]
    assert set(answer["properties"]) == {"date", "answer"}


def test_every_club_event_model_has_its_core_shape() -> None:
    kinds = [event_kind(t) for t in club_event_types()]
    assert len(kinds) == 25 and set(kinds) == set(CLUB_EVENT_MODELS)
    assert {t.__name__ for t in club_event_types()} == {
        t.__name__ for t in typing.get_args(ClubEvent)
    }
    for typed in club_event_types():
        model = CLUB_EVENT_MODELS[event_kind(typed)]
        assert model.__name__ == typed.__name__
        fields = {f.alias or name: f for name, f in model.model_fields.items()}
        assert set(fields) == set(typing.get_type_hints(typed)) - KEPT_KEYS
        required = {key for key, f in fields.items() if f.is_required()}
        assert required == set(typed.__required_keys__) - KEPT_KEYS - {"type"}
    link = CLUB_EVENT_MODELS["link"].model_validate(
        {"for": "member", "subject": "Ann", "hash": "a" * 64}
    )
    assert link.model_dump(by_alias=True) == {
        "type": "link",
        "for": "member",
        "subject": "Ann",
        "hash": "a" * 64,
    }


def test_a_body_becomes_the_typed_event_in_canonical_form() -> None:
    given = PlanBody.model_validate({"date": "2026-02-10", "host": " Ann "})
    plan = body_event(given, ClubPlanEvent)
    assert plan == {"type": "plan", "date": "2026-02-10", "host": "Ann"}
    moved = body_event(
        MoveIn.model_validate({"to": "2026-02-17"}), ClubMovePlanEvent, date="2026-02-10"
    )
    assert moved == {"type": "move_plan", "date": "2026-02-10", "to": "2026-02-17"}
    with pytest.raises(ValidationError):  # the route says which event: no type in its body
        AnswerIn.model_validate({"date": "2026-02-10", "answer": "yes", "type": "rsvp"})
    with pytest.raises(ValidationError):  # a body of one event is no other
        PlanBody.model_validate({"date": "2026-02-10", "type": "rsvp"})
    with pytest.raises(ServiceError) as refused:
        body_event(PlanBody.model_validate({"date": "2026-02-10", "time": "7pm"}), ClubPlanEvent)
    assert refused.value.status == 422
    assert refused.value.code == "invalid_event"
    assert refused.value.message == "time '7pm'"


def test_club_replies_show_the_keys_of_the_club_views(spec: dict[str, Any]) -> None:
    """The club's reply models carry the views' types (bunco.club.view_types): the
    OpenAPI document names every key of a planned night, a ledger's night and totals, a
    member's night and a member's link."""
    schemas = spec["components"]["schemas"]
    assert schemas["ClubOut"]["properties"]["plans"]["items"] == {
        "$ref": "#/components/schemas/PlanLine"
    }
    assert set(schemas["PlanLine"]["required"]) >= {"date", "host", "coming", "open_seats"}
    ledger = schemas["LedgerOut"]["properties"]
    assert ledger["totals"] == {"$ref": "#/components/schemas/LedgerTotals"}
    assert "nights_played" in schemas["LedgerTotals"]["required"]
    night = schemas["LedgerNight"]
    assert {"dues_owed", "pot_collected", "owed_by"} <= set(night["properties"])
    assert "dues_owed" not in night["required"]  # a night never played has no dues
    member_night = schemas["MemberNight"]
    assert {"answer", "seat", "in_line", "attendance"} <= set(member_night["properties"])
    assert "in_line" not in member_night["required"]
    assert schemas["LinksOut"]["properties"]["members"]["items"] == {
        "$ref": "#/components/schemas/MemberLink"
    }
    assert "password" not in schemas["MailShown"]["properties"]
    assert schemas["ClubStandingsOut"]["properties"]["rules"] == {
        "$ref": "#/components/schemas/LadderRules"
    }


def test_every_club_event_is_a_component_the_servers_own_too(spec: dict[str, Any]) -> None:
    """All 25 club events, those no route takes as a body (a link issued, the recovery
    code, a notice sent ...) as well, are in the document with their required fields, and
    ``ClubEvent`` is their union by ``type``."""
    schemas = spec["components"]["schemas"]
    types = club_event_types()
    assert len(types) == 25
    union = schemas["ClubEvent"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    assert sorted(mapping) == sorted(event_kind(t) for t in types)
    for typed in types:
        component = schemas[typed.__name__]
        assert mapping[event_kind(typed)] == f"#/components/schemas/{typed.__name__}"
        required = set(component.get("required", []))
        assert required >= set(typed.__required_keys__) - {"type"} - KEPT_KEYS, typed
    recovery = schemas["ClubRecoveryEvent"]  # written by the server only
    assert set(recovery["required"]) >= {"hash", "sealed"}
