"""The real `bunco serve` against slow, idle, numerous and wasteful connections.

Each test starts the server in a subprocess and attacks it from loopback addresses
(127.0.0.x, one "phone" each): slow headers, slow bodies, slow WebSocket upgrades, idle
sockets, more sockets than the caps allow, WebSockets that send and disconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest
import websockets
from web_helpers import EIGHT

from serve_process import ServeProcess, bunco_command, free_port, small_dice


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _settled_rss_mb(pid: int, *, within: float = 0.25, timeout: float = 30.0) -> float:
    """The server's memory once it stops moving: three readings 0.2 s apart within
    ``within`` MB of each other (the sockets closed, the buffers freed), not a fixed wait."""
    readings = [_rss_mb(pid)]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.2)
        readings = [*readings[-2:], _rss_mb(pid)]
        if len(readings) == 3 and max(readings) - min(readings) <= within:
            return readings[-1]
    raise AssertionError(f"the server's memory did not settle: {readings}")


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _night(base: str) -> dict[str, object]:
    created = httpx.post(base + "/api/nights", json={"players": EIGHT}, timeout=10)
    assert created.status_code == 201, created.text
    night: dict[str, object] = created.json()
    return night


def _serve(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *extra: str,
    header: float = 2.0,
    body: float = 2.0,
) -> ServeProcess:
    monkeypatch.setenv("BUNCO_HEADER_TIMEOUT", str(header))
    monkeypatch.setenv("BUNCO_BODY_TIMEOUT", str(body))
    srv = ServeProcess(tmp_path / "night.sqlite3", free_port(), tmp_path / "serve.log", *extra)
    srv.start()
    return srv


async def _slow(port: int, host: str, first: bytes, trickle: bytes) -> tuple[float, bytes]:
    """Send ``first``, then a byte of ``trickle`` every half second; how long until the
    server closed the connection, and what it answered."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(host, 0))
    if first:
        writer.write(first)
    answer = b""

    async def drip() -> None:
        for byte in trickle:
            await asyncio.sleep(0.5)
            writer.write(bytes([byte]))
            await writer.drain()

    dripping = asyncio.ensure_future(drip())
    try:
        while chunk := await asyncio.wait_for(reader.read(4096), 30):
            answer += chunk
    except (ConnectionError, TimeoutError):
        pass
    finally:
        dripping.cancel()
        with contextlib.suppress(BaseException):
            await dripping
        writer.close()
    return time.monotonic() - started, answer


def test_1100_slow_connections_are_cut_while_a_table_keeps_scoring(
    tmp_path, monkeypatch, more_files
):
    srv = _serve(tmp_path, monkeypatch)
    try:
        night = _night(srv.base)
        files_before = _open_files(srv.proc.pid)  # type: ignore[union-attr]
        host = {"authorization": f"Bearer {night['host_token']}"}
        roll_url = f"{srv.base}/api/nights/{night['night']}/tables/1/rolls"
        acked: list[tuple[float, float, int]] = []  # (sent, answered, status) of each roll
        stop = threading.Event()

        def score() -> None:
            """A table keeps entering rolls through the flood, and ten at least in all (a
            loaded machine may fit only a few into the flood's seconds)."""
            with httpx.Client(timeout=10) as table:
                i = 0
                while not stop.is_set() or len(acked) < 10:
                    sent = time.monotonic()
                    reply = table.post(
                        roll_url, json={"command_id": f"r{i}", "dice": small_dice(i)}, headers=host
                    )
                    acked.append((sent, time.monotonic(), reply.status_code))
                    i += 1
                    time.sleep(0.05)

        header = b"GET /api/health HTTP/1.1\r\nHost: x\r\n"
        kinds = [
            (header, b"X-Slow: " + b"a" * 40),  # headers a byte at a time
            (b"", b""),  # connects and sends nothing
            (
                b"POST /api/join HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                b"content-length: 60\r\n\r\n{",
                b'"code": "ABCDEF"' * 4,
            ),  # a slow body
            (
                f"GET /api/nights/{night['night']}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket"
                "\r\nConnection: Upgrade\r\n".encode(),
                b"Sec-WebSocket-Version: 13",
            ),  # upgrade
        ]

        async def flood() -> list[tuple[float, bytes]]:
            tasks = [_slow(srv.port, f"127.0.0.{2 + i % 11}", *kinds[i % 4]) for i in range(1100)]
            return await asyncio.gather(*tasks)

        scorer = threading.Thread(target=score)
        scorer.start()
        try:
            flood_began = time.monotonic()
            results = asyncio.run(flood())
            flood_ended = time.monotonic()
            health = httpx.get(srv.base + "/api/health", timeout=5)
        finally:
            stop.set()
            scorer.join()
        assert health.status_code == 200
        # every slow connection was closed by the server at its deadline (2 s), not kept
        assert len(results) == 1100 and max(took for took, _ in results) < 15
        timed_out = [answer for _, answer in results if answer.startswith(b"HTTP/1.1 408")]
        assert len(timed_out) >= 1000, {answer[:20] for _, answer in results}
        assert b'"error": "timeout"' in timed_out[0]
        # the table scored all along, every roll acknowledged: rolls were answered while the
        # flood held its connections (how fast, beside quiet rolls: benchmarks/abuse.py;
        # a shared machine's load makes a time bar here fail for reasons of its own)
        assert len(acked) >= 10 and {status for _, _, status in acked} == {200}
        during = [answered for _, answered, _ in acked if flood_began < answered < flood_ended]
        assert len(during) >= 2, (flood_ended - flood_began, acked)
        # and the sockets are gone from the server
        deadline = time.monotonic() + 5
        while _open_files(srv.proc.pid) > files_before + 5 and time.monotonic() < deadline:  # type: ignore[union-attr]
            time.sleep(0.1)
        assert _open_files(srv.proc.pid) <= files_before + 5  # type: ignore[union-attr]
    finally:
        srv.stop()


def test_connections_past_the_caps_are_closed_at_once(tmp_path, monkeypatch, more_files):
    srv = _serve(
        tmp_path, monkeypatch, "--max-per-address", "20", "--max-connections", "50", header=30
    )

    async def attempt() -> tuple[list[bool], list[bool], int]:
        async def opened(host: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
            return await asyncio.open_connection("127.0.0.1", srv.port, local_addr=(host, 0))

        async def closed_at_once(reader: asyncio.StreamReader) -> bool:
            try:
                return await asyncio.wait_for(reader.read(1), 0.5) == b""
            except TimeoutError:
                return False  # still open, waiting for a request
            except ConnectionError:
                return True

        # opened one after the other (the order the server counts them in), then each
        # watched for the same half second, all at once
        one = [await opened("127.0.0.3") for _ in range(25)]
        per_address = await asyncio.gather(*(closed_at_once(r) for r, _ in one))
        more = [await opened(f"127.0.0.{4 + i % 3}") for i in range(35)]
        total = await asyncio.gather(*(closed_at_once(r) for r, _ in more))
        for _, writer in one + more:
            writer.close()
        await asyncio.sleep(0.5)
        async with httpx.AsyncClient() as client:  # room again once they are gone
            status = (await client.get(srv.base + "/api/health")).status_code
        return per_address, total, status

    try:
        per_address, total, status = asyncio.run(attempt())
        assert per_address == [False] * 20 + [True] * 5  # 20 from one address
        assert total.count(False) == 30 and total[30:] == [True] * 5  # 50 in all
        assert status == 200
    finally:
        srv.stop()


def test_a_thousand_send_and_disconnect_websockets_leave_memory_flat(tmp_path, monkeypatch):
    srv = _serve(tmp_path, monkeypatch, header=10)  # the usual deadline: a busy machine
    try:
        night = _night(srv.base)
        url = (
            f"{srv.base.replace('http', 'ws')}/api/nights/{night['night']}/ws"
            f"?token={night['viewer_token']}"
        )
        pid = srv.proc.pid  # type: ignore[union-attr]

        async def one(size: int) -> int | None:
            """Connect, send a ping padded to ``size`` and drop the connection at once
            (no close handshake, before the reply); the close code if the server sent one."""
            ws = await websockets.connect(url, max_size=None, ping_interval=None)
            if size > 4096:  # refused: the server closes it, maybe while the client still sends
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send('{"type":"ping","pad":"' + "x" * size + '"}')
                    await ws.recv()
                    await ws.recv()
                    await ws.recv()
                    await ws.recv()
                return ws.close_code
            await ws.send('{"type":"ping","pad":"' + "x" * size + '"}')
            ws.transport.abort()
            return None

        async def flood(count: int, size: int) -> list[int | None]:
            codes: list[int | None] = []
            for start in range(0, count, 25):
                codes += await asyncio.gather(*(one(size) for _ in range(min(25, count - start))))
            return codes

        asyncio.run(flood(200, 4000))  # the server's memory settles
        before = _settled_rss_mb(pid)
        asyncio.run(flood(1000, 4000))
        refused = asyncio.run(flood(50, 1024 * 1024))
        after = _settled_rss_mb(pid)
        assert set(refused) == {1009}  # a message above 4 KiB closes the socket
        assert after - before < 3, (before, after)  # 1,050 clients, 54 MB sent: flat
        assert httpx.get(srv.base + "/api/health").status_code == 200
    finally:
        srv.stop()


def test_serve_raises_its_open_file_limit_and_says_when_it_cannot(tmp_path):
    def low(soft: int, hard: int) -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    def serve_with(soft: int, hard: int) -> tuple[str, int]:
        port = free_port()
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
        proc = subprocess.Popen(
            [*bunco_command(), "serve", "--port", str(port), "--db", str(tmp_path / "n.sqlite3")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            preexec_fn=lambda: low(soft, hard),
        )
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                        break
                time.sleep(0.2)
            else:
                raise AssertionError("bunco serve did not start")
            limits = Path(f"/proc/{proc.pid}/limits").read_text()
            soft_now = int(
                next(
                    line for line in limits.splitlines() if line.startswith("Max open files")
                ).split()[3]
            )
        finally:
            proc.terminate()
            out = proc.communicate(timeout=10)[0].decode()
        return out, soft_now

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 8192 + 256:
        pytest.skip(f"the hard open-file limit here is {hard}")
    out, soft_now = serve_with(1024, hard)
    assert soft_now == 8192 + 256 and "open-file limit" not in out  # raised, silently
    out, soft_now = serve_with(600, 600)
    assert soft_now == 600
    assert "the open-file limit is 600 and cannot be raised" in out
    assert "at most 344 connections at once instead of 8192" in out


def test_serve_on_the_network_makes_and_prints_a_creation_secret(tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                *bunco_command(),
                "serve",
                "--host",
                "0.0.0.0",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "n.sqlite3"),
                "--public-url",
                f"http://10.9.8.7:{port}",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    break
            time.sleep(0.2)
        # this machine creates without the secret
        made = httpx.post(f"http://127.0.0.1:{port}/api/nights", json={"players": EIGHT})
        assert made.status_code == 201
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = log.read_text()
    line = next(line for line in text.splitlines() if "creation secret" in line)
    assert "(made now)" in line and f"http://10.9.8.7:{port}/?secret=" in line
    assert len(line.rsplit("?secret=", 1)[1]) >= 12
