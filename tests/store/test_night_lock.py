"""A night's write lock across processes (PostgreSQL; skipped without BUNCO_TEST_PG_URL):
a batch is stored unless another writer stored first, and then the lock is kept while
the batch is planned again, so the other writer waits instead of racing."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from bunco.store import EventStore, StoredEvent
from bunco.store.events import now
from bunco.store.night_lock import lock_night, store_unless_missed
from pg_database import PG_URL, SKIP_REASON, wiped_postgres

pytestmark = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)
SETUP = {"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]}


@pytest.fixture
def store() -> Iterator[EventStore]:
    with wiped_postgres() as url:
        s = EventStore(url)
        s.upgrade()
        s.create_night("n1", "N", SETUP)
        yield s
        s.close()


def roll(seq: int, command: str) -> StoredEvent:
    return StoredEvent("n1", seq, 1, command, '{"type":"roll","table":1,"dice":[2,3,5]}',
                       now(), "phone")


def test_a_batch_is_stored_unless_another_writer_was_first(store):
    assert store_unless_missed(store, "n1", 0, [roll(1, "a"), roll(2, "b")]) is None
    assert [e.seq for e in store.events("n1")] == [0, 1, 2]
    # planned after seq 1, but seq 2 is stored: nothing stored, the lock kept
    lock = store_unless_missed(store, "n1", 1, [roll(2, "c")])
    assert lock is not None and [e.command_id for e in lock.missed] == ["b"]
    stored_by_other: list[float] = []

    def other_process() -> None:  # waits for the lock, then finds seq 3 taken
        other = store_unless_missed(store, "n1", 2, [roll(3, "d")])
        assert other is not None and [e.command_id for e in other.missed] == ["c"]
        other.commit([roll(4, "d")])
        stored_by_other.append(time.monotonic())

    thread = threading.Thread(target=other_process)
    thread.start()
    time.sleep(0.3)
    assert stored_by_other == []  # the other writer waits while the batch is planned again
    released = time.monotonic()
    lock.commit([roll(3, "c")])
    thread.join(10)
    assert stored_by_other and stored_by_other[0] >= released
    assert [e.command_id for e in store.events("n1")] == [None, "a", "b", "c", "d"]


def test_a_released_lock_stores_nothing_and_lets_the_next_writer_in(store):
    lock = lock_night(store, "n1", 0)
    assert lock.missed == []
    lock.release()
    lock.release()  # ending twice is harmless
    assert store_unless_missed(store, "n1", 0, [roll(1, "a")]) is None
    missed = store_unless_missed(store, "n1", 0, [roll(1, "b")], hold=False)
    assert missed is not None and [e.command_id for e in missed.missed] == ["a"]
    assert store_unless_missed(store, "n1", 1, [roll(2, "b")]) is None  # not held: free
    with store.engine.connect() as conn:  # the store's connections do not wait forever
        assert conn.execute(text("SHOW lock_timeout")).scalar() == "15s"
        assert conn.execute(text("SHOW idle_in_transaction_session_timeout")).scalar() == "15s"
