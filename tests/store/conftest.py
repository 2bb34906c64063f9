"""Store fixtures: every store test runs on SQLite, and on PostgreSQL when
``BUNCO_TEST_PG_URL`` names a database the tests may wipe (for example
``postgresql+psycopg://bunco:bunco@127.0.0.1/bunco_test``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bunco.store import EventStore
from pg_database import PG_URL, SKIP_REASON, wiped_postgres


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request, tmp_path) -> Iterator[str]:
    """The URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    with wiped_postgres() as url:
        yield url


@pytest.fixture
def store(empty_url) -> Iterator[EventStore]:
    s = EventStore(empty_url)
    s.upgrade()
    yield s
    s.close()
