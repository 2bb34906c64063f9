"""Store fixtures: every store test runs on SQLite, and on PostgreSQL when
``BUNCO_TEST_PG_URL`` names a database the tests may wipe (for example
``postgresql+psycopg://bunco:bunco@127.0.0.1/bunco_test``)."""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from bunco.store import EventStore

PG_URL = os.environ.get("BUNCO_TEST_PG_URL")


def pg_lock() -> int:
    """Hold an exclusive lock so that parallel test workers take turns on the database."""
    handle = os.open(Path(tempfile.gettempdir()) / "bunco-test-pg.lock", os.O_CREAT | os.O_RDWR)
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def wipe_postgres(url: str) -> None:
    """Drop every table of the test database (its public schema)."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA public CASCADE"))
        conn.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request, tmp_path) -> Iterator[str]:
    """The URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    if not PG_URL:
        pytest.skip("set BUNCO_TEST_PG_URL to run the store tests on PostgreSQL")
    lock = pg_lock()
    try:
        wipe_postgres(PG_URL)
        yield PG_URL
    finally:
        os.close(lock)


@pytest.fixture
def store(empty_url) -> Iterator[EventStore]:
    s = EventStore(empty_url)
    s.upgrade()
    yield s
    s.close()
