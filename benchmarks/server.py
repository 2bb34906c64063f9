"""Benchmark of `bunco serve`: a 1,000-player tournament on SQLite, live.

Starts the real server (a subprocess on a temporary SQLite file), creates a tournament
night of ``--players`` players (250 tables of four for 1,000), joins every table as its
scorekeeper and then, in one run:

- 250 table writers (one per table, HTTP keep-alive) enter rolls at a paced total rate
  (``--rate`` rolls per second; 0 = as fast as the server answers), each with the
  table's ``expected_seq`` and a fresh command id;
- 1,000 WebSocket listeners, one per player's phone, each following its own table
  (``table=N``), plus ``--screens`` big screens following the whole night.

It prints the rolls per second the server accepted and the p50/p99 time from a roll's
request to its arrival at the listeners that follow it (every delivery counts), and
checks that each listener got every event of its table in order.

    python benchmarks/server.py                 # 1,000 players, 1,000 rolls/s, 60 s
    python benchmarks/server.py --rate 0        # as fast as it goes
    python benchmarks/server.py --players 200 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ID_RE = re.compile(rb'"id":"b(\d+)-(\d+)-(\d+)"')
SEQ_RE = re.compile(rb'"seq":(\d+)')
TYPE_EVENT = b'"type":"event"'


# -- a tiny HTTP/1.1 keep-alive client (httpx would cost the client more than the server) --


class Http:
    """One keep-alive connection; ``request`` sends a JSON body and returns (status, body)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def request(self, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            await self.connect()
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n")
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# -- the server ---------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    script = shutil.which("bunco", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "bunco"]
    with (db.parent / "serve.log").open("wb") as log:
        proc = subprocess.Popen([*command, "serve", "--port", str(port), "--db", str(db)],
                                stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


# -- listeners (a separate process) -------------------------------------------------------


def listener_process(port: int, night: str, token: str, tables: int, per_table: int,
                     screens: int, ready: Any, stop: Any, results: Any) -> None:
    """Connect every listener, record each delivery's latency, report when told to stop."""
    asyncio.run(_listen_all(port, night, token, tables, per_table, screens, ready, stop,
                            results))


async def _listen_all(port: int, night: str, token: str, tables: int, per_table: int,
                      screens: int, ready: Any, stop: Any, results: Any) -> None:
    from websockets.asyncio.client import connect

    latencies: list[int] = []
    sent_at: list[int] = []
    problems: list[str] = []
    counts: dict[int, int] = {}
    connected = 0

    async def listen(table: int | None, index: int) -> None:
        nonlocal connected
        query = f"token={token}" + ("" if table is None else f"&table={table}")
        url = f"ws://127.0.0.1:{port}/api/nights/{night}/ws?{query}"
        last = -1
        async with connect(url, max_size=None, ping_interval=None,
                           open_timeout=60, max_queue=None) as ws:
            connected += 1
            async for text in ws:
                data = text.encode() if isinstance(text, str) else text
                if TYPE_EVENT not in data[:20]:
                    continue
                now = time.monotonic_ns()
                seq_match = SEQ_RE.search(data)
                seq = int(seq_match.group(1)) if seq_match else -1
                if seq <= last:
                    problems.append(f"listener {table}/{index}: seq {seq} after {last}")
                last = seq
                match = ID_RE.search(data)
                if match is not None:
                    sent = int(match.group(1))
                    latencies.append(now - sent)
                    sent_at.append(sent)
                    if table is not None:
                        counts[table] = counts.get(table, 0) + 1

    tasks = []
    for table in range(1, tables + 1):
        for index in range(per_table):
            tasks.append(asyncio.ensure_future(listen(table, index)))
    for index in range(screens):
        tasks.append(asyncio.ensure_future(listen(None, index)))
    while connected < len(tasks):
        await asyncio.sleep(0.05)
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise SystemExit(f"a listener failed: {failed[0].exception()}")
    ready.set()
    cpu_start = time.process_time()
    while not stop.is_set():
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # let the last deliveries land
    for task in tasks:
        task.cancel()
    results.put({"latencies": latencies, "sent_at": sent_at, "problems": problems[:10], "counts": counts,
                 "listeners": len(tasks), "cpu": time.process_time() - cpu_start})


# -- writers --------------------------------------------------------------------------------


async def write_all(port: int, night: str, tokens: list[str], rate: float, seconds: float,
                    rounds: list[tuple[float, int, int]], changed: asyncio.Condition
                    ) -> dict[str, Any]:
    tables = len(tokens)
    accepted = [0] * (tables + 1)
    refused: dict[str, int] = {}
    round_trips: list[int] = []
    start = time.monotonic()
    stop_at = start + seconds
    interval = tables / rate if rate > 0 else 0.0

    async def writer(table: int) -> None:
        http = Http(port)
        await http.connect()
        version = 0
        path = f"/api/nights/{night}/tables/{table}/rolls"
        due = start + random.random() * interval
        i = 0
        while True:
            if interval:
                due += interval
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            if time.monotonic() >= stop_at:
                break
            i += 1
            rounds_seen = len(rounds)
            body = {"command_id": f"b{time.monotonic_ns()}-{table}-{i}",
                    "dice": [random.randint(1, 6) for _ in range(3)], "expected_seq": version}
            sent = time.monotonic_ns()
            status, reply = await http.request("POST", path, body, tokens[table - 1])
            round_trips.append(time.monotonic_ns() - sent)
            if status == 200:
                accepted[table] += 1
                seq = SEQ_RE.search(reply)
                assert seq is not None
                version = int(seq.group(1))
                continue
            error = json.loads(reply)
            refused[error["error"]] = refused.get(error["error"], 0) + 1
            if error["error"] == "stale":
                version = int(error["current_seq"])
            elif error["error"] in ("round_over", "not_allowed_now"):
                # this table is done for the round: wait for the next one
                try:
                    async with changed:
                        await asyncio.wait_for(
                            changed.wait_for(lambda n=rounds_seen: len(rounds) > n),
                            max(0.0, stop_at - time.monotonic()))
                except TimeoutError:
                    break
                due = time.monotonic() + random.random() * interval  # not all at once
            else:
                raise SystemExit(f"table {table}: {status} {reply[:200]!r}")
        http.close()

    await asyncio.gather(*(writer(t) for t in range(1, tables + 1)))
    return {"accepted": sum(accepted), "per_table": accepted, "refused": refused,
            "round_trips": round_trips,
            "elapsed": min(time.monotonic(), stop_at) - start}


async def watch_rounds(port: int, night: str, token: str, changed: asyncio.Condition,
                       rounds: list[tuple[float, int, int]], moments: list[float]) -> None:
    """A big screen in the writers' process: wakes the writers when a round changes and
    notes when the status changes (the bell, a new round)."""
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{port}/api/nights/{night}/ws?token={token}&since=0"
    async with connect(url, max_size=None, ping_interval=None, max_queue=None) as ws:
        seen = None
        async for text in ws:
            if '"type":"status"' not in text[:20] and '"type":"hello"' not in text[:20]:
                continue
            status = json.loads(text)["status"]
            moments.append(time.monotonic())
            key = (status["set"], status["round"])
            if key != seen:
                seen = key
                async with changed:
                    rounds.append((time.monotonic(), *key))
                    changed.notify_all()


# -- the run --------------------------------------------------------------------------------


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1e6 if ordered else 0.0


async def main_async(args: argparse.Namespace, port: int, server_pid: int
                     ) -> dict[str, Any]:
    http = Http(port)
    players = [f"P{i:04d}" for i in range(1, args.players + 1)]
    status, body = await http.request("POST", "/api/nights", {
        "name": "Benchmark tournament", "rules": args.rules, "players": players})
    if status != 201:
        raise SystemExit(f"creating the night failed: {status} {body[:300]!r}")
    created = json.loads(body)
    night = created["night"]
    tokens = []
    for table in created["tables"]:
        status, body = await http.request("POST", "/api/join", {"code": table["code"]})
        tokens.append(json.loads(body)["token"])
    http.close()
    tables = len(tokens)
    seats = args.players // tables

    ctx = mp.get_context("spawn")
    ready, stop, results = ctx.Event(), ctx.Event(), ctx.Queue()
    listener = ctx.Process(target=listener_process, args=(
        port, night, created["viewer_token"], tables, seats, args.screens, ready, stop,
        results))
    listener.start()
    while not ready.is_set():
        await asyncio.sleep(0.1)
        if not listener.is_alive():
            raise SystemExit("the listeners failed to connect")
    changed = asyncio.Condition()
    rounds: list[tuple[float, int, int]] = []
    moments: list[float] = []
    watcher = asyncio.ensure_future(watch_rounds(port, night, created["viewer_token"],
                                                 changed, rounds, moments))
    t0 = time.monotonic()
    cpu0, own0 = cpu_seconds(server_pid), time.process_time()
    written = await write_all(port, night, tokens, args.rate, args.seconds, rounds, changed)
    cpu1, own1 = cpu_seconds(server_pid), time.process_time()
    stop.set()
    heard = results.get(timeout=120)
    listener.join(30)
    watcher.cancel()
    return {"night": night, "tables": tables, "written": written, "heard": heard,
            "rounds": [(round(t - t0, 1), s, r) for t, s, r in rounds],
            "server_cpu": cpu1 - cpu0, "writers_cpu": own1 - own0,
            "moments": moments[1:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rules", default="tournament")
    parser.add_argument("--rate", type=float, default=1000.0,
                        help="total rolls per second to offer (0 = as fast as possible)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--screens", type=int, default=4, help="whole-night listeners")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bunco-bench-"))
    port = free_port()
    server = start_server(folder / "bench.sqlite3", port)
    try:
        result = asyncio.run(main_async(args, port, server.pid))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)

    written, heard = result["written"], result["heard"]
    latencies = heard["latencies"]
    # "steady play": rolls requested away from the moments the whole room changes at once
    # (the bell, a new round: every table's phone is told), from 0.1 s before to 1 s after
    moments = [int(m * 1e9) for m in result["moments"]]
    steady = [lat for lat, sent in zip(latencies, heard["sent_at"], strict=True)
              if not any(m - 100_000_000 <= sent <= m + 1_000_000_000 for m in moments)]
    expected = sum(written["per_table"][1:]) * (args.players // result["tables"])
    table_deliveries = sum(heard["counts"].values())
    figures = {
        "players": args.players, "tables": result["tables"],
        "listeners": heard["listeners"], "offered_rate": args.rate,
        "seconds": round(written["elapsed"], 2),
        "rolls_accepted": written["accepted"],
        "rolls_per_second": round(written["accepted"] / written["elapsed"], 1),
        "refused": written["refused"],
        "deliveries": len(latencies),
        "table_deliveries": table_deliveries, "table_deliveries_expected": expected,
        "latency_ms_p50": round(percentile(latencies, 0.50), 2),
        "latency_ms_p99": round(percentile(latencies, 0.99), 2),
        "latency_ms_max": round(max(latencies) / 1e6, 2) if latencies else 0.0,
        "steady_latency_ms_p50": round(percentile(steady, 0.50), 2),
        "steady_latency_ms_p99": round(percentile(steady, 0.99), 2),
        "steady_share": round(len(steady) / max(1, len(latencies)), 3),
        "request_ms_p50": round(percentile(written["round_trips"], 0.50), 2),
        "request_ms_p99": round(percentile(written["round_trips"], 0.99), 2),
        "order_problems": heard["problems"],
        "server_cpu_us_per_roll": round(result["server_cpu"] / max(1, written["accepted"])
                                        * 1e6),
        "server_cpu_share": round(result["server_cpu"] / written["elapsed"], 2),
        "listeners_cpu_share": round(heard["cpu"] / written["elapsed"], 2),
        "writers_cpu_share": round(result["writers_cpu"] / written["elapsed"], 2),
        "rounds": result["rounds"], "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"bunco serve benchmark: {args.players} players, {result['tables']} tables, "
          f"{heard['listeners']} WebSocket listeners, {os.cpu_count()} CPUs, SQLite")
    print(f"  offered: {'as fast as possible' if not args.rate else f'{args.rate:.0f} rolls/s'}"
          f" for {figures['seconds']} s")
    print(f"  accepted: {figures['rolls_accepted']} rolls = "
          f"{figures['rolls_per_second']} rolls/s  (refused: {figures['refused']})")
    print(f"  request -> listener: p50 {figures['latency_ms_p50']} ms, "
          f"p99 {figures['latency_ms_p99']} ms, max {figures['latency_ms_max']} ms "
          f"over {figures['deliveries']} deliveries")
    print(f"  in steady play ({figures['steady_share']:.0%} of deliveries; leaving out 1.1 s "
          f"around each of {len(moments)} bells and round changes): "
          f"p50 {figures['steady_latency_ms_p50']} ms, p99 {figures['steady_latency_ms_p99']} ms")
    print(f"  request -> reply: p50 {figures['request_ms_p50']} ms, "
          f"p99 {figures['request_ms_p99']} ms")
    print(f"  table listeners got {table_deliveries} of {expected} expected deliveries; "
          f"order problems: {len(heard['problems'])}")
    print(f"  server CPU: {figures['server_cpu_us_per_roll']} us per accepted roll "
          f"(busy {figures['server_cpu_share']:.0%} of one core); listeners' process "
          f"{figures['listeners_cpu_share']:.0%}, writers' process "
          f"{figures['writers_cpu_share']:.0%}")
    print(f"  rounds (time s, set, round): {result['rounds']}")


if __name__ == "__main__":
    main()
