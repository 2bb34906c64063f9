"""Helpers of the server tests: nights made through the API, tokens, command ids."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
_ids = itertools.count(1)
SEATING_WAITS = frozenset({"not_seated", "seating_changed"})
"""The refusals of an entry at a table whose new seating is not confirmed yet."""


def cid() -> str:
    """A fresh client command id."""
    return f"cmd-{next(_ids)}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Night:
    """A night made through the API, with its tokens, and helpers to act on it."""

    def __init__(self, client: TestClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.id: str = created["night"]
        self.host = bearer(created["host_token"])
        self.viewer = bearer(created["viewer_token"])

    def url(self, tail: str = "") -> str:
        return f"/api/nights/{self.id}{tail}"

    def table_token(self, table: int) -> dict[str, str]:
        code = self.created["tables"][table - 1]["code"]
        reply = self.client.post("/api/join", json={"code": code})
        assert reply.status_code == 200, reply.text
        return bearer(reply.json()["token"])

    def state(self) -> dict[str, Any]:
        reply = self.client.get(self.url(), headers=self.host)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def roll(
        self,
        table: int,
        dice: list[int] | None = None,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> Any:
        body: dict[str, Any] = {"command_id": extra.pop("command_id", cid())}
        if dice is not None:
            body["dice"] = dice
        elif "outcome" not in extra:
            body["roll_for_me"] = True
        body.update(extra)
        return self.client.post(
            self.url(f"/tables/{table}/rolls"), json=body, headers=headers or self.host
        )

    def seq(self) -> int:
        return int(self.state()["seq"])

    def log(self) -> list[dict[str, Any]]:
        import json

        text = self.client.get(self.url("/export/log.jsonl"), headers=self.host).text
        return [json.loads(line) for line in text.splitlines()]

    def play_round(self, *, limit: int = 5000) -> None:
        """Let the host roll for whoever is expected until the round (or night) moves on."""
        start = self.state()["status"]
        key = (start["set"], start["round"], start["phase"])
        for _ in range(limit):
            status = self.state()["status"]
            if (status["set"], status["round"], status["phase"]) != key or not status["expects"]:
                return
            who = status["expects"][0]
            if who["table"] is None:
                reply = self.client.post(
                    self.url("/rolloff"),
                    json={"command_id": cid(), "roll_for_me": True},
                    headers=self.host,
                )
            else:
                reply = self.roll(who["table"])
                if reply.status_code == 409 and reply.json()["error"] in SEATING_WAITS:
                    reply = self.seat(who["table"])  # the players moved: they sit down
            assert reply.status_code == 200, reply.text
        raise AssertionError("the round did not end")

    def seat(self, table: int, headers: dict[str, str] | None = None) -> Any:
        """Confirm ``table``'s new seating: the round begins there (bunco.core.seating_confirm)."""
        return self.client.post(
            self.url(f"/tables/{table}/seated"),
            json={"command_id": cid()},
            headers=headers or self.host,
        )

    def ring_in(self) -> Any:
        """The head table's bell: the round begins at every table."""
        return self.client.post(self.url("/start"), json={"command_id": cid()}, headers=self.host)


def make_night(client: TestClient, players: list[str] | None = None, **options: Any) -> Night:
    body = {"name": "Test night", "rules": "classic", "players": players or EIGHT, **options}
    reply = client.post("/api/nights", json=body)
    assert reply.status_code == 201, reply.text
    return Night(client, reply.json())
