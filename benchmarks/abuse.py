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

And (issue 38), each on a server of its own:

4. idle connections from two addresses: 127.0.0.2 and 127.0.0.3 each hold 4,600 idle
   connections (together more than the server's 8,192), opening a new one whenever the
   server closes one, while a third address (127.0.0.4) asks ``GET /api/health`` on new
   connections and table 1 rolls from 127.0.0.5: how many of the third address's requests
   are answered, and within 1 s; side by side with the caps of before (4,096 per address,
   no cap on connections that sent nothing);
5. pipelining: for every GET route of the API (and the home page), with the host's (or
   the club's) token and without one, three rounds of 20,000 pipelined requests on one
   connection, never read, then a close: the server's memory after each round (``--routes``
   keeps only the routes whose path holds one of its words, e.g. ``--routes season.``);
   and the memory of the server's download process, which makes the heavy files;
6. a WebSocket flood: ten sockets opened with the viewer link each send 100,000 pings as
   fast as they can (opening a new socket whenever the server closes one) while table 1
   rolls: the rolls' p50 and p99, and the sockets closed with 1008;
7. the club's season report made anew (``season``): 27 times a payment (a new version of
   the club) then ``download/season.html``, then as many for ``download/season.pdf``: the
   server's memory and its child processes' after each 9.

    python benchmarks/abuse.py [--players 400] [--rolls 60] [--pings 100000]
                               [--only first,idle,pipelining,flood,season]
                               [--routes season.]
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import abuse_phases as phases
import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(
    folder: Path,
    port: int,
    *extra: str,
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    environ = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "XDG_DATA_HOME": str(folder),
        **(env or {}),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bunco",
            "serve",
            "--port",
            str(port),
            "--db",
            str(folder / f"night-{port}.sqlite3"),
            "--bot-pace",
            "0",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        env=environ,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                return proc
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


@contextlib.contextmanager
def served(
    folder: Path, *extra: str, env: dict[str, str] | None = None
) -> Iterator[tuple[int, str, subprocess.Popen[bytes]]]:
    """A server of its own (its port, its address, its process), stopped after the block."""
    port = free_port()
    proc = start(folder, port, *extra, env=env)
    try:
        yield port, f"http://127.0.0.1:{port}", proc
    finally:
        proc.terminate()
        proc.wait(10)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


def child_pids(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux: each of its threads' children)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def roll_latencies(
    base: str, night: dict[str, Any], rolls: int, first: int, local: str | None = None
) -> list[float]:
    """Table 1 enters ``rolls`` rolls one after another (from the address ``local``, if
    given): each round trip, in ms."""
    url = f"{base}/api/nights/{night['night']}/tables/1/rolls"
    headers = {"authorization": f"Bearer {night['host_token']}"}
    out = []
    transport = httpx.HTTPTransport(local_address=local) if local else None
    with httpx.Client(timeout=60, transport=transport) as client:
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return (
        f"p50 {statistics.median(ordered):7.1f} ms   p95 {percentile(ordered, 0.95):7.1f} ms   "
        f"p99 {percentile(ordered, 0.99):7.1f} ms   max {ordered[-1]:7.1f} ms"
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


def first_phases(args: argparse.Namespace, folder: Path) -> None:
    """Quiet rolls, slow connections, downloads, send-and-disconnect WebSockets."""
    with served(folder) as (port, base, proc):
        night = make_night(base, args.players)
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


def make_night(base: str, players: int) -> dict[str, Any]:
    night: dict[str, Any] = httpx.post(
        base + "/api/nights", json={"players": [f"P{i}" for i in range(players)]}, timeout=60
    ).json()
    return night


def idle_phase(args: argparse.Namespace, folder: Path) -> None:
    """Two addresses hold idle connections: the caps of before, then today's."""
    before = {"BUNCO_MAX_PER_ADDRESS": "4096", "BUNCO_MAX_NEW_PER_ADDRESS": "4096"}
    for label, extra, env in (
        ("caps of before (4,096 per address) ", ("--max-per-address", "4096"), before),
        ("caps now (1,024 per address, 128 new)", (), {}),
    ):
        with served(folder, *extra, env=env) as (port, base, _proc):
            night = make_night(base, args.players)
            got = phases.idle_addresses(base, port, night, 4600)
            counts = httpx.get(base + "/api/health", timeout=30).json().get("connections")
        asked = got["asked"]
        answered = [took for took, ok in asked if ok]
        fast = sum(1 for took in answered if took <= 1.0)
        rolled = [ms for ms in got["rolls"] if ms is not None]
        print(
            f"  two addresses x 4,600 idle connections, {label}: the third address's "
            f"{len(asked)} requests answered {len(answered)}, within 1 s {fast}"
            + (
                f" (p50 {statistics.median(answered) * 1000:.0f} ms, p95 "
                f"{percentile(answered, 0.95) * 1000:.0f} ms)"
                if answered
                else ""
            )
            + f"; table 1's rolls from a fourth {len(rolled)}/{len(got['rolls'])} acknowledged"
            + (f" ({summary(rolled)})" if rolled else "")
            + f"; the attacker {got['attack']}; the server {counts}"
        )


def pipelining_phase(args: argparse.Namespace, folder: Path) -> None:
    """Every GET route, with and without a token: 3 x 20,000 pipelined requests."""
    with served(folder) as (port, base, proc):
        night = make_night(base, args.players)
        club = httpx.post(base + "/api/clubs", json={"name": "Tuesday Club"}, timeout=30).json()
        ids = {
            "night_id": night["night"],
            "table": "1",
            "set_no": "1",
            "round_no": "1",
            "name": "P1",
            "card": "a" * 16,
            "club_id": club.get("club", "c"),
            "date": "2026-01-06",
        }
        routes = phases.get_routes(base, ids)
        if args.routes:
            routes = [r for r in routes if any(w in r for w in args.routes.split(","))]

        def token(route: str) -> str:
            if route.startswith("/api/clubs/"):
                return str(club.get("token", ""))
            return str(night["host_token"])

        results = phases.pipelining(port, proc.pid, routes, token, rss_mb)
        counts = httpx.get(base + "/api/health").json()["connections"]
        children = {child: rss_mb(child) for child in child_pids(proc.pid)}
    start_mb = results[0][2][0]
    piped = [(route, which, r) for route, which, r in results if "time" not in which]
    rises = sorted(((max(r) - r[0], route, which) for route, which, r in piped), reverse=True)
    over = [f"{route} ({which}) {rise:+.1f} MB" for rise, route, which in rises if rise > 30]
    print(
        f"  pipelining, 3 rounds of 20,000 requests then a close, on each of "
        f"{len(routes)} GET routes with a token and without: the largest rise in one "
        f"route's rounds {rises[0][0]:+.1f} MB ({rises[0][1]}, {rises[0][2]}); above 30 MB: "
        f"{', '.join(over) or 'none'}; the server {start_mb:.1f} MB at the start, "
        f"{results[-1][2][-1]:.1f} MB at the end; connections closed for pipelining "
        f"{counts['pipelined']}"
    )
    for route, which, readings in results:
        rounds = " -> ".join(f"{r:.1f}" for r in readings)
        print(f"    {which:24} {route[:60]:60} {rounds} MB")
    print(
        "  the server's child processes at the end (the download process, and the helper "
        "that tracks its resources): "
        + (", ".join(f"{pid}: {mb:.1f} MB" for pid, mb in children.items()) or "none")
    )


def flood_phase(args: argparse.Namespace, folder: Path) -> None:
    """Ten sockets x 100,000 pings while table 1 rolls."""
    with served(folder) as (_port, base, _proc):
        night = make_night(base, args.players)
        roll_latencies(base, night, 10, 0)
        quiet = roll_latencies(base, night, 300, 100)
        got = phases.websocket_flood(base, night, roll_latencies, args.pings)
        counts = httpx.get(base + "/api/health").json()["connections"]
    print(f"  quiet (300 rolls)              {summary(quiet)}")
    print(
        f"  10 sockets x {args.pings:,} pings    {summary(got['rolls'])}   p99 x"
        f"{percentile(got['rolls'], 0.99) / percentile(quiet, 0.99):.2f}; the flooders "
        f"{got['flood']}; the server closed {counts['flooded']} sockets with 1008"
    )


def season_phase(args: argparse.Namespace, folder: Path) -> None:
    """The club's season report made 27 times anew, as HTML then as PDF."""
    with served(folder) as (_port, base, proc):
        regulars = ["Ann", "Bea", "Cat", "Dee"]
        body = {"name": "Tuesday Club", "dues": "5", "regulars": regulars, "season": "2026"}
        club = httpx.post(base + "/api/clubs", json=body, timeout=30).json()
        auth = {"authorization": f"Bearer {club['token']}"}
        url = f"{base}/api/clubs/{club['club']}"
        share = httpx.post(url + "/shares", json={"season": "2026"}, headers=auth, timeout=30)
        reader = {"authorization": f"Bearer {share.json()['token']}"}
        # the PDFs asked with the season's share link: each token may make 30 files an hour
        for kind, who in (("season.html", auth), ("season.pdf", reader)):
            server = [phases.settled(proc.pid, rss_mb)]
            workers = [sum(rss_mb(c) for c in child_pids(proc.pid))]
            statuses: dict[int, int] = {}
            for i in range(27):
                paid = {"player": "Ann", "amount": "1"}
                httpx.post(url + "/payments", json=paid, headers=auth, timeout=30)
                got = httpx.get(f"{url}/download/{kind}", headers=who, timeout=120)
                statuses[got.status_code] = statuses.get(got.status_code, 0) + 1
                if i % 9 == 8:
                    server.append(phases.settled(proc.pid, rss_mb))
                    workers.append(sum(rss_mb(c) for c in child_pids(proc.pid)))
            print(
                f"  {kind}, made 27 times anew (replies {statuses}): the server "
                + " -> ".join(f"{r:.1f}" for r in server)
                + " MB; its child processes "
                + " -> ".join(f"{r:.1f}" for r in workers)
                + " MB"
            )


PHASES = {
    "first": first_phases,
    "idle": idle_phase,
    "pipelining": pipelining_phase,
    "flood": flood_phase,
    "season": season_phase,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rolls", type=int, default=60)
    parser.add_argument("--pings", type=int, default=100_000, help="pings per flooding socket")
    parser.add_argument(
        "--only", default=",".join(PHASES), help="phases to run: " + ", ".join(PHASES)
    )
    parser.add_argument(
        "--routes",
        default="",
        help="pipelining: only the routes whose path holds one of these comma-separated words",
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16384)), hard))
    folder = Path(tempfile.mkdtemp(prefix="bunco-abuse-"))
    print(
        f"bunco serve under abuse: a {args.players}-player night, table 1 rolling "
        f"({args.rolls} rolls each unless said)"
    )
    for name in args.only.split(","):
        PHASES[name](args, folder)


if __name__ == "__main__":
    main()
