"""Two real `bunco serve` processes on one PostgreSQL database (skipped without
BUNCO_TEST_PG_URL): the night's server options, changed at once through both, keep every
change. Two co-hosts check players in at the door, one on each process, while the host
chooses the bots, the dice and an announcement and the tables call the host through
either: every mark, every call and every setting is there at the end, on both processes
(each change is decided on the options as stored and written by compare-and-set,
:mod:`bunco.web.decision.night_options`)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from web_helpers import bearer

from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, two_servers, until

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)]
PLAYERS = [f"Player {n:02d}" for n in range(1, 41)]  # ten tables
BOTS = [name for n, name in enumerate(PLAYERS) if n % 4 == 3]  # nobody's first turn


@pytest.fixture
def servers(tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    with wiped_postgres() as url, two_servers(url, tmp_path) as pair:
        yield pair


def test_options_changed_at_once_on_two_processes_lose_nothing(servers):
    a, b = servers
    created = httpx.post(
        a.base + "/api/nights", json={"name": "Two doors", "players": PLAYERS}, timeout=10
    ).json()
    night, host = created["night"], bearer(created["host_token"])
    base = f"/api/nights/{night}"

    def send(server: ServeProcess, method: str, path: str, body: dict[str, Any]) -> int:
        with httpx.Client(timeout=20) as client:
            return client.request(
                method, server.base + base + path, headers=host, json=body
            ).status_code

    writes: list[tuple[ServeProcess, str, str, dict[str, Any]]] = []
    for n, name in enumerate(PLAYERS):  # the even ones at A's door, the odd ones at B's
        writes.append(
            (
                a if n % 2 == 0 else b,
                "POST",
                "/checkin",
                {"command_id": f"door-{n:04d}", "player": name},
            )
        )
    for table in range(1, 11):  # every table calls the host, half through each process
        writes.append(
            (
                b if table % 2 else a,
                "POST",
                f"/tables/{table}/call",
                {"command_id": f"call-{table:04d}", "note": f"t{table}"},
            )
        )
    writes.insert(5, (a, "PUT", "/bots", {"players": BOTS, "pace": 30}))
    writes.insert(15, (b, "PUT", "/dice", {"dice": "phones"}))
    writes.insert(
        25, (b, "POST", "/announcements", {"command_id": "notice-0001", "text": "Cake at 9"})
    )
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda w: send(*w), writes))
    assert statuses == [200] * len(writes)

    def everything_on(server: ServeProcess) -> bool:
        with httpx.Client(timeout=10) as client:
            door = client.get(server.base + base + "/checkin", headers=host).json()
            room = client.get(server.base + base + "/room", headers=host).json()
            state = client.get(server.base + base, headers=host).json()
        return (
            door["here"] == 40
            and door["missing"] == 0
            and sorted(c["table"] for c in room["calls"]) == list(range(1, 11))
            and [c["note"] for c in sorted(room["calls"], key=lambda c: c["table"])]
            == [f"t{t}" for t in range(1, 11)]
            and (room["announcement"] or {}).get("text") == "Cake at 9"
            and state["bots"] == BOTS
            and state["bot_pace"] == 30
            and state["dice"] == "phones"
        )

    until(lambda: everything_on(a), timeout=10)  # A heard B's changes: it lost none
    until(lambda: everything_on(b), timeout=10)  # and B heard A's
