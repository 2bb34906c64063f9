"""Two real `bunco serve` processes on one PostgreSQL database (skipped without
BUNCO_TEST_PG_URL): what each table's phone reports reaches the host whichever process
the phone and the host talk to (the reports are stored, not kept in one process)."""

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


@pytest.fixture
def servers(tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    with wiped_postgres() as url, two_servers(url, tmp_path) as pair:
        yield pair


def phones(server: ServeProcess, night: str, host: str) -> dict[int, dict[str, Any]]:
    reply = httpx.get(f"{server.base}/api/nights/{night}/phones", headers=bearer(host), timeout=10)
    assert reply.status_code == 200, reply.text
    return {t["table"]: t for t in reply.json()["tables"]}


def test_reports_made_on_two_processes_both_reach_the_host_on_either(servers):
    a, b = servers
    created = httpx.post(
        a.base + "/api/nights", json={"name": "Two processes", "players": EIGHT}, timeout=10
    ).json()
    night, host = created["night"], created["host_token"]
    tokens = {}
    for table, server in ((1, a), (2, b)):  # table 1's phone talks to A, table 2's to B
        joined = httpx.post(
            server.base + "/api/join",
            json={"code": created["tables"][table - 1]["code"]},
            timeout=10,
        )
        tokens[table] = bearer(joined.json()["token"])
    refused = {
        "id": "e-7",
        "label": "Fay: +2",
        "code": "round_closed",
        "message": "round 1 is over at this table",
    }
    one = httpx.post(
        f"{a.base}/api/nights/{night}/tables/1/outbox",
        headers=tokens[1],
        json={"waiting": 3, "oldest_age": 40.0, "mode": "outbox-only"},
        timeout=10,
    )
    two = httpx.post(
        f"{b.base}/api/nights/{night}/tables/2/outbox",
        headers=tokens[2],
        json={"waiting": 0, "refused": [refused], "mode": "outbox-only"},
        timeout=10,
    )
    assert one.status_code == two.status_code == 200, (one.text, two.text)
    for server in (a, b):  # the host's page may be served by either process
        seen = phones(server, night, host)
        assert seen[1]["waiting"] == 3 and seen[1]["oldest_age"] >= 40.0
        assert seen[2]["waiting"] == 0 and [r["id"] for r in seen[2]["refused"]] == ["e-7"]
        assert all(seen[t]["heard_ago"] is not None and seen[t]["heard_ago"] < 60 for t in (1, 2))
        assert seen[1]["mode"] == seen[2]["mode"] == "outbox-only"

    # table 2 sends its refused entry to the host through A: B's host view follows
    sent = httpx.post(
        f"{a.base}/api/nights/{night}/tables/2/set-aside",
        headers=tokens[2],
        json={"command_id": "set-aside-e-7-0001", "entries": [refused]},
        timeout=10,
    )
    assert sent.status_code == 200, sent.text
    assert phones(b, night, host)[2]["refused"] == []
    # a later report on B replaces A's for table 1 on both
    again = httpx.post(
        f"{b.base}/api/nights/{night}/tables/1/outbox",
        headers=tokens[1],
        json={"waiting": 0},
        timeout=10,
    )
    assert again.status_code == 200
    assert phones(a, night, host)[1]["waiting"] == phones(b, night, host)[1]["waiting"] == 0


def test_a_command_id_is_stored_once_whichever_process_and_token_sends_it(servers):
    """A phone's entry whose reply was lost, sent again under a new token of its table
    (it joined again from the QR link) through the other process, is answered with the
    first reply and stored once; the host's retry too."""
    a, b = servers
    created = httpx.post(
        a.base + "/api/nights", json={"name": "Retries", "players": EIGHT}, timeout=10
    ).json()
    night, host = created["night"], created["host_token"]
    code = created["tables"][1]["code"]
    first, again = (
        bearer(httpx.post(s.base + "/api/join", json={"code": code}, timeout=10).json()["token"])
        for s in (a, b)
    )
    body = {"command_id": "lost-reply-0001", "outcome": "+1", "expected_seq": 0}
    path = f"/api/nights/{night}/tables/2/rolls"
    one = httpx.post(a.base + path, headers=first, json=body, timeout=10)
    two = httpx.post(b.base + path, headers=again, json=body, timeout=10)
    three = httpx.post(b.base + path, headers=bearer(host), json=body, timeout=10)
    assert [r.status_code for r in (one, two, three)] == [200, 200, 200]
    assert [r.json()["duplicate"] for r in (one, two, three)] == [False, True, True]
    assert one.json()["seq"] == two.json()["seq"] == three.json()["seq"] == 1
    other = httpx.post(b.base + path, headers=again, json={**body, "outcome": "+2"}, timeout=10)
    assert other.status_code == 409 and other.json()["error"] == "id_reused"
    events = httpx.get(
        f"{a.base}/api/nights/{night}/events?since=-1", headers=bearer(host), timeout=10
    ).json()["events"]
    assert [e["command_id"] for e in events[1:]] == ["lost-reply-0001"]
