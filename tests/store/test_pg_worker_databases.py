"""The PostgreSQL test databases (tests/pg_database.py): a database of its own for each
pytest-xdist worker where the role may create databases, the named one (taking turns)
where it may not, or outside a worker."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

import pg_database
from pg_database import PG_URL, SKIP_REASON

pytestmark = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)


def database_of(url: str) -> str | None:
    return sa.make_url(url).database


def test_a_worker_gets_a_database_of_its_own_beside_the_named_one(monkeypatch):
    assert PG_URL is not None
    if not pg_database.may_create_databases(PG_URL):
        pytest.skip("the role of BUNCO_TEST_PG_URL may not create databases")
    # this worker's own (gw0 outside xdist): made once, kept for the next runs
    worker = pg_database.xdist_worker() or "gw0"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    url = pg_database.worker_url.__wrapped__()
    wanted = f"{database_of(PG_URL)}_{worker}"
    assert database_of(url) == wanted
    assert sa.make_url(url).password == sa.make_url(PG_URL).password  # not "***"
    pg_database.ensure_database(PG_URL, wanted)  # there already: no error
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT current_database()")).scalar() == wanted
    finally:
        engine.dispose()


def test_the_named_database_outside_a_worker_or_without_the_right(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert pg_database.worker_url.__wrapped__() == PG_URL
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw98")
    monkeypatch.setattr(pg_database, "may_create_databases", lambda url: False)
    assert pg_database.worker_url.__wrapped__() == PG_URL  # the workers take turns on it


def test_the_wiped_database_is_the_workers(monkeypatch):
    with pg_database.wiped_postgres() as url:
        assert url == pg_database.worker_url()
        engine = sa.create_engine(url)
        try:
            with engine.connect() as conn:
                tables = conn.execute(
                    sa.text("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
                ).scalar()
        finally:
            engine.dispose()
        assert tables == 0
