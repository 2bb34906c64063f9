"""``bunco play --auto``: whole nights with bots, for every preset and party size (in-process)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.party_log import read_log
from bunco.core.presets import PRESETS
from bunco.core.seating import table_sizes
from bunco.party.night_report import night_report

runner = CliRunner()


def play(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("count", [2, 5, 7, 12, 40])
def test_auto_night_finishes_and_its_log_replays_to_the_same_standings(
    tmp_path: Path, preset: str, count: int
) -> None:
    log = tmp_path / "night.jsonl"
    code, out, _ = play(
        "--auto", "--players", str(count), "--rules", preset, "--seed", "1", "--json",
        "--log", str(log),
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)  # stdout is one JSON document and nothing else
    assert report["phase"] == "over"
    assert report["rules"] == preset
    assert len(report["players"]) == count
    assert [(r["set"], r["round"]) for r in report["rounds"]] == [(1, r) for r in range(1, 7)]
    for rnd in report["rounds"]:
        seated = sorted(p for t in rnd["tables"] for p in t["players"] if p is not None)
        assert seated == sorted(report["players"])
        for t in rnd["tables"]:
            assert sorted(t["winners"] + t["losers"]) == sorted(p for p in t["players"] if p)
    # Every round gives each player one W or L.
    assert all(p["wins"] + p["losses"] == 6 for p in report["players"].values())
    lines = log.read_text(encoding="utf-8").splitlines()
    party = json.loads(lines[0])
    assert party["type"] == "party" and party["seed"] == 1
    assert party["bots"] == list(report["players"])
    assert len(party["tables"]) == len(table_sizes(count, PRESETS[preset]))
    assert night_report(read_log(lines)) == report


def test_the_issue_example_is_reproducible(tmp_path: Path) -> None:
    args = ["--auto", "--players", "12", "--rules", "tournament", "--seed", "1", "--json"]
    code1, out1, _ = play(*args, "--log", str(tmp_path / "a.jsonl"))
    code2, out2, _ = play(*args, "--log", str(tmp_path / "b.jsonl"))
    assert code1 == code2 == 0
    assert out1 == out2
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()
    report = json.loads(out1)
    assert sorted(report["players"]) == sorted(
        ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
    )
    assert {p["label"] for p in report["prizes"]} >= {"Most Buncos", "Most Wins"}


def test_two_sets_and_house_rules(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    code, out, _ = play(
        "--auto", "--players", "8", "--rules", "wm", "--sets", "2", "--house", "quick_game=true",
        "--seed", "3", "--json", "--log", str(log),
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["rules"] == "winning-moves"
    assert report["house_rules"] == {"quick_game": "true"}
    assert len(report["rounds"]) == 12
    assert [s["set"] for s in report["set_winners"]] == [1, 2]
    assert all(s["winner"] for s in report["set_winners"])
    party = json.loads(log.read_text().splitlines()[0])
    assert party["sets"] == 2 and party["house_rules"] == {"quick_game": "true"}


def test_auto_without_json_prints_the_end_of_night(tmp_path: Path) -> None:
    code, out, _ = play(
        "--auto", "--players", "4", "--seed", "2", "--log", str(tmp_path / "x.jsonl")
    )
    assert code == 0
    assert "done at" not in out
    # each round as it ends: its results table with the winners and the score
    report = night_report(read_log((tmp_path / "x.jsonl").read_text().splitlines()))
    shown = out.split("The night is over")[0]
    for rnd in report["rounds"]:
        part = shown.split(f"Set 1, round {rnd['round']}: results")[1].split("Set 1, round")[0]
        (table,) = rnd["tables"]
        assert " & ".join(table["winners"]) in part or ", ".join(table["winners"]) in part
        assert f"{table['team_scores'][0]} – {table['team_scores'][1]}" in part
    assert "Score cards" in out
    assert "The night is over" in out
    assert f"{tmp_path / 'x.jsonl'}" in out.replace("\n", "")


def test_default_log_in_the_data_folder_and_its_path_on_stderr_with_json(
    tmp_path: Path, monkeypatch, data_folder: Path
) -> None:  # type: ignore[no-untyped-def]
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    printed = []
    for _ in range(2):
        code, out, err = play("--auto", "--players", "2", "--seed", "1", "--json")
        assert code == 0
        json.loads(out)  # stdout is the JSON document alone
        printed.append(err)
    assert list(here.iterdir()) == []  # nothing lands in the current folder
    logs = sorted((data_folder / "bunco" / "nights").iterdir())
    assert len(logs) == 2
    assert all(p.name.startswith("bunco-night-") and p.suffix == ".jsonl" for p in logs)
    for err in printed:  # where it went (the path is never wrapped), at the start and the end
        (path,) = [p for p in logs if f"Saving the night in {p}\n" in err]
        assert f"The night is saved in {path}; bunco replay reads it." in err


def test_auto_results_of_a_table_of_three_say_whose_score_is_whose(tmp_path: Path) -> None:
    log = tmp_path / "x.jsonl"
    code, out, _ = play("--auto", "--players", "Ann,Bea,Cat", "--seed", "4", "--log", str(log))
    assert code == 0
    report = night_report(read_log(log.read_text().splitlines()))
    shown = out.split("The night is over")[0]
    for rnd in report["rounds"]:
        part = shown.split(f"Set 1, round {rnd['round']}: results")[1].split("Set 1, round")[0]
        (table,) = rnd["tables"]
        for name, points in table["scores"].items():  # one player a line, name and score
            assert re.search(rf"│ {name} {points} +│", part), (name, points, part)
