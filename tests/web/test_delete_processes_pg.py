"""Deleting and erasing through one of two real `bunco serve` processes on one PostgreSQL
database (skipped without BUNCO_TEST_PG_URL): the other process lets a deleted night go
(its bots, its sockets, its tokens; a write of its bots that lands after the deletion is
404, never an error), and reads an erased member's night again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, socket_closes, two_servers, until

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)]
PLAYERS = [f"P{n:02d}" for n in range(1, 41)]  # ten tables of bots, rolling without pause


@pytest.fixture
def servers(tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    with wiped_postgres() as url, two_servers(url, tmp_path) as pair:
        yield pair


def held(server: ServeProcess) -> float:
    """The nights the process holds in memory, from its metrics."""
    text = httpx.get(server.base + "/metrics", timeout=10).text
    found = re.search(r"^bunco_nights_held (\S+)$", text, re.M)
    assert found, text
    return float(found.group(1))


def host(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_deletion_and_an_erasure_on_a_reach_b(servers) -> None:
    """One pair of processes for both (starting them is most of the time)."""
    a, b = servers
    night_deleted_on_a_is_let_go_on_b_while_its_bots_roll(a, b)
    erasure_on_a_is_read_again_on_b(a, b)


def failed_rolls(server: ServeProcess) -> float:
    text = httpx.get(server.base + "/metrics", timeout=10).text
    found = re.search(r'^bunco_rolls_total\{outcome="failed"\} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def night_deleted_on_a_is_let_go_on_b_while_its_bots_roll(a: ServeProcess, b: ServeProcess) -> None:
    made = httpx.post(
        a.base + "/api/nights", json={"players": PLAYERS, "bots": PLAYERS[1:]}, timeout=10
    ).json()
    night, token = made["night"], made["host_token"]
    url = f"{b.base}/api/nights/{night}"
    ready, closed = socket_closes(f"ws://127.0.0.1:{b.port}/api/nights/{night}/ws?token={token}")
    assert ready.wait(10)
    # both processes write the night: the host's roll-for-me on B sets B's bots going too
    httpx.post(
        url + "/tables/1/rolls",
        json={"command_id": "h1", "roll_for_me": True},
        headers=host(token),
        timeout=10,
    )
    seq = httpx.get(url, headers=host(token), timeout=10).json()["seq"]
    until(lambda: httpx.get(url, headers=host(token), timeout=10).json()["seq"] > seq + 20, 10)
    assert held(a) == 1 and held(b) == 1
    reply = httpx.delete(f"{a.base}/api/nights/{night}", headers=host(token), timeout=10)
    assert reply.status_code == 200, reply.text
    print(f"let go on B after {until(lambda: held(b) == 0, 3):.2f} s")
    assert held(a) == 0
    until(lambda: closed == [4401], 3)
    for server in (a, b):
        got = httpx.get(f"{server.base}/api/nights/{night}", headers=host(token), timeout=10)
        assert got.status_code == 401
    for server in (a, b):  # a bot's write that met the deletion was a 404, not a failure
        assert "Traceback" not in server.log.read_text()
    print(f"bots' rolls that met the deletion (404): A {failed_rolls(a)}, B {failed_rolls(b)}")


def erasure_on_a_is_read_again_on_b(a: ServeProcess, b: ServeProcess) -> None:
    made = httpx.post(
        a.base + "/api/clubs",
        json={"name": "Club", "regulars": ["Ann", "Bea", "Cat", "Dee"]},
        timeout=10,
    ).json()
    club, organizer = made["club"], host(made["token"])
    created = httpx.post(
        f"{a.base}/api/clubs/{club}/nights", json={}, headers=organizer, timeout=10
    ).json()
    night_url = f"{b.base}/api/nights/{created['night']}"

    def players() -> Any:
        reply = httpx.get(night_url, headers=host(created["host_token"]), timeout=10)
        return reply.json()["setup"]["players"]

    assert "Ann" in players()  # B holds the night
    reply = httpx.delete(f"{a.base}/api/clubs/{club}/members/Ann", headers=organizer, timeout=10)
    assert reply.status_code == 200, reply.text
    print(f"read again on B after {until(lambda: 'Former member 1' in players(), 3):.2f} s")
    assert "Ann" not in players()
