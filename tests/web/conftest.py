"""Fixtures of the server tests: an app on a temporary SQLite file, and a night on it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import Night, make_night  # noqa: E402

from bunco.web.app import create_app  # noqa: E402
from pg_database import PG_URL, SKIP_REASON, wiped_postgres  # noqa: E402
from serve_process import ServeProcess, free_port  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx`")


@pytest.fixture
def more_files() -> None:
    """The test opens a few thousand sockets (itself, or in a child process that raises
    its own limit as far as this one lets it)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4096:
        pytest.skip(f"the open-file limit here is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 4096), hard))


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


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The wiped PostgreSQL test database, held alone (parallel workers take turns);
    skipped unless BUNCO_TEST_PG_URL names a database the tests may wipe."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    with wiped_postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db_url(request: pytest.FixtureRequest, db_url: str) -> str:
    """A fresh database of each kind (PostgreSQL only with BUNCO_TEST_PG_URL)."""
    if request.param == "sqlite":
        return db_url
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def server(tmp_path) -> Iterator[ServeProcess]:
    """The real `bunco serve` on an SQLite file, in a subprocess on a free port."""
    srv = ServeProcess(tmp_path / "night.sqlite3", free_port(), tmp_path / "serve.log")
    srv.start()
    yield srv
    srv.stop()
