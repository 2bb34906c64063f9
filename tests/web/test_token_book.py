"""Token look-ups: made off the event loop, and never bringing a revoked token back into
the cache (a notice that tokens changed can arrive while a look-up reads the store)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from bunco.store import EventStore, TokenRecord
from bunco.web.app import create_app
from bunco.web.gate.auth import TokenBook, hash_token

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
    store.create_night(
        "n1", "N", {"type": "party", "rules": "classic", "players": EIGHT}, tokens=[record]
    )
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
        assert (
            client.get("/api/me", headers={"Authorization": "Bearer " + "x" * 32}).status_code
            == 401
        )
        assert store.on_loop == [False, False]  # one read per token, none on the event loop
    store.close()


class Counted(Watched):
    """A store that also counts the reads of a whole night's tokens, and can run something
    while one is read (a notice arriving meanwhile)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.night_reads = 0
        self.during_night_read: Any = None

    def tokens(self, night_id: str, role: str | None = None) -> list[TokenRecord]:
        self.night_reads += 1
        records = super().tokens(night_id, role)
        if self.during_night_read is not None:
            self.during_night_read()
        return records


def test_another_processs_notice_empties_the_cache_and_the_nights_tokens_are_read_back(tmp_path):
    store = Counted(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    store.upgrade()
    book = TokenBook(store)
    issued = [book.issue("n1", "table", table=t) for t in (1, 2, 3)]
    other_night = book.issue("n2", "viewer")
    for night, records in (("n1", [r for _t, r in issued]), ("n2", [other_night[1]])):
        store.create_night(
            night, "N", {"type": "party", "rules": "classic", "players": EIGHT}, tokens=records
        )
    assert book.resolve(other_night[0]) is not None  # cached
    store.revoke_tokens("n1", "table", table=2)  # by another process

    async def notices() -> None:
        book.changed_elsewhere("n1")
        book.changed_elsewhere("n1")  # a second notice before the refill read: one read
        assert book.cached_record(other_night[0]) is None  # forgotten at once
        assert book.cached_record(issued[1][0]) is None
        while book._refilling:
            await asyncio.sleep(0.01)

    asyncio.run(notices())
    assert store.night_reads == 1
    cached = [book.cached_record(token) for token, _record in issued]
    assert [r is not None and r.table for r in cached] == [1, 2, 3]
    assert [r.revoked for r in cached if r is not None] == [False, True, False]
    assert book.resolve(issued[1][0]) is None  # the revoked one stays refused
    assert book.cached_record(other_night[0]) is None  # other nights: looked up when used
    store.on_loop.clear()
    assert book.resolve(issued[0][0]) is not None and store.on_loop == []  # no look-up

    async def refilled() -> None:
        book.changed_elsewhere("n1")
        while book._refilling:
            await asyncio.sleep(0.01)

    store.during_night_read = book.forget  # a revocation here while the night is read
    asyncio.run(refilled())
    assert store.night_reads == 2
    assert book.cached_record(issued[0][0]) is None  # what was read is not kept

    async def notice_during_the_read() -> None:
        loop = asyncio.get_running_loop()

        def another_notice() -> None:  # tokens change again while the night is read
            store.during_night_read = None
            book.forget()
            loop.call_soon_threadsafe(book.changed_elsewhere, "n1")

        store.during_night_read = another_notice
        book.changed_elsewhere("n1")
        while book._refilling or store.night_reads < 4:
            await asyncio.sleep(0.01)

    asyncio.run(notice_during_the_read())
    assert store.night_reads == 4  # read again for the notice that came meanwhile
    assert book.cached_record(issued[0][0]) is not None
    store.close()
