"""Token look-ups: made off the event loop, and never bringing a revoked token back into
the cache (a notice that tokens changed can arrive while a look-up reads the store)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from bunco.store import EventStore, TokenRecord
from bunco.web.app import create_app
from bunco.web.auth import TokenBook, hash_token

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


class Watched(EventStore):
    """A store that notes, for each token look-up, whether an event loop ran its thread."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.on_loop: list[bool] = []
        self.during_read: Any = None

    def token(self, token_hash: str) -> TokenRecord | None:
        try:
            asyncio.get_running_loop()
            self.on_loop.append(True)
        except RuntimeError:
            self.on_loop.append(False)
        record = super().token(token_hash)
        if self.during_read is not None:
            self.during_read()
        return record


def test_a_look_up_that_read_before_a_forget_is_not_cached(tmp_path):
    store = Watched(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    store.upgrade()
    book = TokenBook(store)
    token, record = book.issue("n1", "viewer")
    store.create_night("n1", "N", {"type": "party", "rules": "classic", "players": EIGHT},
                       tokens=[record])
    store.during_read = book.forget  # the token is revoked while it is being read
    assert book.resolve(token) is not None  # this request's answer: what it read
    assert book.cached_record(token) is None  # but not kept: the next request reads again
    store.during_read = None
    store.revoke_tokens("n1", "viewer")
    assert book.resolve(token) is None
    assert book.cached_record(token) is not None and book.cached_record(token).revoked
    assert hash_token(token) == record.hash


def test_tokens_are_looked_up_on_a_worker_thread_and_then_served_from_memory(tmp_path):
    store = Watched(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    with TestClient(create_app(store=store)) as client:
        created = client.post("/api/nights", json={"players": EIGHT}).json()
        headers = {"Authorization": f"Bearer {created['viewer_token']}"}
        client.app.state.tokens.forget()  # type: ignore[attr-defined]
        store.on_loop.clear()
        for _ in range(3):
            assert client.get(f"/api/nights/{created['night']}", headers=headers).status_code == 200
        assert client.get("/api/me", headers={"Authorization": "Bearer " + "x" * 32}
                          ).status_code == 401
        assert store.on_loop == [False, False]  # one read per token, none on the event loop
    store.close()
