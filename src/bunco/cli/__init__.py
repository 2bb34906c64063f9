"""The ``bunco`` command line. Each subcommand lives in its own module."""

from __future__ import annotations

from bunco.cli import replay_cmd, rules_cmd  # noqa: F401  (registers commands)
from bunco.cli import serve_cmd  # noqa: F401  (registers `bunco serve`)
from bunco.cli import odds_cmd  # noqa: F401  (registers `bunco odds`)
from bunco.cli.app import app


def main() -> None:
    """Entry point of the ``bunco`` console script."""
    app()
