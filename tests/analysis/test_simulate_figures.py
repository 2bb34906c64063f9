"""`bunco simulate`'s figures mean what they say: the head table's first team as the exact
odds count it, points per roll as all points over all rolls, figures a party cannot
have as "–" (null in JSON), and the same figures on any number of processes."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from bunco.analysis import simulate
from bunco.analysis.set_exact import first_team_chances, rules_refusal
from bunco.analysis.simulate import (
    NIGHT_FIGURES,
    kernel_chunk,
    sim_rules,
    simulate_nights,
    simulate_summary,
    summarize,
)
from bunco.analysis.summary import Ratio
from bunco.cli import app
from bunco.core.presets import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_head_tables_first_team_is_the_exact_odds(preset: str) -> None:
    """In every preset, twelve players at three tables: the head table's first team wins
    a round as often as the exact odds say (a Bunco at another table that stops the head
    table level sends it to a tie-break, whose winner counts too)."""
    rules = sim_rules(preset, {})
    assert rules_refusal(rules) is None
    exact = sum(first_team_chances(rules, r, 3)[0] for r in range(1, 7)) / 6
    summary = simulate_summary(preset, {}, players=12, sets=1, parties=20_000, seed=24, workers=1)
    figure = summary["figures"]["head_first_team_win"]
    assert abs(figure["mean"] - exact) < 4 * figure["se"], (preset, figure, exact)


def test_points_per_roll_is_all_points_over_all_rolls() -> None:
    nights = simulate_nights("winning-moves", {}, players=8, sets=1, parties=40, seed=3, workers=1)
    points = sum(n["play_points"] for n in nights)
    rolls = sum(n["play_rolls"] for n in nights)
    figures = summarize(nights)["figures"]
    assert figures["points_per_roll"]["mean"] == pytest.approx(points / rolls, rel=1e-12)
    per_night = float(np.mean([n["play_points"] / n["play_rolls"] for n in nights]))
    assert figures["points_per_roll"]["mean"] != per_night  # not the mean of the ratios
    assert "play_points" not in figures and "play_rolls" not in figures
    assert set(figures) == set(NIGHT_FIGURES)
    # its standard error is the delta method's: the spread of points - ratio x rolls
    ratio = points / rolls
    resid = np.array([n["play_points"] - ratio * n["play_rolls"] for n in nights])
    se = resid.std(ddof=1) / math.sqrt(len(nights)) / np.mean([n["play_rolls"] for n in nights])
    assert figures["points_per_roll"]["se"] == pytest.approx(se, rel=1e-9)


def test_points_per_roll_agrees_with_the_exact_odds() -> None:
    """Every round of ``classic`` scores 151/216 points per roll in play."""
    figure = simulate_summary("classic", {}, players=12, sets=1, parties=5000, seed=5, workers=1)[
        "figures"
    ]["points_per_roll"]
    assert abs(figure["mean"] - 151 / 216) < 4 * figure["se"]
    assert 0 < figure["se"] < 0.002


def test_ratios_merge_as_one() -> None:
    rng = np.random.default_rng(1)
    x, y = rng.random(50), 1 + rng.random(50)
    whole = Ratio.of(x, y).as_dict()
    parts = (
        Ratio.of(x[:7], y[:7])
        .merge(Ratio.of(x[7:30], y[7:30]))
        .merge(Ratio.of(x[30:], y[30:]))
        .as_dict()
    )
    assert whole["mean"] == pytest.approx(x.sum() / y.sum(), rel=1e-12)
    for key in ("mean", "se"):
        assert parts[key] == pytest.approx(whole[key], rel=1e-12)
    assert math.isnan(Ratio().as_dict()["mean"])
    assert math.isnan(Ratio.of([1.0], [0.0]).as_dict()["mean"])  # no rolls at all


def test_jobs_depend_on_the_party_not_the_processes() -> None:
    assert kernel_chunk(12, 1) > kernel_chunk(1000, 1) >= 1
    assert kernel_chunk(2000, 4) == 6 and kernel_chunk(12, 1) <= simulate.KERNEL_CHUNK
    assert len(simulate._kernel_jobs(1000, 1, 4000)) == 80  # a long run: fewer, bigger jobs
    args: dict[str, Any] = {"players": 1000, "sets": 1, "parties": 30, "seed": 6}
    assert len(simulate._kernel_jobs(1000, 1, 30)) == 30  # a few big nights: one a job
    assert [n for _, n in simulate._kernel_jobs(12, 1, 1000)] == [104] * 9 + [64]
    assert len(simulate._kernel_jobs(12, 1, 40_000)) == 64  # enough jobs for 16 workers
    one = simulate_summary("tournament", {}, workers=1, **args)
    two = simulate_summary("tournament", {}, workers=2, **args)
    three = simulate_summary("tournament", {}, workers=3, **args)
    assert one == two == three


class _Meet:
    """A job that returns its process's id once a job in another process has met it (it
    cannot finish while one worker holds every job)."""

    def __init__(self, barrier: Any) -> None:
        self.barrier = barrier

    def pid(self, job: tuple[int, int]) -> int:
        self.barrier.wait(timeout=60)
        return os.getpid()


def test_a_few_big_nights_go_to_every_worker() -> None:
    """Ten nights of a thousand players are ten jobs, which two workers share."""
    import multiprocessing

    barrier = multiprocessing.get_context("fork").Barrier(2)
    jobs = simulate._kernel_jobs(1000, 1, 10)
    assert jobs == [(n, 1) for n in range(10)]
    pids = list(simulate._over_workers(_Meet(barrier), "pid", jobs, 2))  # type: ignore[arg-type]
    assert len(pids) == 10 and len(set(pids)) == 2 and os.getpid() not in pids


@pytest.mark.usefixtures("wide_console")
def test_a_figure_the_party_cannot_have() -> None:
    """Four players sit at one table: no other team table can tie."""
    runner = CliRunner()
    args = ["simulate", "--players", "4", "--parties", "30", "--workers", "1"]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "nan" not in text.stdout
    row = next(line for line in text.stdout.splitlines() if "other than the head" in line)
    assert row.count("–") == 2
    assert (
        "–  P(a tie-break at a team table other than the head): no team table other "
        "than the head table" in text.stdout
    )
    doc = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert doc["night"]["non_head_tie_rate"] == {"mean": None, "se": None}
    assert doc["table"]["non_head_tie_probability"] is None
    assert doc["impossible"] == {"non_head_tie_rate": "no team table other than the head table"}
    assert doc["per_roll"]["expected_points"] == pytest.approx(151 / 216, abs=0.05)


def test_simulate_json_writes_nothing_to_stderr() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bunco",
            "simulate",
            "--players",
            "12",
            "--parties",
            "20",
            "--workers",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout)["parties"] == 20


def test_ensure_compiled_says_it_is_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a compile takes long, the caller hears the seconds spent; a quick load says
    nothing."""
    import time

    from bunco.analysis.kernel import compile as kc

    ticks: list[float] = []

    class Slow:
        """A compile that lasts until it has been heard of (or 20 s: a loaded machine
        may start the watching thread late)."""

        def __init__(self) -> None:
            self.overloads: dict[tuple[str, ...], object] = {}

        def compile(self, args: tuple[str, ...]) -> None:
            start = time.perf_counter()
            while (
                len(ticks) < 2 or time.perf_counter() - start < 0.35
            ) and time.perf_counter() - start < 20:
                time.sleep(0.01)
            self.overloads[args] = object()

    monkeypatch.setattr(kc, "SIGNATURES", ((Slow(), ("x",)),))
    monkeypatch.setattr(kc, "NOTICE_AFTER", 0.1)
    seconds = kc.ensure_compiled(ticks.append, every=0.05)
    assert seconds >= 0.35 and len(ticks) >= 2 and all(0.1 <= t <= seconds for t in ticks)
    assert ticks == sorted(ticks)
    assert kc.is_ready() and kc.ensure_compiled(ticks.append) == 0.0  # now loaded: at once


def test_the_compiled_signature_is_what_the_kernel_passes() -> None:
    from bunco.analysis.kernel import compile as kc
    from bunco.analysis.kernel.night import run_nights

    simulate_summary("scil", {}, players=13, sets=2, parties=2, seed=1, workers=1)
    signatures = run_nights.signatures  # type: ignore[attr-defined]
    assert [tuple(s) for s in signatures] == [kc.RUN_NIGHTS_ARGS]
    assert kc.is_ready() and kc.needs_compiling() is False


def test_the_command_line_says_it_is_compiling(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from bunco.analysis.kernel import compile as kc
    from bunco.cli.kernel_notice import ready_kernel

    class Slow:
        def __init__(self) -> None:
            self.overloads: dict[tuple[str, ...], object] = {}

        def compile(self, args: tuple[str, ...]) -> None:
            start = time.perf_counter()
            while "compiling" not in said[-1] and time.perf_counter() - start < 20:
                said.append(capsys.readouterr().err)  # until it has said so (20 s at most)
                time.sleep(0.01)
            self.overloads[args] = object()

    said = [""]
    slow = Slow()
    monkeypatch.setattr(kc, "SIGNATURES", ((slow, ("x",)),))
    monkeypatch.setattr(kc, "NOTICE_AFTER", 0.05)
    ready_kernel()
    err = "".join(said) + capsys.readouterr().err
    assert "compiling the night kernel into Numba's cache, once" in err
    assert "night kernel compiled in 0 s; later runs load it at once" in err
    ready_kernel()  # loaded now: nothing to say
    assert capsys.readouterr().err == ""


def test_a_run_loads_the_kernel_without_numbas_whole_set_up() -> None:
    """From the cache, the kernel loads without Numba's typing and target context (the
    250 modules it registers, 0.3-0.5 CPU seconds): a run never needs them."""
    from bunco.analysis.kernel import compile as kc

    if kc.needs_compiling() is not False:
        pytest.skip("the kernel is not in Numba's cache (make kernel)")
    code = (
        "import sys; from bunco.analysis.simulate import simulate_summary; "
        "s = simulate_summary('classic', {}, players=12, sets=1, parties=20, seed=1, "
        "workers=1); print('numba.np.arraymath' in sys.modules, s['parties'])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "20"]
