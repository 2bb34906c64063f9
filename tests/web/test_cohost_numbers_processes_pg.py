"""Two real `bunco serve` processes on one PostgreSQL database (skipped without
BUNCO_TEST_PG_URL): co-hosts and viewer links made at once through both get numbers of
their own. The number is decided where the token is stored, in the store's one
transaction under the night's numbering lock (:class:`bunco.store.night_tokens.Numbered`),
not read beforehand by the route: ten co-hosts asked for at once, five on each process,
are co-hosts 1 to 10, and so are ten viewer links."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from web_helpers import bearer

from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, two_servers

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)]
PLAYERS = ["Ann", "Bea", "Cat", "Dee"]


@pytest.fixture
def servers(tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    with wiped_postgres() as url, two_servers(url, tmp_path) as pair:
        yield pair


def test_links_made_at_once_on_two_processes_get_ten_numbers(servers):
    a, b = servers
    created = httpx.post(
        a.base + "/api/nights", json={"name": "Two phones", "players": PLAYERS}, timeout=10
    ).json()
    night, host = created["night"], bearer(created["host_token"])
    base = f"/api/nights/{night}"

    def make(n: int, path: str) -> httpx.Response:
        server = a if n % 2 == 0 else b
        body = {"name": f"Helper {n}"} if path == "/cohosts" else None
        with httpx.Client(timeout=30) as client:
            return client.post(server.base + base + path, headers=host, json=body)

    for path, listed, key in (
        ("/cohosts", "/cohosts", "cohosts"),
        ("/viewer-links", "/viewer-links", "links"),
    ):
        with ThreadPoolExecutor(10) as pool:
            replies = list(pool.map(lambda n, p=path: make(n, p), range(10)))
        assert [r.status_code for r in replies] == [201] * 10, [r.text for r in replies]
        numbers = sorted(r.json()["id"] for r in replies)
        assert numbers == list(range(1, 11)), (path, numbers)
        for server in (a, b):  # both processes list the ten, each once
            shown = httpx.get(server.base + base + listed, headers=host, timeout=10).json()
            assert sorted(item["id"] for item in shown[key]) == list(range(1, 11))
    cohosts = httpx.get(a.base + base + "/cohosts", headers=host, timeout=10).json()["cohosts"]
    helpers = sorted(c["label"].split(" · ")[1] for c in cohosts)
    assert helpers == sorted(f"Helper {n}" for n in range(10))  # each asked-for one, once
    assert all(c["label"].startswith(f"co-host {c['id']} · ") for c in cohosts)
