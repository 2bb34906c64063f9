"""Every message the server sends on a night's WebSocket is one of the socket's types
(bunco.web.values.socket_messages): a night played over three sockets (the big screen's,
a table's, a player's) and a refused one, each message checked against ``SocketMessage``
with no member its type does not name, at any depth; and the OpenAPI document publishes
the types."""

from __future__ import annotations

import json
import typing
from collections import Counter
from typing import Any

import pytest
from pydantic import ConfigDict, TypeAdapter, ValidationError
from web_helpers import cid

from bunco.web.app import create_app
from bunco.web.values.socket_messages import MESSAGES, SocketMessage

STRICT = TypeAdapter(SocketMessage, config=ConfigDict(extra="forbid"))
"""The messages' union, refusing a member no type names (the error message's extra
members, which a refusal may carry, aside)."""

SENTINEL = "Last orders"


def socket_url(night_id: str, token: str, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"token": token, **params}.items())
    return f"/api/nights/{night_id}/ws?{query}"


def read_until_sentinel(ws: Any) -> list[str]:
    """Every message up to the announcement made last (sent after all the others), then
    a ping's pong."""
    texts = []
    while True:
        text = ws.receive_text()
        texts.append(text)
        message = json.loads(text)
        if (
            message["type"] == "room"
            and (message["room"]["announcement"] or {}).get("text") == SENTINEL
        ):
            break
    ws.send_text('{"type": "ping"}')
    while True:
        text = ws.receive_text()
        texts.append(text)
        if json.loads(text)["type"] == "pong":
            return texts


def test_every_message_of_a_played_night_is_one_of_the_socket_types(client, night) -> None:
    host = night.created["host_token"]
    texts: list[str] = []
    with (
        client.websocket_connect(socket_url(night.id, host)) as screen,
        client.websocket_connect(socket_url(night.id, host, table=1)) as table,
        client.websocket_connect(socket_url(night.id, host, player="Ann")) as phone,
    ):
        reply = client.post(
            night.url("/checkin"), headers=night.host, json={"command_id": cid(), "player": "Ann"}
        )
        assert reply.status_code == 200, reply.text
        night.play_round()
        night.play_round()  # a new round: every table's page and the status move on
        reply = client.post(
            night.url("/announcements"),
            headers=night.host,
            json={"command_id": cid(), "text": SENTINEL},
        )
        assert reply.status_code == 200, reply.text
        for ws in (screen, table, phone):
            texts += read_until_sentinel(ws)
    with client.websocket_connect(socket_url(night.id, "not-a-token")) as refused:
        texts.append(refused.receive_text())

    kinds: Counter[str] = Counter()
    for text in texts:
        try:
            message = STRICT.validate_json(text)
        except ValidationError as exc:  # pragma: no cover - the failure's own words
            pytest.fail(f"{text[:300]}...\n{exc}")
        kinds[message["type"]] += 1
    seen = set(kinds)
    assert seen == {
        "hello",
        "event",
        "caught_up",
        "status",
        "table",
        "pong",
        "error",
        "checkin",
        "room",
    }
    assert kinds["hello"] == kinds["caught_up"] == kinds["pong"] == 3
    live = [json.loads(t) for t in texts if '"type":"event"' in t and '"status"' in t]
    assert any("entry" in m for m in live)  # a roll's entry, as in its reply
    assert any("ended" in m for m in live)  # and the roll that ended a round


def test_a_member_a_type_does_not_name_or_a_missing_one_is_refused() -> None:
    pong = {"type": "pong", "seq": 3}
    assert MESSAGES.validate_python(pong) == pong
    with pytest.raises(ValidationError, match="extra"):
        STRICT.validate_python({**pong, "night": "n"})
    with pytest.raises(ValidationError, match="seq"):
        STRICT.validate_python({"type": "caught_up"})
    with pytest.raises(ValidationError, match="does not match any of the expected tags"):
        STRICT.validate_python({"type": "ping", "seq": 1})


def test_the_openapi_document_publishes_every_socket_message(client) -> None:
    reply = client.get("/openapi.json")
    assert reply.status_code == 200
    spec = reply.json()
    assert spec == create_app().openapi()  # the same document, built once per app
    schemas = spec["components"]["schemas"]
    union = schemas["SocketMessage"]
    names = {typing.get_type_hints(t)["type"].__args__[0]: t.__name__ for t in _message_types()}
    assert union["discriminator"]["mapping"] == {
        kind: f"#/components/schemas/{name}" for kind, name in names.items()
    }
    for name in names.values():
        assert schemas[name]["properties"]["type"]["const"] in names
    hello = schemas["HelloMessage"]
    assert set(hello["required"]) == {"type", "night", "seq", "since", "table", "role", "status"}
    assert hello["properties"]["table_view"] == {"$ref": "#/components/schemas/TableView"}
    assert "team_scores" in schemas["TableView"]["properties"]
    event = schemas["EventMessage"]["properties"]["event"]
    assert {"$ref": "#/components/schemas/RollEvent"} in event["oneOf"]
    refs = _refs(spec)
    assert refs <= set(schemas)  # every schema a message refers to is there


def _message_types() -> tuple[Any, ...]:
    union = typing.get_args(SocketMessage)[0]
    return typing.get_args(union)


def _refs(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {value["$ref"].rsplit("/", 1)[1]} if isinstance(value.get("$ref"), str) else set()
        return found.union(*(_refs(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_refs(v) for v in value))
    return set()
