"""Benchmark of the host's dashboard (docs/room.md) on a big night: the time and CPU of
``GET .../dashboard`` at 250 tables (1,000 players), side by side with ``GET .../phones``
(the tables' phones card the host page already polls) in the same run, so the ratio holds
on a busy machine.

The night is made in-process (the app on a fresh SQLite file, no network), then
``--rolls`` misses spread over every table (the round never ends). The dashboard's first
read takes in the whole log; each later one only the entries since the last, so the
figures are: the first read, then the median of ``--repeat`` reads with ``--between``
rolls before each (a host's phone polling every 10 s while the room rolls).

    python benchmarks/room.py                      # 1,000 players, 2,000 rolls
    python benchmarks/room.py --players 200 --rolls 500
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from bunco.web.app import create_app


def timed(call: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``call``."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def med(runs: list[tuple[float, float]], i: int) -> float:
    """The median of the ``i``-th figure of ``runs``, in ms."""
    return statistics.median(run[i] for run in runs) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--between", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(f"sqlite:///{Path(folder) / 'room.sqlite3'}", bot_pace=0)) as client,
    ):
        made = client.post(
            "/api/nights",
            json={"name": "Hall", "players": [f"P{i:04d}" for i in range(args.players)]},
        ).json()
        night, host = made["night"], {"authorization": f"Bearer {made['host_token']}"}
        tables = len(made["tables"])
        sent = 0

        def rolls(n: int) -> None:
            nonlocal sent
            for _ in range(n):
                reply = client.post(
                    f"/api/nights/{night}/tables/{1 + sent % tables}/rolls",
                    headers=host,
                    json={"command_id": f"r{sent}", "dice": [2, 3, 5]},
                )
                assert reply.status_code == 200, reply.text
                sent += 1

        def get(path: str) -> Callable[[], Any]:
            def call() -> Any:
                reply = client.get(f"/api/nights/{night}{path}", headers=host)
                assert reply.status_code == 200, reply.text
                return reply.json()

            return call

        rolls(args.rolls)
        first = timed(get("/dashboard"))
        dash, phones = [], []
        for _ in range(args.repeat):
            rolls(args.between)
            dash.append(timed(get("/dashboard")))
            phones.append(timed(get("/phones")))
        board = get("/dashboard")()
    print(
        f"{args.players} players, {tables} tables, {sent} rolls; load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(
        f"GET /dashboard, first read (whole log): {first[0] * 1000:7.1f} ms wall "
        f"{first[1] * 1000:7.1f} ms CPU"
    )
    print(
        f"GET /dashboard, later (+{args.between} rolls): {med(dash, 0):7.1f} ms wall "
        f"{med(dash, 1):7.1f} ms CPU"
    )
    print(
        f"GET /phones (beside it):              {med(phones, 0):7.1f} ms wall "
        f"{med(phones, 1):7.1f} ms CPU"
    )
    print(
        f"ratio dashboard / phones (CPU): {med(dash, 1) / max(med(phones, 1), 1e-6):.1f}; "
        f"{len(board['tables'])} tables listed, {board['flagged']} flagged"
    )


if __name__ == "__main__":
    main()
