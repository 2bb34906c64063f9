"""``bunco odds`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bunco.cli import app

runner = CliRunner()


def test_odds_json_has_design_keys() -> None:
    result = runner.invoke(app, ["odds", "--rules", "classic", "--round", "2", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rules"] == "classic" and doc["round"] == 2
    assert doc["per_roll"]["expected_points"] == 151 / 216
    assert doc["per_turn"]["expected_points"] == 151 / 120
    assert doc["per_turn"]["expected_rolls"] == 9 / 5
    assert 0.5 < doc["table"]["first_team_win_probability"] < 0.55
    assert 40 < doc["table"]["expected_rolls"] < 65
    assert 0 < doc["table"]["non_head"]["tie_probability"] < 0.1


def test_odds_json_all_rounds_and_house_rules() -> None:
    result = runner.invoke(app, ["odds", "-r", "wm", "--house", "quick_game=true", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rules"] == "winning-moves"
    assert doc["house_rules"] == {"quick_game": "true"}
    assert [r["round"] for r in doc["rounds"]] == [1, 2, 3, 4, 5, 6]
    assert all(r["table"]["target"] == 11 for r in doc["rounds"])
    # round 4 of winning-moves: 75 + 30 + 21 + 3 low trips * 7 + 2 high trips * 5 = 157
    assert doc["rounds"][3]["per_roll"]["expected_points_exact"] == "157/216"
    assert doc["rounds"][0]["table"]["non_head"] is None


def test_odds_human_tables(wide_console: None) -> None:
    args = ["odds", "--rules", "classic", "--round", "1"]
    result = runner.invoke(app, args, env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "9/5" in result.output and "151/216" in result.output and "1/121" in result.output
    every = runner.invoke(app, ["odds", "--rules", "tournament"], env={"COLUMNS": "160"})
    assert every.exit_code == 0
    # P(first team wins) and P(ends on a Bunco), whatever COLUMNS the tests started with
    assert "round 6" in every.output and "51.767%" in every.output and "23.083%" in every.output


def test_odds_plot(tmp_path: Path) -> None:
    out = tmp_path / "odds.png"
    result = runner.invoke(app, ["odds", "--rules", "scil", "--round", "3", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_odds_refusals(tmp_path: Path) -> None:
    bad_round = runner.invoke(app, ["odds", "--round", "7"])
    assert bad_round.exit_code == 2 and "round 7 does not exist" in bad_round.output
    bad_rule = runner.invoke(app, ["odds", "--house", "colour=red"])
    assert bad_rule.exit_code == 2 and "unknown house rule" in bad_rule.output
    bad_preset = runner.invoke(app, ["odds", "--rules", "yahtzee"])
    assert bad_preset.exit_code == 2 and "unknown preset" in bad_preset.output
    bad_plot = runner.invoke(app, ["odds", "--round", "1", "--plot", str(tmp_path / "x.jpg")])
    assert bad_plot.exit_code == 2 and ".png" in bad_plot.output
