"""Typed join codes counted per night: a code typed at a night (its pages send the night)
is checked against that night's tables only, and its wrong guesses slow that night alone;
exact under concurrent bursts on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_guessing import _burst as guard_burst
from test_guessing import _guards
from web_helpers import make_night

from bunco.web.app import create_app
from bunco.web.gate.guard import Guard

BUDGETS = {"per_client": "1000/hour", "night_codes": "20/hour", "typed_codes": "20/hour"}


@pytest.fixture
def proxied(any_db_url: str) -> Iterator[TestClient]:
    """The app behind a trusted proxy (so each request may name its client address), with
    small budgets: 20 wrong codes an hour at a night, 20 typed without a night (counted in
    memory on SQLite, in the database on PostgreSQL)."""
    app = create_app(any_db_url, bot_pace=0, trusted_proxies=["testclient"])
    with TestClient(app) as client:
        app.state.guard = Guard(**BUDGETS, storage=app.state.guard.storage)
        yield client


def _join(client: TestClient, address: str, **body: Any) -> int:
    reply = client.post("/api/join", json=body, headers={"x-forwarded-for": address})
    return reply.status_code


def test_a_code_typed_at_a_night_is_checked_against_its_tables_only(client):
    first, second = make_night(client), make_night(client)
    code_a = first.created["tables"][0]["code"]
    code_b = second.created["tables"][1]["code"]
    wrong = client.post("/api/join", json={"code": code_b, "night": first.id})
    assert wrong.status_code == 404
    assert wrong.json()["message"] == "no table of this night has this join code"
    joined = client.post("/api/join", json={"code": code_b.lower(), "night": second.id})
    assert joined.status_code == 200 and joined.json()["night"] == second.id
    assert joined.json()["table"] == 2
    assert client.post("/api/join", json={"code": code_a, "night": first.id}).status_code == 200
    bad = client.post("/api/join", json={"code": code_a, "night": "a/b"})
    assert bad.status_code == 422 and bad.json()["expected"]


def test_a_guesser_at_one_night_slows_no_other_nights_joins(proxied):
    client = proxied
    target, other = make_night(client), make_night(client)
    # twenty addresses spend the target night's budget of wrong codes
    guesses = [_join(client, f"10.4.0.{i}", code="ZZZZZZ", night=target.id) for i in range(20)]
    assert guesses == [404] * 20
    # past it, each address at that night is on the slow path: one attempt every 30 s
    slow = [_join(client, "10.4.0.1", code="ZZZZZZ", night=target.id) for _ in range(3)]
    assert slow == [404, 429, 429]
    code = target.created["tables"][0]["code"]
    assert _join(client, "10.4.1.1", code=code, night=target.id) == 200  # a fresh address
    assert _join(client, "10.4.1.1", code=code, night=target.id) == 429  # then it waits
    # the other night's joins are not slowed, from fresh addresses or the guessers' own
    other_codes = [t["code"] for t in other.created["tables"]]
    for address in ("10.4.2.1", "10.4.0.2"):
        joins = [_join(client, address, code=c, night=other.id) for c in other_codes]
        assert joins == [200] * len(other_codes), address
    # nor are codes typed without a night: the server's budget was not touched
    joins = [_join(client, "10.4.2.1", code=c) for c in other_codes]
    assert joins == [200] * len(other_codes)


def test_codes_typed_without_a_night_slow_no_nights_own_pages(proxied):
    client = proxied
    night = make_night(client)
    guesses = [_join(client, f"10.5.0.{i}", code="ZZZZZZ") for i in range(21)]
    assert guesses == [404] * 20 + [404]  # the server's 20, then the slow path's first
    assert _join(client, "10.5.0.20", code="ZZZZZZ") == 429
    code = night.created["tables"][0]["code"]
    # the night's own pages send the night: its budget is untouched, no slow path
    joins = [_join(client, "10.5.0.20", code=code, night=night.id) for _ in range(3)]
    assert joins == [200, 200, 200]


def test_a_room_sharing_a_guessers_address_still_joins_by_its_qr_links(client, night):
    # the shared address spends its failures (10 a minute), then its slow attempt
    assert [client.post("/api/join", json={"code": "ZZZZZZ"}).status_code for _ in range(11)] == [
        404
    ] * 11
    code = night.created["tables"][0]["code"]
    assert client.post("/api/join", json={"code": code}).status_code == 429  # no oracle
    # a QR link's token is 192 random bits, no guess: it joins at once, every time
    for table in night.created["tables"][:3]:
        reply = client.post("/api/join", json={"token": table["token"]})
        assert reply.status_code == 200 and reply.json()["table"] == table["table"]
    refused = client.post("/api/join", json={"token": "x" * 32})  # a wrong one still waits
    assert refused.status_code == 429 and refused.json()["retry_after"] >= 1


def _burst(client: TestClient, attempts: list[tuple[str, dict[str, Any]]]) -> Counter[int]:
    """The attempts sent at once (24 threads); the count of each status."""
    start = threading.Barrier(24)

    def send(i: int) -> int:
        if i < 24:
            start.wait()
        address, body = attempts[i]
        return _join(client, address, **body)

    with ThreadPoolExecutor(24) as pool:
        return Counter(pool.map(send, range(len(attempts))))


def test_a_concurrent_burst_at_one_night_gets_exactly_its_budget(proxied):
    client = proxied
    target, other = make_night(client), make_night(client)
    # 72 wrong codes at once from six addresses: the night's 20, then one slow attempt
    # per address (never 21 + 6, whatever the interleaving), the rest 429
    wrong = {"code": "ZZZZZZ", "night": target.id}
    counts = _burst(client, [(f"10.6.0.{i % 6}", wrong) for i in range(72)])
    assert counts == Counter({404: 26, 429: 46})
    # meanwhile the other night joined every table at once from those same addresses
    codes = [t["code"] for t in other.created["tables"]]
    counts = _burst(
        client, [(f"10.6.0.{i % 6}", {"code": codes[i % 2], "night": other.id}) for i in range(24)]
    )
    assert counts == Counter({200: 24})


def test_a_concurrent_burst_at_one_night_is_exact_across_processes(any_db_url):
    guards, stores = _guards(any_db_url, 2, per_client="1000/hour", night_codes="50/hour")
    try:
        night = Guard.night_codes("n1")
        # 90 guesses from one address, spread over two processes: 50, then one slow
        assert guard_burst(guards, 90, Guard.client("10.9.1.1"), night) == 51
        # the night's budget is spent; another night's is whole
        assert guards[0].blocked(night) is not None
        assert guards[-1].blocked(Guard.night_codes("n2"), Guard.CODES) is None
    finally:
        for store in stores:
            store.close()
