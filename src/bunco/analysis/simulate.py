"""Monte Carlo of whole nights through the real rules (``bunco simulate``).

Two players of the same nights:

- the night engine: every night is played by :class:`bunco.core.night.Night` itself —
  seating, moving, the bell, tie-breaks, roll-offs and prizes — one roll event at a time
  (:func:`play_night`);
- the compiled night kernel (:mod:`bunco.analysis.night_kernel`), a thousand times
  faster and more, which plays every party of 2 to 2,000 players exactly as the engine
  does (tables of four, two and three, teams and individuals, ghosts).
  :func:`simulate_nights` uses it by default, and the engine when asked
  (``engine=True``) or for what the kernel refuses (:func:`uses_kernel`).

Both use one schedule of rolls (see :func:`play_tick`): in each tick every table still in
its round rolls once, the last table first and the head table last, so all tables keep
the same pace (as :mod:`bunco.analysis.table_odds` assumes). Night ``i`` of a run seeded
with ``seed`` draws its dice from ``night_seeds(seed)[i]``, so a run gives the same
figures whatever the number of processes, and the kernel and the engine give the same
figures for the same seed. Parties run in parallel processes.

Where the rules count only *verified* Buncos and wins for prizes, the simulation treats
every card as verified (``verify_for_prizes`` off): nobody checks cards in a simulation.

>>> stats = night_stats(play_night("classic", {}, players=8, sets=1, seed=3))
>>> stats["rounds"], 0 <= stats["head_first_team_win"] <= 1
(6.0, True)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, get_args

import numpy as np

from bunco.analysis.kernel.loaded import ensure_ready
from bunco.analysis.night_kernel import (
    FIGURES,
    TIMED_REFUSAL,
    DiceStream,
    KernelInputs,
    figures_of,
    kernel_inputs,
    kernel_refusal,
    night_seeds,
    player_names,
)
from bunco.analysis.summary import FigureName, NightFigures, Summary, SummaryView
from bunco.core.errors import InvalidSetup
from bunco.core.presets import get_rules
from bunco.core.rules import HouseRuleValue, RollKind, RuleSet
from bunco.core.table import Phase, Status

if TYPE_CHECKING:  # the engine is imported when it plays (not by `odds --set`'s sim_rules)
    from bunco.core.night import Night
    from bunco.core.round_results import TableResult

NIGHT_FIGURES: dict[str, str] = {
    "buncos": "Buncos per night",
    "rounds": "rounds per night",
    "rolls_per_set": "rolls per set, all tables",
    "head_rolls": "rolls per round at the head table (after-bell included)",
    "head_first_team_win": "P(the head table's first team wins a round)",
    "head_bunco_end": "P(the head table's round ends on a Bunco)",
    "tie_rate": "P(a tie-break at a table, per table and round)",
    "non_head_tie_rate": "P(a tie-break at a team table other than the head)",
    "points_per_roll": "points per roll in play (all points over all rolls)",
}
"""The figures a simulation gives, with their words: the mean over the nights of each
night's figure, but ``points_per_roll``, the ratio of the totals (:data:`RATIOS`)."""

RATIOS: dict[str, tuple[FigureName, FigureName]] = {
    "points_per_roll": ("play_points", "play_rolls")
}
"""Figures that are a ratio of totals over all nights: numerator and denominator keys."""

MEAN_FIGURES: tuple[FigureName, ...] = tuple(
    key for key in get_args(FigureName) if key not in {k for pair in RATIOS.values() for k in pair}
)
"""The night figures averaged over the nights."""

assert set(NIGHT_FIGURES) == set(MEAN_FIGURES) | set(RATIOS)
assert get_args(FigureName) == FIGURES  # the kernel's columns, in order

IMPOSSIBLE: dict[str, str] = {
    "head_first_team_win": "the head table plays as individuals: it has no teams",
    "non_head_tie_rate": "no team table other than the head table",
    "points_per_roll": "no roll in play",
}
"""Why a figure can have no value in a party (it prints as "–" and is null in JSON)."""

__all__ = [
    "IMPOSSIBLE",
    "MEAN_FIGURES",
    "NIGHT_FIGURES",
    "RATIOS",
    "job_nights",
    "kernel_chunk",
    "night_stats",
    "party_seeds",
    "play_night",
    "play_tick",
    "player_names",
    "run_workers",
    "sim_rules",
    "simulate_nights",
    "simulate_summary",
    "summarize",
    "uses_kernel",
]

Dice = Callable[[], Sequence[int]]
T = TypeVar("T")
R = TypeVar("R")


def _sim_house_rules(
    rules_name: str, house_rules: Mapping[str, HouseRuleValue]
) -> dict[str, HouseRuleValue]:
    house = dict(house_rules)
    if get_rules(rules_name, house).verify_for_prizes:
        house["verify_for_prizes"] = False
    return house


def sim_rules(rules_name: str, house_rules: Mapping[str, HouseRuleValue]) -> RuleSet:
    """The rule set a simulation plays: the preset with its house rules, cards verified.
    Timed rounds are refused: a round that ends on a clock needs time, which simulated
    dice do not take (:data:`~bunco.analysis.night_kernel.TIMED_REFUSAL`)."""
    rules = get_rules(rules_name, _sim_house_rules(rules_name, house_rules))
    if rules.round_minutes:
        raise InvalidSetup(
            f"round_minutes {rules.round_minutes}: {TIMED_REFUSAL}",
            expected="round_minutes 0 (off): simulated rounds end at the bell, as untimed ones do",
        )
    return rules


def play_tick(night: Night, dice: Dice) -> Night:
    """One tick of the simulation's schedule: a roll-off at no table takes one roll; else
    every table still in its round rolls once, the last table first, until the round (or
    set) is over."""
    if night.phase == "rolloff":
        return night.apply({"type": "roll", "dice": list(dice())})
    marker = (night.set_no, night.round_no, night.phase, len(night.history))
    for number in range(len(night.tables), 0, -1):
        if night.tables[number - 1].status is Status.DONE:
            continue
        night = night.apply({"type": "roll", "table": number, "dice": list(dice())})
        if (night.set_no, night.round_no, night.phase, len(night.history)) != marker:
            break
    return night


def play_night(
    rules_name: str,
    house_rules: Mapping[str, HouseRuleValue],
    *,
    players: int,
    sets: int,
    seed: int,
    dice: Dice | None = None,
) -> Night:
    """One whole night through the engine, with the dice of ``DiceStream(seed)`` (or
    ``dice``, a callable giving three faces per call)."""
    setup = {
        "type": "party",
        "rules": rules_name,
        "house_rules": _sim_house_rules(rules_name, house_rules),
        "players": player_names(players),
        "sets": sets,
    }
    from bunco.core.night import Night

    night = Night.start(setup)
    draw = dice if dice is not None else DiceStream(seed)
    while night.phase != "over":
        night = play_tick(night, draw)
    return night


def _first_side(result: TableResult) -> int | None:
    for record in result.rolls:
        if record.phase is Phase.PLAY:
            return record.seat % 2
    return None


def night_stats(night: Night) -> NightFigures:
    """The figures of one night (per-round figures averaged over its rounds)."""
    rounds = night.history
    head = [r.tables[0] for r in rounds]
    head_rolls = [sum(rec.phase in (Phase.PLAY, Phase.AFTER_BELL) for rec in t.rolls) for t in head]
    first_wins = []
    bunco_end = []
    for t in head:
        plays = [rec for rec in t.rolls if rec.phase is Phase.PLAY]
        side = _first_side(t)
        if t.team:  # a win after a tie-break counts; no roll in play: not the first team's
            first_wins.append(
                float(
                    side is not None and bool(t.winning_seats) and min(t.winning_seats) % 2 == side
                )
            )
        bunco_end.append(float(bool(plays) and plays[-1].kind is RollKind.BUNCO))
    tables = [t for r in rounds for t in r.tables]
    others = [t for r in rounds for t in r.tables[1:] if t.team]
    play = [rec for t in tables for rec in t.rolls if rec.phase is Phase.PLAY]
    all_rolls = sum(len(t.rolls) for t in tables)
    prize_ties = {
        p.category + (f" ({p.group})" if p.group else ""): float(len(p.candidates) > 1)
        for p in night.prizes
    }
    return {
        "buncos": float(sum(c.buncos for c in night.cards.values())),
        "rounds": float(len(rounds)),
        "rolls_per_set": all_rolls / max(1, night.sets),
        "head_rolls": _mean(head_rolls),
        "head_first_team_win": _mean(first_wins),
        "head_bunco_end": _mean(bunco_end),
        "tie_rate": _mean([float(t.tie_break is not None) for t in tables]),
        "non_head_tie_rate": _mean([float(t.tie_break is not None) for t in others]),
        "play_points": float(sum(rec.points for rec in play)),
        "play_rolls": float(len(play)),
        "prize_ties": prize_ties,
    }


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return float(sum(items) / len(items)) if items else math.nan


def _one(job: tuple[str, dict[str, HouseRuleValue], int, int, int]) -> NightFigures:
    rules_name, house, players, sets, seed = job
    return night_stats(play_night(rules_name, house, players=players, sets=sets, seed=seed))


def party_seeds(seed: int, parties: int) -> list[int]:
    """The dice seeds of the nights of a run (see :func:`night_seeds`)."""
    return [int(s) for s in night_seeds(seed, parties)]


KERNEL_CHUNK = 10_000
"""The most nights in one job of kernel nights."""

ROLLS_PER_JOB = 4_000_000
"""About the most rolls one job of kernel nights makes (some 30 to 50 ms of work): enough
that handing a job to a worker and merging its result (under a millisecond of the
parent's time) costs next to nothing beside it; a run is cut finer where that gives it
:data:`MIN_JOBS` jobs (:func:`job_nights`)."""

ROLLS_PER_PLAYER_SET = 80
"""About how many rolls a set takes per player (70 to 80 under the presets)."""

ENGINE_CHUNK = 256
"""Nights the engine plays before their figures are folded into the summary."""


def kernel_chunk(players: int, sets: int) -> int:
    """Nights per job of kernel nights: :data:`ROLLS_PER_JOB` worth, at most
    :data:`KERNEL_CHUNK`. It depends on the party alone, never on the number of
    processes, so a run gives the very same figures on any number of them.

    >>> kernel_chunk(12, 1), kernel_chunk(1000, 1), kernel_chunk(2000, 4)
    (4166, 50, 6)
    """
    return max(1, min(KERNEL_CHUNK, ROLLS_PER_JOB // (ROLLS_PER_PLAYER_SET * players * sets)))


@dataclass(frozen=True)
class KernelPart:
    """What every job of one run of kernel nights shares: the kernel's inputs (built once,
    in the parent), the run's seed, and the prizes' columns. Called with a job
    ``(start, count)``: the figures of nights ``start`` to ``start + count - 1``."""

    inputs: KernelInputs
    seed: int
    prizes: tuple[str, ...]

    def arrays(self, job: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """Every night's figures and prize ties."""
        start, count = job
        return figures_of(self.inputs, night_seeds(self.seed, count, start))

    def summary(self, job: tuple[int, int]) -> Summary:
        """The nights as moments (a few hundred bytes back to the parent)."""
        figures, ties = self.arrays(job)
        last = {p: j for j, p in enumerate(self.prizes)}  # a repeated prize: its last
        column = {key: figures[:, j] for j, key in enumerate(FIGURES)}
        out = Summary()
        out.add(
            len(figures),
            {key: column[key] for key in MEAN_FIGURES},
            {key: ties[:, last[key]].astype(np.float64) for key in sorted(last)},
            {key: (column[x], column[y]) for key, (x, y) in RATIOS.items()},
        )
        return out


_WORKER: list[tuple[KernelPart, str]] = []
"""In a worker process: the run's :class:`KernelPart` and which of its methods jobs call."""


def _start_worker(part: KernelPart, method: str) -> None:
    _WORKER[:] = [(part, method)]
    ensure_ready()  # inherited from the parent where processes fork; else from the cache


def _run_job(job: tuple[int, int]) -> Any:
    part, method = _WORKER[0]
    return getattr(part, method)(job)


def _kernel_part(rules: RuleSet, players: int, sets: int, seed: int) -> KernelPart:
    """The run's shared part, and the kernel compiled (or loaded) here before any worker
    starts: forked workers then inherit both."""
    ensure_ready()
    return KernelPart(
        kernel_inputs(rules, players, sets), seed, tuple(p.value for p in rules.prizes)
    )


MIN_JOBS = 64
"""A run is cut into at least this many jobs where its nights allow it (jobs of at least
:data:`MIN_ROLLS_PER_JOB`): on 16 workers that is four jobs each, so the last round of
jobs leaves few workers idle (see :func:`job_nights`)."""

MIN_ROLLS_PER_JOB = 100_000
"""About the fewest rolls of a job of several nights (well under a millisecond of play,
still some ten times what handing a job to a worker and back costs)."""


def job_nights(players: int, sets: int, parties: int) -> int:
    """Nights per job of a run of ``parties`` nights: :func:`kernel_chunk` at most, fewer
    so that the run makes :data:`MIN_JOBS` jobs, but no fewer than
    :data:`MIN_ROLLS_PER_JOB` worth (or one night). Like :func:`kernel_chunk` it never
    depends on the number of processes.

    >>> job_nights(12, 1, 1000), job_nights(12, 1, 100_000), job_nights(1000, 1, 10)
    (104, 1563, 1)
    """
    most = kernel_chunk(players, sets)
    least = min(most, max(1, MIN_ROLLS_PER_JOB // (ROLLS_PER_PLAYER_SET * players * sets)))
    return max(least, min(most, math.ceil(parties / MIN_JOBS)))


MIN_ROLLS_FOR_WORKERS = ROLLS_PER_JOB
"""About the fewest rolls a run hands to worker processes: a shorter run (some 30 ms of
play or less, like ten nights of a thousand players) is over sooner than the workers
start, so it plays here (the same jobs: the same figures)."""


def run_workers(players: int, sets: int, parties: int, workers: int) -> int:
    """The processes a run of kernel nights uses: ``workers``, or 1 for a run of under
    :data:`MIN_ROLLS_FOR_WORKERS` rolls.

    >>> run_workers(1000, 1, 10, 2), run_workers(1000, 1, 100, 2), run_workers(12, 1, 1000, 2)
    (1, 2, 1)
    """
    rolls = ROLLS_PER_PLAYER_SET * players * sets * parties
    return workers if rolls >= MIN_ROLLS_FOR_WORKERS else 1


def _kernel_jobs(players: int, sets: int, parties: int) -> list[tuple[int, int]]:
    chunk = job_nights(players, sets, parties)
    return [(start, min(chunk, parties - start)) for start in range(0, parties, chunk)]


def _over_workers(
    part: KernelPart, method: str, jobs: Sequence[tuple[int, int]], workers: int
) -> Iterator[Any]:
    """``part.method`` of every job, in order: here, or over up to ``workers`` processes."""
    if workers <= 1 or len(jobs) <= 1:
        yield from map(getattr(part, method), jobs)
        return
    with ProcessPoolExecutor(
        max_workers=min(workers, len(jobs)), initializer=_start_worker, initargs=(part, method)
    ) as pool:
        yield from pool.map(_run_job, jobs)


def _kernel_dicts(rules: RuleSet, figures: np.ndarray, ties: np.ndarray) -> list[NightFigures]:
    categories = [p.value for p in rules.prizes]
    out = []
    for row, tie_row in zip(figures.tolist(), ties.tolist(), strict=True):
        (buncos, rounds, per_set, head_rolls, first_win, bunco_end, ties_, others, pts, rolls) = row
        out.append(  # the columns of FIGURES, in order
            NightFigures(
                buncos=buncos,
                rounds=rounds,
                rolls_per_set=per_set,
                head_rolls=head_rolls,
                head_first_team_win=first_win,
                head_bunco_end=bunco_end,
                tie_rate=ties_,
                non_head_tie_rate=others,
                play_points=pts,
                play_rolls=rolls,
                prize_ties={c: float(t) for c, t in zip(categories, tie_row, strict=True)},
            )
        )
    return out


def uses_kernel(
    rules_name: str, house_rules: Mapping[str, HouseRuleValue], players: int, sets: int
) -> bool:
    """Whether :func:`simulate_nights` plays these nights with the compiled kernel."""
    return kernel_refusal(sim_rules(rules_name, house_rules), players, sets) is None


def _kernel_arrays(
    rules: RuleSet,
    players: int,
    sets: int,
    parties: int,
    seed: int,
    workers: int,
    progress: Callable[[int], None] | None,
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's figures and prize ties of every night, in seed order."""
    part = _kernel_part(rules, players, sets, seed)
    jobs = _kernel_jobs(players, sets, parties)
    parts = []
    count = run_workers(players, sets, parties, workers)
    for job, result in zip(jobs, _over_workers(part, "arrays", jobs, count), strict=True):
        parts.append(result)
        if progress:
            progress(job[1])
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def simulate_nights(
    rules_name: str,
    house_rules: Mapping[str, HouseRuleValue],
    *,
    players: int,
    sets: int,
    parties: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    engine: bool = False,
) -> list[NightFigures]:
    """Figures of ``parties`` independent nights, in seed order: with the night kernel
    where it applies (:func:`uses_kernel`) unless ``engine``, else with the engine.
    Every night is kept: for many nights use :func:`simulate_summary`."""
    house = dict(house_rules)
    rules = sim_rules(rules_name, house)  # refuse bad rules before starting any process
    count = workers if workers is not None else (os.cpu_count() or 1)
    if not engine and uses_kernel(rules_name, house, players, sets):
        figures, ties = _kernel_arrays(rules, players, sets, parties, seed, count, progress)
        return _kernel_dicts(rules, figures, ties)
    out = []
    for night in _engine_nights(rules_name, house, players, sets, parties, seed, count):
        out.append(night)
        if progress:
            progress(1)
    return out


def _engine_nights(
    rules_name: str,
    house: dict[str, HouseRuleValue],
    players: int,
    sets: int,
    parties: int,
    seed: int,
    workers: int,
) -> Iterator[NightFigures]:
    """The engine's nights' figures in seed order, a window of jobs at a time."""
    window = ENGINE_CHUNK * max(1, workers)
    for start in range(0, parties, window):
        seeds = [int(s) for s in night_seeds(seed, min(window, parties - start), start)]
        jobs = [(rules_name, house, players, sets, s) for s in seeds]
        if workers <= 1 or len(jobs) <= 1:
            yield from map(_one, jobs)
            continue
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(_one, jobs, chunksize=max(1, len(jobs) // (8 * workers)))


def simulate_summary(
    rules_name: str,
    house_rules: Mapping[str, HouseRuleValue],
    *,
    players: int,
    sets: int,
    parties: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    engine: bool = False,
) -> SummaryView:
    """The figures of ``summarize(simulate_nights(...))`` in flat memory: nights are
    folded into running moments chunk by chunk (:class:`bunco.analysis.summary.Summary`),
    so ten million nights take no more memory than ten thousand. Nights that make one
    job (:func:`job_nights`; or up to :data:`ENGINE_CHUNK` engine nights) give the very
    same figures as :func:`summarize`; more give them to rounding, the same for any
    number of ``workers``."""
    house = dict(house_rules)
    rules = sim_rules(rules_name, house)
    count = workers if workers is not None else (os.cpu_count() or 1)
    total = Summary()
    if engine or not uses_kernel(rules_name, house, players, sets):
        chunk: list[NightFigures] = []
        for night in _engine_nights(rules_name, house, players, sets, parties, seed, count):
            chunk.append(night)
            if progress:
                progress(1)
            if len(chunk) == ENGINE_CHUNK:
                total.add_nights(chunk, MEAN_FIGURES, RATIOS)
                chunk = []
        if chunk:
            total.add_nights(chunk, MEAN_FIGURES, RATIOS)
        return total.as_dict()
    part = _kernel_part(rules, players, sets, seed)
    jobs = _kernel_jobs(players, sets, parties)
    count = run_workers(players, sets, parties, count)
    for job, result in zip(jobs, _over_workers(part, "summary", jobs, count), strict=True):
        total.merge(result)
        if progress:
            progress(job[1])
    return total.as_dict()


def summarize(per_night: list[NightFigures]) -> SummaryView:
    """Mean and standard error of every figure over the nights."""
    out = Summary()
    out.add_nights(per_night, MEAN_FIGURES, RATIOS)
    return out.as_dict()
