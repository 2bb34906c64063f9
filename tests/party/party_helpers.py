"""Drivers shared by the party tests: start a night, roll, replay a golden log, play at random."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import night_helpers
from bunco.core.night import Night
from bunco.core.party_log import read_log
from night_helpers import party, roll

GOLDEN = Path(__file__).parent / "golden"
PRESETS = ("winning-moves", "classic", "scil", "tournament")
__all__ = ["GOLDEN", "PRESETS", "golden", "miss", "party", "play_randomly", "roll"]


def golden(preset: str) -> Night:
    """The night of ``golden/<preset>-12.jsonl``."""
    path = GOLDEN / f"{preset}-12.jsonl"
    return read_log(path.read_text(encoding="utf-8").splitlines())


def miss(round_no: int) -> tuple[int, int, int]:
    """Faces that score nothing in ``round_no`` (and are no three of a kind)."""
    a, b = [f for f in (2, 3, 4, 5, 6, 1) if f != round_no][:2]
    return (a, a, b)


def play_randomly(
    night: Night, seed: int, max_events: int = 2_000_000
) -> tuple[Night, list[dict[str, Any]]]:
    """Roll random dice for whoever may roll until the night is over."""
    return night_helpers.play_randomly(night, seed, max_events)
