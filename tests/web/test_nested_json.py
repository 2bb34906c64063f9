"""JSON nested deeper than anything the API reads (``[[[[…`` thousands deep) is refused in
the documented error shape, never a 500: in a query (``rules.json?house=``), in a request
body, and in a socket message (ignored like any message that is not a ping)."""

from __future__ import annotations

import json

import pytest
from test_ws import until_caught_up, ws_url

DEEP = {
    "arrays": "[" * 3_990,
    "arrays closed": "[" * 1_990 + "]" * 1_990,
    "in a rule": '{"wipeout": ' + "[" * 3_900 + "]" * 10 + "}",
    "objects": '{"a":' * 600 + "1" + "}" * 600,
}


@pytest.mark.parametrize("house", DEEP.values(), ids=DEEP.keys())
def test_rules_json_refuses_deep_house_rules(client, house):
    reply = client.get("/pages/rules.json", params={"preset": "classic", "house": house})
    assert reply.status_code == 422
    assert reply.json() == {
        "error": "invalid_request",
        "message": "house is JSON nested more than 32 levels deep",
        "expected": 'a JSON object of rule names and values such as {"wipeout": true}',
    }


def test_rules_json_longer_than_its_limit_is_refused_by_the_schema(client):
    reply = client.get("/pages/rules.json", params={"preset": "classic", "house": "[" * 10_000})
    assert reply.status_code == 422 and reply.json()["error"] == "invalid_request"
    assert "at most 4000 characters" in reply.json()["message"] and reply.json()["expected"]


def test_rules_json_still_reads_house_rules_and_brackets_inside_strings(client):
    reply = client.get(
        "/pages/rules.json", params={"preset": "classic", "house": json.dumps({"wipeout": True})}
    )
    assert reply.status_code == 200 and reply.json()["rules"]["wipeout"] is True
    text = json.dumps({"wipeout": "[" * 100})  # a string: no nesting, the rules refuse it
    refused = client.get("/pages/rules.json", params={"preset": "classic", "house": text})
    assert refused.status_code == 422 and "nested" not in refused.json()["message"]


@pytest.mark.parametrize(
    "body", ["[" * 10_000 + "]" * 10_000, '{"players": ' + "[" * 5_000 + "]" * 5_000 + "}"]
)
def test_a_deep_request_body_is_a_400_in_the_error_shape(client, body):
    reply = client.post("/api/nights", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 400
    assert reply.json()["error"] == "bad_request" and reply.json()["expected"]
    assert len(client.app.state.service.store.nights()) == 0  # type: ignore[attr-defined]


def test_a_deep_socket_message_is_ignored_and_the_socket_keeps_answering(client, night):
    with client.websocket_connect(ws_url(night, night.created["viewer_token"])) as ws:
        until_caught_up(ws)
        ws.send_text("[" * 4_000)
        ws.send_text(json.dumps({"type": "ping"}))
        assert json.loads(ws.receive_text())["type"] == "pong"
