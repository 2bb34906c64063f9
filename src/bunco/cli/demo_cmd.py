"""``bunco demo [FILE]``: write the sample night (:mod:`bunco.play.demo`) to try the
commands that read a party log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bunco.cli.app import app, console, fail, print_json


@app.command("demo")
def demo_command(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="Where to write the sample party log.")
    ] = Path("night.jsonl"),
    force: Annotated[bool, typer.Option("--force", help="Replace FILE when it exists.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Write a sample night to read, print and export: eight players, classic rules,
    prize money.

    The night is played by bots from a fixed seed, so it is the same every time; it is a
    party log like any other (docs/party-log.md), for bunco replay, sheets --from, report
    and export.
    """
    from bunco.core.errors import BuncoError
    from bunco.play.demo import write_demo

    if file.exists() and not force:
        fail(
            f"{file} already exists, and may be a night of yours",
            expected=f"another FILE, e.g. bunco demo sample.jsonl, or --force to replace {file}",
        )
    try:
        night = write_demo(file)
    except BuncoError as exc:
        fail(exc.message, expected=exc.expected)
    if as_json:
        print_json(
            {
                "file": str(file),
                "players": list(night.roster),
                "rounds": len(night.history),
                "events": len(night.events),
            }
        )
        return
    console.print(
        f"wrote {file}: a classic night of {len(night.roster)} players at two tables, "
        f"{len(night.history)} rounds, with prize money. Try: bunco replay {file}",
        highlight=False,
        soft_wrap=True,
    )
