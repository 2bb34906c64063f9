"""Rolls sent straight to the API by the browser tests, to bring a night where a page is
looked at (the pages themselves are what the tests check)."""

from __future__ import annotations

import random

from .conftest import Server


def roll(server: Server, night: str, token: str, table: int, dice: list[int]) -> None:
    """One roll at ``table``, with a fresh command id."""
    server.api(
        "POST",
        f"/api/nights/{night}/tables/{table}/rolls",
        token,
        json={"command_id": f"test-roll-{random.random()}", "dice": dice},
    )


def finish_round(server: Server, night: str, token: str, round_no: int, seed: int = 11) -> None:
    """Whoever may still roll rolls (seeded dice) until round ``round_no`` is over."""
    rng = random.Random(seed)
    for _ in range(600):
        status = server.state(night, token)["status"]
        if status["round"] != round_no or not status["expects"]:
            return
        roll(
            server,
            night,
            token,
            status["expects"][0]["table"],
            [rng.randint(1, 6) for _ in range(3)],
        )
    raise AssertionError(f"round {round_no} did not end")


def play_out(server: Server, night: str, token: str, prefix: str) -> None:
    """The server rolls for whoever is expected (command ids ``{prefix}-0``, ...) until the
    night stops playing: over, or waiting at a break or for a roll-off."""
    for n in range(3000):
        status = server.state(night, token)["status"]
        if status["phase"] != "playing":
            return
        server.api(
            "POST",
            f"/api/nights/{night}/tables/{status['expects'][0]['table']}/rolls",
            token,
            json={"command_id": f"{prefix}-{n}", "roll_for_me": True},
        )
    raise AssertionError("the night was still playing after 3,000 rolls")
