"""Checks of option values that several commands share, refused in the program's words."""

from __future__ import annotations

from bunco.cli.app import fail


def check_sets(sets: int) -> None:
    """``--sets``: a night has 1 to 4 sets of six rounds."""
    if not 1 <= sets <= 4:
        fail(
            f"--sets {sets}: a night has 1 to 4 sets of six rounds", expected="--sets 1, 2, 3 or 4"
        )


def check_player_count(players: int) -> None:
    """``--players N`` as a count: a party has two players or more."""
    if players < 2:
        fail(f"--players {players} is not a party", expected="a count from 2, e.g. --players 12")
