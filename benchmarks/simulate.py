"""Speed, memory and start-up of `bunco simulate`, measured side by side in one run.

Prints, on one core:

1. the bare draw: NumPy's generator drawing three dice per roll as ``int64`` (rolls/s);
2. for 2, 4, 5, 7, 12, 13, 40, 100 and 1,000 players in every preset, the rolls per
   second of whole one-set nights as ``bunco simulate`` plays them (the compiled night
   kernel where it covers the party, else the night engine: the ``path`` column says
   which), and their ratio to the bare draw per roll (goal: at least 50%);
3. on four-player nights, a plain-Python one-table loop of the kind other Python Bunco
   projects ship (one point per die showing the round's number, 21 for a Bunco, 5 for
   other three of a kind, roll while scoring, first team to 21), next to the kernel's
   four-player nights per roll (goal: at least 100 times the plain loop);
4. the start-up of each ``bunco`` command (median wall and CPU time of fresh processes,
   compiled bytecode cached as on an installed system) against ``python -c pass``
   (goal: ``--help``, ``rules`` and ``score`` within 0.15 s);
5. first run against later runs (``--cold``): for ``simulate`` and ``odds --set``, the
   seconds to the first figures on stdout and to the end, with an empty Numba cache
   (the kernel compiles, saying so on stderr; with ``--quick`` for the first command
   only), the first run after the install's compile step (``python -m
   bunco.analysis.kernel.compile``, what ``make`` runs; timed too; no Python bytecode
   cached either) and warm;
6. a workers sweep (``benchmarks/simulate_workers.py``): ``simulate_summary`` of
   twelve- and thousand-player nights on 1, 2 and every core, as speed-ups and
   efficiency, both in wall time and on the CPU-time critical path (the parent's CPU
   time plus the busiest worker's: what idle cores would give), and the efficiency on
   16 cores modelled from the measured CPU time of every job;
7. the peak memory of one ``bunco simulate`` run of ``--memory`` twelve-player nights
   over every core: the largest process's peak RSS and the whole process tree's peak
   proportional set size (PSS counts pages shared between the processes once; summed
   RSS counts them once per process), which must not grow with the number of nights.

Run: ``python benchmarks/simulate.py [--quick] [--memory NIGHTS]``; for some rows only,
``--presets winning-moves --players 100 1000 --no-plain --no-startup --no-cold --no-sweep
--memory 0`` (the bare draw is measured in every run, so ratios stay side by side). A benchmark, not a
test: it prints figures and never fails on them. The machine may be shared: every figure
is the best (rates) or the median (start-up) of a few runs, and the load average is
printed beside the timed rows.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bunco.analysis.simulate import simulate_summary, uses_kernel
from bunco.core.presets import PRESETS

COUNTS = (2, 4, 5, 7, 12, 13, 40, 100, 1000)
BIN = Path(sys.executable).parent


def best_rate(run: Callable[[], float], repeat: int) -> float:
    """The best of ``repeat`` runs of ``run`` (which returns units done), per CPU second
    of this process (the machine may be shared: wall time would count the others)."""
    best = 0.0
    for _ in range(repeat):
        start = time.process_time()
        units = run()
        best = max(best, units / max(time.process_time() - start, 1e-9))
    return best


def bare_draw(rolls: int) -> float:
    """Rolls/s of NumPy's generator drawing three int64 dice per roll."""
    rng = np.random.default_rng(1)
    block = 1 << 20

    def run() -> float:
        left = rolls
        while left > 0:
            rng.integers(1, 7, size=(min(block, left), 3), dtype=np.int64)
            left -= block
        return rolls

    return best_rate(run, 5)


def nights_rate(preset: str, players: int, budget: float) -> tuple[str, float, int]:
    """(path, rolls per CPU second, nights) of one-set nights as `bunco simulate` plays
    them, on one core: as many nights as take about ``budget`` CPU seconds (at least
    one), the best of three runs for the kernel."""
    path = "kernel" if uses_kernel(preset, {}, players, 1) else "engine"
    simulate_summary(preset, {}, players=players, sets=1, parties=1, seed=1, workers=1)  # warm
    nights = 1
    while True:
        start = time.process_time()
        summary = simulate_summary(
            preset, {}, players=players, sets=1, parties=nights, seed=2, workers=1
        )
        elapsed = time.process_time() - start
        if elapsed >= budget or (path == "engine" and elapsed >= budget / 4):
            break
        nights *= 4 if elapsed < budget / 8 else 2
    rolls = summary["figures"]["rolls_per_set"]["mean"] * nights
    if path == "engine":
        return path, rolls / elapsed, nights

    def again() -> float:
        simulate_summary(preset, {}, players=players, sets=1, parties=nights, seed=2, workers=1)
        return float(rolls)

    rate = best_rate(again, 3)
    return path, max(rate, rolls / elapsed), nights


def plain_python_games(games: int, seed: int) -> int:
    """Plain-Python four-player games (six rounds at one table, partners opposite);
    returns the rolls made."""
    draw = random.Random(seed)
    rolls = 0
    for _ in range(games):
        for round_no in range(1, 7):
            scores = [0, 0]
            player = 0
            while max(scores) < 21:
                while True:  # one turn: roll while the roll scores
                    dice = [draw.randint(1, 6), draw.randint(1, 6), draw.randint(1, 6)]
                    rolls += 1
                    if dice[0] == dice[1] == dice[2]:
                        points = 21 if dice[0] == round_no else 5
                    else:
                        points = dice.count(round_no)
                    scores[player % 2] += points
                    if points == 0 or scores[player % 2] >= 21:
                        break
                player += 1
    return rolls


def startup(args: list[str], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``args`` in a fresh process (bytecode cached)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )  # write the bytecode caches
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def _tree(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree = {pid}
    grew = True
    while grew:
        grew = False
        for child, parent in parents.items():
            if parent in tree and child not in tree:
                tree.add(child)
                grew = True
    return sorted(tree)


def _memory(pid: int) -> tuple[int, int, int]:
    """(summed RSS, summed PSS, largest RSS) of a process tree, in bytes."""
    rss_sum = pss_sum = largest = 0
    for p in _tree(pid):
        try:
            rss = int(Path(f"/proc/{p}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            pss = next(
                int(line.split()[1]) * 1024
                for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines()
                if line.startswith("Pss:")
            )
        except (OSError, StopIteration):
            continue
        rss_sum += rss
        pss_sum += pss
        largest = max(largest, rss)
    return rss_sum, pss_sum, largest


def peak_memory(nights: int) -> tuple[float, int, int, int]:
    """Seconds and peak (summed RSS, tree PSS, largest RSS) of `bunco simulate` of
    ``nights`` twelve-player classic nights over every core."""
    args = [
        str(BIN / "bunco"),
        "simulate",
        "--rules",
        "classic",
        "--players",
        "12",
        "--parties",
        str(nights),
        "--json",
    ]
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0, 0, 0]
    while proc.poll() is None:
        for i, value in enumerate(_memory(proc.pid)):
            peak[i] = max(peak[i], value)
        time.sleep(0.2)
    return time.perf_counter() - start, peak[0], peak[1], peak[2]


def startup_rows(runs: int) -> None:
    """Print the start-up of each command, median of ``runs`` fresh processes."""
    bunco = str(BIN / "bunco")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "bunco --help": [bunco, "--help"],
        "bunco rules": [bunco, "rules"],
        "bunco score --rules wm --round 4 2 2 2": [
            bunco,
            "score",
            "--rules",
            "wm",
            "--round",
            "4",
            "2",
            "2",
            "2",
        ],
        "bunco replay --help": [bunco, "replay", "--help"],
        "bunco play --help": [bunco, "play", "--help"],
        "bunco sheets --help": [bunco, "sheets", "--help"],
        "bunco serve --help": [bunco, "serve", "--help"],
        "bunco odds --round 1 --json": [bunco, "odds", "--round", "1", "--json"],
        "bunco simulate --parties 1 --workers 1": [
            bunco,
            "simulate",
            "--parties",
            "1",
            "--workers",
            "1",
            "--json",
        ],
    }
    print(f"start-up, median of {runs} fresh processes")
    base = None
    for name, command in commands.items():
        wall, cpu = startup(command, runs)
        base = base if base is not None else wall
        print(f"  {name:<42}{wall:7.3f} s wall {cpu:7.3f} s CPU  (+{wall - base:.3f} s)")
    print()


def load() -> str:
    """The load average over 1, 5 and 15 minutes (the machine may be shared)."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


COLD_COMMANDS = {
    line: line.split()
    for line in (
        "simulate --players 12 --parties 1000",
        "odds --set --players 12",
        "simulate --players 1000 --rules tournament --parties 10",
        "simulate --players 4 --parties 20000",
    )
}
"""The commands of the first-run rows, each under its own words (``simulate_small.py``
times three of them too)."""


def first_and_end(args: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from the start of ``args`` to its first byte on stdout and to its end, and
    the CPU seconds of it and its children (a shared machine stretches wall time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    proc.stdout.read(1)
    first = time.perf_counter() - start
    proc.stdout.read()
    proc.wait()
    end = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return first, end, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _cell(row: tuple[float, float, float] | None) -> str:
    return f"{'–':>22}" if row is None else f"{row[0]:>7.2f} /{row[1]:>6.2f} ({row[2]:5.2f})"


def cold_rows(commands: dict[str, list[str]], empty_runs: int) -> None:
    """Each command's first figures and end, three ways: with an empty Numba cache (the
    kernel compiles, saying so; the first ``empty_runs`` commands only), the first run
    after the install's compile step (into a fresh cache; no Python bytecode cached
    either), and warm (the median of two more runs)."""
    bunco = str(BIN / "bunco")
    base = {
        k: v for k, v in os.environ.items() if k not in {"NUMBA_CACHE_DIR", "PYTHONPYCACHEPREFIX"}
    }
    with tempfile.TemporaryDirectory() as installed:
        env = {**base, "NUMBA_CACHE_DIR": installed}
        step = first_and_end([sys.executable, "-m", "bunco.analysis.kernel.compile"], env)
        print(
            f"the install's compile step (python -m bunco.analysis.kernel.compile): "
            f"{step[1]:.1f} s wall, {step[2]:.1f} s CPU  ({load()})"
        )
        print("seconds to the first figures on stdout / to the end (CPU seconds)")
        print(f"{'command':<56}{'empty cache':>22}{'first after install':>22}{'warm':>22}")
        for n, (name, command) in enumerate(commands.items()):
            cold = None
            if n < empty_runs:
                with tempfile.TemporaryDirectory() as empty:
                    cold = first_and_end([bunco, *command], {**base, "NUMBA_CACHE_DIR": empty})
            with tempfile.TemporaryDirectory() as pyc:
                first = first_and_end([bunco, *command], {**env, "PYTHONPYCACHEPREFIX": pyc})
            runs = [first_and_end([bunco, *command], env) for _ in range(2)]
            warm = (
                statistics.median(r[0] for r in runs),
                statistics.median(r[1] for r in runs),
                statistics.median(r[2] for r in runs),
            )
            print(f"{name:<56}" + "".join(_cell(c) for c in (cold, first, warm)))
    print(f"  ({load()})\n")


def sweep_rows(quick: bool) -> None:
    """The workers sweep (``simulate_workers``): 12 and 1,000 players, tournament."""
    from simulate_workers import cores, sweep

    counts = cores()
    print(f"workers sweep, tournament ({os.cpu_count()} cores, {load()})")
    sweep("tournament", 12, 4_000 if quick else 100_000, counts)
    sweep("tournament", 1000, 40 if quick else 1_000, counts)
    sweep("tournament", 1000, 10, counts)  # a small run of big nights
    print(f"  ({load()})\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (a smoke test)")
    parser.add_argument(
        "--memory", type=int, default=1_000_000, help="nights of the memory run (0: skip it)"
    )
    parser.add_argument(
        "--presets",
        nargs="+",
        choices=list(PRESETS),
        default=list(PRESETS),
        metavar="PRESET",
        help="the presets of the per-count rows (default: all)",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        type=int,
        default=list(COUNTS),
        metavar="N",
        help="the player counts of the per-count rows",
    )
    parser.add_argument(
        "--no-plain",
        action="store_true",
        help="skip the plain-Python loop against four-player nights",
    )
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up runs")
    parser.add_argument(
        "--no-cold",
        action="store_true",
        help="skip the first-run rows (each compiles the kernel: minutes)",
    )
    parser.add_argument("--no-sweep", action="store_true", help="skip the workers sweep")
    args = parser.parse_args()
    budget = 0.2 if args.quick else 1.0
    mb = 2**20

    bare = bare_draw(200_000 if args.quick else 5_000_000)
    print(f"bare draw of three int64 dice (NumPy): {bare / 1e6:.1f} M rolls/s\n")

    print("one-set nights as `bunco simulate` plays them, one core")
    print(f"{'preset':<14}{'players':>8}  {'path':<7}{'nights':>9}{'M rolls/s':>11}{'of bare':>9}")
    for preset in args.presets:
        for players in args.players:
            if args.quick and players == 1000 and preset != "classic":
                continue
            path, rate, nights = nights_rate(preset, players, budget)
            print(
                f"{preset:<14}{players:>8}  {path:<7}{nights:>9}{rate / 1e6:>11.3f}"
                f"{rate / bare:>9.1%}"
            )
    print()

    if not args.no_plain:
        games = 200 if args.quick else 3000
        plain = best_rate(lambda: plain_python_games(games, 1), 3)
        _, kernel4, _ = nights_rate("classic", 4, budget)
        print("four-player nights, per roll, one core")
        print(f"  plain-Python one-table loop:      {plain / 1e6:8.3f} M rolls/s")
        print(
            f"  night kernel (classic, 4 players): {kernel4 / 1e6:8.3f} M rolls/s"
            f"  = {kernel4 / plain:,.0f} x the plain loop\n"
        )
    if not args.no_startup:
        startup_rows(3 if args.quick else 9)

    if not args.no_cold:
        cold_rows(COLD_COMMANDS, 1 if args.quick else len(COLD_COMMANDS))
    if not args.no_sweep:
        sweep_rows(args.quick)

    if args.memory:
        seconds, rss_sum, pss, largest = peak_memory(args.memory)
        print(
            f"memory of `bunco simulate` of {args.memory:,} twelve-player nights "
            f"({os.cpu_count()} cores, {seconds:.0f} s): largest process {largest / mb:.0f} "
            f"MB, process tree PSS {pss / mb:.0f} MB (summed RSS {rss_sum / mb:.0f} MB)"
        )


if __name__ == "__main__":
    main()
