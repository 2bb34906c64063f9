"""The live stream: backlog then live, reconnect with since, table filter, no gaps, no dups."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

MISS = [2, 3, 5]  # no 1: scores nothing in round 1, so the round never ends under a test


def ws_url(night, token: str, **params: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"token": token, **params}.items())
    return f"/api/nights/{night.id}/ws?{query}"


def receive(ws) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.receive_text())
    return message


def until_caught_up(ws) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    hello = receive(ws)
    assert hello["type"] == "hello"
    events = []
    while True:
        message = receive(ws)
        if message["type"] == "caught_up":
            assert message["seq"] == hello["seq"]
            return hello, events
        events.append(message)


def test_backlog_then_live_events_in_order(client, night):
    night.roll(1, [2, 3, 5])
    night.roll(2, [1, 5, 6])
    token = night.created["viewer_token"]
    with client.websocket_connect(ws_url(night, token)) as ws:
        hello, backlog = until_caught_up(ws)
        assert hello["seq"] == 2 and hello["role"] == "viewer"
        assert hello["status"]["round"] == 1
        assert [m["seq"] for m in backlog] == [0, 1, 2]
        assert backlog[0]["event"]["type"] == "party"
        assert backlog[2]["event"]["dice"] == [1, 5, 6]
        reply = night.roll(1, [1, 1, 4], player="Bea")
        live = receive(ws)
        assert live["type"] == "event" and live["seq"] == 3 == reply.json()["seq"]
        assert live["event"]["player"] == "Bea"
        assert live["table_view"]["team_scores"] == [0, 2]


def test_reconnecting_with_since_gives_the_rest_without_gaps_or_duplicates(client, night):
    token = night.created["host_token"]
    for _ in range(5):
        night.roll(1, MISS)
    with client.websocket_connect(ws_url(night, token, since=2)) as ws:
        _, backlog = until_caught_up(ws)
        assert [m["seq"] for m in backlog] == [3, 4, 5]
    for _ in range(3):
        night.roll(2, MISS)
    with client.websocket_connect(ws_url(night, token, since=5)) as ws:
        _, backlog = until_caught_up(ws)
        assert [m["seq"] for m in backlog] == [6, 7, 8]
        night.roll(2, MISS)
        assert receive(ws)["seq"] == 9


def test_no_gap_or_duplicate_while_events_arrive_during_connects(client, night):
    """A writer posts rolls while a listener keeps reconnecting with the last seq it saw."""
    token = night.created["host_token"]
    total = 60
    done = threading.Event()

    def writer() -> None:
        for i in range(total):
            table = 1 + i % 2
            assert night.roll(table, MISS).status_code == 200
        done.set()

    seen: list[int] = []
    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(seen) < total + 1:
            since = seen[-1] if seen else -1
            with client.websocket_connect(ws_url(night, token, since=since)) as ws:
                for _ in range(7):  # a few messages, then drop the connection
                    assert thread.is_alive() or done.is_set(), "the writer failed"
                    message = receive(ws)
                    if message["type"] == "event":
                        seen.append(message["seq"])
                    if len(seen) == total + 1:
                        break
    finally:
        thread.join()
    assert done.is_set()
    assert seen == list(range(total + 1))


def test_a_table_listener_gets_its_table_and_the_whole_night(client, night):
    token = night.created["viewer_token"]
    with client.websocket_connect(ws_url(night, token, table=2)) as ws:
        hello, backlog = until_caught_up(ws)
        assert hello["table_view"]["players"] == ["Eve", "Fay", "Gus", "Hal"]
        assert [m["seq"] for m in backlog] == [0]
        night.roll(1, [2, 3, 5])
        night.roll(2, [2, 3, 5])
        started = receive(ws)  # table 1's roll started the round: a status says so,
        assert started["type"] == "status" and started["status"]["started"] is True
        page = receive(ws)  # and this table's page, pushed (started too)
        assert page["type"] == "table" and page["table"] == 2 and page["view"]["started"]
        message = receive(ws)
        assert message["seq"] == 2 and message["table"] == 2  # table 1's roll is skipped
        assert message["table_view"]["roller"] == "Fay"
        # the head table's Bunco rings the bell: a status and this table's new view arrive
        night.roll(1, [1, 1, 1], player="Bea")
        status = receive(ws)
        assert status["type"] == "status" and status["status"]["bell"] is True
        assert "expects" not in status["status"]  # a phone's table message says whose turn
        table = receive(ws)
        assert table["type"] == "table" and table["table"] == 2
        # Fay had not started her turn, so table 2 stops at 0-0 and breaks the tie
        assert table["table_view"]["status"] == "tie_break"
        assert table["table_view"]["team_scores"] == [0, 0]


def test_a_round_change_reaches_every_table(client, night):
    token = night.created["viewer_token"]
    with client.websocket_connect(ws_url(night, token, table=2)) as ws:
        until_caught_up(ws)
        night.play_round()
        rounds = []
        while True:
            message = receive(ws)
            if message["type"] == "status":
                rounds.append(message["status"]["round"])
                if message["status"]["round"] == 2:
                    break
        follow = receive(ws)
        assert follow["type"] == "table" and follow["table"] == 2
        assert follow["table_view"]["rolls"] == 0


def test_a_big_screen_gets_the_full_status(client, night):
    with client.websocket_connect(ws_url(night, night.created["viewer_token"])) as ws:
        until_caught_up(ws)
        night.roll(1, [1, 1, 1])  # the bell
        assert receive(ws)["type"] == "event"
        status = receive(ws)
        assert status["type"] == "status"
        assert status["status"]["expects"] == [
            {"table": 1, "player": "Ann"},
            {"table": 2, "player": "Eve"},
        ]
        tables = [receive(ws) for _ in range(2)]
        assert [t["table"] for t in tables] == [1, 2]


def test_ping_pong(client, night):
    with client.websocket_connect(ws_url(night, night.created["viewer_token"])) as ws:
        until_caught_up(ws)
        ws.send_text(json.dumps({"type": "ping"}))
        assert receive(ws) == {"type": "pong", "seq": 0}


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({}, 4401),
        ({"token": "wrong-token-wrong-token-wrong"}, 4401),
        ({"token": "VIEWER", "since": "abc"}, 4422),
        ({"token": "VIEWER", "since": 99}, 4422),
        ({"token": "VIEWER", "table": 0}, 4422),
    ],
)
def test_refused_connections_say_why(client, night, params, code):
    params = {k: night.created["viewer_token"] if v == "VIEWER" else v for k, v in params.items()}
    query = "&".join(f"{k}={v}" for k, v in params.items())
    with client.websocket_connect(f"/api/nights/{night.id}/ws?{query}") as ws:
        error = receive(ws)
        assert error["type"] == "error" and error["message"] and error["expected"]
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_text()
        assert info.value.code == code


def test_unknown_night(client, night):
    with client.websocket_connect(
        f"/api/nights/nope/ws?token={night.created['viewer_token']}"
    ) as ws:
        error = receive(ws)
        assert error["type"] == "error"
        assert error["error"] in ("forbidden", "no_such_night")
