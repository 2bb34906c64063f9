"""Monte Carlo of whole nights through the real rules (``bunco simulate``).

Every night is played by :class:`bunco.core.night.Night` itself — seating, moving, the
bell, tie-breaks, roll-offs and prizes — with dice drawn from a seeded generator. Every
table that may roll takes one roll per step, so tables keep the same pace (as
:mod:`bunco.analysis.table_odds` assumes). Parties run in parallel processes; each party
has its own seed (spawned from ``--seed``), so a run is reproducible whatever the number
of processes.

Where the rules count only *verified* Buncos and wins for prizes, the simulation treats
every card as verified (``verify_for_prizes`` off): nobody checks cards in a simulation.

>>> stats = night_stats(play_night("classic", {}, players=8, sets=1, seed=3))
>>> stats["rounds"], 0 <= stats["head_first_team_win"] <= 1
(6.0, True)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from bunco.core.night import Night, TableResult
from bunco.core.presets import get_rules
from bunco.core.rules import RollKind
from bunco.core.table import Phase

NIGHT_FIGURES: dict[str, str] = {
    "buncos": "Buncos per night",
    "rounds": "rounds per night",
    "rolls_per_set": "rolls per set, all tables",
    "head_rolls": "rolls per round at the head table (after-bell included)",
    "head_first_team_win": "P(the head table's first team wins)",
    "head_bunco_end": "P(the head table's round ends on a Bunco)",
    "tie_rate": "P(a tie-break at a table, per table and round)",
    "non_head_tie_rate": "P(a tie-break at a team table other than the head)",
    "points_per_roll": "points per roll in play",
}


def player_names(count: int) -> list[str]:
    """``P01``, ``P02``, ... for a party of ``count``."""
    width = max(2, len(str(count)))
    return [f"P{i:0{width}d}" for i in range(1, count + 1)]


def _sim_house_rules(rules_name: str, house_rules: Mapping[str, Any]) -> dict[str, Any]:
    house = dict(house_rules)
    if get_rules(rules_name, house).verify_for_prizes:
        house["verify_for_prizes"] = False
    return house


def play_night(
    rules_name: str, house_rules: Mapping[str, Any], *, players: int, sets: int, seed: int
) -> Night:
    """One whole night with dice from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    setup = {"type": "party", "rules": rules_name,
             "house_rules": _sim_house_rules(rules_name, house_rules),
             "players": player_names(players), "sets": sets}
    night = Night.start(setup)
    faces: list[list[int]] = []

    def draw() -> list[int]:
        if not faces:
            faces.extend(rng.integers(1, 7, size=(4096, 3)).tolist()[::-1])
        return faces.pop()

    while night.phase != "over":
        marker = (night.set_no, night.round_no, night.phase, len(night.history))
        for table, player in night.expected_rollers():
            if (table, player) not in night.expected_rollers():
                continue  # the bell settled this table meanwhile
            night = night.apply({"type": "roll", "table": table, "dice": draw()})
            if (night.set_no, night.round_no, night.phase, len(night.history)) != marker:
                break
    return night


def _first_side(result: TableResult) -> int | None:
    for record in result.rolls:
        if record.phase is Phase.PLAY:
            return record.seat % 2
    return None


def night_stats(night: Night) -> dict[str, Any]:
    """The figures of one night (per-round figures averaged over its rounds)."""
    rounds = night.history
    head = [r.tables[0] for r in rounds]
    head_rolls = [sum(rec.phase in (Phase.PLAY, Phase.AFTER_BELL) for rec in t.rolls) for t in head]
    first_wins = []
    bunco_end = []
    for t in head:
        plays = [rec for rec in t.rolls if rec.phase is Phase.PLAY]
        side = _first_side(t)
        if t.team and side is not None:
            first_wins.append(float(t.tie_break is None and bool(t.winning_seats)
                                    and min(t.winning_seats) % 2 == side))
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
        "points_per_roll": _mean([rec.points for rec in play]),
        "prize_ties": prize_ties,
    }


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return float(sum(items) / len(items)) if items else math.nan


def _one(job: tuple[str, dict[str, Any], int, int, int]) -> dict[str, Any]:
    rules_name, house, players, sets, seed = job
    return night_stats(play_night(rules_name, house, players=players, sets=sets, seed=seed))


def party_seeds(seed: int, parties: int) -> list[int]:
    """Independent per-party seeds spawned from one seed."""
    children = np.random.SeedSequence(seed).spawn(parties)
    return [int(c.generate_state(1, dtype=np.uint64)[0]) for c in children]


def simulate_nights(
    rules_name: str, house_rules: Mapping[str, Any], *, players: int, sets: int, parties: int,
    seed: int, workers: int | None = None, progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Figures of ``parties`` independent nights, in seed order."""
    house = dict(house_rules)
    get_rules(rules_name, house)  # refuse bad rules before starting any process
    jobs = [(rules_name, house, players, sets, s) for s in party_seeds(seed, parties)]
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count <= 1 or parties <= 1:
        out = []
        for job in jobs:
            out.append(_one(job))
            if progress:
                progress(1)
        return out
    with ProcessPoolExecutor(max_workers=count) as pool:
        out = []
        for result in pool.map(_one, jobs, chunksize=max(1, parties // (8 * count))):
            out.append(result)
            if progress:
                progress(1)
        return out


def summarize(per_night: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean and standard error of every figure over the nights."""
    out: dict[str, Any] = {"parties": len(per_night), "figures": {}, "prize_ties": {}}
    for key in NIGHT_FIGURES:
        out["figures"][key] = _mean_se([n[key] for n in per_night])
    prizes = sorted({k for n in per_night for k in n["prize_ties"]})
    for key in prizes:
        out["prize_ties"][key] = _mean_se([n["prize_ties"][key] for n in per_night
                                           if key in n["prize_ties"]])
    return out


def _mean_se(values: list[float]) -> dict[str, float]:
    data = np.array([v for v in values if not math.isnan(v)], dtype=np.float64)
    if len(data) == 0:
        return {"mean": math.nan, "se": math.nan}
    se = float(data.std(ddof=1) / math.sqrt(len(data))) if len(data) > 1 else math.nan
    return {"mean": float(data.mean()), "se": se}
