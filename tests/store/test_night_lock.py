"""A night's write lock across processes (PostgreSQL; skipped without BUNCO_TEST_PG_URL):
the lock is taken and what other writers stored is read in one step; a writer that
finds events it missed keeps the lock while it plans again, so the other writer waits
instead of racing; what is committed is announced; nothing is stored twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from bunco.store import EventStore, SeqTaken, StoredEvent, notify
from bunco.store.events import now
from bunco.store.night_lock import NightWrites
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
    return StoredEvent(
        "n1",
        seq,
        1,
        command,
        '{"type":"roll","table":1,"dice":[2,3,5]}',
        now(),
        "phone",
        "r" + command,
    )


def test_a_writer_that_missed_events_keeps_the_lock_and_the_other_one_waits(store):
    async def scenario() -> None:
        writes, other_writes = NightWrites(store.engine.url), NightWrites(store.engine.url)
        try:
            lock = await writes.lock("n1", 0)
            assert lock.missed == []
            await lock.commit([roll(1, "a"), roll(2, "b")])
            assert [e.seq for e in store.events("n1")] == [0, 1, 2]
            # planned after seq 1, but seq 2 is stored: read under the lock, kept
            lock = await writes.lock("n1", 1)
            assert [(e.seq, e.command_id, e.caller, e.request_hash) for e in lock.missed] == [
                (2, "b", "phone", "rb")
            ]
            assert lock.missed[0].event == {"type": "roll", "table": 1, "dice": [2, 3, 5]}
            stored_by_other: list[float] = []

            async def other_process() -> None:  # waits for the lock, then misses seq 3
                other = await other_writes.lock("n1", 2)
                assert [e.command_id for e in other.missed] == ["c"]
                await other.commit([roll(4, "d")])
                stored_by_other.append(time.monotonic())

            other = asyncio.ensure_future(other_process())
            await asyncio.sleep(0.3)
            assert stored_by_other == []  # the other writer waits while this one plans
            released = time.monotonic()
            await lock.commit([roll(3, "c")])
            await asyncio.wait_for(other, 10)
            assert stored_by_other and stored_by_other[0] >= released
            assert [e.command_id for e in store.events("n1")] == [None, "a", "b", "c", "d"]
            assert [e.seq for e in await writes.events("n1", 2)] == [3, 4]
        finally:
            await writes.close()
            await other_writes.close()

    asyncio.run(scenario())


def test_a_released_lock_stores_nothing_and_a_taken_seq_stores_nothing(store):
    async def scenario() -> None:
        writes = NightWrites(store.engine.url)
        try:
            lock = await writes.lock("n1", 0)
            await lock.release()
            await lock.release()  # ending twice is harmless
            assert store.events("n1", after=0) == []
            store.append("n1", 1, table=1, command_id="x", event={"type": "roll"})
            lock = await writes.lock("n1", 1)
            with pytest.raises(SeqTaken):  # a writer without the lock took seq 1
                await lock.commit([roll(1, "a"), roll(2, "b")])
            assert [e.command_id for e in store.events("n1")] == [None, "x"]  # all or nothing
            lock = await writes.lock("n1", 1)
            await lock.commit([roll(2, "a")])  # the lock was released: free again
            assert [e.command_id for e in store.events("n1")] == [None, "x", "a"]
        finally:
            await writes.close()
        with store.engine.connect() as conn:  # the store's connections do not wait forever
            assert conn.execute(text("SHOW lock_timeout")).scalar() == "15s"
            assert conn.execute(text("SHOW idle_in_transaction_session_timeout")).scalar() == "15s"

    asyncio.run(scenario())


def test_a_commit_is_announced_once_it_is_committed_and_a_release_announces_nothing(store):
    import psycopg

    async def scenario() -> None:
        writes = NightWrites(store.engine.url)
        listener = await psycopg.AsyncConnection.connect(
            notify.conninfo(store.engine.url), autocommit=True
        )
        try:
            await listener.execute(f"LISTEN {notify.CHANNEL}")
            lock = await writes.lock("n1", 0)
            await lock.release()
            lock = await writes.lock("n1", 0)
            await lock.commit([roll(1, "a"), roll(2, "b")])
            heard = [n.payload async for n in listener.notifies(timeout=1.0)]
            assert heard == ["e:n1:2"]
        finally:
            await listener.close()
            await writes.close()

    asyncio.run(scenario())


def test_a_connection_that_broke_in_the_pool_is_replaced_before_anything_is_stored(store):
    async def scenario() -> None:
        writes = NightWrites(store.engine.url, min_size=1, max_size=1)
        try:
            lock = await writes.lock("n1", 0)
            pid = lock._conn.info.backend_pid
            await lock.release()
            with store.engine.begin() as conn:  # the database ends that connection
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            lock = await writes.lock("n1", 0)
            assert lock._conn.info.backend_pid != pid
            await lock.commit([roll(1, "a")])
            assert [e.command_id for e in store.events("n1")] == [None, "a"]
        finally:
            await writes.close()

    asyncio.run(scenario())
