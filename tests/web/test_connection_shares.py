"""No client can keep the others out or grow the server's memory with its connections:
addresses that hold idle connections, pipelined requests never read, WebSocket floods
(issue 38, items 1 to 3). The real `bunco serve`, attacked from loopback addresses
(127.0.0.2, 127.0.0.3 ... are all loopback on Linux)."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import httpx
import websockets
from test_connections import _night, _serve
from uvicorn.config import Config
from uvicorn.server import ServerState

from bunco.web.server import connections
from bunco.web.server.connections import MAX_PIPELINE, GuardedHttpProtocol
from bunco.web.server.message_budget import BURST
from serve_process import small_dice

# the hostile laptop of benchmarks/abuse.py (abuse_phases.hold_idle), held to a test's size
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from abuse_phases import hold_idle


def test_two_addresses_holding_thousands_of_idle_connections_keep_nobody_out(
    tmp_path, monkeypatch, more_files
):
    # 2,048 connections in all (256 per address, 128 of them new), idle ones cut at 2 s
    srv = _serve(tmp_path, monkeypatch, "--max-connections", "2048", header=2.0)
    try:
        night: Any = _night(srv.base)
        context = multiprocessing.get_context("spawn")
        counts: Any = context.Queue()
        # 127.0.0.2 and .3 each try to hold 1,500 idle connections (together more than
        # the server's 2,048), reopened as soon as they are cut
        attack = context.Process(
            target=hold_idle, args=(srv.port, ["127.0.0.2", "127.0.0.3"], 1500, 8.0, counts)
        )
        attack.start()
        time.sleep(2.5)  # the two addresses are holding what the server lets them
        rolls: list[int] = []

        def table_rolls() -> None:  # a table's phone on its own address keeps scoring
            url = f"{srv.base}/api/nights/{night['night']}/tables/1/rolls"
            headers = {"authorization": f"Bearer {night['host_token']}"}
            transport = httpx.HTTPTransport(local_address="127.0.0.5")
            with httpx.Client(transport=transport, timeout=10) as table:
                for i in range(20):
                    body = {"command_id": f"r{i}", "dice": small_dice(i)}
                    rolls.append(table.post(url, json=body, headers=headers).status_code)
                    time.sleep(0.1)

        scorer = threading.Thread(target=table_rolls)
        scorer.start()
        took: list[float] = []
        statuses: list[int] = []
        for _ in range(40):  # a third address: each request on a new connection
            started = time.monotonic()
            transport = httpx.HTTPTransport(local_address="127.0.0.4")
            with httpx.Client(transport=transport, timeout=10) as phone:
                statuses.append(phone.get(srv.base + "/api/health").status_code)
            took.append(time.monotonic() - started)
            time.sleep(0.1)
        scorer.join()
        attack.join(timeout=60)
        held = counts.get(timeout=10)
    finally:
        srv.stop()
    # answered, not locked out: each within the client's 10 s (the old caps left 82 of 100
    # unanswered); how fast beside a quiet server is the benchmark's (quiet: all within
    # 1 s, p95 74 ms, docs/server.md), a time bar here would measure the machine's load
    assert statuses == [200] * 40, sorted(took)[-5:]
    assert rolls == [200] * 20
    # the attack did run: thousands of connections opened, those past the caps closed at
    # once (on a quiet machine most of 9,500 opened; a crowded one accepts fewer), the
    # rest held until the header deadline cut them
    assert held["opened"] >= 3000 and held["refused"] + held["cut"] > 0, held
    assert "connections refused" in srv.log.read_text()


def test_a_connection_counts_as_new_until_it_sends_a_whole_request() -> None:
    book = connections.ConnectionLimits(total=100, per_address=10, new_per_address=3)
    assert [book.admit(i, "10.0.0.7") for i in range(4)] == [True, True, True, False]
    book.prove(0)
    book.prove(1)
    assert book.admit(4, "10.0.0.7") and book.admit(5, "10.0.0.7")
    assert book.new_from_address("10.0.0.7") == 3 and book.from_address("10.0.0.7") == 5
    for key in range(6):
        book.release(key)
    assert book.open == 0 and book.new_from_address("10.0.0.7") == 0


class _Transport:
    """Enough of an asyncio transport for Uvicorn's HTTP protocol."""

    def __init__(self) -> None:
        self.reading = True
        self.closing = False
        self.written = b""

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"peername": ("10.0.0.9", 5000), "sockname": ("127.0.0.1", 8000)}.get(name)

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closing = True

    abort = close


def test_pipelined_requests_wait_a_few_at_a_time_and_nothing_is_kept_after_close() -> None:
    """The mechanism of the memory kept after 20,000 pipelined requests (docs/server.md,
    "Connections"): Uvicorn queued every one of them, parsed, and the queue referred back
    to the connection after it closed. Now a few wait, the rest are never read, and a
    closed connection leaves no reference cycle (with the collector off, it is freed)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # answers nothing: the first request holds the rest back

    async def scenario() -> tuple[int, bool, bool, bool]:
        connections.use_limits(connections.ConnectionLimits())
        config = Config(app=app, lifespan="off")
        config.load()
        protocol = GuardedHttpProtocol(config, ServerState(), {})
        transport = _Transport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        protocol.data_received(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n" * 20_000)
        waiting = len(protocol.pipeline)
        last_closes = not protocol.pipeline[0][0].keep_alive
        reading = transport.reading
        protocol.connection_lost(None)
        await asyncio.sleep(0.01)  # the first request's task ends (a disconnect)
        gone = weakref.ref(protocol)
        del protocol
        return waiting, last_closes, reading, gone() is None

    gc.disable()
    try:
        waiting, last_closes, reading, freed = asyncio.run(scenario())
    finally:
        gc.enable()
        connections.use_limits(None)
    assert waiting == MAX_PIPELINE  # of 20,000 sent, one answered first and 8 waiting
    assert last_closes and reading  # closes after them; what arrives is dropped unparsed
    assert freed  # by reference counting alone: no cycle for a frozen collector to keep


def test_pipelining_past_the_bound_is_answered_in_part_then_closed(server) -> None:
    async def pipelined() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n" * 5000)
        answer = b""
        while chunk := await asyncio.wait_for(reader.read(65536), 20):
            answer += chunk
        writer.close()
        return answer

    answer = asyncio.run(pipelined())
    assert answer.count(b"HTTP/1.1 200 OK") == MAX_PIPELINE + 1
    health = httpx.get(server.base + "/api/health").json()
    assert health["connections"]["pipelined"] == 1
    assert answer.count(b"connection: close") == 1  # on the last answer, then closed
    assert httpx.get(server.base + "/api/health").status_code == 200


def test_a_websocket_past_its_message_budget_is_closed_with_1008_and_counted(tmp_path, monkeypatch):
    srv = _serve(tmp_path, monkeypatch, header=10)
    try:
        night: Any = _night(srv.base)
        url = f"{srv.base.replace('http', 'ws')}/api/nights/{night['night']}/ws?token="

        async def flood() -> tuple[int | None, int, int]:
            async with websockets.connect(url + night["viewer_token"]) as calm:
                async with websockets.connect(
                    url + night["viewer_token"], close_timeout=1
                ) as noisy:
                    for _ in range(3):  # hello, caught_up (and no more)
                        await noisy.recv()
                    pongs = 0
                    try:
                        for i in range(2000):
                            await noisy.send('{"type":"ping"}')
                            if i % 50 == 0:
                                await asyncio.sleep(0)  # the client reads what comes
                        while True:
                            text = await asyncio.wait_for(noisy.recv(), 10)
                            pongs += '"pong"' in str(text)
                    except websockets.ConnectionClosed:
                        pass
                    closed = noisy.close_code
                # a page's pace on the other socket: a ping, a pong
                answered = 0
                for _ in range(5):
                    await calm.send('{"type":"ping"}')
                    while '"pong"' not in str(await asyncio.wait_for(calm.recv(), 10)):
                        pass
                    answered += 1
                return closed, pongs, answered

        closed, pongs, answered = asyncio.run(flood())
        log = srv.log.read_text()
        counts = httpx.get(srv.base + "/api/health").json()["connections"]
    finally:
        srv.stop()
    assert closed == 1008
    assert pongs <= BURST  # the pings past the budget were never read
    assert answered == 5
    assert "WebSockets closed for sending too many messages (1008): 1 so far" in log
    assert counts["flooded"] == 1 and counts["refused"] == 0
