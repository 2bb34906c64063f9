"""Two real `bunco serve` processes on one PostgreSQL database (skipped without
BUNCO_TEST_PG_URL): the host enters a table's score from the paper through one process,
and the other refuses that table's phone's entries of the round saying so, and shows the
same cards (the paper is an event of the night's log, not a process's memory)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_helpers import bearer

from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, two_servers

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)]
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
PAPER = {"Eve": 6, "Fay": 23, "Gus": 2, "Hal": 1}


@pytest.fixture
def servers(tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    with wiped_postgres() as url, two_servers(url, tmp_path) as pair:
        yield pair


def post(server: ServeProcess, path: str, token: dict[str, str], body: dict[str, Any]) -> Any:
    return httpx.post(server.base + path, headers=token, json=body, timeout=10)


def test_the_paper_entered_on_one_process_holds_on_the_other(servers):
    a, b = servers
    created = httpx.post(
        a.base + "/api/nights", json={"name": "Paper", "players": EIGHT}, timeout=10
    ).json()
    night, host = created["night"], bearer(created["host_token"])
    base = f"/api/nights/{night}"
    code = created["tables"][1]["code"]
    phone = bearer(
        httpx.post(b.base + "/api/join", json={"code": code}, timeout=10).json()["token"]
    )
    table = httpx.get(f"{b.base}{base}/tables/2", headers=phone, timeout=10).json()
    where = {
        "set": 1,
        "round": 1,
        "table": 2,
        "roller": table["view"]["table"]["roller"],
        "based_on": max(table["versions"].get("night", 0), table["versions"].get("2", 0)),
        "stage": "playing",
        "at": "2026-11-27T20:00:00.000Z",
    }
    for n in range(11):  # the head table to the bell, through A
        assert post(a, f"{base}/tables/1/rolls", host, {"command_id": f"h{n}", "outcome": "+2"})
    ended = post(a, f"{base}/tables/1/rolls", host, {"command_id": "h-end", "outcome": "miss"})
    assert ended.status_code == 200, ended.text
    state = httpx.get(f"{b.base}{base}", headers=host, timeout=10).json()
    table = state["view"]["tables"][1]  # nothing of table 2 reached the server: 0-0
    assert state["status"]["round"] == 1 and table["status"] == "tie_break"
    # the host enters table 2's score from the paper through B (after the bell, at a
    # table that has not settled) ...
    body = {"command_id": "paper-2", "points": PAPER, "buncos": {"Fay": 1}}
    paper = post(b, f"{base}/tables/2/go-on", host, body)
    assert paper.status_code == 200, paper.text
    # ... and A refuses the phone's entry of round 1, saying why
    late = post(
        a,
        f"{base}/tables/2/rolls",
        phone,
        {
            "command_id": "late-1",
            "outcome": "+1",
            "tapped": where,
            "expected_seq": where["based_on"],
        },
    )
    assert late.status_code == 409 and late.json()["cause"] == "paper", late.text
    for server in (a, b):
        fay = httpx.get(f"{server.base}{base}/players/Fay/card", headers=host, timeout=10).json()
        assert (fay["card"]["wins"], fay["card"]["buncos"], fay["card"]["points"]) == (1, 1, 23)
        round_two = httpx.get(f"{server.base}{base}", headers=host, timeout=10).json()
        assert round_two["status"]["round"] == 2
        last = round_two["view"]["last_round"]["tables"][1]
        assert last["team_scores"] == [8, 24] and last["winners"] == ["Fay", "Hal"]
