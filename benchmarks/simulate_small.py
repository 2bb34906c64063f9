"""Short commands of the simulator, start-up included: where their CPU time goes, side by
side with another copy of the sources (the code before a change) in one run.

For each command (``odds --set --players 12`` in every preset; ``simulate --players 1000
--rules tournament --parties 10``; ``simulate --players 12 --parties 1000``), ``--runs``
fresh processes each (warm: bytecode and the kernel's cache in place), the medians of:

- **wall** seconds (on a shared machine, the other sessions' work stretches it);
- **CPU** seconds of the whole process tree;
- the **parent**'s CPU seconds and its CPU seconds **up to the fork** of ``odds --set``'s
  background process (which plays the kernel's nights while the parent composes the
  exact figures), and that **child**'s CPU seconds;
- **idle cores**: what the wall time would be on two idle cores, the parent's CPU up to
  the fork plus the longer of its CPU after it and the child's (for ``simulate``, whose
  small runs play in one process, the CPU seconds).

Run: ``python benchmarks/simulate_small.py [--runs 5] [--before SRC]``, ``SRC`` the
``src`` folder of another copy of the sources (``git archive``), run with this
environment's Python (its Numba cache must be in place: run it once first). A
benchmark, not a test: it prints figures and never fails on them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from simulate import COLD_COMMANDS

PRESETS = ("classic", "scil", "tournament", "winning-moves")

COMMANDS: dict[str, list[str]] = {
    **{f"odds --set --players 12 --rules {p}": ["odds", "--set", "--rules", p] for p in PRESETS},
    **{
        line: COLD_COMMANDS[line]
        for line in (
            "simulate --players 1000 --rules tournament --parties 10",
            "simulate --players 12 --parties 1000",
        )
    },
}

WRAPPER = """
import json, resource, sys, time
import bunco.analysis.background as background
fork = []
plain = background.in_background
def timed(*args, **kwargs):
    fork.append(time.process_time())
    return plain(*args, **kwargs)
background.in_background = timed
from bunco.cli import main
sys.argv = ["bunco", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = me.ru_utime + me.ru_stime
print(json.dumps({"parent": cpu, "fork": fork[0] if fork else cpu,
                  "child": kids.ru_utime + kids.ru_stime}), file=sys.stderr)
"""


def one_run(command: list[str], src: str | None) -> dict[str, float]:
    """One fresh process of ``command``: wall, parent, fork and child CPU seconds."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - start
    figures: dict[str, float] = json.loads(done.stderr.strip().splitlines()[-1])
    figures["wall"] = wall
    figures["cpu"] = figures["parent"] + figures["child"]
    figures["idle"] = figures["fork"] + max(figures["parent"] - figures["fork"], figures["child"])
    return figures


def medians(command: list[str], src: str | None, runs: int) -> dict[str, float]:
    """The median of each figure over ``runs`` fresh processes."""
    all_runs = [one_run(command, src) for _ in range(runs)]
    return {key: statistics.median(r[key] for r in all_runs) for key in all_runs[0]}


def load() -> str:
    """The load average over 1, 5 and 15 minutes (the machine may be shared)."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def rows(runs: int, before: str | None) -> None:
    """Print every command's medians (and the other copy's, side by side)."""
    print(f"short commands, median of {runs} fresh processes, seconds ({load()})")
    print(
        f"{'command':<58}{'':>8}{'wall':>7}{'CPU':>7}{'parent':>8}{'to fork':>8}"
        f"{'child':>7}{'idle cores':>11}"
    )
    for name, command in COMMANDS.items():
        sides = [("now", None)] + ([("before", before)] if before else [])
        for label, src in sides:
            m = medians(command, src, runs)
            print(
                f"{name if label == 'now' else '':<58}{label:>8}{m['wall']:7.2f}{m['cpu']:7.2f}"
                f"{m['parent']:8.2f}{m['fork']:8.2f}{m['child']:7.2f}{m['idle']:11.2f}"
            )
    print(f"  ({load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per command")
    parser.add_argument("--before", help="the src folder of the code to compare with")
    args = parser.parse_args()
    rows(args.runs, args.before)


if __name__ == "__main__":
    main()
