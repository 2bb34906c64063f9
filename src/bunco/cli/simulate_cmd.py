"""``bunco simulate``: whole nights through the real rules, over every CPU core.

NumPy and Numba (:mod:`bunco.analysis.simulate`) are imported when the command runs, so
that ``bunco --help`` and the other commands start quickly.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bunco.cli.app import app, console, fail, parse_house_rules, print_json, refusals
from bunco.cli.checks import check_player_count
from bunco.cli.kernel_notice import ready_kernel
from bunco.cli.rules_cmd import HouseOption
from bunco.core.night import Night
from bunco.core.presets import preset_name
from bunco.core.prizes import LABELS
from bunco.core.rules import HouseRuleValue

if TYPE_CHECKING:  # NumPy is imported when the command runs
    from bunco.analysis.summary import Estimate, SummaryView


def _clean(value: float) -> float | None:
    return None if math.isnan(value) else value


class SimulationMeta(TypedDict):
    """What a simulation played: the rules, the party, the run."""

    rules: str
    house_rules: dict[str, HouseRuleValue]
    players: int
    sets: int
    parties: int
    seed: int
    workers: int
    engine: bool  # played by the night engine, not the compiled kernel
    engine_reason: str | None


class PerRoll(TypedDict):
    expected_points: float | None
    expected_points_se: float | None


class TableFigures(TypedDict):
    first_team_win_probability: float | None
    first_team_win_probability_se: float | None
    expected_rolls: float | None
    expected_rolls_se: float | None
    bunco_end_probability: float | None
    bunco_end_probability_se: float | None
    non_head_tie_probability: float | None
    non_head_tie_probability_se: float | None


class CleanEstimate(TypedDict):
    """An estimate as JSON writes it: null where there is no value."""

    mean: float | None
    se: float | None


class SimulationDocument(SimulationMeta):
    """``bunco simulate --json``: what was played and its figures (null: no value)."""

    per_roll: PerRoll
    table: TableFigures
    night: dict[str, CleanEstimate]
    impossible: dict[str, str]
    prize_ties: dict[str, CleanEstimate]


def _clean_estimate(value: Estimate) -> CleanEstimate:
    return {"mean": _clean(value["mean"]), "se": _clean(value["se"])}


def _document(summary: SummaryView, meta: SimulationMeta) -> SimulationDocument:
    fig = {k: _clean_estimate(v) for k, v in summary["figures"].items()}
    first, rolls = fig["head_first_team_win"], fig["head_rolls"]
    bunco_end, other_ties = fig["head_bunco_end"], fig["non_head_tie_rate"]
    return {
        **meta,
        "per_roll": {
            "expected_points": fig["points_per_roll"]["mean"],
            "expected_points_se": fig["points_per_roll"]["se"],
        },
        "table": {
            "first_team_win_probability": first["mean"],
            "first_team_win_probability_se": first["se"],
            "expected_rolls": rolls["mean"],
            "expected_rolls_se": rolls["se"],
            "bunco_end_probability": bunco_end["mean"],
            "bunco_end_probability_se": bunco_end["se"],
            "non_head_tie_probability": other_ties["mean"],
            "non_head_tie_probability_se": other_ties["se"],
        },
        "night": fig,
        "impossible": _impossible(summary["figures"]),
        "prize_ties": {k: _clean_estimate(v) for k, v in summary["prize_ties"].items()},
    }


def _impossible(figures: dict[str, Estimate]) -> dict[str, str]:
    """The figures this party cannot have (no value), with the reason."""
    from bunco.analysis.simulate import IMPOSSIBLE

    return {
        key: IMPOSSIBLE.get(key, "it never happened in these nights")
        for key, value in figures.items()
        if math.isnan(value["mean"])
    }


def _number(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.4f}"


@app.command("simulate")
def simulate_command(
    rules_name: Annotated[str, typer.Option("--rules", "-r", help="Preset or alias.")] = "classic",
    players: Annotated[int, typer.Option("--players", "-n", help="Players per party.")] = 12,
    sets: Annotated[int, typer.Option("--sets", help="Sets per night (1-4).")] = 1,
    parties: Annotated[int, typer.Option("--parties", "-k", help="Nights to simulate.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 1,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Processes (default: every CPU core).")
    ] = None,
    house: HouseOption = None,
    engine: Annotated[
        bool,
        typer.Option(
            "--engine", help="Play every night through the night engine, not the compiled kernel."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Simulate whole nights (seating, moving, ties, prizes): figures with standard errors."""
    from bunco.analysis.night_kernel import kernel_refusal
    from bunco.analysis.simulate import (
        NIGHT_FIGURES,
        play_night,
        player_names,
        sim_rules,
        simulate_summary,
    )

    check_player_count(players)
    with refusals():
        house_rules = parse_house_rules(house)
        name = preset_name(rules_name)
        if parties < 1:
            fail(f"--parties {parties} simulates nothing", expected="1 or more parties")
        if workers is not None and workers < 1:
            fail(f"--workers {workers}", expected="1 or more processes")
        Night.start(
            {
                "type": "party",
                "rules": name,
                "house_rules": house_rules,
                "players": player_names(players) if players > 0 else [],
                "sets": sets,
            }
        )
        refusal = kernel_refusal(sim_rules(name, house_rules), players, sets)
        if engine or refusal is not None:
            play_night(name, house_rules, players=players, sets=sets, seed=seed)  # fail fast
        else:
            ready_kernel()
        count = workers or os.cpu_count() or 1
        err = Console(stderr=True)
        progress = Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=as_json,
            disable=as_json and not err.is_terminal,
        )
        with progress:
            task = progress.add_task("nights", total=parties)
            summary = simulate_summary(
                name,
                house_rules,
                players=players,
                sets=sets,
                parties=parties,
                seed=seed,
                workers=count,
                progress=lambda n: progress.advance(task, n),
                engine=engine,
            )
        meta: SimulationMeta = {
            "rules": name,
            "house_rules": house_rules,
            "players": players,
            "sets": sets,
            "parties": parties,
            "seed": seed,
            "workers": count,
            "engine": engine or refusal is not None,
            "engine_reason": "asked for (--engine)" if engine else refusal,
        }
        if as_json:
            print_json(_document(summary, meta))
            return
        table = Table(
            title=f"{parties} simulated nights: {name}, {players} players, {sets} set(s)",
            caption="mean ± standard error over the nights",
        )
        table.add_column("figure", style="bold")
        table.add_column("mean", justify="right")
        table.add_column("± s.e.", justify="right")
        for key, label in NIGHT_FIGURES.items():
            value = summary["figures"][key]
            table.add_row(label, _number(value["mean"]), _number(value["se"]))
        for key, value in summary["prize_ties"].items():
            table.add_row(
                f"P({LABELS.get(key, key)} ends in a tie)",
                f"{value['mean']:.4f}",
                f"{value['se']:.4f}",
            )
        console.print(table)
        for key, reason in _impossible(summary["figures"]).items():
            console.print(f"–  {NIGHT_FIGURES[key]}: {reason}", highlight=False)
        if meta["engine"]:
            console.print(
                f"played by the night engine (one event per roll), not the compiled "
                f"kernel: {meta['engine_reason']}"
            )
