"""Drivers shared by the party tests: start a night, roll, replay a golden log, play at random."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bunco.core.log import read_log
from bunco.core.night import Night

GOLDEN = Path(__file__).parent / "golden"
PRESETS = ("winning-moves", "classic", "scil", "tournament")


def party(rules: str, players: list[str], **extra: Any) -> Night:
    return Night.start({"type": "party", "rules": rules, "players": players, **extra})


def roll(night: Night, table: int | None, *dice: int, player: str | None = None) -> Night:
    event: dict[str, Any] = {"type": "roll", "dice": list(dice)}
    if table is not None:
        event["table"] = table
    if player is not None:
        event["player"] = player
    return night.apply(event)


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
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    while night.phase != "over":
        table, _ = rng.choice(night.expected_rollers())
        event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        if table is not None:
            event["table"] = table
        night = night.apply(event)
        events.append(event)
        assert len(events) < max_events
    return night, events
