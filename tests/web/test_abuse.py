"""The holes of issue 11 stay closed: guessing, strict input, reused ids, names, retries."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import EIGHT, bearer, cid, make_night

from bunco.core.events import dump_event
from bunco.web.app import create_app

# -- guessing ------------------------------------------------------------------------------


def test_a_thousand_wrong_codes_meet_429s_and_no_code_is_a_bearer(client, night):
    statuses = []
    for i in range(1000):
        reply = client.post("/api/join", json={"code": f"{i:06d}"[-6:].replace("0", "Z")})
        statuses.append(reply.status_code)
    # ten wrong codes a minute, then one attempt every 30 s (the slow path)
    assert statuses[:11] == [404] * 11
    assert set(statuses[11:]) == {429}
    refused = client.post("/api/join", json={"code": night.created["tables"][0]["code"]})
    assert refused.status_code == 429  # even the right code: no oracle while blocked
    wait = int(refused.headers["retry-after"])
    assert 1 <= wait <= 30 and refused.json()["retry_after"] == wait
    # every join credential, as a bearer token anywhere, is refused
    for creds in night.created["tables"]:
        for credential in (creds["code"], creds["token"]):
            for path in ("/api/me", night.url(), night.url("/events")):
                assert client.get(path, headers=bearer(credential)).status_code in (401, 429)


def test_unknown_bearer_tokens_are_limited_per_client_and_per_night(db_url):
    with TestClient(create_app(db_url, bot_pace=0)) as client:
        night = make_night(client)
        statuses = [
            client.get(night.url(), headers=bearer(f"made-up-token-{i:020d}")).status_code
            for i in range(1000)
        ]
        assert statuses[:11] == [401] * 11  # ten, then one on the slow path
        assert set(statuses[11:]) == {429}
        # the host's token, already known to this process, still reads
        assert client.get(night.url(), headers=night.host).status_code == 200
    # behind a trusted proxy, each client is counted by the address the proxy names
    with TestClient(create_app(db_url, bot_pace=0, trusted_proxies=["testclient"])) as client:
        for address in ("10.0.0.1", "10.0.0.2"):
            headers = {"x-forwarded-for": address}
            codes = [
                client.post("/api/join", json={"code": "ZZZZZZ"}, headers=headers).status_code
                for _ in range(12)
            ]
            assert codes == [404] * 11 + [429], address


def test_forwarded_headers_are_ignored_without_a_trusted_proxy(client):
    codes = [
        client.post(
            "/api/join", json={"code": "ZZZZZZ"}, headers={"x-forwarded-for": f"10.1.0.{i}"}
        ).status_code
        for i in range(12)
    ]
    assert codes == [404] * 11 + [429]  # one client, whatever it claims to forward


def test_typed_codes_past_the_server_budget_go_slow_but_never_lock_the_room_out(db_url):
    from bunco.web.gate.guard import Guard

    guard = Guard(typed_codes="30/hour")
    with TestClient(
        create_app(db_url, bot_pace=0, guard=guard, trusted_proxies=["testclient"])
    ) as client:
        night = make_night(client)
        codes = [
            client.post(
                "/api/join",
                json={"code": "ZZZZZZ"},
                headers={"x-forwarded-for": f"10.2.{i // 10}.{i}"},
            ).status_code
            for i in range(30)
        ]
        assert codes == [404] * 30  # the server's budget of wrong typed codes is spent
        # every address is on the slow path now: one attempt each every 30 s
        guesser = {"x-forwarded-for": "10.2.9.1"}
        slow = [
            client.post("/api/join", json={"code": "ZZZZZZ"}, headers=guesser).status_code
            for _ in range(3)
        ]
        assert slow == [404, 429, 429]
        # the right code from an address that has not guessed gets in at once
        code = night.created["tables"][0]["code"]
        joined = client.post(
            "/api/join", json={"code": code}, headers={"x-forwarded-for": "10.3.0.7"}
        )
        assert joined.status_code == 200 and joined.json()["table"] == 1
        # the QR link's long token is no guessable code: it still joins
        joined = client.post(
            "/api/join",
            json={"token": night.created["tables"][0]["token"]},
            headers={"x-forwarded-for": "10.3.0.1"},
        )
        assert joined.status_code == 200


# -- bodies --------------------------------------------------------------------------------


def test_bodies_above_their_cap_get_413_before_they_are_read(client, night):
    big = json.dumps({"players": EIGHT, "name": "x" * (2 * 1024 * 1024)})
    reply = client.post("/api/nights", content=big, headers={"content-type": "application/json"})
    assert reply.status_code == 413 and reply.json()["error"] == "too_large"
    roll = {"command_id": cid(), "dice": [1, 2, 3], "player": "A" * 20_000}
    fast = client.post(night.url("/tables/1/rolls"), json=roll, headers=night.host)
    assert fast.status_code == 413 and "16384" in fast.json()["expected"]

    def chunks() -> Any:  # no Content-Length: counted as it streams
        yield b'{"players": ["Ann", "Bea"], "name": "'
        for _ in range(100):
            yield b"y" * 65536
        yield b'"}'

    streamed = client.post(
        "/api/nights", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413 and streamed.json()["error"] == "too_large"
    assert night.seq() == 0 and len(client.app.state.service.store.nights()) == 1  # type: ignore[attr-defined]


# -- strict input --------------------------------------------------------------------------

NOT_FINITE = [
    '{"players": ["Ann", "Bea"], "house_rules": {"team_target": Infinity}}',
    '{"players": ["Ann", "Bea"], "house_rules": {"team_target": 1e999}}',
    '{"players": ["Ann", "Bea"], "house_rules": {"team_target": NaN}}',
    '{"players": ["Ann", "Bea"], "bot_pace": Infinity}',
    '{"players": ["Ann", "Bea"], "house_rules": {"team_target": 1e300}}',
]
CONTROL = ["A\u0000B", "Tab\there", "New\nline", "Bell\u0007", "C1\u0085", "\ud800"]


def test_non_finite_numbers_and_control_characters_get_422_on_both_databases(any_db_url):
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        for text in NOT_FINITE:
            reply = client.post(
                "/api/nights", content=text, headers={"content-type": "application/json"}
            )
            assert reply.status_code == 422, (text, reply.text)
        for bad in CONTROL:
            body = json.dumps({"players": ["Ann", bad], "name": "ok"})
            reply = client.post(
                "/api/nights", content=body, headers={"content-type": "application/json"}
            )
            assert reply.status_code == 422, (bad, reply.text)
            assert any(w in reply.text for w in ("control characters", "surrogate", "string"))
            named = json.dumps({"players": ["Ann", "Bea"], "name": f"night {bad}"})
            assert (
                client.post(
                    "/api/nights", content=named, headers={"content-type": "application/json"}
                ).status_code
                == 422
            )
        night = make_night(client)
        for bad in CONTROL:
            for reply in (
                client.post(
                    night.url("/claim"),
                    content=json.dumps({"name": bad}),
                    headers={**night.viewer, "content-type": "application/json"},
                ),
                client.post(
                    night.url("/arrivals"),
                    content=json.dumps({"command_id": cid(), "player": bad}),
                    headers={**night.host, "content-type": "application/json"},
                ),
                client.get(night.url(f"/players/{_quote(bad)}/card"), headers=night.host),
                client.delete(night.url(f"/players/{_quote(bad)}/claim"), headers=night.host),
            ):
                assert reply.status_code in (404, 422), reply.text
        assert night.seq() == 0
        assert len(client.app.state.service.store.nights()) == 1  # type: ignore[attr-defined]


BAD_DICE: list[Any] = [
    [True, 1, 1],
    ["1", 1, 1],
    [1.0, 1, 1],
    [1, 1],
    [0, 1, 1],
    [1, 1, 7],
    [1, 1, None],
    "111",
]


def test_one_strict_check_of_dice_on_every_write_path(client, night):
    ann = client.post(night.url("/claim"), json={"name": "Ann"}, headers=night.viewer).json()
    for dice in BAD_DICE:
        for path, body, who in (
            ("/tables/1/rolls", {"dice": dice}, night.host),
            ("/events", {"event": {"type": "roll", "table": 1, "dice": dice}}, night.host),
            ("/rolloff", {"dice": dice}, night.host),
            ("/me/roll", {"dice": dice}, bearer(ann["token"])),
        ):
            reply = client.post(night.url(path), json={"command_id": cid(), **body}, headers=who)
            assert reply.status_code == 422, (path, dice, reply.text)
            assert reply.json()["error"] == "invalid_request"
    for body in (
        {"outcome": True},
        {"outcome": "lots"},
        {"dice": [1, 2, 3], "expected_seq": False},
        {"dice": [1, 2, 3], "expected_seq": "0"},
        {"roll_for_me": "yes"},
    ):
        reply = client.post(
            night.url("/tables/1/rolls"), json={"command_id": cid(), **body}, headers=night.host
        )
        assert reply.status_code == 422, (body, reply.text)
    for event in (
        {"type": "tally", "table": 1, "outcome": "lots"},
        {"type": "roll", "table": "1", "dice": [1, 2, 3]},
        {"type": "roll", "table": 1, "dice": [1, 2, 3], "id": "smuggled"},
    ):
        reply = client.post(
            night.url("/events"), json={"command_id": cid(), "event": event}, headers=night.host
        )
        assert reply.status_code == 422, (event, reply.text)
    assert night.seq() == 0
    good = client.post(
        night.url("/events"),
        json={"command_id": cid(), "event": {"type": "roll", "table": 1, "dice": [1, 1, 4]}},
        headers=night.host,
    )
    assert good.status_code == 200 and good.json()["event"] == {
        "type": "roll",
        "table": 1,
        "dice": [1, 1, 4],
    }


# -- command ids ---------------------------------------------------------------------------


def test_a_reused_command_id_with_another_request_is_409(client, night):
    join = client.post(
        night.url("/arrivals"), json={"command_id": "0", "player": "Zoe"}, headers=night.host
    )
    assert join.status_code == 200
    verify = client.post(
        night.url("/verifications"), json={"command_id": "0", "player": "Ann"}, headers=night.host
    )
    assert verify.status_code == 409 and verify.json()["error"] == "id_reused"
    assert verify.json()["seq"] == join.json()["seq"]
    assert "event" not in verify.json()  # never another command's event
    again = client.post(
        night.url("/arrivals"), json={"command_id": "0", "player": "Zoe"}, headers=night.host
    )
    assert again.json()["duplicate"] is True and again.json()["seq"] == join.json()["seq"]
    assert night.seq() == 1


def test_a_command_id_is_one_command_of_the_night_whoever_sends_it(client, night):
    """A retry under another token of the table (a phone that joined again from its QR
    link) or the host's gets the first answer and is stored once; the same id with another
    request is refused, never answered with another command's event."""
    phone_a, phone_b = night.table_token(1), night.table_token(1)
    first = night.roll(1, [2, 3, 5], headers=phone_a, command_id="c-1")
    second = night.roll(1, [2, 3, 5], headers=phone_b, command_id="c-1")
    host = night.roll(1, [2, 3, 5], command_id="c-1")
    assert first.status_code == second.status_code == host.status_code == 200
    assert first.json()["duplicate"] is False
    assert second.json()["duplicate"] is host.json()["duplicate"] is True
    assert second.json()["seq"] == host.json()["seq"] == first.json()["seq"] == 1
    other = night.roll(1, [6, 6, 5], headers=phone_b, command_id="c-1")
    assert other.status_code == 409 and other.json()["error"] == "id_reused"
    assert night.seq() == 1
    # nobody can take the bots' ids: theirs are random and in a space of their own
    host_bot_id = night.roll(1, [2, 3, 5], command_id="bot:2:1:Cat")
    assert host_bot_id.status_code == 200 and host_bot_id.json()["duplicate"] is False


def test_a_command_id_is_remembered_across_a_restart(db_url):
    """The store holds the night's command ids: after a restart (the night read again from
    its log) a retry under a new token of the table gets the first answer."""
    with TestClient(create_app(db_url, bot_pace=0)) as first:
        night = make_night(first)
        stored = night.roll(2, [2, 3, 5], headers=night.table_token(2), command_id="c-9")
        assert stored.status_code == 200
    with TestClient(create_app(db_url, bot_pace=0)) as second:
        night.client = second
        again = night.roll(2, [2, 3, 5], headers=night.table_token(2), command_id="c-9")
        assert again.status_code == 200, again.text
        assert (again.json()["duplicate"], again.json()["seq"]) == (True, stored.json()["seq"])
        assert night.seq() == 1


# -- names ---------------------------------------------------------------------------------


def test_names_equal_but_for_case_are_refused(client, night):
    for players in (["Ann", "ANN", "Bea"], ["Ann", "ann ", "Bea"], ["Bo  Li", "bo li", "X"]):
        reply = client.post("/api/nights", json={"players": players})
        assert reply.status_code == 422 and "same name" in reply.json()["message"], players
    arrival = client.post(
        night.url("/arrivals"), json={"command_id": cid(), "player": "ANN"}, headers=night.host
    )
    assert arrival.status_code == 409 and arrival.json()["error"] == "name_taken"
    swap = client.post(
        night.url("/substitutes"),
        json={"command_id": cid(), "out": "Bea", "in": "ann"},
        headers=night.host,
    )
    assert swap.status_code == 409 and night.seq() == 0


def test_a_name_with_a_slash_is_fetched_claimed_and_released(client):
    night = make_night(client, ["A/B", "C%D", "Dee?", "Eve#1"])
    for name in ("A/B", "C%D", "Dee?", "Eve#1"):
        path = night.url("/players/" + _quote(name))
        card = client.get(path + "/card", headers=night.viewer)
        assert card.status_code == 200 and card.json()["player"] == name, card.text
        claimed = client.post(night.url("/claim"), json={"name": name}, headers=night.viewer)
        assert claimed.status_code == 200 and claimed.json()["player"] == name
        released = client.delete(path + "/claim", headers=night.host)
        assert released.status_code == 200 and released.json() == {
            "night": night.id,
            "player": name,
            "revoked": 1,
        }
        assert client.get(night.url(), headers=bearer(claimed.json()["token"])).status_code == 401
    assert (
        client.get(night.url("/players/a%2Fb/card"), headers=night.viewer).json()["player"] == "A/B"
    )  # case does not matter, as in a claim
    assert client.get(night.url("/players/Zed/card"), headers=night.viewer).status_code == 404


def _quote(name: str) -> str:
    from urllib.parse import quote

    return quote(name, safe="", errors="surrogatepass")


# -- creation and the log ------------------------------------------------------------------


def test_a_retried_creation_returns_the_same_tokens_on_both_databases(any_db_url):
    body = {"players": EIGHT, "name": "Retry", "command_id": "3f7b2a90-0d1e-4c55-9a7e-1b2c3d4e5f60"}
    with TestClient(create_app(any_db_url, bot_pace=0)) as first:
        created = first.post("/api/nights", json=body)
        assert created.status_code == 201
    with TestClient(create_app(any_db_url, bot_pace=0)) as second:  # after a restart, too
        again = second.post("/api/nights", json=body)
        assert again.status_code == 201 and again.json() == created.json()
        store = second.app.state.service.store  # type: ignore[attr-defined]
        assert len(store.nights()) == 1
        # the night and every table's credentials were written together
        assert len(store.tokens(created.json()["night"])) == 2 + 2 * 2
        for secret in (created.json()["host_token"], created.json()["tables"][0]["code"]):
            assert all(secret not in repr(t) for t in store.tokens(created.json()["night"]))


def test_the_exported_log_holds_only_the_events_as_bunco_play_writes_them(client, night):
    night.roll(1, [1, 1, 4], command_id="first")
    night.roll(2, outcome="+1")
    text = client.get(night.url("/export/log.jsonl"), headers=night.viewer).text
    lines = text.splitlines()
    events = [json.loads(line) for line in lines]
    assert [dump_event(e) for e in events] == lines  # the one serializer, byte for byte
    assert events[1] == {"type": "roll", "table": 1, "dice": [1, 1, 4]}
    assert all("id" not in e and "at" not in e for e in events)
    listed = client.get(night.url("/events"), headers=night.viewer).json()["events"]
    assert listed[1]["command_id"] == "first" and listed[1]["at"].endswith("+00:00")


@pytest.mark.parametrize("value", [10**30, -(10**30), 1e300])
def test_out_of_range_house_rule_numbers_get_422(client, value):
    reply = client.post(
        "/api/nights", json={"players": EIGHT, "house_rules": {"team_target": value}}
    )
    assert reply.status_code == 422, reply.text
