"""A revoked token's WebSockets close at once (here, and on another PostgreSQL process);
a client's WebSocket messages are capped."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import EIGHT, bearer, make_night
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bunco.web.app import create_app
from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, free_port


def _until_closed(ws: Any) -> tuple[list[dict[str, Any]], int]:
    """The messages a TestClient socket gets until it is closed, and the close code."""
    seen = []
    try:
        while True:
            seen.append(ws.receive_json())
    except WebSocketDisconnect as closed:
        return seen, closed.code


def _open(
    stack: contextlib.ExitStack, client: TestClient, night: Any, token: str, query: str = ""
) -> Any:
    ws = stack.enter_context(
        client.websocket_connect(night.url(f"/ws?token={token}&since=0{query}"))
    )
    assert ws.receive_json()["type"] == "hello"
    assert ws.receive_json()["type"] == "caught_up"
    return ws


def test_revoking_closes_the_revoked_tokens_sockets_and_no_other(client, night):
    phone = night.table_token(1)["Authorization"].split()[1]
    other_phone = night.table_token(2)["Authorization"].split()[1]
    ann = client.post(night.url("/claim"), json={"name": "Ann"}, headers=night.viewer).json()
    made = client.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host).json()
    with contextlib.ExitStack() as stack:
        _follow_and_revoke(stack, client, night, phone, other_phone, ann, made)
    assert client.app.state.sockets.count(night.id) == 0  # type: ignore[attr-defined]


def _follow_and_revoke(
    stack: contextlib.ExitStack,
    client: TestClient,
    night: Any,
    phone: str,
    other_phone: str,
    ann: dict[str, Any],
    made: dict[str, Any],
) -> None:
    table1 = _open(stack, client, night, phone, "&table=1")
    table2 = _open(stack, client, night, other_phone, "&table=2")
    player = _open(stack, client, night, ann["token"], "&player=Ann")
    cohost = _open(stack, client, night, made["token"])
    assert client.app.state.sockets.count(night.id) == 4  # type: ignore[attr-defined]

    assert (
        client.delete(night.url("/tables/1/scorekeepers"), headers=night.host).json()["revoked"]
        == 1
    )
    seen, code = _until_closed(table1)
    assert code == 4401 and seen[-1]["error"] == "unauthorized"
    assert "revoked" in seen[-1]["message"]

    assert client.delete(night.url("/players/Ann/claim"), headers=night.host).status_code == 200
    assert _until_closed(player)[1] == 4401
    assert client.delete(night.url("/cohosts/1"), headers=night.host).status_code == 200
    assert _until_closed(cohost)[1] == 4401

    # table 2's phone was not revoked: it still hears the night
    assert night.roll(2, [2, 3, 5]).status_code == 200
    assert table2.receive_json()["type"] == "event"
    table2.send_json({"type": "ping"})
    while table2.receive_json()["type"] != "pong":
        pass


def test_a_message_above_4_kib_closes_the_socket_with_1009(client, night):
    with contextlib.ExitStack() as stack:
        ws = _open(stack, client, night, night.created["viewer_token"])
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 4000}))
        assert ws.receive_json()["type"] == "pong"  # within the cap: answered
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert _until_closed(ws)[1] == 1009


@pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)
def test_revoking_on_one_process_closes_the_sockets_on_the_other(tmp_path):
    with wiped_postgres() as url:
        a = ServeProcess(url, free_port(), tmp_path / "a.log")
        b = ServeProcess(url, free_port(), tmp_path / "b.log")
        try:
            a.start()
            b.start()
            with contextlib.ExitStack() as sockets_open:  # closed before the servers stop
                night = httpx.post(a.base + "/api/nights", json={"players": EIGHT}).json()
                nid, host = night["night"], bearer(night["host_token"])
                joined = httpx.post(
                    a.base + "/api/join", json={"code": night["tables"][0]["code"]}
                ).json()
                cohost = httpx.post(
                    f"{a.base}/api/nights/{nid}/cohosts", json={}, headers=host
                ).json()
                sockets = {}
                for name, token, query in (
                    ("table", joined["token"], "&table=1"),
                    ("cohost", cohost["token"], ""),
                    ("viewer", night["viewer_token"], ""),
                ):
                    ws = sockets_open.enter_context(
                        connect(
                            f"ws://127.0.0.1:{b.port}/api/nights/{nid}/ws?token={token}&since=0{query}"
                        )
                    )
                    assert json.loads(ws.recv(timeout=10))["type"] == "hello"
                    assert json.loads(ws.recv(timeout=10))["type"] == "caught_up"
                    sockets[name] = ws
                for path, name in (("/tables/1/scorekeepers", "table"), ("/cohosts/1", "cohost")):
                    started = time.monotonic()
                    assert (
                        httpx.delete(f"{a.base}/api/nights/{nid}{path}", headers=host).status_code
                        == 200
                    )
                    ws = sockets[name]
                    error = json.loads(ws.recv(timeout=5))
                    with pytest.raises(ConnectionClosed):
                        ws.recv(timeout=5)
                    assert error["error"] == "unauthorized" and ws.close_code == 4401, name
                    assert time.monotonic() - started < 3, name
                # the viewer's socket on B still hears the night
                httpx.post(
                    f"{a.base}/api/nights/{nid}/tables/1/rolls",
                    json={"command_id": "r1", "dice": [2, 3, 5]},
                    headers=host,
                )
                assert json.loads(sockets["viewer"].recv(timeout=10))["type"] == "event"
                sockets["viewer"].close()
        finally:
            a.stop()
            b.stop()


def test_a_revoked_sockets_token_no_longer_reads(db_url):
    with TestClient(create_app(db_url, bot_pace=0)) as client:
        night = make_night(client)
        phone = night.table_token(1)["Authorization"].split()[1]
        client.delete(night.url("/tables/1/scorekeepers"), headers=night.host)
        ws = client.websocket_connect(night.url(f"/ws?token={phone}"))
        with ws:
            message = ws.receive_json()
            assert message["error"] == "unauthorized"
