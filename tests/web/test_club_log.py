"""The club's log through one door (bunco.web.club.log), on SQLite and PostgreSQL: a
command sent again after its reply was lost is applied once (same ``Idempotency-Key``),
a command that fails halfway stores nothing, a command decided on a club that moved on
meanwhile is decided again on the club as it is, two servers writing at once lose nothing,
and two servers' clocks record a deadline once."""

from __future__ import annotations

import asyncio
import threading
import warnings
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import bearer  # noqa: E402

from bunco.club.load import fold_club  # noqa: E402
from bunco.store import ClubStore  # noqa: E402
from bunco.store import clubs as club_rows  # noqa: E402
from bunco.web.api import club as api_club  # noqa: E402
from bunco.web.app import create_app  # noqa: E402
from bunco.web.club.notify import ClubNotifier  # noqa: E402

FOUR = ["Ann", "Bea", "Cat", "Dee"]


@pytest.fixture
def any_client(any_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(any_db_url, bot_pace=0)) as c:
        yield c


def make_club(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/clubs", json={"name": "Tuesday Club", "dues": "5", "regulars": FOUR})
    assert made.status_code == 201, made.text
    return made.json()["club"], bearer(made.json()["token"])


def store_of(client: TestClient) -> ClubStore:
    return ClubStore(client.app.state.service.store.engine)  # type: ignore[attr-defined]


def log_of(client: TestClient, club: str, kind: str | None = None) -> list[dict[str, Any]]:
    log = store_of(client).events(club)
    return [e for e in log if kind is None or e["type"] == kind]


def paid(reply: Any, player: str) -> str:
    return str(next(m["paid"] for m in reply.json()["members"] if m["player"] == player))


def test_a_payment_sent_again_after_its_reply_was_lost_is_kept_once(
    any_client: TestClient,
) -> None:
    club, org = make_club(any_client)
    seq = store_of(any_client).seq(club)
    pay = {"player": "Ann", "amount": "5"}
    first = any_client.post(
        f"/api/clubs/{club}/payments", json=pay, headers={**org, "Idempotency-Key": "pay-1"}
    )
    again = any_client.post(
        f"/api/clubs/{club}/payments", json=pay, headers={**org, "Idempotency-Key": "pay-1"}
    )
    assert first.status_code == again.status_code == 200
    assert paid(first, "Ann") == paid(again, "Ann") == "5.00"
    assert first.json() == again.json()
    assert len(log_of(any_client, club, "payment")) == 1
    assert store_of(any_client).seq(club) == (seq or 0) + 1
    other = any_client.post(
        f"/api/clubs/{club}/payments", json=pay, headers={**org, "Idempotency-Key": "pay-2"}
    )
    assert paid(other, "Ann") == "10.00" and len(log_of(any_client, club, "payment")) == 2
    bare = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=org)
    assert paid(bare, "Ann") == "15.00"  # without a key, each request is a command of its own


def test_a_request_of_two_commands_sent_again_adds_the_member_once(
    any_client: TestClient,
) -> None:
    """Adding a member is two commands (the member, then their link): the retry finds
    both taken (``key#1``, ``key#2``) and answers as the first try did."""
    club, org = make_club(any_client)
    headers = {**org, "Idempotency-Key": "add-eve"}
    body = {"name": "Eve", "role": "substitute"}
    first = any_client.post(f"/api/clubs/{club}/members", json=body, headers=headers)
    again = any_client.post(f"/api/clubs/{club}/members", json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert [e["name"] for e in log_of(any_client, club, "member")] == [*FOUR, "Eve"]
    eve_links = [e["for"] for e in log_of(any_client, club, "link") if e["subject"] == "Eve"]
    assert eve_links == ["member", "calendar"]  # her page's link and her calendar's, once
    assert store_of(any_client).command(club, "add-eve#2") is not None


def test_a_club_night_sent_again_makes_one_night_with_the_same_tokens(
    any_client: TestClient,
) -> None:
    club, org = make_club(any_client)
    headers = {**org, "Idempotency-Key": "night-of-13-jan"}
    body = {"date": "2026-01-13"}
    first = any_client.post(f"/api/clubs/{club}/nights", json=body, headers=headers)
    again = any_client.post(f"/api/clubs/{club}/nights", json=body, headers=headers)
    assert first.status_code == again.status_code == 201, again.text
    assert first.json()["night"] == again.json()["night"]
    assert first.json()["host_token"] == again.json()["host_token"]
    assert [e["night"] for e in log_of(any_client, club, "night")] == [first.json()["night"]]
    nights = any_client.app.state.service.store.nights()  # type: ignore[attr-defined]
    assert [n.id for n in nights] == [first.json()["night"]]
    # without the key it is another night, refused while the first is not over
    busy = any_client.post(f"/api/clubs/{club}/nights", json=body, headers=org)
    assert busy.status_code == 422 and busy.json()["error"] == "night_open"


def test_a_club_made_again_with_the_same_key_is_one_club(any_client: TestClient) -> None:
    """The page's creation sent again after its reply was lost (same ``Idempotency-Key``):
    one club, answered with the same id, token and recovery code (which opens it); the
    same key with another request is refused; a key too short to stand for the club's
    secrets is refused; without a key, each request makes a club."""
    body = {"name": "Tuesday Club", "dues": "5", "regulars": FOUR}
    key = {"Idempotency-Key": "0b7d3c1e-9f2a-4c5b-8e6d-7a1f2b3c4d5e"}
    first = any_client.post("/api/clubs", json=body, headers=key)
    again = any_client.post("/api/clubs", json=body, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert first.json() == again.json()
    club = first.json()["club"]
    assert store_of(any_client).ids() == [club]
    assert [e["name"] for e in log_of(any_client, club, "member")] == FOUR  # stored once
    assert len(log_of(any_client, club, "recovery")) == 1
    back = any_client.post(
        f"/api/clubs/{club}/recover", json={"code": again.json()["recovery_code"]}
    )
    assert back.status_code == 200 and back.json()["token"] == first.json()["token"]
    opened = any_client.get(f"/api/clubs/{club}", headers=bearer(again.json()["token"]))
    assert opened.status_code == 200 and opened.json()["name"] == "Tuesday Club"

    other = any_client.post("/api/clubs", json={**body, "dues": "6"}, headers=key)
    assert other.status_code == 409 and other.json()["error"] == "id_reused"
    short = any_client.post("/api/clubs", json=body, headers={"Idempotency-Key": "club-1"})
    assert short.status_code == 422 and short.json()["error"] == "invalid_idempotency_key"
    assert "at least 16 characters" in short.json()["expected"]
    assert store_of(any_client).ids() == [club]
    plain = [any_client.post("/api/clubs", json=body).json()["club"] for _ in range(2)]
    assert len({club, *plain}) == 3 and len(store_of(any_client).ids()) == 3


def test_a_new_recovery_code_sent_again_shows_the_code_kept(any_client: TestClient) -> None:
    """The organizer's new recovery code, its reply lost and sent again with its key: the
    same code (the one stored), one ``recovery`` event, and the code opens the club."""
    club, org = make_club(any_client)
    headers = {**org, "Idempotency-Key": "new-code-1"}
    first = any_client.post(f"/api/clubs/{club}/recovery", headers=headers)
    again = any_client.post(f"/api/clubs/{club}/recovery", headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json()["code"] == again.json()["code"]
    assert len(log_of(any_client, club, "recovery")) == 2  # the club's first, and this one
    back = any_client.post(f"/api/clubs/{club}/recover", json={"code": again.json()["code"]})
    assert back.status_code == 200 and bearer(back.json()["token"]) == org
    other = any_client.post(
        f"/api/clubs/{club}/recovery", headers={**org, "Idempotency-Key": "new-code-2"}
    )
    assert other.json()["code"] != first.json()["code"]


def test_a_command_that_fails_halfway_stores_nothing(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A member's new link is one command of two events (the link and its calendar
    link): the store failing at the second keeps neither; the retry stores both. A club
    whose creation fails at its tenth event is not there at all."""
    club, org = make_club(any_client)
    before = log_of(any_client, club)
    real_dump = club_rows.dump
    calls: list[int] = []

    def fail_at(n: int) -> None:
        calls.clear()

        def dump(event: dict[str, Any]) -> str:
            calls.append(1)
            if len(calls) == n:
                raise OSError("the disk is full")
            return real_dump(event)

        monkeypatch.setattr(club_rows, "dump", dump)

    headers = {**org, "Idempotency-Key": "new-link-ann"}
    fail_at(2)
    with pytest.raises(OSError, match="disk is full"):
        any_client.post(f"/api/clubs/{club}/links/member", json={"name": "Ann"}, headers=headers)
    monkeypatch.setattr(club_rows, "dump", real_dump)
    assert log_of(any_client, club) == before
    assert store_of(any_client).seq(club) == len(before) - 1
    done = any_client.post(f"/api/clubs/{club}/links/member", json={"name": "Ann"}, headers=headers)
    assert done.status_code == 200, done.text
    assert [e["type"] for e in log_of(any_client, club)[len(before) :]] == ["link", "link"]

    fail_at(10)
    with pytest.raises(OSError, match="disk is full"):
        any_client.post("/api/clubs", json={"name": "Half Club", "regulars": [*FOUR, "Eve", "Fay"]})
    monkeypatch.setattr(club_rows, "dump", real_dump)
    assert store_of(any_client).ids() == [club]
    assert store_of(any_client).club_by_name("Half Club") is None


def test_a_command_decided_on_a_club_that_moved_on_is_decided_again_on_it(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another server stores a payment between this request's read of the club and its
    write: this one is decided again on the club as it is now and kept once (no 409:
    nobody has to send it again); sent again with its key, nothing more is kept."""
    club, org = make_club(any_client)
    store = store_of(any_client)
    real_load = api_club.load

    async def load_then_another_server_writes(*args: Any, **kwargs: Any) -> Any:
        got = await real_load(*args, **kwargs)
        bea = [{"type": "payment", "player": "Bea", "amount": "2"}]
        await asyncio.to_thread(store.record, club, bea, got.club.seq)
        return got

    monkeypatch.setattr(api_club, "load", load_then_another_server_writes)
    headers = {**org, "Idempotency-Key": "pay-ann"}
    pay = {"player": "Ann", "amount": "5"}
    late = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    assert late.status_code == 200, late.text
    assert (paid(late, "Ann"), paid(late, "Bea")) == ("5.00", "2.00")  # the club as it is
    assert [e["player"] for e in log_of(any_client, club, "payment")] == ["Bea", "Ann"]
    done = store.command(club, "pay-ann#1")
    assert done is not None and done.seq == store.seq(club)
    monkeypatch.setattr(api_club, "load", real_load)
    again = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    assert again.status_code == 200 and again.json() == late.json()
    assert [e["player"] for e in log_of(any_client, club, "payment")] == ["Bea", "Ann"]


def test_two_servers_writing_at_once_lose_nothing(any_db_url: str) -> None:
    """Two apps on one database (two server processes' share of it), each sending 30
    payments from its own thread (a payment the other stored first is decided again by
    the server; one still refused with 409 after every try is sent again with its key, as
    a page does): every payment kept once, the ledger's totals exact."""
    apps = [TestClient(create_app(any_db_url, bot_pace=0)) for _ in range(2)]
    with apps[0] as first, apps[1] as second:
        club, org = make_club(first)
        per_server, conflicts = 30, []

        def pay(client: TestClient, who: str) -> None:
            for n in range(per_server):
                headers = {**org, "Idempotency-Key": f"{who}-{n}"}
                while True:
                    reply = client.post(
                        f"/api/clubs/{club}/payments",
                        json={"player": who, "amount": "1"},
                        headers=headers,
                    )
                    if reply.status_code != 409:
                        assert reply.status_code == 200, reply.text
                        break
                    conflicts.append(who)

        threads = [
            threading.Thread(target=pay, args=(first, "Ann")),
            threading.Thread(target=pay, args=(second, "Bea")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ledger = second.get(f"/api/clubs/{club}/ledger", headers=org)
        assert (paid(ledger, "Ann"), paid(ledger, "Bea")) == ("30.00", "30.00")
        assert ledger.json()["totals"]["dues_paid"] == "60.00"
        payments = log_of(first, club, "payment")
        assert len(payments) == 2 * per_server == 60
        log = log_of(first, club)
        assert store_of(first).seq(club) == len(log) - 1
        print(f"\n{len(conflicts)} payments refused with 409 and sent again")


def test_two_servers_clocks_record_a_deadline_once(any_client: TestClient) -> None:
    """Two servers' clocks read the club at the same moment and find the same answers'
    deadline passed: one records it, the other reads the club again and finds it done."""
    club, org = make_club(any_client)
    plan = {"date": "2026-03-10", "deadline": "2026-03-07T18:00"}
    notifier = any_client.app.state.club_notifier  # type: ignore[attr-defined]
    notifier.now = lambda: datetime(2026, 3, 1, 9, 0).astimezone()
    assert any_client.post(f"/api/clubs/{club}/plans", json=plan, headers=org).status_code == 201
    store = store_of(any_client)
    read_at_once = fold_club(store.events(club))
    later = datetime(2026, 3, 7, 18, 0).astimezone() + timedelta(hours=1)
    clocks = [ClubNotifier(store.engine, now=lambda: later) for _ in range(2)]

    async def both() -> list[Any]:
        done = [await clock.keep_time(club, read_at_once) for clock in clocks]
        for clock in clocks:
            await clock.drain()
        return done

    after = asyncio.run(both())
    assert [e["date"] for e in log_of(any_client, club, "deadline_passed")] == ["2026-03-10"]
    assert after[0].seq == after[1].seq == store.seq(club)
