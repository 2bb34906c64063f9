"""``bunco replay FILE``: read a party log and print the night."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunco.cli.app import app, console, fail, print_json
from bunco.core.errors import LogError
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.report import night_report
from bunco.play.summary import print_night


def load_night(path: Path) -> Night:
    """Fold the log at ``path``, or exit with the first bad line and what was expected."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", expected="the path of a party log (.jsonl)")
    try:
        return read_log(text.splitlines())
    except LogError as exc:
        fail(f"{path}: {exc.message}", expected=exc.expected)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A party log (JSON Lines, see DESIGN.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Read a party log and print the night: rounds, score cards, sheets, prizes and next seats."""
    night = load_night(file)
    if as_json:
        print_json(night_report(night))
        return
    print_night(console, night)
