"""The ``bunco`` command line. Each subcommand lives in its own module, imported only when
that command runs (see :data:`bunco.cli.group.COMMANDS`)."""

from __future__ import annotations

from bunco.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``bunco`` console script."""
    app()
