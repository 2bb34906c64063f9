"""docs/party.md's examples are what the program does."""

from __future__ import annotations

import json
import re
from pathlib import Path

from party_helpers import GOLDEN
from typer.testing import CliRunner

from bunco.cli import app

PAGE = Path(__file__).resolve().parents[2] / "docs" / "party.md"


def blocks(info: str) -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    return re.findall(rf"^```{info}\n(.*?)^```", text, flags=re.S | re.M)


def test_the_roll_off_example_is_the_scil_golden_night() -> None:
    example = [json.loads(line) for line in blocks("json")[0].splitlines()]
    log = [json.loads(line) for line in (GOLDEN / "scil-12.jsonl").read_text().splitlines()]
    start = log.index(example[0])
    assert log[start : start + len(example)] == example


def test_the_error_example_is_what_replay_prints(tmp_path: Path) -> None:
    lines = (GOLDEN / "classic-12.jsonl").read_text(encoding="utf-8").splitlines()[:7]
    lines.append('{"type": "roll", "table": 3, "dice": [1, 2, 4], "player": "Jo"}')
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code != 0
    console = next(b for b in blocks("console") if "error:" in b)
    shown = " ".join(console.split("\n", 1)[1].split()).replace("bad.jsonl", str(path))
    assert " ".join(result.stderr.split()) == shown
