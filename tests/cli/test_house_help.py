"""`bunco play --help` (and every command with --house) names every house rule it takes,
shared prize ties among them."""

from __future__ import annotations

from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.rules import rule_docs


def test_play_help_names_every_house_rule() -> None:
    done = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert done.exit_code == 0, done.output
    words = " ".join(done.output.replace("│", " ").split())
    assert "--house prize_ties=shared" in words
    for rule in rule_docs():
        if rule != "name":
            assert rule in words, rule
