"""The ``bunco`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

from bunco.cli import (  # noqa: F401  (registers commands)
    club_cmd,
    odds_cmd,
    play_cmd,
    replay_cmd,
    rules_cmd,
    serve_cmd,
    sheets_cmd,
    simulate_cmd,
)
from bunco.cli.app import app


def main() -> None:
    """Entry point of the ``bunco`` console script."""
    app()
