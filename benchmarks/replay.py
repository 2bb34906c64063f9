"""How long `bunco replay` takes to fold a big party log.

Builds a seeded ``tournament`` night (1,000 players, 250 tables, one set by default) in
which every table rolls at the same pace, as in a real room: the tables take turns, one
roll each, with random dice, until the head table's bell; then whoever may still roll
(after the bell, tie-breaks) rolls on. After the last round each group's checker verifies
every card (004), then the prize roll-offs are rolled. The log is written to a file and
read back with :func:`bunco.core.party_log.read_log`, which is what `bunco replay` does before
printing; the log up to the last round is timed too, to show what the verifications cost.

    python benchmarks/replay.py                  # 1,000 players, seed 1
    python benchmarks/replay.py --players 200 --sets 2 --repeat 3 --keep night.jsonl
    python benchmarks/replay.py --long --before 6b846fd

Prints the number of events and the seconds taken (build, read, report).

``--long`` times `bunco replay` itself (a child process, its wall time and peak memory)
on logs of 100,000 and 1,000,000 events in which two tables roll on and on in round 1
without scoring: the longest rounds a log can hold, where a fold that copied the round's
rolls on every roll grew as the square of the log. Then a 100 MB log whose second line is
one 100 MB name: how long the refusal takes, its memory, and how long its message is. With ``--before REV`` the same logs are
replayed by the code of that git revision too (its ``src`` taken with ``git archive`` from
the repository of the current folder), side by side; a run that passes ``--limit`` (or,
for the older code, ``--before-limit``) seconds is stopped and shown as such. Compare the
CPU seconds on a busy machine: the wall time there is mostly waiting for a core. The last
lines give the ratios of 1,000,000 events to 100,000 (wall, CPU, peak memory).

``--undos N`` times a round of ``--undo-rolls`` rolls (10,000 by default) at two tables
in which N rolls are undone and entered again, without and with the undos, in a child
process: what the undos cost, each and all together. With ``--before REV`` the same with
the code of that revision, side by side (an undo folded the round again from its start
before the round kept checkpoints).

    python benchmarks/replay.py --undos 2000 --before 47e54bc

``--catch-up`` times the server's side of the same thing: a night stored in SQLite with
30,000 and 300,000 rolls in one round (``--catch-up-sizes``), as a server finds it after a
restart; a fresh server process (the app, in a child) answers its first request for the
night, which reads the stored log and folds it. Wall and CPU seconds and peak memory of
that request, side by side, and the ratio of the larger to the smaller.

    python benchmarks/replay.py --catch-up --catch-up-sizes 30000 300000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: --long keeps this process small (see below)
    from bunco.core.night import Night


def build_night(
    players: int,
    seed: int,
    sets: int = 1,
    rules: str = "tournament",
    verify: bool = True,
    money: bool = False,
) -> tuple[dict[str, Any], list[dict[str, Any]], int, Night]:
    """A whole night with seeded random dice.

    Returns the party line, the events, how many of them come before the verifications
    after the last round, and the night.
    """
    from bunco.core.night import Night

    rng = random.Random(seed)
    names = [f"P{i:04d}" for i in range(1, players + 1)]
    setup: dict[str, Any] = {"type": "party", "rules": rules, "players": names, "sets": sets}
    if money:  # groups of 100, seeds/004's payouts, one prize each, must be present
        setup.update(
            groups={
                f"Team {g + 1}": names[g * 100 : (g + 1) * 100]
                for g in range((players + 99) // 100)
            },
            judged=["Best Costume"],
            money="tournament",
            one_prize_per_person=True,
            must_be_present=True,
        )
    night = Night.start(setup)
    events: list[dict[str, Any]] = []
    pointer = 0
    while night.phase == "playing":
        event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        tables = night.tables
        for step in range(len(tables)):
            k = (pointer + step) % len(tables)
            if tables[k].roller is not None:
                break
        event["table"] = k + 1
        pointer = k + 1
        night = night.apply(event)
        events.append(event)
    rounds_only = len(events)
    if verify:
        for name in names:
            event = {"type": "verify", "player": name, "checker": "Staff"}
            night = night.apply(event)
            events.append(event)
    while night.phase != "over":  # prize roll-offs at no table
        event = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        night = night.apply(event)
        events.append(event)
    if money:
        extra: list[dict[str, Any]] = [{"type": "absent", "player": n} for n in names[::7]]
        extra += [
            {"type": "judge", "prize": "best_costume", "group": g, "ranking": m[:3]}
            for g, m in setup["groups"].items()
        ]
        extra.append(
            {"type": "judge", "prize": "group_best_costume", "ranking": list(setup["groups"])}
        )
        night = night.apply_all(extra)
        events += extra
    return setup, events, rounds_only, night


def time_read(lines: list[str], repeat: int) -> tuple[float, Night]:
    from bunco.core.party_log import read_log

    times = []
    night = None
    for _ in range(repeat):
        started = time.perf_counter()
        night = read_log(lines)
        times.append(time.perf_counter() - started)
    assert night is not None
    return statistics.median(times), night


LONG_SIZES = (100_000, 1_000_000)


def write_long_round(path: Path, events: int, seed: int = 1) -> None:
    """A log of ``events`` rolls at two tables of four in round 1, none of which scores
    (no 1 among the faces, never three of a kind): the round never ends."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(1, 9)]
    faces = [
        (a, b, c) for a in range(2, 7) for b in range(2, 7) for c in range(2, 7) if not a == b == c
    ]
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"type": "party", "rules": "classic", "players": players}) + "\n")
        for n in range(events):
            dice = list(rng.choice(faces))
            out.write(json.dumps({"type": "roll", "table": n % 2 + 1, "dice": dice}) + "\n")


def replay_in_child(
    src: Path, log: Path, limit: float, *, refused: list[int] | None = None
) -> tuple[float | None, float, float]:
    """Wall seconds, CPU seconds and peak memory (MB) of `bunco replay LOG --json` run with
    the package in ``src``; the wall seconds are None when it passed ``limit`` and was
    stopped. (On a busy machine the CPU seconds are the figure to compare.) With
    ``refused``, the log is one the replay must refuse: the length of what it printed is
    appended there.

    Linux counts in a child's peak memory what it held before it started the new program
    (a copy of this process), so --long imports nothing of the engine here and writes its
    logs a line at a time: this process stays at about 10 MB."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "bunco", "replay", str(log), "--json"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - started > limit:
                child.kill()
                _, status, usage = os.wait4(child.pid, 0)
                timed_out = True
                break
            time.sleep(0.05)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        printed = errors.read()
        if refused is not None:
            refused.append(len(printed))
        elif not timed_out and child.returncode != 0:
            raise SystemExit(f"bunco replay failed on {log}: {printed.decode()[-500:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return (None if timed_out else seconds), cpu, usage.ru_maxrss / 1024


def _before_src(rev: str, into: Path) -> Path:
    """The ``src`` folder of git revision ``rev``, unpacked into ``into``."""
    archive = subprocess.run(
        ["git", "archive", rev, "src"],  # the repository here
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def long_logs(before: str | None, limit: float, before_limit: float) -> None:
    """Time `bunco replay` on the long-round logs, now and (optionally) before."""
    here = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory() as tmp:
        codes = [("now", here)]
        if before:
            codes.append((f"at {before}", _before_src(before, Path(tmp))))
        results: dict[tuple[str, int], tuple[float | None, float, float]] = {}
        for size in LONG_SIZES:
            log = Path(tmp) / f"long-{size}.jsonl"
            write_long_round(log, size)
            megabytes = log.stat().st_size / 1e6
            for label, src in codes:
                results[label, size] = replay_in_child(
                    src, log, limit if label == "now" else before_limit
                )
                seconds, cpu, peak = results[label, size]
                stop = limit if label == "now" else before_limit
                shown = f"{seconds:7.1f} s" if seconds is not None else f"> {stop:5.0f} s"
                print(
                    f"{label:>14}  {size:>9,} events ({megabytes:5.1f} MB)  wall {shown}  "
                    f"CPU {cpu:7.1f} s  peak {peak:7.1f} MB",
                    flush=True,
                )
        one_line = Path(tmp) / "one-line.jsonl"
        with one_line.open("w", encoding="utf-8") as out:  # 100 MB: one name far too long
            out.write(json.dumps({"type": "party", "players": ["A", "B"]}) + "\n")
            out.write('{"type": "join", "player": "')
            for _ in range(100):  # a megabyte at a time: this process stays small
                out.write("x" * 1_000_000)
            out.write('"}\n')
        for label, src in codes:
            printed: list[int] = []
            seconds, cpu, peak = replay_in_child(src, one_line, limit, refused=printed)
            print(
                f"{label:>14}  a 100 MB line, refused: wall {seconds or 0:7.1f} s  CPU "
                f"{cpu:7.1f} s  peak {peak:7.1f} MB, the error {printed[0]:,} characters",
                flush=True,
            )
        small, big = LONG_SIZES
        for label, _ in codes:
            (t1, c1, m1), (t2, c2, m2) = results[label, small], results[label, big]
            ratio = f"{t2 / t1:5.1f}x" if t1 and t2 else "  n/a (stopped)"
            print(
                f"{label:>14}  {big // small}x the events: wall {ratio}, CPU "
                f"{c2 / c1:5.1f}x, peak memory {m2 / m1:4.1f}x"
            )


UNDO_CHILD = """
import json, random, resource, sys, time
from bunco.core.night import Night
rolls, undos = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(1)
faces = [(a, b, c) for a in range(2, 7) for b in range(2, 7) for c in range(2, 7)
         if not a == b == c]
night = Night.start({"type": "party", "rules": "classic",
                     "players": [f"P{i}" for i in range(1, 9)]})
every = rolls // undos if undos else rolls + 1
started, cpu = time.perf_counter(), time.process_time()
for n in range(rolls):
    table = n % 2 + 1
    night = night.apply({"type": "roll", "table": table, "dice": list(rng.choice(faces))})
    if (n + 1) % every == 0:  # a mistake: undone, and entered again
        night = night.apply({"type": "undo", "table": table})
        night = night.apply({"type": "roll", "table": table, "dice": list(rng.choice(faces))})
print(json.dumps({"wall": time.perf_counter() - started, "cpu": time.process_time() - cpu,
                  "rolls": sum(len(t.rolls) for t in night.tables),
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def undo_figures(before: str | None, rolls: int, undos: int) -> None:
    """A long round with many undos (each undo of the table's last roll, then the roll
    entered again), folded in a child process with the code now and, with ``before``,
    with the code of that git revision: wall and CPU seconds side by side."""
    here = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory() as tmp:
        codes = [("now", here)]
        if before:
            codes.append((f"at {before}", _before_src(before, Path(tmp))))
        results = {}
        for label, src in codes:
            for n_undos in (0, undos):
                out = subprocess.run(
                    [sys.executable, "-c", UNDO_CHILD, str(rolls), str(n_undos)],
                    env={**os.environ, "PYTHONPATH": str(src)},
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                got = json.loads(out)
                assert got["rolls"] == rolls, got  # every undone roll was entered again
                results[label, n_undos] = got
                print(
                    f"{label:>14}  {rolls:,} rolls in one round, {n_undos:>5,} undos: wall "
                    f"{got['wall']:7.2f} s  CPU {got['cpu']:7.2f} s  peak {got['peak']:6.1f} MB",
                    flush=True,
                )
        for label, _ in codes:
            plain, undone = results[label, 0], results[label, undos]
            each = (undone["cpu"] - plain["cpu"]) / undos * 1000 if undos else 0.0
            print(
                f"{label:>14}  the {undos:,} undos cost {undone['cpu'] / plain['cpu']:5.1f}x "
                f"the CPU of the rolls alone, {each:.2f} ms each"
            )
        if before:
            now, old = results["now", undos], results[f"at {before}", undos]
            print(
                f"{'':>14}  now / before: CPU {now['cpu'] / old['cpu']:.3f}x "
                f"({old['cpu'] / now['cpu']:.1f} times faster)"
            )


CATCH_UP_CHILD = """
import json, random, resource, sys, time, warnings
warnings.filterwarnings("ignore")
from fastapi.testclient import TestClient
from bunco.store import EventStore
from bunco.core.stored_event import StoredEvent
from bunco.store.events import dump, now
from bunco.web.app import create_app
mode, url = sys.argv[1], sys.argv[2]
players = [f"P{i}" for i in range(1, 9)]
if mode == "build":  # a night of two tables rolling on in round 1, none of it scoring
    rolls, rng = int(sys.argv[3]), random.Random(1)
    faces = [(a, b, c) for a in range(2, 7) for b in range(2, 7) for c in range(2, 7)
             if not a == b == c]
    with TestClient(create_app(url, bot_pace=0)) as client:
        created = client.post("/api/nights", json={"players": players}).json()
    store, night = EventStore(url), created["night"]
    seq, batch = store.last_seq(night), []
    for n in range(rolls):
        table = n % 2 + 1
        event = {"type": "roll", "table": table, "dice": list(rng.choice(faces))}
        batch.append(StoredEvent(night, seq + 1 + n, table, f"r{n}", dump(event), now()))
        if len(batch) == 20_000 or n == rolls - 1:
            store.append_many(night, batch)
            batch = []
    store.close()
    print(json.dumps({"night": night, "token": created["host_token"]}))
else:  # a server started on that database: its first request for the night
    night, token = sys.argv[3], sys.argv[4]
    with TestClient(create_app(url, bot_pace=0)) as client:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        started, cpu = time.perf_counter(), time.process_time()
        reply = client.get(f"/api/nights/{night}", headers={"authorization": "Bearer " + token})
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        assert reply.status_code == 200, reply.text
        held = reply.json()["seq"]
        started = time.perf_counter()
        again = client.get(f"/api/nights/{night}", headers={"authorization": "Bearer " + token})
        second = time.perf_counter() - started
    print(json.dumps({"wall": wall, "cpu": cpu, "seq": held, "second": second, "before": before,
                      "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def catch_up_figures(sizes: list[int]) -> None:
    """A server's first request for a night of ``sizes`` rolls in one round, after a
    restart (each in a fresh child process): wall, CPU and peak memory side by side."""
    here = Path(__file__).resolve().parent.parent / "src"
    env = {**os.environ, "PYTHONPATH": str(here)}
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            url = f"sqlite:///{Path(tmp) / f'night-{size}.sqlite3'}"
            run = [sys.executable, "-c", CATCH_UP_CHILD]
            made = subprocess.run(
                [*run, "build", url, str(size)], env=env, check=True, capture_output=True, text=True
            ).stdout
            night = json.loads(made.splitlines()[-1])
            out = subprocess.run(
                [*run, "time", url, night["night"], night["token"]],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            got = results[size] = json.loads(out.splitlines()[-1])
            assert got["seq"] == size, got  # every roll folded
            print(
                f"catch-up  {size:>9,} rolls in one round: first request wall "
                f"{got['wall']:7.2f} s  CPU {got['cpu']:7.2f} s; the next {got['second'] * 1000:6.1f}"
                f" ms; memory {got['before']:6.1f} MB before, peak {got['peak']:6.1f} MB",
                flush=True,
            )
    small, big = results[min(sizes)], results[max(sizes)]
    print(
        f"catch-up  {max(sizes) // min(sizes)}x the rolls: wall {big['wall'] / small['wall']:5.1f}x, "
        f"CPU {big['cpu'] / small['cpu']:5.1f}x, memory over the server's "
        f"{(big['peak'] - big['before']) / max(small['peak'] - small['before'], 0.1):5.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sets", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="tournament")
    parser.add_argument("--repeat", type=int, default=1, help="read the log this many times")
    parser.add_argument("--keep", type=Path, help="write the log here instead of a temporary file")
    parser.add_argument(
        "--no-verify", action="store_true", help="no verifications after the last round"
    )
    parser.add_argument(
        "--money",
        action="store_true",
        help="tournament payouts, groups of 100, absentees, judged prizes",
    )
    parser.add_argument(
        "--long", action="store_true", help="time bunco replay on 100,000- and 1,000,000-event logs"
    )
    parser.add_argument(
        "--before",
        metavar="REV",
        help="with --long: also replay them with the code of git revision REV",
    )
    parser.add_argument(
        "--limit",
        type=float,
        default=600.0,
        help="with --long: stop a replay after this many seconds",
    )
    parser.add_argument(
        "--before-limit",
        type=float,
        default=300.0,
        help="with --before: stop a replay by the older code after this long",
    )
    parser.add_argument(
        "--undos",
        type=int,
        metavar="N",
        help="time a round of --undo-rolls rolls with N undos (and with the code of --before REV)",
    )
    parser.add_argument("--undo-rolls", type=int, default=10_000)
    parser.add_argument(
        "--catch-up",
        action="store_true",
        help="time a server's first request for a night with a long round, after a restart",
    )
    parser.add_argument("--catch-up-sizes", type=int, nargs="+", default=[30_000, 300_000])
    args = parser.parse_args()
    if args.catch_up:
        catch_up_figures(args.catch_up_sizes)
        return
    if args.undos is not None:
        undo_figures(args.before, args.undo_rolls, args.undos)
        return
    if args.long:
        long_logs(args.before, args.limit, args.before_limit)
        return

    started = time.perf_counter()
    setup, events, rounds_only, built = build_night(
        args.players,
        args.seed,
        args.sets,
        args.rules,
        verify=not args.no_verify,
        money=args.money,
    )
    build_seconds = time.perf_counter() - started
    from bunco.core.party_log import write_log
    from bunco.party.night_report import night_report

    text = write_log(setup, events)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "night.jsonl"
        path.write_text(text, encoding="utf-8")
        lines = path.read_text(encoding="utf-8").splitlines()
    read_seconds, night = time_read(lines, args.repeat)
    rounds_seconds, _ = time_read(lines[: 1 + rounds_only], args.repeat)
    started = time.perf_counter()
    report = night_report(night)
    report_seconds = time.perf_counter() - started
    assert report == night_report(built), "the replay differs from the night as it was played"
    tables = len(night.history[0].tables)
    print(
        f"rules {args.rules}, {args.players} players, {tables} tables, "
        f"{args.sets} set(s), seed {args.seed}"
    )
    print(f"events                  {len(events):>10,}   ({rounds_only:,} in the rounds)")
    print(f"log size                {len(text) / 1e6:>10.1f} MB")
    print(f"build (play) s          {build_seconds:>10.2f}")
    print(f"read_log, rounds only s {rounds_seconds:>10.2f}   (median of {args.repeat})")
    print(f"read_log, whole log s   {read_seconds:>10.2f}   (median of {args.repeat})")
    print(f"events per s            {len(events) / read_seconds:>10,.0f}")
    print(f"report() s              {report_seconds:>10.2f}")
    if args.money:
        from bunco.core.settlement import prize_money

        started = time.perf_counter()
        paid = prize_money(night)
        money_seconds = time.perf_counter() - started
        print(
            f"payouts (prize_money) s {money_seconds:>10.3f}   ({len(paid['payouts'])} "
            f"payouts, {len(paid['awards'])} awards)"
        )


if __name__ == "__main__":
    main()
