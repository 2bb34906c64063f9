"""Every help page, sub-commands included, in plain words (issue 27, point 5): metavars a
person reads (``FILE``, ``NAME``, ``PORT``), never Python's types (``<list[Path]>``,
``<int range> [0<=x<=65535]``, ``<bool>``) or a braced argument (``{FILE}``), and no run
of blank lines after the examples."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from bunco.cli import app

GROUP: Any = typer.main.get_command(app)
LEAKS = re.compile(r"<list\[|<int range>|<float range>|\[\d+<=x|<bool>|<str>|<path>|\{[A-Z_]+\}")


def _pages() -> list[tuple[str, ...]]:
    pages: list[tuple[str, ...]] = []
    for name in sorted(GROUP.list_commands(None)):
        command = GROUP.get_command(None, name)
        pages.append((name,))
        if hasattr(command, "list_commands"):  # a group: club create, club add-night, …
            pages += [(name, sub) for sub in sorted(command.list_commands(None))]
    return pages


@pytest.mark.parametrize("words", _pages(), ids=" ".join)
def test_help_is_in_plain_words(words: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert not LEAKS.findall(out), (words, LEAKS.findall(out))
    assert not out.endswith("\n\n\n"), words  # at most one blank line after the examples
    assert "\n\n\n\n" not in out, words
