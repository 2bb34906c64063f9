"""Fixtures of the server tests: an app on a temporary SQLite file, and a night on it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import Night, make_night  # noqa: E402

from bunco.web.app import create_app  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx`")


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'bunco.sqlite3'}"


@pytest.fixture
def client(db_url) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_pace=0)) as c:
        yield c


@pytest.fixture
def night(client) -> Night:
    return make_night(client)
