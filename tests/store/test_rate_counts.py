"""The rate-limit counts kept in PostgreSQL (skipped without BUNCO_TEST_PG_URL): the
moving window of ``limits`` over them counts exactly what its memory storage counts,
and two storages (two processes) counting at once never pass the limit together."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from limits import parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from bunco.store import EventStore
from bunco.store.rate_counts import DatabaseCounts
from pg_database import PG_URL, SKIP_REASON, wiped_postgres

pytestmark = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)


@pytest.fixture
def store() -> Iterator[EventStore]:
    with wiped_postgres() as url:
        s = EventStore(url)
        s.upgrade()
        yield s
        s.close()


def test_the_moving_window_counts_in_the_database_as_in_memory(store):
    item = parse("3/minute")
    shared = MovingWindowRateLimiter(DatabaseCounts(engine=store.engine))
    memory = MovingWindowRateLimiter(MemoryStorage())
    for limiter in (shared, memory):
        assert [limiter.hit(item, "client:10.0.0.7") for _ in range(4)] == [True, True, True, False]
        assert limiter.test(item, "client:10.0.0.8") and not limiter.test(item, "client:10.0.0.7")
    start = time.time()
    reset, remaining = shared.get_window_stats(item, "client:10.0.0.7")
    assert remaining == 0 and start < reset <= start + 60  # the oldest hit leaves in a minute
    shared.clear(item, "client:10.0.0.7")
    assert shared.test(item, "client:10.0.0.7")


def test_an_old_hit_leaves_the_window_and_expired_rows_are_swept(store):
    counts = DatabaseCounts(engine=store.engine)
    assert counts.acquire_entry("k", 2, 1) and counts.acquire_entry("k", 2, 1)
    assert not counts.acquire_entry("k", 2, 1)
    assert counts.get("k") == 2 and counts.get_moving_window("k", 2, 1)[1] == 2
    time.sleep(1.1)
    assert counts.get_moving_window("k", 2, 1)[1] == 0
    assert counts.acquire_entry("k", 2, 1)  # the old hits dropped, the new one counted
    assert counts.get("k") == 1
    counts._swept = 0.0
    time.sleep(2.1)  # the row expired: the next count sweeps it
    assert counts.incr("other", 60) == 1
    assert counts.get("k") == 0 and counts.get("other") == 1
    assert counts.reset() == 1


def test_two_processes_counting_at_once_never_pass_the_limit_together(store):
    url = store.engine.url.render_as_string(hide_password=False)
    scheme_url = "bunco+postgresql" + url[url.index("://") :]
    storages = [storage_from_string(scheme_url), DatabaseCounts(engine=store.engine)]
    assert isinstance(storages[0], DatabaseCounts)
    granted: list[bool] = []

    def guesser(counts: DatabaseCounts) -> None:
        for _ in range(40):
            granted.append(counts.acquire_entry("LIMITER/codes/50/1/hour", 50, 3600))

    threads = [threading.Thread(target=guesser, args=(s,)) for s in storages for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(granted) == 240 and granted.count(True) == 50
    assert storages[1].get_moving_window("LIMITER/codes/50/1/hour", 50, 3600)[1] == 50
    storages[0].engine.dispose()
