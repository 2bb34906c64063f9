"""Fixtures and hooks for every test: the tests folder on the import path, and the
``postgresql`` marker on each test that runs on the PostgreSQL test database (so that
``pytest -m postgresql`` runs just those)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/night_helpers.py

from pg_database import SKIP_REASON


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgresql: runs on the PostgreSQL test database (BUNCO_TEST_PG_URL)"
    )


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
