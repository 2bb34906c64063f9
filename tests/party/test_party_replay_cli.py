"""``bunco replay FILE`` and ``bunco replay FILE --json`` on the golden logs and on bad logs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from party_helpers import GOLDEN
from typer.testing import CliRunner

from bunco.cli import app

runner = CliRunner()


def flat(text: str) -> str:
    """Whitespace squeezed, so that wrapped terminal lines read as one."""
    return " ".join(text.split())


def human(path: Path) -> str:
    """The human output of ``bunco replay``, in a wide terminal so table cells do not wrap."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "bunco", "replay", str(path)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def replay_json(path: Path) -> dict:
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def refused(tmp_path: Path, lines: list[str], *extra: str) -> str:
    path = tmp_path / "night.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), *extra])
    assert result.exit_code != 0
    assert result.stdout == ""
    return flat(result.stderr)


def golden_lines(preset: str) -> list[str]:
    return (GOLDEN / f"{preset}-12.jsonl").read_text(encoding="utf-8").splitlines()


def test_human_output_of_a_winning_moves_night() -> None:
    out = human(GOLDEN / "winning-moves-12.jsonl")
    for n in range(1, 7):
        assert f"Set 1, round {n}" in out
    assert "│ 1 │ Ann, Bea, Cat, Dee │ Ann & Cat 2 – 1 Bea & Dee │ Ann, Cat │ Bea, Dee │" in flat(
        out
    )
    assert "Ivy & Eve 1 – 1 Kim & Gus (tie broken: roll off to five)" in flat(out)
    assert "Score cards" in out and "Low/High Buncos" in out
    assert "Master score sheet, set 1" in out
    assert "│ Jo │ │ W │ W │ WB │ W │ W │ 5-W 1-B │" in flat(out)
    assert "Set 1 winner: Jo (by most B's among the tied)" in flat(out)
    assert "The night is over." in out and "Prizes" not in out


def test_human_output_of_a_classic_night_has_cards_prizes_and_no_master_sheet() -> None:
    out = flat(human(GOLDEN / "classic-12.jsonl"))
    assert "Jo & Eve 1 – 1 Gus & Lou (tie broken: sessions)" not in out  # teams are 1&3, 2&4
    assert "Jo & Gus 1 – 1 Eve & Lou (tie broken: sessions)" in out
    assert "│ Ann │ 5 │ 1 │ 2 │ 3 │ 67 │ WLWWWW │" in out
    assert "Master score sheet" not in out
    assert "│ Most Buncos │ 3 │ Cat │" in out
    assert "│ Half Wins and Half Losses │ │ Hal, Ivy, Jo, Lou (shared) │" in out
    assert "│ Traveling │ │ Gus │" in out
    assert "Verified cards" not in out  # classic verifies nothing
    assert "The night is over." in out


def test_human_output_of_an_unfinished_night_says_where_everyone_sits_next(tmp_path: Path) -> None:
    path = tmp_path / "half.jsonl"
    path.write_text("\n".join(golden_lines("classic")[:27]) + "\n", encoding="utf-8")  # rounds 1-2
    out = flat(human(path))
    assert "Set 1, round 2" in out and "Set 1, round 3" not in out
    assert "Next: set 1, round 3" in out
    assert (
        "table 1: Cat, Dee, Kim, Hal table 2: Ann, Fay, Jo, Gus table 3: Eve, Bea, Ivy, Lou" in out
    )
    assert "The night is over." not in out


def test_json_has_the_promised_fields() -> None:
    data = replay_json(GOLDEN / "classic-12.jsonl")
    assert {"rounds", "players", "winner", "prizes", "next"} <= set(data)
    first = data["rounds"][0]
    assert (first["set"], first["round"]) == (1, 1)
    t1 = first["tables"][0]
    assert {"table", "players", "team_scores", "winners", "losers"} <= set(t1)
    assert (t1["table"], t1["players"], t1["team_scores"]) == (
        1,
        ["Ann", "Bea", "Cat", "Dee"],
        [22, 0],
    )
    assert (t1["winners"], t1["losers"]) == (["Ann", "Cat"], ["Bea", "Dee"])
    assert {
        k: data["players"]["Cat"][k] for k in ("wins", "losses", "buncos", "mini_buncos", "points")
    } == {
        "wins": 5,
        "losses": 1,
        "buncos": 3,
        "mini_buncos": 2,
        "points": 74,
    }
    assert data["winner"] is None and data["next"] is None
    assert data["prizes"][0]["winners"] == ["Cat"]
    assert replay_json(GOLDEN / "winning-moves-12.jsonl")["winner"] == "Jo"


def test_json_of_individual_tables_and_of_a_night_under_way(tmp_path: Path) -> None:
    path = tmp_path / "five.jsonl"
    lines = [
        '{"type": "party", "rules": "wm", "players": ["Ann", "Bea", "Cat", "Dee", "Eve"]}',
        '{"type": "roll", "table": 2, "dice": [1, 2, 2]}',  # Dee +1 at the table of two
        '{"type": "roll", "table": 2, "dice": [3, 4, 5]}',
        '{"type": "roll", "table": 1, "dice": [1, 1, 1]}',  # Ann's Bunco ends round 1 everywhere
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = replay_json(path)
    tables = data["rounds"][0]["tables"]
    assert [t["scores"] for t in tables] == [{"Ann": 21, "Bea": 0, "Cat": 0}, {"Dee": 1, "Eve": 0}]
    assert [t["winners"] for t in tables] == [["Ann"], ["Dee"]]
    assert "team_scores" not in tables[0]
    # 5 players (RULES.md §6): both at table 2 go to table 1; table 1's two losers to table 2.
    assert data["next"] == {"set": 1, "round": 2, "tables": [["Ann", "Dee", "Eve"], ["Bea", "Cat"]]}


BAD_LINES = [
    (
        3,
        '{"type": "roll", "table": 1, "dice": [1, 1, 4]',
        "line 3: not valid JSON",
        "expected: one JSON object per line",
    ),
    (
        2,
        '{"type": "roll", "table": 1, "dice": [1, 7, 4]}',
        "line 2: a die cannot show 7",
        "expected: exactly three dice, each a whole number from 1 to 6",
    ),
    (
        2,
        '{"type": "roll", "table": 1, "dice": [1, 2, 4], "player": "Bea"}',
        "line 2: it is Ann's turn at table 1, not Bea's",
        "expected: a roll by Ann",
    ),
    (
        2,
        '{"type": "roll", "table": 4, "dice": [1, 2, 4]}',
        "line 2: there is no table 4",
        "expected: a table number from 1 to 3",
    ),
    (
        2,
        '{"type": "fly", "table": 1}',
        "line 2: unknown event type 'fly'",
        "expected: one of roll, tally",
    ),
]


@pytest.mark.parametrize(("line", "bad", "message", "expected"), BAD_LINES)
def test_a_bad_line_is_refused_with_its_number(
    tmp_path: Path, line: int, bad: str, message: str, expected: str
) -> None:
    lines = golden_lines("classic")[:1]
    if line == 3:
        lines.append('{"type": "roll", "table": 1, "dice": [1, 1, 4]}')
    lines.append(bad)
    lines.extend(golden_lines("classic")[3:6])
    err = refused(tmp_path, lines)
    assert message in err and expected in err
    assert message in refused(tmp_path, lines, "--json")  # --json prints nothing on stdout


def test_a_roll_at_a_table_where_the_round_is_over(tmp_path: Path) -> None:
    # Lines 2-7 of the classic log: Ann's Bunco at line 7 rings the bell; table 3's Jo was
    # not rolling, so table 3 is done; Ann (table 1) and Fay (table 2) roll on.
    lines = golden_lines("classic")[:7]
    lines.append('{"type": "roll", "table": 3, "dice": [1, 2, 4], "player": "Jo"}')
    err = refused(tmp_path, lines)
    assert "line 8: the round is over at table 3" in err
    assert "expected: a roll by Ann (table 1), Fay (table 2)" in err


def test_blank_lines_keep_their_numbers_and_empty_or_missing_logs_are_refused(
    tmp_path: Path,
) -> None:
    lines = [golden_lines("classic")[0], "", '{"type": "roll", "table": 1, "dice": [0, 1, 1]}']
    assert "line 3: a die cannot show 0" in refused(tmp_path, lines)
    assert "line 1: the log is empty" in refused(tmp_path, [""])
    assert "line 1: the first line has type 'roll'" in refused(
        tmp_path, golden_lines("classic")[1:2]
    )
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.jsonl")])
    assert result.exit_code != 0 and "cannot read" in flat(result.stderr)
