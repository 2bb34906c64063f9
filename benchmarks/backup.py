"""Benchmark of `bunco backup`, `--verify` and `bunco restore`: sizes and times for a
database of whole nights, on SQLite and PostgreSQL.

It stores ``--nights`` nights of ``--players`` players each, played at random to their
end under ``--rules`` (the server's rows: each event in its envelope, four tokens a
table), then times a backup of each database, its check and a restore into an empty
database of the same kind, and prints the figures side by side. PostgreSQL uses
``--pg URL`` (default ``$BUNCO_BENCH_PG_URL``, else ``$BUNCO_TEST_PG_URL``): that database
is WIPED, and a second one beside it (``<name>_restore``) is made and wiped for the
restore.

    python benchmarks/backup.py                       # 4 nights of 1,000 players
    python benchmarks/backup.py --nights 1 --players 200
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from bunco.core.night import Night
from bunco.store import EventStore, StoredEvent, TokenRecord
from bunco.store.backup import take_backup, verify_backup
from bunco.store.db import wipe_postgres
from bunco.store.events import dump
from bunco.store.restore import restore_backup


def played(players: int, rules: str, seed: int) -> list[dict[str, Any]]:
    """A night of ``players`` played to its end with random dice: its log."""
    rng = random.Random(seed)
    setup = {"type": "party", "rules": rules, "players": [f"P{i:04d}" for i in range(players)]}
    night = Night.start(setup)
    events: list[dict[str, Any]] = []
    while night.phase != "over":
        table, _ = rng.choice(night.expected_rollers())
        event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        if table is not None:
            event["table"] = table
        night = night.apply(event)
        events.append(event)
    return [setup, *events]


def fill(url: str, logs: list[list[dict[str, Any]]]) -> int:
    """Store the nights as the server would; the number of events stored."""
    store = EventStore(url)
    store.upgrade()
    now = datetime.now(UTC)
    count = 0
    for number, log in enumerate(logs):
        night = f"night{number}"
        tables = len(log[0]["players"]) // 4
        tokens = [
            TokenRecord(f"{night}:{t}:{role}".ljust(64, "0"), night, role, t)
            for t in range(1, tables + 1)
            for role in ("table", "join", "viewer", "player")
        ]
        store.create_night(night, f"Night {number}", log[0], tokens=tokens)
        rows = [
            StoredEvent(night, seq, e.get("table"), f"c{seq:08d}x", dump(e), now, "f" * 32)
            for seq, e in enumerate(log[1:], 1)
        ]
        for start in range(0, len(rows), 5000):
            store.append_many(night, rows[start : start + 5000])
        count += len(log)
    store.close()
    return count


def measure(url: str, target: str, file: Path) -> dict[str, float]:
    start = time.monotonic()
    taken = take_backup(url, file)
    backup = time.monotonic() - start
    start = time.monotonic()
    checked = verify_backup(file)
    verify = time.monotonic() - start
    assert checked.problems == [], checked.problems
    start = time.monotonic()
    restore_backup(file, target)
    restore = time.monotonic() - start
    return {"bytes": taken.bytes, "backup": backup, "verify": verify, "restore": restore}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nights", type=int, default=4)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rules", default="tournament")
    parser.add_argument(
        "--pg",
        default=os.environ.get("BUNCO_BENCH_PG_URL") or os.environ.get("BUNCO_TEST_PG_URL"),
        help="PostgreSQL database to use (WIPED), and one beside it for the restore",
    )
    args = parser.parse_args()
    logs = [played(args.players, args.rules, seed) for seed in range(args.nights)]
    folder = Path(tempfile.mkdtemp(prefix="bunco-backup-bench-"))
    results: dict[str, dict[str, float]] = {}
    events = fill(f"sqlite:///{folder / 'live.sqlite3'}", logs)
    results["SQLite (an SQLite copy)"] = measure(
        f"sqlite:///{folder / 'live.sqlite3'}",
        f"sqlite:///{folder / 'restored.sqlite3'}",
        folder / "copy.sqlite3",
    )
    if args.pg:
        wipe_postgres(args.pg)
        fill(args.pg, logs)
        given = sa.make_url(args.pg)
        name = f"{given.database}_restore"
        admin = sa.create_engine(args.pg, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            if (
                conn.execute(
                    sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
                ).first()
                is None
            ):
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        target = given.set(database=name).render_as_string(hide_password=False)
        wipe_postgres(target)
        results["PostgreSQL (an archive)"] = measure(args.pg, target, folder / "copy.bunco-backup")
    print(
        f"bunco backup benchmark: {args.nights} nights of {args.players} players "
        f"({args.rules}, played to the end), {events:,} events, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    width = max(len(k) for k in results) + 2
    print(f"{'':<{width}}{'file':>10}{'backup':>10}{'verify':>10}{'restore':>10}")
    for label, r in results.items():
        print(
            f"{label:<{width}}{r['bytes'] / 1e6:>8.1f}MB{r['backup']:>9.2f}s"
            f"{r['verify']:>9.2f}s{r['restore']:>9.2f}s"
        )


if __name__ == "__main__":
    main()
