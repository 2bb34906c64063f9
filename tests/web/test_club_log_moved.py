"""A request's club command whose club moves on underneath it (bunco.web.club.log,
``decide_and_record``), on SQLite and PostgreSQL: another command is really stored
between the route's decision and its write (the store's compare-and-set then refuses
the write, as it does when another phone, process or the server's own notices came
first). The route's decision is made again on the club as it is now, its checks
included: kept once when it still holds, refused with the check's own reason when it
no longer does, and 409 ``club_changed`` only for a club that moves on at every try."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Collection, Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import bearer  # noqa: E402

from bunco.store import ClubCommand, ClubStore  # noqa: E402
from bunco.web.app import create_app  # noqa: E402
from bunco.web.club.log import TRIES  # noqa: E402

FOUR = ["Ann", "Bea", "Cat", "Dee"]
Other = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def any_client(any_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(any_db_url, bot_pace=0)) as c:
        yield c


def make_club(client: TestClient, **more: Any) -> tuple[str, dict[str, str]]:
    body = {"name": "Tuesday Club", "dues": "5", "regulars": FOUR, **more}
    made = client.post("/api/clubs", json=body)
    assert made.status_code == 201, made.text
    return made.json()["club"], bearer(made.json()["token"])


def store_of(client: TestClient) -> ClubStore:
    return ClubStore(client.app.state.service.store.engine)  # type: ignore[attr-defined]


def log_of(client: TestClient, club: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in store_of(client).events(club) if e["type"] == kind]


def paid(reply: Any, player: str) -> str:
    return str(next(m["paid"] for m in reply.json()["members"] if m["player"] == player))


def others_first(
    monkeypatch: pytest.MonkeyPatch,
    key: str,
    other: Other,
    at: Collection[int] = (1,),
    every: bool = False,
) -> list[int]:
    """Before the writes of the request keyed ``key`` (those counted in ``at``, 1 the
    first; ``every``: all of them), another command is stored for real (``other()``'s events, at the club's
    seq): the request's write, decided on the club before it, then meets the store's
    compare-and-set. Returns the seqs the request's tries were decided on."""
    real = ClubStore.record
    tries: list[int] = []

    def record(
        self: ClubStore,
        club_id: str,
        events: Any,
        based_on: int,
        command_id: str | None = None,
    ) -> ClubCommand:
        if command_id is not None and command_id.startswith(f"{key}#"):
            tries.append(based_on)
            if every or len(tries) in at:
                seq = self.seq(club_id)
                assert seq is not None
                real(self, club_id, other(), seq)  # another phone's change, stored first
        return real(self, club_id, events, based_on, command_id)

    monkeypatch.setattr(ClubStore, "record", record)
    return tries


def bea_pays() -> list[dict[str, Any]]:
    return [{"type": "payment", "player": "Bea", "amount": "2"}]


def test_a_payment_whose_club_moved_once_is_kept_once_on_the_club_as_it_is(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bea's payment is stored between the decision on Ann's and its write: Ann's is
    decided again on the club with Bea's, and kept once. Sent again with the same key
    (its reply lost), it is answered as the first try left the club, nothing kept twice."""
    club, org = make_club(any_client)
    store = store_of(any_client)
    start = store.seq(club)
    assert start is not None
    tries = others_first(monkeypatch, "pay-ann", bea_pays)
    headers = {**org, "Idempotency-Key": "pay-ann"}
    pay = {"player": "Ann", "amount": "5"}
    first = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    assert first.status_code == 200, first.text
    assert tries == [start, start + 1]  # decided on the club, then on the club with Bea's
    assert (paid(first, "Ann"), paid(first, "Bea")) == ("5.00", "2.00")
    assert [e["player"] for e in log_of(any_client, club, "payment")] == ["Bea", "Ann"]
    done = store.command(club, "pay-ann#1")
    assert done is not None and (done.based_on, done.seq) == (start + 1, start + 2)

    again = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    assert again.status_code == 200 and again.json() == first.json()
    assert tries == [start, start + 1]  # a retry stores nothing: no write at all
    assert [e["player"] for e in log_of(any_client, club, "payment")] == ["Bea", "Ann"]
    assert store.seq(club) == start + 2


def test_a_request_of_two_commands_whose_club_moved_adds_the_member_once(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding a member is two commands (``key#1`` the member, ``key#2`` their links):
    each meets a club moved on, each is decided again, and the retry adds nothing."""
    club, org = make_club(any_client)
    tries = others_first(monkeypatch, "add-eve", bea_pays, at=(1, 3))
    headers = {**org, "Idempotency-Key": "add-eve"}
    body = {"name": "Eve", "role": "substitute"}
    first = any_client.post(f"/api/clubs/{club}/members", json=body, headers=headers)
    assert first.status_code == 200, first.text
    assert len(tries) == 4  # each command twice: moved once, then stored
    again = any_client.post(f"/api/clubs/{club}/members", json=body, headers=headers)
    assert again.status_code == 200 and again.json() == first.json()
    assert [e["name"] for e in log_of(any_client, club, "member")] == [*FOUR, "Eve"]
    eve = [e["for"] for e in log_of(any_client, club, "link") if e["subject"] == "Eve"]
    assert eve == ["member", "calendar"]
    assert len(log_of(any_client, club, "payment")) == 2


def member_token(client: TestClient, club: str, org: dict[str, str], name: str) -> str:
    links = client.get(f"/api/clubs/{club}/links", headers=org).json()["members"]
    url = next(m["url"] for m in links if m["name"] == name)
    return parse_qs(urlparse(url).query)["token"][0]


def test_an_answer_for_a_night_cancelled_meanwhile_is_refused_for_that(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cat answers yes for 10 March on her page while the organizer cancels that night:
    decided again on the club as it is, her answer is refused because the night is
    cancelled (422, the club's own reason), and nothing of it is stored."""
    club, org = make_club(any_client)
    plan = any_client.post(f"/api/clubs/{club}/plans", json={"date": "2099-03-10"}, headers=org)
    assert plan.status_code == 201, plan.text
    cat = bearer(member_token(any_client, club, org, "Cat"))
    store = store_of(any_client)
    tries = others_first(
        monkeypatch, "cat-yes", lambda: [{"type": "cancel_plan", "date": "2099-03-10"}]
    )
    answer = {"date": "2099-03-10", "answer": "yes"}
    late = any_client.post(
        f"/api/clubs/{club}/me/rsvp", json=answer, headers={**cat, "Idempotency-Key": "cat-yes"}
    )
    assert late.status_code == 422, late.text
    assert late.json()["error"] == "invalid_setup"
    assert late.json()["message"] == "the night of 2099-03-10 is cancelled"
    assert len(tries) == 1  # the second decision refused it: no second write
    assert log_of(any_client, club, "rsvp") == []
    assert [e["date"] for e in log_of(any_client, club, "cancel_plan")] == ["2099-03-10"]
    assert store.command(club, "cat-yes#1") is None


def test_a_route_check_runs_again_on_the_club_as_it_is(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A night planned with an answers' deadline of 19:00, the club's time, at 18:30 UTC:
    still to come in UTC, the club's zone when the route read it. Its zone becomes
    Berlin's meanwhile (19:00 there is 18:00 UTC): decided again, the route's own check
    refuses the deadline as passed, and the plan is not stored."""
    club, org = make_club(any_client, timezone="UTC")
    notifier = any_client.app.state.club_notifier  # type: ignore[attr-defined]
    notifier.now = lambda: datetime(2099, 3, 7, 18, 30, tzinfo=UTC)
    others_first(monkeypatch, "plan-march", lambda: [{"type": "timezone", "zone": "Europe/Berlin"}])
    plan = {"date": "2099-03-10", "deadline": "2099-03-07T19:00"}
    late = any_client.post(
        f"/api/clubs/{club}/plans", json=plan, headers={**org, "Idempotency-Key": "plan-march"}
    )
    assert late.status_code == 422, late.text
    assert late.json()["message"] == "the answers' deadline 2099-03-07T19:00 has passed already"
    assert log_of(any_client, club, "plan") == []
    assert [e["zone"] for e in log_of(any_client, club, "timezone")] == ["Europe/Berlin"]


def test_a_club_that_moves_at_every_try_refuses_with_409_and_keeps_nothing(
    any_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another payment comes first at each of the tries: 409 ``club_changed`` in plain
    words, nothing of Ann's kept; sent again once the club is quiet, it is kept once."""
    club, org = make_club(any_client)
    store = store_of(any_client)
    tries = others_first(monkeypatch, "pay-ann", bea_pays, every=True)
    headers = {**org, "Idempotency-Key": "pay-ann"}
    pay = {"player": "Ann", "amount": "5"}
    late = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    assert late.status_code == 409, late.text
    assert late.json()["error"] == "club_changed"
    assert late.json()["message"] == (
        "Tuesday Club changed while this was being saved (someone else saved a change at the "
        "same moment): nothing of this was kept"
    )
    assert len(tries) == TRIES == len(log_of(any_client, club, "payment"))
    assert {e["player"] for e in log_of(any_client, club, "payment")} == {"Bea"}
    assert store.command(club, "pay-ann#1") is None
    monkeypatch.undo()
    done = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    again = any_client.post(f"/api/clubs/{club}/payments", json=pay, headers=headers)
    assert done.status_code == again.status_code == 200
    assert paid(again, "Ann") == "5.00" and paid(again, "Bea") == f"{2 * TRIES}.00"
