"""The command path at the service: group commit on the writer thread, and catching up
with what another process stored (the notices PostgreSQL would deliver, given by hand
here, so these run on SQLite too)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bunco.store import EventStore, StoredEvent
from bunco.store.night_lock import NightLock, NightWrites
from bunco.store.notify import Notice
from bunco.store.writers import PostgresWriter
from bunco.web.night.follow import ProcessFollower
from bunco.web.night.service import NightService
from bunco.web.values.replies import ServiceError
from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import small_dice

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
SETUP = {"type": "party", "rules": "classic", "players": EIGHT}


class Recording(EventStore):
    """An event store that notes the thread and size of every batch it commits."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.batches: list[tuple[str, list[int]]] = []

    def append_many(self, night_id: str, events: Any) -> None:
        self.batches.append((threading.current_thread().name, [e.seq for e in events]))
        super().append_many(night_id, events)


async def new_night(svc: NightService) -> str:
    live, _secrets = await svc.create(SETUP, name="Group commit", options={}, key=None, request="")
    return live.id


def roll(table: int, i: int) -> dict[str, Any]:
    return {"type": "roll", "table": table, "dice": small_dice(i)}


def with_night(store: EventStore, scenario: Callable[[NightService, str], Awaitable[None]]) -> None:
    """Run ``scenario(service, night)`` on a new night of an upgraded ``store``."""
    store.upgrade()

    async def main() -> None:
        svc = NightService(store)
        try:
            await scenario(svc, await new_night(svc))
        finally:
            svc.close()

    asyncio.run(main())


def test_rolls_that_arrive_together_are_one_transaction_off_the_event_loop(tmp_path):
    store = Recording(f"sqlite:///{tmp_path / 'night.sqlite3'}")

    async def scenario(svc: NightService, night: str) -> None:
        live = await svc.get(night)
        heard = svc.pubsub.subscribe(night)
        acks = await asyncio.gather(
            *(svc.submit(night, roll(1 + i % 2, i), command_id=f"c{i}") for i in range(40))
        )
        assert sorted(a.stored.seq for a in acks) == list(range(1, 41))
        assert all(not a.duplicate for a in acks)
        # every event published once, in seq order, after its commit
        assert [m.seq for m in heard.drain() if m.kind == "event"] == list(range(1, 41))
        assert live.seq == 40 and [e.seq for e in store.events(night)] == list(range(41))

    with_night(store, scenario)
    threads = {name for name, _ in store.batches}
    assert threads and all(name.startswith("bunco-commit") for name in threads)
    assert threading.current_thread().name not in threads
    assert len(store.batches) < 40  # rolls that waited together were committed together
    assert [s for _, seqs in store.batches for s in seqs] == list(range(1, 41))


def test_a_batch_refuses_one_command_and_stores_the_others(tmp_path):
    store = EventStore(f"sqlite:///{tmp_path / 'night.sqlite3'}")

    async def scenario(svc: NightService, night: str) -> None:
        results = await asyncio.gather(
            svc.submit(night, roll(1, 0), command_id="a", expected_seq=0),
            svc.submit(night, roll(1, 1), command_id="b", expected_seq=0),  # table 1 moved
            svc.submit(night, roll(2, 2), command_id="c", expected_seq=0),  # table 2 did not
            svc.submit(night, roll(1, 0), command_id="a", expected_seq=0),  # a retry of "a"
            return_exceptions=True,
        )
        first, stale, other, retry = results
        assert first.stored.seq == 1 and other.stored.seq == 2
        assert isinstance(stale, ServiceError) and stale.code == "stale"
        assert stale.extra["current_seq"] == 1 and [m["seq"] for m in stale.extra["missed"]] == [1]
        assert retry.duplicate and retry.stored.seq == 1
        assert [e.command_id for e in store.events(night)] == [None, "a", "c"]

    with_night(store, scenario)


def test_a_second_process_catches_up_when_told_and_never_refuses_a_write_as_stale(tmp_path):
    url = f"sqlite:///{tmp_path / 'night.sqlite3'}"
    store_a, store_b = EventStore(url), EventStore(url)
    store_a.upgrade()

    async def scenario() -> None:
        a, b = NightService(store_a), NightService(store_b)
        follower = ProcessFollower(b)
        night = await new_night(a)
        live_b = await b.get(night)
        heard_b = b.pubsub.subscribe(night)
        for i in range(3):
            await a.submit(night, roll(1, i), command_id=f"a{i}")
        assert live_b.seq == 0  # B was not told yet
        follower.notified(Notice("e", night, 3))
        assert (await b.get(night)).seq == 3  # never older than what it was told
        assert [m.seq for m in heard_b.drain() if m.kind == "event"] == [1, 2, 3]
        # a client that saw seq 4 on A (a reconnecting WebSocket, ?since=): B catches up to it
        await a.submit(night, roll(1, 3), command_id="a3")
        assert (await b.get(night, at_least=4)).seq == 4
        assert [m.seq for m in heard_b.drain() if m.kind == "event"] == [4]
        # A writes again; B, not told, takes a write without expected_seq: not stale
        await a.submit(night, roll(2, 4), command_id="a4")
        ack = await b.submit(night, roll(1, 5), command_id="b5")
        assert ack.stored.seq == 6 and not ack.duplicate
        assert [m.seq for m in heard_b.drain() if m.kind == "event"] == [5, 6]
        # with expected_seq: table 1's version is B's own event, whatever A did at table 2
        await a.submit(night, roll(2, 6), command_id="a6")
        ack = await b.submit(night, roll(1, 7), command_id="b7", expected_seq=6)
        assert ack.stored.seq == 8
        # a client that saw A's event sends its seq: B catches up to it before checking
        a_ack = await a.submit(night, roll(1, 8), command_id="a8")
        ack = await b.submit(night, roll(1, 9), command_id="b9", expected_seq=a_ack.stored.seq)
        assert ack.stored.seq == a_ack.stored.seq + 1
        # a retry through B of a command A stored is answered with A's event
        again = await b.submit(night, roll(1, 8), command_id="a8")
        assert again.duplicate and again.stored.seq == a_ack.stored.seq
        assert [e.seq for e in store_b.events(night)] == list(range(11))
        # A changes the night's options (bots): B reloads them when told
        store_a.change_options(night, lambda o: {**o, "bots": ["Ann"]})
        follower.notified(Notice("o", night))
        await asyncio.wait_for(b.nights[night].following.follower, 5)
        assert b.nights[night].bots == ["Ann"]
        a.close()
        b.close()

    asyncio.run(scenario())


def test_a_store_failure_answers_503_and_changes_nothing(tmp_path):
    class Failing(EventStore):
        fail = True

        def append_many(self, night_id: str, events: list[StoredEvent]) -> None:
            if self.fail:
                raise OSError("disk full")
            super().append_many(night_id, events)

    store = Failing(f"sqlite:///{tmp_path / 'night.sqlite3'}")

    async def scenario(svc: NightService, night: str) -> None:
        with pytest.raises(ServiceError) as info:
            await svc.submit(night, roll(1, 0), command_id="x")
        assert info.value.status == 503 and info.value.code == "store_unavailable"
        live = await svc.get(night)
        assert live.seq == 0 and live.state.known("", "x") is None
        store.fail = False
        assert (await svc.submit(night, roll(1, 0), command_id="x")).stored.seq == 1

    with_night(store, scenario)


def test_serve_refuses_several_workers_on_sqlite(tmp_path):
    from typer.testing import CliRunner

    from bunco.cli.app import app

    result = CliRunner().invoke(
        app, ["serve", "--workers", "2", "--db", str(tmp_path / "night.sqlite3")]
    )
    assert result.exit_code == 2
    assert "error: --workers 2 needs PostgreSQL" in result.output
    assert "expected: --workers 1 on SQLite" in result.output


@pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)
def test_a_slow_process_is_never_refused_because_a_fast_one_keeps_writing():
    """Two services (two processes' worth) on one PostgreSQL night: B writes as fast as it
    can while A's inserts are slow. A waits for its turn at the night's write lock and
    B waits for A's commit, instead of A losing the race for the next seq every time."""

    class SlowLock(NightLock):
        async def commit(self, events: Any) -> None:
            await asyncio.sleep(0.1)  # between planning and storing, as on a loaded machine
            await super().commit(events)

    class SlowWrites(NightWrites):
        async def lock(self, night_id: str, after: int) -> NightLock:
            lock = await super().lock(night_id, after)
            slow = SlowLock(self, night_id, lock._conn, lock.missed)
            lock._conn = None
            return slow

    with wiped_postgres() as url:
        store_a, store_b = EventStore(url), EventStore(url)
        store_a.upgrade()

        async def scenario() -> None:
            a = NightService(store_a, writer=PostgresWriter(SlowWrites(url), store_a))
            b = NightService(store_b)
            night = await new_night(a)
            await b.get(night)
            a_done = asyncio.Event()

            async def fast() -> int:
                count = 0
                while not a_done.is_set() and count < 2000:  # misses: the round never ends
                    await b.submit(
                        night,
                        {"type": "roll", "table": 2, "dice": [2, 3, 5]},
                        command_id=f"b{count}",
                    )
                    count += 1
                return count

            async def slow() -> list[int]:
                await asyncio.sleep(0.2)  # B is writing already
                try:
                    acks = await asyncio.gather(
                        *(
                            a.submit(
                                night,
                                {"type": "roll", "table": 1, "dice": [2, 3, 5]},
                                command_id=f"a{i}",
                            )
                            for i in range(3)
                        )
                    )
                finally:
                    a_done.set()
                return [ack.stored.seq for ack in acks]

            b_count, a_seqs = await asyncio.wait_for(asyncio.gather(fast(), slow()), 60)
            assert len(a_seqs) == 3 and a_seqs == sorted(a_seqs)
            stored = store_b.events(night)
            assert [e.seq for e in stored] == list(range(b_count + 4))  # no gap
            assert sorted(e.command_id for e in stored[1:]) == sorted(
                [f"a{i}" for i in range(3)] + [f"b{i}" for i in range(b_count)]
            )
            await a.aclose()
            await b.aclose()

        try:
            asyncio.run(scenario())
        finally:
            store_a.close()
            store_b.close()
