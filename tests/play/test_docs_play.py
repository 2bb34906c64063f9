"""docs/play.md cannot drift from the command: every option is documented, the examples run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import typer.main

from bunco.cli import app
from bunco.core.party_log import read_log
from bunco.play.commands import parse_command

PAGE = Path(__file__).resolve().parents[2] / "docs" / "play.md"


def _play_options() -> set[str]:
    command = typer.main.get_command(app).get_command(None, "play")  # type: ignore[attr-defined]
    return {o for p in command.params for o in p.opts if o.startswith("--") and o != "--help"}


def test_every_option_is_in_the_options_table_and_no_other() -> None:
    text = PAGE.read_text(encoding="utf-8")
    table = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(--[a-z-]+)", table, flags=re.M))
    assert documented == _play_options()


def test_the_example_log_folds() -> None:
    text = PAGE.read_text(encoding="utf-8")
    (block,) = re.findall(r"^```json\n(.*?)^```", text, flags=re.S | re.M)
    night = read_log(block.splitlines())
    assert night.setup["bots"] == ["Ann", "Bea", "Cal"]
    assert night.tables[0].rolls[0].roller == "Zed"


def test_the_physical_keys_in_the_table_are_understood() -> None:
    text = PAGE.read_text(encoding="utf-8")
    rows = [r for r in text.splitlines() if r.startswith("| `") and "| — |" in r]
    keys = [k for r in rows for k in re.findall(r"`([^`]+)`", r.split("|")[1])]
    assert {"4 4 1", "m", "b", "2: 4 4 1", "t2: b"} <= set(keys)
    for key in keys:  # each key in backticks is one whole line typed at the prompt
        assert parse_command(key, physical=True).kind in ("faces", "tally")


def test_the_examples_at_the_top_are_valid_commands() -> None:
    text = PAGE.read_text(encoding="utf-8")
    (block,) = re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)
    options = _play_options() | {"-r", "-H", "-n"}
    for line in block.splitlines():
        words = shlex.split(line.split("#")[0])
        assert words[:2] == ["bunco", "play"]
        assert {w for w in words if w.startswith("-")} <= options
