"""Small drivers for the engine tests (shared with the party tests in tests/night_helpers.py)."""

from __future__ import annotations

from typing import Any

import night_helpers
from bunco.core.night import Night
from night_helpers import party, roll

__all__ = ["party", "play_randomly", "roll"]


def play_randomly(
    night: Night, seed: int, max_events: int = 200_000
) -> tuple[Night, list[dict[str, Any]]]:
    """Roll random dice for whoever may roll until the night is over."""
    return night_helpers.play_randomly(night, seed, max_events)
