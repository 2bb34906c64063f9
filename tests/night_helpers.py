"""Drivers shared by the engine and party tests: start a night, roll, play at random."""

from __future__ import annotations

import random
from typing import Any

from bunco.core.night import Night
from bunco.core.party_log import write_log


def party(rules: str, players: list[str], **extra: Any) -> Night:
    return Night.start({"type": "party", "rules": rules, "players": players, **extra})


def night_log(night: Night) -> str:
    """The log of ``night``: its set-up and every accepted event (undo included)."""
    return write_log(night.setup, night.events)


def roll(night: Night, table: int | None, *dice: int, player: str | None = None) -> Night:
    event: dict[str, Any] = {"type": "roll", "dice": list(dice)}
    if table is not None:
        event["table"] = table
    if player is not None:
        event["player"] = player
    return night.apply(event)


def random_roll(night: Night, rng: random.Random) -> tuple[Night, dict[str, Any]]:
    """One roll of random dice by someone who may roll now (at a table or in a roll-off)."""
    table, _ = rng.choice(night.expected_rollers())
    event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
    if table is not None:
        event["table"] = table
    return night.apply(event), event


def seated_first(night: Night, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` (folded on ``night``) as a room sends them to the server: before a table's
    first entry of a round the server waits for (its players moved), the table's ``seated``
    (bunco.core.seating_confirm). The fold takes either; the server only the latter."""
    out: list[dict[str, Any]] = []
    for event in events:
        table = event.get("table")
        if event["type"] in ("roll", "tally") and table is not None and not night.begun_at(table):
            seated = {"type": "seated", "table": table}
            night = night.apply(seated)
            out.append(seated)
        night = night.apply(event)
        out.append(event)
    return out


def play_randomly(night: Night, seed: int, max_events: int) -> tuple[Night, list[dict[str, Any]]]:
    """Roll random dice for whoever may roll until the night is over."""
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    while night.phase != "over":
        night, event = random_roll(night, rng)
        events.append(event)
        assert len(events) < max_events
    return night, events
