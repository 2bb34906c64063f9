"""The API's published vocabulary: every route says what it returns, the events are the
party log's (named as docs/party-log.md names them, shaped as the core's types), and
each model's name means one thing."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from web_helpers import cid

from bunco.core.events import EVENT_TYPES, Event
from bunco.web.app import create_app
from bunco.web.values.event_models import EVENT_MODELS, HOST_KINDS, KEPT_KEYS
from bunco.web.values.schemas import EventIn

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def camel(kind: str) -> str:
    """``end_night`` → ``EndNight``."""
    return "".join(part.title() for part in kind.split("_"))


def documented_event_types() -> list[str]:
    """The types of the events table of docs/party-log.md, in order."""
    text = (DOCS / "party-log.md").read_text(encoding="utf-8")
    section = text.split("\n## Events\n", 1)[1]
    table = section.split("\n| type | fields |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)


def test_every_route_declares_a_non_empty_2xx_reply(spec: dict[str, Any]) -> None:
    missing = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            ok = {code: r for code, r in operation["responses"].items() if code.startswith("2")}
            schemas = [
                (media, body.get("schema") or {})
                for r in ok.values()
                for media, body in r.get("content", {}).items()
            ]
            named = [s for media, s in schemas if ("$ref" in s) if media == "application/json"] + [
                s for media, s in schemas if media != "application/json" and s.get("type")
            ]
            if not schemas or len(named) != len(schemas):
                missing.append(f"{method.upper()} {path}: {schemas}")
    assert missing == []
    assert len([op for ops in spec["paths"].values() for op in ops]) >= 80


def test_openapi_event_schemas_are_the_party_log_events(spec: dict[str, Any]) -> None:
    documented = documented_event_types()
    assert sorted(documented) == sorted(EVENT_TYPES)  # the docs list every event type
    published = {
        name
        for name in spec["components"]["schemas"]
        if name.endswith("Event") and not name.startswith("Club")  # the club's: their own test
    }
    assert published == {f"{camel(kind)}Event" for kind in documented}
    ack = spec["components"]["schemas"]["AckOut"]["properties"]["event"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in ack["oneOf"]} == published


def test_event_models_have_the_core_shapes() -> None:
    core_types = {t.__name__: t for t in typing.get_args(Event)}
    assert {m.__name__ for m in EVENT_MODELS.values()} == set(core_types)
    for kind, model in EVENT_MODELS.items():
        typed = core_types[model.__name__]
        fields = {f.alias or name: f for name, f in model.model_fields.items()}
        assert set(fields) == set(typing.get_type_hints(typed)) - KEPT_KEYS, kind
        required = {key for key, f in fields.items() if f.is_required()}
        assert required == set(typed.__required_keys__) - KEPT_KEYS, kind  # type: ignore[attr-defined]
        assert model.__doc__ == typed.__doc__


@pytest.mark.parametrize(
    ("event", "wrong"),
    [
        ({"type": "roll", "table": 1, "dice": [1, 2, 7]}, "dice"),
        ({"type": "roll", "table": "1", "dice": [1, 2, 3]}, "table"),
        ({"type": "tally", "table": 1, "outcome": "lots"}, "outcome"),
        ({"type": "join", "player": "A\x00B"}, "player"),
        ({"type": "substitute", "out": "Ann"}, "in"),
        ({"type": "undo"}, "table"),
        ({"type": "roll", "table": 1, "dice": [1, 2, 3], "id": "x"}, "id"),
        ({"type": "judge", "prize": "Best Costume", "ranking": ["Ann"]}, "type"),
    ],
)
def test_events_route_refuses_what_the_log_refuses(event: dict[str, Any], wrong: str) -> None:
    with pytest.raises(ValidationError) as caught:
        EventIn.model_validate({"command_id": cid(), "event": event})
    assert wrong in str(caught.value)


def test_events_route_takes_the_play_events_in_their_log_form() -> None:
    body = EventIn.model_validate(
        {"command_id": cid(), "event": {"type": "substitute", "out": "Ann", "in": "Zed"}}
    )
    assert body.event_dict() == {"type": "substitute", "out": "Ann", "in": "Zed"}
    body = EventIn.model_validate(
        {"command_id": cid(), "event": {"type": "seat", "tables": [["Ann", "Bea", None, "Dee"]]}}
    )
    assert body.event_dict() == {"type": "seat", "tables": [["Ann", "Bea", None, "Dee"]]}
    assert {
        "judge",
        "absent",
        "present",
        "break",
        "end_break",
        "drawing",
        "close_cards",
    } == HOST_KINDS


def test_one_model_per_name(spec: dict[str, Any]) -> None:
    """No component is published twice under suffixed names (``X-Input``, ``X-Output``), and
    no request body is named ``Command`` (the write path's queued command has that name)."""
    names = list(spec["components"]["schemas"])
    assert not [n for n in names if n.endswith(("-Input", "-Output")) or "__" in n]
    assert "Command" not in names and "CommandBody" in names


def test_the_event_list_and_the_night_match_their_documented_reply_schemas(client, night):
    """GET .../events starts with the party line (seq 0): its reply schema has it."""
    import schemathesis
    from schemathesis.specs.openapi.checks import response_schema_conformance

    schema = schemathesis.openapi.from_dict(client.app.openapi())
    assert night.roll(1, [2, 3, 5]).status_code == 200
    for path in ("/api/nights/{night_id}/events", "/api/nights/{night_id}"):
        reply = client.get(path.replace("{night_id}", night.id), headers=night.host)
        assert reply.status_code == 200
        case = schema[path]["GET"].Case(path_parameters={"night_id": night.id})
        case.validate_response(reply, checks=[response_schema_conformance])  # raises if not
    events = client.get(night.url("/events"), headers=night.host).json()["events"]
    assert events[0]["event"]["type"] == "party"
    mapping = client.app.openapi()["components"]["schemas"]["StoredEventOut"]["properties"]
    assert mapping["event"]["discriminator"]["mapping"]["party"].endswith("/PartyLine")


def test_a_club_share_of_an_empty_night_id_is_a_422_not_a_500(any_db_url):
    from fastapi.testclient import TestClient
    from test_api_club import make_club

    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        club, token = make_club(client)
        for body in ({"night": ""}, {"night": "", "season": "2026"}, {}):
            reply = client.post(f"/api/clubs/{club}/shares", json=body, headers=token)
            assert reply.status_code == 422, (body, reply.text)
