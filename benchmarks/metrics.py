"""What the metrics (and the access log) cost a roll: the roll's fast path side by side,
with metrics off, on, and on with the access log written, in one run.

Each mode is an app of its own (``create_app(keep_metrics=..., access_log=...)``) on an
SQLite file, its lifespan started in this process; rolls are sent straight to the ASGI
app (no socket, no HTTP client: what is measured is the server's own work), one after
another, each a miss at table 1 of an eight-player night (the round never ends), with
the host's token. The modes take turns in blocks of ``--rolls`` rolls, ``--rounds``
times (each mode first in its turn), so the machine's load falls on each alike. It prints, per mode, the median and
p99 time from a roll's request to its reply (the commit on the writer thread included:
the wait for that thread makes most of it, and most of its noise) and the median and mean
CPU time of the event loop's thread per roll (where the metrics' work is done), and each
against "off". On a loaded machine those differ by more than the metrics cost, so it
also times the metrics' own pieces alone (:func:`pieces`) and prints their sum per roll.

    python benchmarks/metrics.py                  # 5 rounds of 2,000 rolls per mode
    python benchmarks/metrics.py --rolls 500 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from bunco.web.app import create_app  # noqa: E402

MODES = ("off", "on", "on+log")


async def call(
    app: Any, method: str, path: str, body: dict[str, Any] | None, token: str | None = None
) -> tuple[int, bytes]:
    """One request straight to the ASGI app: its status and body."""
    payload = json.dumps(body).encode() if body is not None else b""
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": payload, "more_body": False}

    status, parts = 0, []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(parts)


class Server:
    """One mode's app, its lifespan running, and a night to roll at."""

    def __init__(self, mode: str, folder: Path) -> None:
        log = str(folder / f"access-{mode}.jsonl") if mode == "on+log" else None
        self.app = create_app(
            f"sqlite:///{folder / f'{mode}.sqlite3'}",
            keep_metrics=mode != "off",
            access_log=log,
        )
        self.mode = mode
        self.rolled = 0

    async def __aenter__(self) -> Server:
        self._life = self.app.router.lifespan_context(self.app)
        await self._life.__aenter__()
        players = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
        status, body = await call(self.app, "POST", "/api/nights", {"players": players})
        assert status == 201, body
        made = json.loads(body)
        self.night, self.token = made["night"], made["host_token"]
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._life.__aexit__(None, None, None)

    async def block(self, rolls: int) -> tuple[list[float], list[float]]:
        """``rolls`` rolls one after another: each one's seconds, and the event loop
        thread's CPU seconds for each (the server's work there: the commit's thread and
        the waits for it left out)."""
        path = f"/api/nights/{self.night}/tables/1/rolls"
        times, cpu = [], []
        for _ in range(rolls):
            self.rolled += 1
            body = {"command_id": f"{self.mode}-{self.rolled}", "dice": [2, 3, 5]}
            start, used = time.perf_counter(), time.thread_time()
            status, reply = await call(self.app, "POST", path, body, self.token)
            cpu.append(time.thread_time() - used)
            times.append(time.perf_counter() - start)
            assert status == 200, reply
        return times, cpu


async def measure(rolls: int, rounds: int) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        servers = [Server(mode, Path(tmp)) for mode in MODES]
        for server in servers:
            await server.__aenter__()
        try:
            for server in servers:  # warm up: caches, the writer thread, the tokens
                await server.block(200)
            times: dict[str, list[float]] = {m: [] for m in MODES}
            cpu: dict[str, list[float]] = {m: [] for m in MODES}
            for turn in range(rounds):
                for server in servers[turn % 3 :] + servers[: turn % 3]:  # each first in turn
                    took, used = await server.block(rolls)
                    times[server.mode] += took
                    cpu[server.mode] += used
        finally:
            for server in servers:
                await server.__aexit__()
    out = {}
    for mode in MODES:
        ordered = sorted(times[mode])
        out[mode] = {
            "p50_us": statistics.median(ordered) * 1e6,
            "p99_us": ordered[int(len(ordered) * 0.99)] * 1e6,
            "cpu_us": statistics.median(cpu[mode]) * 1e6,
            "cpu_mean_us": statistics.fmean(cpu[mode]) * 1e6,
        }
    return out


async def pieces(count: int = 20_000) -> dict[str, float]:
    """The metrics' own work per roll, each piece timed alone (µs, best of 5): the
    middleware around an app that answers at once (against the bare app), with metrics
    and with the access log (to /dev/null); the command path's report of a batch of one
    accepted roll (:meth:`Metrics.batch`); the arrival read when a command is queued."""
    from bunco.web.decision.commands import NightCommand, RollForMe
    from bunco.web.decision.entry_rules import Decision
    from bunco.web.night.write_and_follow import request_arrival
    from bunco.web.server.access_log import AccessLog
    from bunco.web.server.metrics import Metrics, Observed

    async def bare(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def ignore(message: Any) -> None:
        return None

    scope = {"type": "http", "method": "POST", "path": "/x", "client": ("127.0.0.1", 1)}
    kept = Metrics()
    devnull = AccessLog(open(os.devnull, "w"))  # noqa: SIM115
    apps = {
        "bare": bare,
        "metrics": Observed(bare, kept),
        "metrics+log": Observed(bare, kept, devnull),
    }

    async def run(app: Any) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(count):
                await app(scope, None, ignore)
            best = min(best, (time.perf_counter() - start) / count)
        return best * 1e6

    out = {name: await run(app) for name, app in apps.items()}
    command = NightCommand.of(RollForMe({"type": "roll", "table": 1}), command_id="c")
    batch = [(command, time.perf_counter(), Decision("accept"))]
    out["batch"] = min(timeit(lambda: kept.batch(batch), count) for _ in range(5))
    out["arrival"] = min(timeit(request_arrival, count) for _ in range(5))
    return out


def timeit(fn: Any, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        fn()
    return (time.perf_counter() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=2000, help="rolls per block")
    parser.add_argument("--rounds", type=int, default=5, help="blocks per mode")
    args = parser.parse_args()
    parts = asyncio.run(pieces())
    figures = asyncio.run(measure(args.rolls, args.rounds))
    base = figures["off"]
    print(
        f"roll fast path, {args.rounds} x {args.rolls} rolls per mode, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'mode':8} {'p50 µs':>9} {'p99 µs':>9} {'loop CPU µs p50':>16} {'mean':>7}   against off"
    )
    for mode, got in figures.items():
        against = (
            f"p50 {got['p50_us'] - base['p50_us']:+.1f} µs, "
            f"loop CPU {got['cpu_us'] - base['cpu_us']:+.1f} µs "
            f"({(got['cpu_us'] / base['cpu_us'] - 1) * 100:+.1f} %)"
        )
        print(
            f"{mode:8} {got['p50_us']:9.1f} {got['p99_us']:9.1f} {got['cpu_us']:16.1f} "
            f"{got['cpu_mean_us']:7.1f}   {against}"
        )
    middleware = parts["metrics"] - parts["bare"]
    logged = parts["metrics+log"] - parts["bare"]
    print(
        f"the metrics' own work per roll, each piece alone: middleware {middleware:.1f} µs "
        f"(with the access log {logged:.1f} µs), the batch's report {parts['batch']:.1f} µs, "
        f"the arrival read {parts['arrival']:.2f} µs: {middleware + parts['batch'] + parts['arrival']:.1f} µs "
        f"in all ({(logged + parts['batch'] + parts['arrival']):.1f} µs with the log), against "
        f"{base['cpu_us']:.0f} µs of the event loop's CPU per roll without metrics"
    )


if __name__ == "__main__":
    main()
