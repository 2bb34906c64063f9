"""The workers sweep of ``benchmarks/simulate.py``: a run of kernel nights on 1, 2 and
every core, timed two ways side by side, and the same run modelled on 16 cores.

A run here is what ``simulate_summary`` does (the party's inputs built in the parent,
the nights cut into the same jobs, handed to the same pool of forked workers, their
moments merged in order), with each job also reporting the CPU time it took and its
worker's CPU time so far. From that:

- **wall** speed-up: the one-worker run's wall time over this run's; on a shared machine
  other work takes cores too, so it can say less than the code does;
- **CPU** speed-up: the one-worker run's CPU time over this run's *critical path* — the
  parent's own CPU time (building the inputs, starting the pool, merging) plus the
  busiest worker's CPU time (its start, its jobs, sending results). It is the wall
  speed-up the run would have on idle cores, and does not depend on the machine's load;
- the **16-core model**: the one-worker run's serial part *s* (its CPU time less its
  jobs'), the measured CPU time of every job, and each worker's own overhead *o* (its
  CPU time less its jobs', measured in the many-worker run) give
  ``T(p) = s + o + makespan(p)``, where ``makespan`` hands the jobs, in order, each to the
  first worker free (what the pool does); efficiency ``T(1) / (p T(p))``.
"""

from __future__ import annotations

import heapq
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bunco.analysis import simulate
from bunco.analysis.kernel.loaded import ensure_ready
from bunco.analysis.night_kernel import kernel_inputs
from bunco.analysis.simulate import KernelPart, sim_rules
from bunco.analysis.summary import Summary


@dataclass(frozen=True)
class TimedPart(KernelPart):
    """:class:`KernelPart` whose jobs also say what they cost."""

    def timed(self, job: tuple[int, int]) -> tuple[Summary, int, float, float]:
        """The job's moments, its worker's pid, its CPU seconds, and the worker's CPU
        seconds so far."""
        start = time.process_time()
        summary = self.summary(job)
        end = time.process_time()
        return summary, os.getpid(), end - start, end


@dataclass(frozen=True)
class Run:
    """One timed run."""

    workers: int
    wall: float
    parent_cpu: float
    jobs_cpu: list[float]
    worker_cpu: dict[int, float]

    @property
    def critical(self) -> float:
        """CPU seconds on the critical path: the parent's, plus the busiest worker's."""
        if self.workers == 1:
            return self.parent_cpu
        return self.parent_cpu + max(self.worker_cpu.values())

    @property
    def serial(self) -> float:
        """(One worker) the CPU seconds spent outside the jobs."""
        return max(self.parent_cpu - sum(self.jobs_cpu), 0.0)

    def overhead(self) -> float:
        """(Several workers) a worker's mean CPU seconds outside its jobs."""
        if self.workers == 1 or not self.worker_cpu:
            return 0.0
        return max(0.0, (sum(self.worker_cpu.values()) - sum(self.jobs_cpu)) / len(self.worker_cpu))


def timed_run(preset: str, players: int, parties: int, workers: int, seed: int = 1) -> Run:
    """``simulate_summary`` of ``parties`` one-set nights on ``workers``, timed."""
    rules = sim_rules(preset, {})
    kernel_inputs.cache_clear()  # built again, as in a fresh run (the lookup from disk)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    part = TimedPart(kernel_inputs(rules, players, 1), seed, tuple(p.value for p in rules.prizes))
    jobs = simulate._kernel_jobs(players, 1, parties)
    total = Summary()
    jobs_cpu: list[float] = []
    worker_cpu: dict[int, float] = {}
    for summary, pid, job_cpu, so_far in simulate._over_workers(part, "timed", jobs, workers):
        total.merge(summary)
        jobs_cpu.append(job_cpu)
        worker_cpu[pid] = max(worker_cpu.get(pid, 0.0), so_far)
    wall = time.perf_counter() - wall0
    parent = time.process_time() - cpu0
    if workers > 1:
        worker_cpu.pop(os.getpid(), None)
    return Run(workers, wall, parent, jobs_cpu, worker_cpu)


def makespan(jobs: Sequence[float], workers: int) -> float:
    """The time ``workers`` take to play ``jobs`` (seconds each) handed out in order, each
    to the first worker free.

    >>> makespan([1, 1, 1, 1], 2), makespan([3, 1, 1, 1], 2), makespan([1, 2], 4)
    (2.0, 3.0, 2.0)
    """
    free = [0.0] * min(workers, len(jobs))
    heapq.heapify(free)
    for t in jobs:
        heapq.heappush(free, heapq.heappop(free) + t)
    return max(free)


def model(one: Run, overhead: float, workers: int, scale: int = 1) -> float:
    """The efficiency on ``workers`` modelled from the one-worker run (its jobs repeated
    ``scale`` times: a run ``scale`` times longer)."""
    jobs = list(one.jobs_cpu) * scale
    alone = one.serial + sum(jobs)
    return alone / (workers * (one.serial + overhead + makespan(jobs, workers)))


def sweep(preset: str, players: int, parties: int, counts: list[int]) -> dict[str, Any]:
    """Print the runs on each number of workers, and the 16-core model."""
    ensure_ready()
    timed_run(preset, players, min(parties, 4), 1)  # warm: imports, the lookup on disk
    runs = {w: timed_run(preset, players, parties, w) for w in counts}
    one = runs[counts[0]]
    jobs = len(one.jobs_cpu)
    print(
        f"  {players:>5} players, {parties:>6,} nights, {jobs:>3} jobs of "
        f"{1000 * sum(one.jobs_cpu) / jobs:.1f} ms; serial part {1000 * one.serial:.0f} ms "
        f"of CPU"
    )
    for w, run in runs.items():
        wall_x = one.wall / run.wall
        cpu_x = one.critical / run.critical
        print(
            f"    {w:>2} workers: wall {run.wall:6.2f} s {wall_x:5.2f}x ({wall_x / w:4.0%}),"
            f" CPU critical path {run.critical:6.2f} s {cpu_x:5.2f}x ({cpu_x / w:4.0%})"
        )
    many = runs[counts[-1]]
    overhead = many.overhead() if many.workers > 1 else 0.0
    rows = [
        f"{parties * scale:,} nights {model(one, overhead, 16, scale):.0%}" for scale in (1, 10)
    ]
    print(
        f"    modelled on 16 cores (a worker's overhead {1000 * overhead:.0f} ms): "
        + ", ".join(rows)
    )
    return {"runs": runs, "overhead": overhead}


def speed_ups(runs: dict[int, Run]) -> dict[int, tuple[float, float]]:
    """Per number of workers, the wall and the CPU speed-ups over one worker."""
    one = runs[min(runs)]
    return {w: (one.wall / r.wall, one.critical / r.critical) for w, r in runs.items()}


def cores() -> list[int]:
    """1, 2 and every core."""
    return sorted({1, 2, os.cpu_count() or 1})
