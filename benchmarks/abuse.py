"""Benchmark: a table's roll latency while the room misbehaves, and the server's memory
after WebSockets that send and disconnect.

Starts `bunco serve` (this checkout) on an SQLite file, creates a night of ``--players``
players and has table 1 enter rolls one after another, measuring each roll's round trip:

1. quiet: nothing else happens;
2. slow connections: 1,100 connections from 127.0.0.2-12 send their headers a byte at
   a time (the server cuts them at its header deadline, 10 s);
3. downloads: six phones at once ask for the night's PDFs (filled sheets, report),
   each a file the server has not made yet.

Then 1,000 WebSockets each send a 4 KB ping and drop the connection before the reply
(and 50 send 1 MiB, refused): the server's memory before and after.

    python benchmarks/abuse.py [--players 400] [--rolls 60]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "XDG_DATA_HOME": str(folder)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bunco",
            "serve",
            "--port",
            str(port),
            "--db",
            str(folder / "night.sqlite3"),
            "--bot-pace",
            "0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                return proc
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


def roll_latencies(base: str, night: dict[str, Any], rolls: int, first: int) -> list[float]:
    """Table 1 enters ``rolls`` rolls one after another: each round trip, in ms."""
    url = f"{base}/api/nights/{night['night']}/tables/1/rolls"
    headers = {"authorization": f"Bearer {night['host_token']}"}
    out = []
    with httpx.Client(timeout=60) as client:
        for i in range(first, first + rolls):
            dice = [2, 3, 5]  # a miss in round 1: the round never ends
            started = time.perf_counter()
            reply = client.post(
                url, json={"command_id": f"bench-{i}", "dice": dice}, headers=headers
            )
            out.append((time.perf_counter() - started) * 1000)
            assert reply.status_code == 200, reply.text
            time.sleep(0.02)
    return out


async def slow_flood(port: int, count: int, stop: threading.Event) -> None:
    async def one(i: int) -> None:
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.0.{2 + i % 11}", 0)
            )
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            while not stop.is_set() and not reader.at_eof():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(reader.read(1024), 1.0)
                writer.write(b"a")
            writer.close()

    await asyncio.gather(*(one(i) for i in range(count)))


def flood_process(port: int, count: int) -> None:
    """:func:`slow_flood` in a process of its own, until it is terminated."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    asyncio.run(slow_flood(port, count, threading.Event()))


def while_running(background: Any, measure: Any) -> Any:
    thread = threading.Thread(target=background, daemon=True)
    thread.start()
    time.sleep(1.0)
    try:
        return measure()
    finally:
        thread.join(timeout=60)


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"p50 {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   max {ordered[-1]:7.1f} ms"
    )


def websocket_memory(base: str, pid: int, night: dict[str, Any]) -> tuple[float, float]:
    url = (
        f"{base.replace('http', 'ws')}/api/nights/{night['night']}/ws?token={night['viewer_token']}"
    )

    async def one(size: int) -> None:
        with contextlib.suppress(Exception):
            ws = await websockets.connect(url, max_size=None, ping_interval=None)
            await ws.send('{"type":"ping","pad":"' + "x" * size + '"}')
            ws.transport.abort()

    async def flood(count: int, size: int) -> None:
        for start in range(0, count, 25):
            await asyncio.gather(*(one(size) for _ in range(min(25, count - start))))

    asyncio.run(flood(200, 4000))
    time.sleep(2)
    before = rss_mb(pid)
    asyncio.run(flood(1000, 4000))
    asyncio.run(flood(50, 1024 * 1024))
    time.sleep(3)
    return before, rss_mb(pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rolls", type=int, default=60)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    folder = Path(tempfile.mkdtemp(prefix="bunco-abuse-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(folder, port)
    try:
        night = httpx.post(
            base + "/api/nights",
            json={"players": [f"P{i}" for i in range(args.players)]},
            timeout=60,
        ).json()
        roll_latencies(base, night, 10, 0)  # warm up
        quiet = roll_latencies(base, night, args.rolls, 100)

        # the slow clients run in a process of their own (not this one's interpreter lock)
        flood = multiprocessing.get_context("spawn").Process(
            target=flood_process, args=(port, 1100)
        )
        flood.start()
        time.sleep(3.0)  # the 1,100 connections are open and dripping
        try:
            slow = roll_latencies(base, night, args.rolls, 200)
        finally:
            flood.terminate()
            flood.join()

        phones = [
            httpx.post(
                f"{base}/api/nights/{night['night']}/claim",
                json={"name": f"P{i}"},
                headers={"authorization": f"Bearer {night['viewer_token']}"},
            ).json()["token"]
            for i in range(6)
        ]

        def downloads() -> None:
            def fetch(i: int) -> None:
                kind = ("sheets.pdf", "report.pdf", "report.html")[i % 3]
                httpx.get(
                    f"{base}/api/nights/{night['night']}/download/{kind}",
                    headers={"authorization": f"Bearer {phones[i]}"},
                    timeout=600,
                )

            threads = [threading.Thread(target=fetch, args=(i,)) for i in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        pdfs = while_running(downloads, lambda: roll_latencies(base, night, args.rolls, 300))
        before, after = websocket_memory(base, proc.pid, night)
    finally:
        proc.terminate()
        proc.wait(10)
    print(
        f"bunco serve under abuse: a {args.players}-player night, table 1 rolling "
        f"({args.rolls} rolls each)"
    )
    print(f"  quiet                          {summary(quiet)}")
    print(
        f"  1,100 slow connections         {summary(slow)}   p50 x"
        f"{statistics.median(slow) / statistics.median(quiet):.2f}"
    )
    print(
        f"  6 PDF/report downloads at once {summary(pdfs)}   p50 x"
        f"{statistics.median(pdfs) / statistics.median(quiet):.2f}"
    )
    print(
        f"  1,050 send-and-disconnect WebSockets: memory {before:.1f} -> {after:.1f} MB "
        f"({after - before:+.1f} MB)"
    )


if __name__ == "__main__":
    main()
