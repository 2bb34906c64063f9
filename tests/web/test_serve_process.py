"""The real `bunco serve`: two clients play over HTTP and WebSocket, the server is killed
with SIGKILL mid-round, restarted on the same database, and nothing acknowledged is lost."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from serve_process import log_holds_every_acknowledged, run_until_acknowledged, small_dice

pytestmark = pytest.mark.slow
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_sigkill_mid_round_loses_nothing_acknowledged(server):
    http = httpx.Client(base_url=server.base, timeout=5)
    created = http.post("/api/nights", json={"name": "Kill test", "players": EIGHT}).json()
    night = created["night"]
    host = {"Authorization": f"Bearer {created['host_token']}"}
    phones = {}
    for table in (1, 2):  # two clients: the scorekeepers of table 1 and table 2
        joined = http.post("/api/join", json={"code": created["tables"][table - 1]["code"]})
        phones[table] = {"Authorization": f"Bearer {joined.json()['token']}"}

    heard: list[int] = []
    listening = threading.Event()

    def listen() -> None:
        url = f"ws://127.0.0.1:{server.port}/api/nights/{night}/ws?token={created['viewer_token']}"
        try:
            with connect(url) as ws:
                listening.set()
                for text in ws:
                    message = json.loads(text)
                    if message["type"] == "event":
                        heard.append(message["seq"])
        except Exception:
            pass  # the server was killed

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert listening.wait(10)

    acked: dict[str, int] = {}  # command id -> seq, for every 200 reply
    sent: list[tuple[int, str, int]] = []
    stop = threading.Event()

    def writer(table: int) -> None:
        client = httpx.Client(base_url=server.base, timeout=5)
        version = 0
        for i in range(10_000):
            if stop.is_set():
                return
            command = f"t{table}-{i}"
            sent.append((table, command, version))
            try:
                reply = client.post(
                    f"/api/nights/{night}/tables/{table}/rolls",
                    headers=phones[table],
                    json={"command_id": command, "dice": small_dice(i), "expected_seq": version},
                )
            except httpx.HTTPError:
                return  # killed while this request was in flight: not acknowledged
            assert reply.status_code == 200, reply.text
            acked[command] = reply.json()["seq"]
            version = reply.json()["seq"]

    writers = [threading.Thread(target=writer, args=(t,)) for t in (1, 2)]
    run_until_acknowledged(writers, acked, 40)
    server.kill()  # mid-round, with both writers sending
    stop.set()
    for t in writers:
        t.join(10)
    listener.join(10)

    server.start()  # same database
    events = http.get(f"/api/nights/{night}/events", headers=host).json()["events"]
    by_id = log_holds_every_acknowledged(events, acked)
    seqs = [e["seq"] for e in events]
    assert heard == seqs[: len(heard)]  # the live stream had no gaps or duplicates
    assert len(events) >= len(acked) + 1

    # retrying every command that was sent (acknowledged or not) applies each at most once
    for table, command, version in sent[-4:]:
        i = int(command.split("-")[1])
        reply = http.post(
            f"/api/nights/{night}/tables/{table}/rolls",
            headers=phones[table],
            json={"command_id": command, "dice": small_dice(i), "expected_seq": version},
        )
        assert reply.status_code in (200, 409), reply.text
        if command in by_id:
            assert reply.json()["duplicate"] is True and reply.json()["seq"] == by_id[command]

    # a listener that reconnects with the last seq it heard gets the rest, then live
    last_heard = heard[-1] if heard else -1
    url = (
        f"ws://127.0.0.1:{server.port}/api/nights/{night}/ws"
        f"?token={created['viewer_token']}&since={last_heard}"
    )
    with connect(url) as ws:
        caught: list[int] = []
        upto = None
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=5))
            if message["type"] == "hello":
                upto = message["seq"]
            elif message["type"] == "event":
                caught.append(message["seq"])
            elif message["type"] == "caught_up":
                break
        assert heard + caught == list(range(upto + 1))
        # the night continues: the round is still under way, the next roll is accepted
        state = http.get(f"/api/nights/{night}", headers=host).json()
        assert state["status"]["round"] == 1 and state["status"]["phase"] == "playing"
        version = state["versions"]["1"]
        reply = http.post(
            f"/api/nights/{night}/tables/1/rolls",
            headers=phones[1],
            json={"command_id": "after-restart", "dice": [2, 3, 5], "expected_seq": version},
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["seq"] == upto + 1
        live = json.loads(ws.recv(timeout=5))
        assert live["seq"] == upto + 1 and live["command_id"] == "after-restart"
    http.close()
