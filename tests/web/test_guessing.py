"""Guessing limits that slow a guesser down, exact under concurrency, never locking the room out."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from web_helpers import make_night

from bunco.store import EventStore
from bunco.store.rate_counts import DatabaseCounts
from bunco.web.app import create_app
from bunco.web.gate.guard import Guard


def _guards(url: str, count: int, **limits: str) -> tuple[list[Guard], list[EventStore]]:
    """``count`` guards sharing one count, as ``count`` server processes would: each with
    its own engine on PostgreSQL; on SQLite (one process) one guard in memory."""
    stores = [EventStore(url) for _ in range(count if url.startswith("postgresql") else 1)]
    stores[0].upgrade()
    if not url.startswith("postgresql"):
        return [Guard(**limits)], stores
    guards = [Guard(storage=DatabaseCounts(engine=s.engine), **limits) for s in stores]
    guards[0].storage.reset()
    return guards, stores


def _burst(guards: list[Guard], attempts: int, *keys: str) -> int:
    """``attempts`` guesses at once (32 threads, spread over the guards); how many were let
    through to a look-up."""
    through = []
    start = threading.Barrier(32)

    def guess(i: int) -> None:
        if i < 32:
            start.wait()
        guard = guards[i % len(guards)]
        with guard.exclusive(*keys):
            if guard.admit(*keys) is None:
                through.append(i)
                guard.failed(*keys)

    with ThreadPoolExecutor(32) as pool:
        list(pool.map(guess, range(attempts)))
    return len(through)


def test_a_concurrent_burst_from_one_address_gets_exactly_its_limit(any_db_url):
    guards, stores = _guards(any_db_url, 2)
    try:
        client = Guard.client("10.9.0.1")
        # ten failures a minute, then one attempt on the slow path: never 12
        assert _burst(guards, 60, client, Guard.CODES) == 11
        wait = guards[-1].admit(client, Guard.CODES)
        assert wait is not None and 1 <= wait <= 30
    finally:
        for store in stores:
            store.close()


def test_a_concurrent_burst_gets_exactly_the_servers_budget(any_db_url):
    guards, stores = _guards(any_db_url, 2, per_client="1000/hour", typed_codes="50/hour")
    try:
        # from one address, past the client's checks: the server's 50, then the slow path
        assert _burst(guards, 90, Guard.client("10.9.0.2"), Guard.CODES) == 51
    finally:
        for store in stores:
            store.close()


def test_a_room_sharing_one_address_with_a_guesser_still_joins(db_url):
    guard = Guard(slow="1/3 seconds")
    with TestClient(create_app(db_url, bot_pace=0, guard=guard)) as client:
        night = make_night(client)
        guesses = [client.post("/api/join", json={"code": "ZZZZZZ"}).status_code for _ in range(10)]
        assert guesses == [404] * 10  # the room's one address has used up its failures
        code = night.created["tables"][0]["code"]
        first = client.post("/api/join", json={"code": code})
        assert first.status_code == 200  # the slow path's attempt is the roommate's
        refused = client.post("/api/join", json={"code": code})
        assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 3
        # the next roommate waits for the slow path's next attempt, and gets in with it
        deadline = time.monotonic() + 10
        while True:
            again = client.post("/api/join", json={"code": night.created["tables"][1]["code"]})
            if again.status_code != 429 or time.monotonic() > deadline:
                break
            time.sleep(0.2)  # polling the condition, not a fixed wait
        assert again.status_code == 200 and again.json()["table"] == 2


def test_unknown_tokens_past_the_limit_go_slow_and_live_tokens_always_work(any_db_url):
    guard = Guard(slow="1/1 second")
    with TestClient(create_app(any_db_url, bot_pace=0, guard=guard)) as client:
        night = make_night(client)
        for i in range(10):
            reply = client.get(night.url(), headers={"authorization": f"Bearer x{i:030d}"})
            assert reply.status_code == 401
        # live tokens this process no longer holds (as after a restart) are looked up
        # from the guesser's own address, every time: a token is no guess
        for token in (night.created["viewer_token"], night.created["host_token"]) * 2:
            client.app.state.tokens.forget()  # type: ignore[attr-defined]
            reply = client.get(night.url(), headers={"authorization": f"Bearer {token}"})
            assert reply.status_code == 200
        # unknown ones: the slow path's one answer, then 429 until the next
        unknown = [
            client.get(night.url(), headers={"authorization": f"Bearer {c * 31}"}).status_code
            for c in "yz"
        ]
        assert unknown == [401, 429]
