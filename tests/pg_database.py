"""The PostgreSQL test database: ``BUNCO_TEST_PG_URL`` names one the tests may wipe.

Each pytest-xdist worker gets a database of its own beside it (``<name>_gw0``,
``<name>_gw1``...: made once, when the role may create databases, and kept for the next
run), so parallel workers never wait for each other. Where the role may not create
databases, every worker uses the named database and they take turns (the run says so once,
on stderr). Either way a test takes an exclusive file lock on the database it uses (its
name comes from the URL), so two runs on one machine never share a database at once.
Servers started in subprocesses get :func:`worker_url`'s URL from the test, never
``BUNCO_TEST_PG_URL`` itself.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

from bunco.store.db import wipe_postgres

PG_URL = os.environ.get("BUNCO_TEST_PG_URL")
SKIP_REASON = "set BUNCO_TEST_PG_URL to a PostgreSQL database the tests may wipe"
TAKING_TURNS = (
    "note: PostgreSQL tests take turns on one database (the role cannot create databases)"
)


def xdist_worker() -> str | None:
    """This process's pytest-xdist worker name (``gw0``...), or None outside a worker."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def may_create_databases(url: str) -> bool:
    """Whether the role of ``url`` may create databases (CREATEDB, or a superuser)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            allowed = conn.execute(
                sa.text("SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user")
            ).scalar()
    finally:
        engine.dispose()
    return bool(allowed)


def ensure_database(url: str, name: str) -> None:
    """Create the database ``name`` on ``url``'s server unless it is there (a run in
    parallel may create it at the same moment: that is fine too)."""
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            there = conn.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if there is None:
                quoted = engine.dialect.identifier_preparer.quote(name)
                try:
                    conn.execute(sa.text(f"CREATE DATABASE {quoted}"))
                except sa.exc.DBAPIError as err:
                    if getattr(err.orig, "sqlstate", None) != "42P04":  # duplicate_database
                        raise
    finally:
        engine.dispose()


@functools.cache
def worker_url() -> str:
    """The URL of the database this process's tests use: the worker's own database where
    the role may create it, else ``BUNCO_TEST_PG_URL``'s (taking turns)."""
    assert PG_URL is not None, SKIP_REASON
    worker = xdist_worker()
    if worker is None or not may_create_databases(PG_URL):
        return PG_URL
    given = sa.make_url(PG_URL)
    name = f"{given.database}_{worker}"
    ensure_database(PG_URL, name)
    return given.set(database=name).render_as_string(hide_password=False)


@contextmanager
def wiped_postgres() -> Iterator[str]:
    """The URL of this worker's test database, wiped, held alone until the block ends."""
    with wiped(worker_url()) as url:
        yield url


@contextmanager
def wiped(url: str) -> Iterator[str]:
    """The database ``url``, wiped, held alone (a file lock named after it) until the
    block ends."""
    name = "bunco-test-pg-" + hashlib.sha256(url.encode()).hexdigest()[:12] + ".lock"
    handle = os.open(Path(tempfile.gettempdir()) / name, os.O_CREAT | os.O_RDWR)
    fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        wipe_postgres(url)
        yield url
    finally:
        os.close(handle)
