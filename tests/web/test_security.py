"""Who may do what: table codes write to their table only; no token, no write."""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from web_helpers import bearer, cid, make_night

WRITES = [
    ("post", "/tables/1/rolls", {"dice": [1, 2, 3]}),
    ("post", "/tables/1/undo", {}),
    ("post", "/rolloff", {"roll_for_me": True}),
    ("post", "/substitutes", {"out": "Ann", "in": "Zoe"}),
    ("post", "/arrivals", {"player": "Zoe"}),
    ("post", "/departures", {"player": "Ann"}),
    ("post", "/verifications", {"player": "Ann"}),
    ("post", "/end", {}),
    ("post", "/start", {}),
    ("post", "/seating", {"tables": [["Ann", "Bea", "Cat", "Dee"]]}),
    ("post", "/events", {"event": {"type": "roll", "table": 1, "dice": [1, 2, 3]}}),
    ("post", "/me/roll", {"roll_for_me": True}),
]


def test_no_token_no_write(client, night):
    for method, tail, body in WRITES:
        reply = client.request(method, night.url(tail), json={"command_id": cid(), **body})
        assert reply.status_code == 401, (tail, reply.text)
        assert reply.json()["error"] == "unauthorized"
        assert "token" in reply.json()["expected"]
    for method, tail, body in [
        ("put", "/bots", {"players": []}),
        ("post", "/tables/1/credentials", None),
        ("delete", "/tables/1/scorekeepers", None),
    ]:
        reply = client.request(method, night.url(tail), json=body)
        assert reply.status_code == 401, tail
    bogus = bearer("not-a-token-of-anything-at-all-xyz")
    assert night.roll(1, [1, 2, 3], headers=bogus).status_code == 401
    assert night.seq() == 0


def test_viewer_reads_but_never_writes(client, night):
    for method, tail, body in WRITES:
        reply = client.request(
            method, night.url(tail), json={"command_id": cid(), **body}, headers=night.viewer
        )
        assert reply.status_code == 403, (tail, reply.text)
    assert client.get(night.url("/standings"), headers=night.viewer).status_code == 200
    assert night.seq() == 0


def test_a_table_code_cannot_write_to_another_table(client, night):
    table2 = night.table_token(2)
    refused = night.roll(1, [1, 2, 3], headers=table2)
    assert refused.status_code == 403
    assert "table 2" in refused.json()["message"]
    undo = client.post(night.url("/tables/1/undo"), json={"command_id": cid()}, headers=table2)
    assert undo.status_code == 403
    sneaky = client.post(
        night.url("/events"),
        json={"command_id": cid(), "event": {"type": "roll", "table": 1, "dice": [1, 1, 1]}},
        headers=table2,
    )
    assert sneaky.status_code == 403
    host_only = client.post(
        night.url("/substitutes"),
        json={"command_id": cid(), "out": "Ann", "in": "Zoe"},
        headers=table2,
    )
    assert host_only.status_code == 403
    assert night.seq() == 0
    assert night.roll(2, [1, 2, 3], headers=table2).status_code == 200


def test_tokens_of_one_night_are_worthless_at_another(client, night):
    other = make_night(client)
    their_table = other.table_token(1)
    assert night.roll(1, [1, 2, 3], headers=their_table).status_code == 403
    assert night.roll(1, [1, 2, 3], headers=other.host).status_code == 403
    assert night.seq() == 0


def test_join_codes_and_qr_tokens_make_scorekeepers(client, night):
    creds = night.created["tables"][0]
    by_code = client.post("/api/join", json={"code": creds["code"].lower()})  # case-free
    by_link = client.post("/api/join", json={"token": creds["token"]})
    assert by_code.json()["table"] == by_link.json()["table"] == 1
    assert by_code.json()["token"] != by_link.json()["token"]
    # the join credentials themselves are no bearer tokens: they write and read nothing
    for credential in (creds["token"], creds["code"]):
        refused = night.roll(1, [1, 2, 3], headers=bearer(credential))
        assert refused.status_code == 401 and "/api/join" in refused.json()["expected"]
        assert client.get("/api/me", headers=bearer(credential)).status_code == 401
    wrong = client.post("/api/join", json={"code": "ZZZZZZ"})
    assert wrong.status_code == 404 and wrong.json()["expected"]


def test_rotating_join_codes_keeps_joined_phones(client, night):
    phone = night.table_token(1)
    old = night.created["tables"][0]
    fresh = client.post(night.url("/tables/1/credentials"), headers=night.host)
    assert fresh.status_code == 200 and fresh.json()["code"] != old["code"]
    assert client.post("/api/join", json={"code": old["code"]}).status_code == 404
    assert client.post("/api/join", json={"code": fresh.json()["code"]}).status_code == 200
    assert night.roll(1, [1, 2, 3], headers=phone).status_code == 200
    out = client.delete(night.url("/tables/1/scorekeepers"), headers=night.host)
    assert out.json()["revoked"] == 2
    assert night.roll(1, [1, 2, 3], headers=phone).status_code == 401


def test_guessing_join_codes_is_rate_limited(client, night):
    codes = [client.post("/api/join", json={"code": f"GUES{i:02d}"}).status_code for i in range(15)]
    assert codes[:10] == [404] * 10
    assert codes[-1] == 429
    real = client.post("/api/join", json={"code": night.created["tables"][0]["code"]})
    assert real.status_code == 429  # blocked for a while, even with the right code


def test_a_player_rolls_only_on_their_own_turn(client, night):
    ann = client.post(night.url("/claim"), json={"name": "ann"}, headers=night.viewer)
    assert ann.status_code == 200 and ann.json()["player"] == "Ann"
    ann_h = bearer(ann.json()["token"])
    again = client.post(night.url("/claim"), json={"name": "Ann"}, headers=night.viewer)
    assert again.status_code == 409
    bea = bearer(
        client.post(night.url("/claim"), json={"name": "Bea"}, headers=night.viewer).json()["token"]
    )
    assert (
        client.post(
            night.url("/me/roll"), json={"command_id": cid(), "roll_for_me": True}, headers=bea
        ).status_code
        == 409
    )
    assert night.roll(1, [1, 2, 3], headers=bea).status_code == 409
    assert night.roll(1, outcome="+1", headers=ann_h).status_code == 403  # no tallies
    assert night.roll(1, [2, 3, 5], headers=ann_h, player="Bea").status_code == 403
    mine = client.post(
        night.url("/me/roll"), json={"command_id": cid(), "dice": [2, 3, 5]}, headers=ann_h
    )
    assert mine.status_code == 200 and mine.json()["event"]["player"] == "Ann"
    assert night.roll(1, [2, 3, 5], headers=bea).status_code == 200  # now Bea's turn
    me = client.get("/api/me", headers=bea).json()
    assert me == {"night": night.id, "role": "player", "table": None, "player": "Bea"}
    released = client.delete(night.url("/players/Ann/claim"), headers=night.host)
    assert released.json()["revoked"] == 1
    assert client.get(night.url(), headers=ann_h).status_code == 401


def test_only_hashes_of_bearer_tokens_are_stored(client, night, db_url):
    """Bearer tokens (the host's, the viewer's, a joined phone's) are stored only as hashes;
    a table's join code and QR token, printed on its card, are kept readable in the
    night's join cards only (docs/server.md), never in the tokens or the events."""
    joined = client.post("/api/join", json={"code": night.created["tables"][0]["code"]})
    bearers = [night.created["host_token"], night.created["viewer_token"], joined.json()["token"]]
    printed = [night.created["tables"][0]["token"], night.created["tables"][0]["code"]]
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        rows = {
            table: "\n".join(str(row) for row in conn.execute(sa.text(f"SELECT * FROM {table}")))
            for table in ("tokens", "nights", "events")
        }
        hashes = {r[0] for r in conn.execute(sa.text("SELECT hash FROM tokens"))}
        options = conn.execute(sa.text("SELECT options FROM nights")).scalar_one()
    engine.dispose()
    dump = "\n".join(rows.values())
    for secret in bearers:
        assert secret not in dump
    for secret in printed:
        assert secret not in rows["tokens"] and secret not in rows["events"]
        assert secret in str(options)  # the join cards the night's hosts print
    for token in (night.created["host_token"], joined.json()["token"]):
        assert hashlib.sha256(token.encode()).hexdigest() in hashes


def test_creation_can_require_a_server_secret(db_url):
    from fastapi.testclient import TestClient

    from bunco.web.app import create_app

    with TestClient(create_app(db_url, create_secret="s3cret")) as c:
        body = {"players": ["Ann", "Bea"]}
        assert c.post("/api/nights", json=body).status_code == 401
        assert c.post("/api/nights", json=body, headers=bearer("nope")).status_code == 401
        assert c.post("/api/nights", json=body, headers=bearer("s3cret")).status_code == 201


def test_creation_off_the_servers_machine_needs_the_secret(db_url):
    from fastapi.testclient import TestClient

    from bunco.web.app import create_app

    body = {"players": ["Ann", "Bea"]}
    with TestClient(
        create_app(db_url, create_secret="s3cret"), client=("192.168.1.30", 50000)
    ) as phone:
        refused = phone.post("/api/nights", json=body)
        assert refused.status_code == 401 and refused.json()["error"] == "unauthorized"
        assert "?secret=" in refused.json()["expected"]
        assert phone.post("/api/nights", json=body, headers=bearer("s3cret")).status_code == 201
    for here in ("127.0.0.1", "::1"):  # the computer the server runs on needs no secret
        with TestClient(create_app(db_url, create_secret="s3cret"), client=(here, 50000)) as laptop:
            assert laptop.post("/api/nights", json=body).status_code == 201


def test_a_creation_command_id_must_be_the_clients_own_random_id(client):
    body = {"players": ["Ann", "Bea", "Cat", "Dee"]}
    for short in ("1", "abc", "0123456789abcde"):
        reply = client.post("/api/nights", json={**body, "command_id": short})
        assert reply.status_code == 422 and reply.json()["error"] == "invalid_request"
        assert reply.json()["message"] == "command_id: String should have at least 16 characters"
        assert reply.json()["expected"]
    assert len(client.app.state.service.store.nights()) == 0  # type: ignore[attr-defined]
    mine = client.post("/api/nights", json={**body, "command_id": "9f1c2e7a5b3d4c6e"})
    again = client.post("/api/nights", json={**body, "command_id": "9f1c2e7a5b3d4c6e"})
    assert mine.status_code == again.status_code == 201
    assert mine.json()["host_token"] == again.json()["host_token"]  # a retry, as before
    # the documented schema says so: a creation id of 16 characters at least, while a
    # command's id (an entry's, scoped by its token) may be short
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    creation = [
        s
        for s in schemas["NightCreate"]["properties"]["command_id"]["anyOf"]
        if s.get("type") == "string"
    ]
    assert [(s["minLength"], s["maxLength"]) for s in creation] == [(16, 100)]
    assert schemas["CommandBody"]["properties"]["command_id"]["minLength"] == 1
