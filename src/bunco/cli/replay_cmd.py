"""``bunco replay FILE``: read a party log and print the night.

The night engine and the report are imported when a log is read, not for ``--help``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bunco.cli.app import app, console, fail, print_json
from bunco.core.errors import LogError

if TYPE_CHECKING:
    from bunco.core.night import Night


def load_night(path: Path) -> Night:
    """Fold the log at ``path``, or exit with the first bad line and what was expected."""
    from bunco.core.party_log import read_log_stream

    try:
        with path.open("rb") as raw:  # read a line at a time: the memory is the night's
            return read_log_stream(raw)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", expected="the path of a party log (.jsonl)")
    except LogError as exc:
        fail(f"{path}: {exc.message}", expected=exc.expected)


@app.command("replay")
def replay_command(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="A party log (JSON Lines, see docs/party-log.md)."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Read a party log and print the night: rounds, score cards, sheets, prizes and next seats.

    The log's format is described in docs/party-log.md; a line that does not fit is refused
    with its number and what was expected there.
    """
    from bunco.party.night_report import night_report
    from bunco.play.summary import print_night

    night = load_night(file)
    if as_json:
        print_json(night_report(night))
        return
    print_night(console, night)
