"""Rolls sent straight to the API by the browser tests, to bring a night where a page is
looked at (the pages themselves are what the tests check).

A roll's acknowledgement carries the night's status and the table after it, so a table
rolls on without reading the whole night; the night is read again when that table has
no roll to make or a roll is refused (a bot or a page rolled first)."""

from __future__ import annotations

import random
from typing import Any

from .conftest import Server

SEATING_WAITS = frozenset({"not_seated", "seating_changed"})
"""The refusals of an entry at a table whose new seating is not confirmed yet."""


def seat(server: Server, night: str, token: str, table: int) -> None:
    """Confirm ``table``'s new seating (its players moved between rounds): the round begins
    there. Refused (409) once it has begun there: a page, a bot or the bell came first."""
    reply = server.call(
        "POST",
        f"/api/nights/{night}/tables/{table}/seated",
        token,
        json={"command_id": f"test-seated-{random.random()}"},
    )
    assert reply.status_code in (200, 409), reply.text


def post_roll(server: Server, night: str, token: str, table: int, body: dict[str, Any]) -> Any:
    """POST one roll; the night's status after it, its ``expects`` from the table's view
    while that table has more to roll, else the night's status read again."""
    reply = server.call("POST", f"/api/nights/{night}/tables/{table}/rolls", token, json=body)
    assert reply.status_code in (200, 409), reply.text  # 409: somebody else rolled first
    ack = reply.json()
    if reply.status_code == 409 and ack["error"] in SEATING_WAITS:
        seat(server, night, token, table)  # the players moved: everyone is seated
        return server.state(night, token)["status"]
    if reply.status_code == 200 and ack["status"]["phase"] == "playing":
        expects = (ack["table_view"] or {}).get("expects")
        if expects:
            return {**ack["status"], "expects": expects}
    return server.state(night, token)["status"]


def roll(server: Server, night: str, token: str, table: int, dice: list[int]) -> None:
    """One roll at ``table``, with a fresh command id (the table's new seating confirmed
    first if the round has not begun there)."""
    path = f"/api/nights/{night}/tables/{table}/rolls"
    body = {"command_id": f"test-roll-{random.random()}", "dice": dice}
    reply = server.call("POST", path, token, json=body)
    if reply.status_code == 409 and reply.json()["error"] in SEATING_WAITS:
        seat(server, night, token, table)
        reply = server.call("POST", path, token, json=body)
    assert reply.status_code == 200, reply.text


def finish_round(server: Server, night: str, token: str, round_no: int, seed: int = 11) -> None:
    """Whoever may still roll at a table rolls (seeded dice) until round ``round_no`` is
    over (a roll-off after it is left to the test)."""
    rng = random.Random(seed)
    status = server.state(night, token)["status"]
    for _ in range(600):
        if status["round"] != round_no or not status["expects"] or status["phase"] != "playing":
            return
        dice = [rng.randint(1, 6) for _ in range(3)]
        body = {"command_id": f"test-roll-{random.random()}", "dice": dice}
        status = post_roll(server, night, token, status["expects"][0]["table"], body)
    raise AssertionError(f"round {round_no} did not end")


def play_out(server: Server, night: str, token: str, prefix: str) -> None:
    """The server rolls for whoever is expected (command ids ``{prefix}-0``, ...) until the
    night stops playing: over, or waiting at a break or for a roll-off."""
    status = server.state(night, token)["status"]
    for n in range(3000):
        if status["phase"] != "playing":
            return
        body = {"command_id": f"{prefix}-{n}", "roll_for_me": True}
        status = post_roll(server, night, token, status["expects"][0]["table"], body)
    raise AssertionError("the night was still playing after 3,000 rolls")
