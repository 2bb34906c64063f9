"""``bunco play`` options, refusals that say what to type instead, help, and resuming logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report
from bunco.play.logfile import LogFileError, PartyLog, resume_night, set_aside_cut_line

runner = CliRunner()


def play(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args])
    return result.exit_code, result.stdout, result.stderr


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("args", "error", "instead"),
    [
        (["--players", "4", "--json"], "--json prints the standings", "--auto --json"),
        (["--auto", "--physical"], "--auto plays with digital dice", "--auto or --physical"),
        (["--auto", "--human", "Ann"], "--auto makes every player a bot", "drop --human"),
        (["--auto", "--players", "1"], "--players 1 is not a party", "a count from 2"),
        (["--auto", "--rules", "bingo"], "unknown preset 'bingo'", "winning-moves, classic"),
        (["--auto", "--house", "wipeout"], "house rule 'wipeout' has no value", "NAME=VALUE"),
        (["--auto", "--house", "colour=red"], "colour", "expected"),
        (["--players", "4"], "", ""),  # placeholder replaced below: stdin is not a terminal
        (["--resume", "nope.jsonl"], "there is no party log nope.jsonl", "bunco play printed"),
        (["--resume", "x.jsonl", "--players", "4"], "a resumed night keeps its own --players",
         "bunco play --resume x.jsonl"),
        (["--auto", "--group", "Red"], "--group 'Red' names no group and players",
         "--group NAME=Ann,Bea"),
        (["--auto", "--players", "Ann,Bea", "--group", "Red=Ann,Zed"],
         "group 'Red' lists 'Zed', who is not a player", "players of the night"),
    ],
)  # fmt: skip
def test_refusals(tmp_path: Path, monkeypatch, args: list[str], error: str, instead: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    if args == ["--players", "4"]:
        args, error, instead = [], "--players is needed when input is not a terminal", "--players 4"
    code, out, err = play(*args)
    assert code == 2
    assert out == ""
    assert error in flat(err)
    assert "expected:" in err and instead in flat(err)
    assert not list(tmp_path.glob("*.jsonl"))  # nothing written for a refused night


def test_prize_groups_give_the_tournament_prizes_per_group(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    code, out, _ = play(
        "--auto", "--players", "Ann,Bea,Cat,Dee,Eve,Fay,Gus,Hal", "--rules", "tournament",
        "--seed", "1", "--group", "Red=Ann,Bea,Cat,Dee", "--group", "Blue: Eve, Fay, Gus, Hal",
        "--json", "--log", str(log),
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert read_log(log.read_text().splitlines()).groups == {
        "Red": ("Ann", "Bea", "Cat", "Dee"),
        "Blue": ("Eve", "Fay", "Gus", "Hal"),
    }
    per_group = [(p["category"], p["group"]) for p in report["prizes"] if p.get("group")]
    assert per_group == [(c, g) for c in ("most_buncos", "most_mini_buncos", "most_wins")
                         for g in ("Red", "Blue")]  # fmt: skip
    red = ("Ann", "Bea", "Cat", "Dee")
    top = max(report["players"][p]["buncos"] for p in red)
    red_buncos = next(p for p in report["prizes"] if p["category"] == "most_buncos"
                      and p["group"] == "Red")  # fmt: skip
    assert all(report["players"][w]["buncos"] == top and w in red for w in red_buncos["winners"])
    overall = next(p for p in report["prizes"] if p["category"] == "group_most_buncos")
    totals = {g: sum(report["players"][p]["buncos"] for p in m)
              for g, m in (("Red", red), ("Blue", ("Eve", "Fay", "Gus", "Hal")))}  # fmt: skip
    assert overall["winners"] == [max(totals, key=totals.__getitem__)] or (
        totals["Red"] == totals["Blue"]
    )


def test_a_finished_night_is_not_resumed(tmp_path: Path) -> None:
    log = tmp_path / "done.jsonl"
    assert play("--auto", "--players", "2", "--seed", "1", "--json", "--log", str(log))[0] == 0
    code, _, err = play("--resume", str(log))
    assert code == 2
    assert "the night in" in flat(err) and "is over" in flat(err)
    assert f"bunco replay {log}" in flat(err)


def test_an_existing_log_is_not_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    log.write_text("keep me\n")
    code, _, err = play("--auto", "--players", "2", "--log", str(log))
    assert code == 2 and "already exists" in flat(err)
    assert f"bunco play --resume {log}" in flat(err)
    assert log.read_text() == "keep me\n"


def test_resume_with_auto_finishes_a_quit_night(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    party = {"type": "party", "rules": "scil", "players": ["A", "B", "C", "D", "E"], "seed": 4}
    events = [{"type": "roll", "table": 1, "dice": [6, 6, 5]}]
    log.write_text("\n".join(json.dumps(x) for x in [party, *events]) + "\n")
    code, out, _ = play("--resume", str(log), "--auto", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["phase"] == "over"
    lines = log.read_text().splitlines()
    assert [json.loads(x) for x in lines[:2]] == [party, events[0]]
    assert night_report(read_log(lines)) == report


def test_a_line_cut_short_by_a_crash_is_set_aside_in_a_backup(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    good = [
        {"type": "party", "rules": "classic", "players": ["A", "B"]},
        {"type": "roll", "table": 1, "dice": [1, 1, 1]},
    ]
    original = "\n".join(json.dumps(x) for x in good) + '\n{"type": "roll", "tab'
    log.write_text(original)
    with pytest.raises(LogFileError, match="line 3: not valid JSON"):
        resume_night(log)  # never dropped silently
    backup, line = set_aside_cut_line(log) or (None, "")
    assert backup == tmp_path / "n.jsonl.bak" and line == '{"type": "roll", "tab'
    assert backup.read_text() == original  # the file as it was, whole
    assert set_aside_cut_line(log) is None  # the log now ends cleanly
    night = resume_night(log)
    assert night.tables[0].points == (21, 0)
    handle = PartyLog.reopen(log)
    handle.append({"type": "roll", "table": 1, "dice": [2, 3, 4]})
    handle.close()
    lines = log.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[2])["dice"] == [2, 3, 4]
    night = read_log(lines)  # A's Bunco reached 21, A rolled on after the bell and missed
    assert night.round_no == 2 and night.history[0].tables[0].winners == ("A",)


def test_resume_reports_the_cut_line_and_a_second_backup_does_not_replace_the_first(
    tmp_path: Path,
) -> None:
    log = tmp_path / "n.jsonl"
    party = json.dumps({"type": "party", "rules": "classic", "players": ["A", "B"], "seed": 1})
    (tmp_path / "n.jsonl.bak").write_text("an older backup\n")
    log.write_text(party + '\n{"type": "roll", "ta')
    code, out, _ = play("--resume", str(log), "--auto")
    assert code == 0
    text = flat(out)
    assert f"warning: the last line of {log} was cut short" in text
    assert '\'{"type": "roll", "ta\' is set aside' in text
    assert f"the file as it was is kept in {tmp_path / 'n.jsonl.2.bak'}" in text
    assert (tmp_path / "n.jsonl.bak").read_text() == "an older backup\n"
    assert (tmp_path / "n.jsonl.2.bak").read_text() == party + '\n{"type": "roll", "ta'
    assert read_log(log.read_text().splitlines()).phase == "over"


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    log.write_text(
        '{"type": "party", "players": ["A", "B"]}\n{"type": "roll", "table": 1, "dice": [1, 1, 1]}'
    )
    assert set_aside_cut_line(log) is None
    handle = PartyLog.reopen(log)
    handle.append({"type": "roll", "table": 1, "dice": [2, 3, 4]})
    handle.close()
    assert len(read_log(log.read_text().splitlines()).events) == 2


def test_a_broken_log_says_which_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "party", "players": ["A", "B"]}\n{"type": "roll", "table": 1}\n')
    with pytest.raises(LogFileError) as err:
        resume_night(log)
    assert "line 2" in err.value.message


def test_help_explains_the_keys_and_options() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    text = flat(result.stdout)
    for words in ("--physical", "--resume", "--auto", "--speed", "--seed", "--human",
                  "Enter rolls", "u undoes the last entry", "bunco replay FILE"):  # fmt: skip
        assert words in text


def test_python_dash_m_bunco_runs_the_cli(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "bunco", "play", "--auto", "--players", "5", "--rules", "wm",
         "--seed", "7", "--json", "--log", str(tmp_path / "m.jsonl")],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={"PYTHONPATH": str(root / "src"), "PATH": ""},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rules"] == "winning-moves"
