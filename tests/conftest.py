"""Fixtures and hooks for every test: the tests folder on the import path, the terminal's
width left out (a test that reads the command line's output at a width sets ``COLUMNS``
itself), the
``postgresql`` marker on each test that runs on the PostgreSQL test database (so that
``pytest -m postgresql`` runs just those), and a note when parallel workers must take turns
on that database (tests/pg_database.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))  # tests/night_helpers.py
from pg_database import PG_URL, SKIP_REASON, TAKING_TURNS, may_create_databases, xdist_worker

# The command line's consoles are made at import and keep a COLUMNS they find then: the
# width of the terminal that runs the tests must not change what the tests read.
for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgresql: runs on the PostgreSQL test database (BUNCO_TEST_PG_URL)"
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    """Parallel workers on a role that may not create databases: say once that the
    PostgreSQL tests take turns (the run is slower, not wrong)."""
    config = session.config
    if not PG_URL or xdist_worker() is not None or not getattr(config.option, "numprocesses", 0):
        return
    try:
        allowed = may_create_databases(PG_URL)
    except sa.exc.SQLAlchemyError:
        return  # no server: the PostgreSQL tests themselves say what is wrong
    if not allowed:
        capture = config.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled():
            sys.stderr.write(TAKING_TURNS + "\n")


def uses_postgresql(item: pytest.Item) -> bool:
    """Whether ``item`` runs on the PostgreSQL test database: a PostgreSQL parameter of a
    database fixture, the ``pg_url`` fixture, or a skip for want of BUNCO_TEST_PG_URL."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgresql" in callspec.params.values():
        return True
    if "pg_url" in getattr(item, "fixturenames", ()):
        return True
    return any(mark.kwargs.get("reason") == SKIP_REASON for mark in item.iter_markers("skipif"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if uses_postgresql(item):
            item.add_marker(pytest.mark.postgresql)
