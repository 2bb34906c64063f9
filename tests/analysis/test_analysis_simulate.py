"""Whole nights through the night engine: reproducible, and in line with the exact odds."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bunco.analysis.simulate import night_stats, play_night, simulate_nights, summarize
from bunco.analysis.table_odds import table_odds
from bunco.cli import app
from bunco.core.presets import get_rules


def test_a_night_is_played_to_the_end() -> None:
    night = play_night("classic", {}, players=12, sets=2, seed=5)
    assert night.phase == "over"
    assert len(night.history) == 12  # two sets of six rounds
    stats = night_stats(night)
    assert stats["rounds"] == 12
    assert stats["buncos"] == sum(c.buncos for c in night.cards.values())
    assert set(stats["prize_ties"]) == {p.value for p in get_rules("classic").prizes}


def test_same_seed_same_nights_whatever_the_processes() -> None:
    one = simulate_nights("scil", {}, players=10, sets=1, parties=4, seed=9, workers=1)
    two = simulate_nights("scil", {}, players=10, sets=1, parties=4, seed=9, workers=2)
    assert one == two
    other = simulate_nights("scil", {}, players=10, sets=1, parties=4, seed=10, workers=1)
    assert other != one


@pytest.mark.parametrize("preset", ["classic", "scil"])
def test_nights_agree_with_exact_odds(preset: str) -> None:
    per_night = simulate_nights(preset, {}, players=8, sets=1, parties=60, seed=77, workers=2)
    figures = summarize(per_night)["figures"]
    exact = table_odds(get_rules(preset), 1)
    assert exact.non_head is not None
    pairs = {
        "head_rolls": exact.expected_rolls,
        "head_first_team_win": exact.first_team_win_probability,
        "head_bunco_end": exact.bunco_end_probability,
        "non_head_tie_rate": exact.non_head.tie_probability,
        "points_per_roll": 151 / 216,
    }
    for key, value in pairs.items():
        mean, se = figures[key]["mean"], figures[key]["se"]
        assert abs(mean - value) < 4 * se, (key, mean, se, value)


@pytest.mark.usefixtures("wide_console")
def test_simulate_cli_json() -> None:
    runner = CliRunner()
    args = [
        "simulate",
        "--rules",
        "wm",
        "--players",
        "8",
        "--parties",
        "3",
        "--seed",
        "2",
        "--workers",
        "1",
        "--json",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rules"] == "winning-moves" and doc["parties"] == 3
    assert doc["night"]["rounds"] == {"mean": 6.0, "se": 0.0}
    assert 0 < doc["per_roll"]["expected_points"] < 2
    assert "first_team_win_probability_se" in doc["table"]
    assert doc["engine"] is False and doc["engine_reason"] is None
    ten = runner.invoke(
        app, ["simulate", "--players", "10", "--parties", "2", "--workers", "1", "--json"]
    )
    assert ten.exit_code == 0, ten.output
    assert json.loads(ten.stdout)["engine"] is False  # tables of four, two and three
    engine = runner.invoke(
        app,
        [
            "simulate",
            "--players",
            "5",
            "--parties",
            "2",
            "--workers",
            "1",
            "--house",
            "bunco_points=1000000",
        ],
    )
    assert engine.exit_code == 0, engine.output
    assert "played by the night engine" in engine.output
    assert "a roll worth 1000000 points" in engine.output
    asked = runner.invoke(
        app, ["simulate", "--players", "3", "--parties", "1", "--workers", "1", "--engine"]
    )
    assert asked.exit_code == 0 and "asked for (--engine)" in asked.output
    bad = runner.invoke(app, ["simulate", "--players", "1", "--parties", "2"])
    assert bad.exit_code == 2 and "--players 1 is not a party" in bad.output  # words, not JSON
    assert '"players"' not in bad.output
    none = runner.invoke(app, ["simulate", "--parties", "0"])
    assert none.exit_code == 2 and "simulates nothing" in none.output
