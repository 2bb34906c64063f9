"""Every input the docs refuse is refused by the API, on SQLite and PostgreSQL alike, in the
documented shape with ``expected`` filled, and changes nothing (issue 28, item 3 and 8)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import EIGHT, Night, bearer, cid, make_night  # noqa: E402

from bunco.web.app import create_app  # noqa: E402


@pytest.fixture
def api(any_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        yield client


def refused(reply: Any, status: int = 422) -> dict[str, Any]:
    assert reply.status_code == status, reply.text
    body: dict[str, Any] = reply.json()
    assert body["error"] and body["message"] and body["expected"], body
    return body


def create(api: TestClient, **options: Any) -> Any:
    return api.post("/api/nights", json={"name": "N", "players": EIGHT, **options})


@pytest.mark.parametrize(
    "money",
    [
        {"buy_in": "1e30"},
        {"buy_in": 10**40},
        {"buy_in": 10**26},
        {"carried_over": "1e30"},
        {"buy_in": "5", "carried_over": 10**40},
        {"buy_in": "1E+999999999"},
    ],
)
def test_amounts_out_of_range_are_refused_at_night_creation(api: TestClient, money: Any) -> None:
    body = refused(create(api, money={"currency": "$", **money}))
    assert "range" in body["message"] or "not an amount" in body["message"]


@pytest.mark.parametrize(
    "options",
    [
        {"judged": ["Best\x00Costume"]},
        {"judged": ["Best\nCostume"]},
        {"money": {"currency": "$\x00", "buy_in": "5"}},
        {"money": {"currency": "\n", "buy_in": "5"}},
        {"house_rules": {"team_target": 21.5}},
        {"house_rules": {"team_target": "21"}},
        {"house_rules": {"team_target": 10**400}},
        {"house_rules": {"mini_label": "Mini\x00"}},
    ],
)
def test_texts_and_numbers_the_docs_refuse_are_refused(api: TestClient, options: Any) -> None:
    refused(create(api, **options))


@pytest.mark.parametrize("name", ["Ann\u202e", "Ann\u200b", "\ufeffAnn", "Ann\x00", "A\u2066nn"])
def test_names_with_invisible_or_bidi_characters_are_refused(api: TestClient, name: str) -> None:
    refused(create(api, players=[name, *EIGHT[1:]]))


@pytest.mark.parametrize("twin", ["ANN", "\u0410nn", "\uff21nn", "\uff21\uff2e\uff2e"])
def test_look_alike_names_are_one_person(api: TestClient, twin: str) -> None:
    body = refused(create(api, players=[*EIGHT, twin]))
    assert "same name" in body["message"]


def test_a_late_arrival_with_a_look_alike_name_is_refused(api: TestClient) -> None:
    night = make_night(api)
    reply = api.post(
        night.url("/arrivals"), json={"command_id": cid(), "player": "\u0410NN"}, headers=night.host
    )
    assert refused(reply, 409)["error"] == "name_taken"
    event = {"type": "join", "player": "\uff21nn"}  # the escape hatch: the engine's own check
    reply = api.post(
        night.url("/events"), json={"command_id": cid(), "event": event}, headers=night.host
    )
    assert reply.status_code in (409, 422), reply.text
    assert "same name" in refused(reply, reply.status_code)["message"]
    assert night.seq() == 0


def test_names_are_stored_in_their_one_spelling(api: TestClient) -> None:
    night = make_night(api, players=["Jose\u0301", *EIGHT[1:]])
    assert night.log()[0]["players"][0] == "Jos\u00e9"
    reply = night.roll(1, [2, 3, 4], player="Jose\u0301")  # the same spelling, once normalised
    assert reply.status_code == 200, reply.text
    assert reply.json()["entry"]["player"] == "Jos\u00e9"


@pytest.mark.parametrize("table", ["1.0", "+1", "1e0", "%201", "0x1"])
def test_table_numbers_in_paths_are_digits_only(api: TestClient, table: str) -> None:
    night = make_night(api)
    reply = api.post(
        night.url(f"/tables/{table}/rolls"),
        json={"command_id": cid(), "dice": [1, 2, 3]},
        headers=night.host,
    )
    refused(reply)
    assert night.seq() == 0  # nothing applied at table 1
    assert night.roll(1, [1, 2, 3]).status_code == 200


def test_a_co_host_name_with_nul_is_refused(api: TestClient) -> None:
    night = make_night(api)
    refused(api.post(night.url("/cohosts"), json={"name": "Bea\x00"}, headers=night.host))
    refused(api.post(night.url("/cohosts"), json={"name": "Bea\u202e"}, headers=night.host))
    added = api.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host)
    assert added.status_code == 201, added.text


def test_a_body_that_is_not_utf8_is_refused_with_what_was_expected(api: TestClient) -> None:
    night: Night = make_night(api)
    headers = {**night.host, "content-type": "application/json"}
    for path in ("/api/nights", night.url("/tables/1/undo"), night.url("/tables/1/rolls")):
        reply = api.post(path, content=b'{"command_id": "\xff"}', headers=headers)
        assert reply.status_code in (400, 422), reply.text
        assert reply.json()["expected"]


def _club(api: TestClient, **options: Any) -> Any:
    return api.post(
        "/api/clubs",
        json={"name": "Tuesday", "dues": "5", "regulars": ["Ann", "Bea", "Cat", "Dee"], **options},
    )


@pytest.mark.parametrize("dues", ["1e30", 10**40, 10**26])
def test_club_dues_out_of_range_are_refused(api: TestClient, dues: Any) -> None:
    refused(_club(api, dues=dues))


def test_club_members_that_are_one_person_are_refused(api: TestClient) -> None:
    refused(_club(api, regulars=["Ann", "ANN", "Bea"]))
    made = _club(api)
    assert made.status_code == 201, made.text
    club = made.json()
    auth = bearer(club["token"])
    url = f"/api/clubs/{club['club']}"
    refused(api.post(f"{url}/members", json={"name": "\u0410nn"}, headers=auth))
    changed = api.post(f"{url}/members", json={"name": "Ann", "role": "substitute"}, headers=auth)
    assert changed.status_code == 200, changed.text  # the very same name changes role
    night = api.post(f"{url}/nights", json={}, headers=auth)
    assert night.status_code == 201, night.text


@pytest.mark.parametrize(
    "payment",
    [
        {"player": "Zed", "amount": "5"},
        {"player": "Ann", "amount": "1e30"},
        {"player": "Ann", "amount": 10**40},
        {"player": "Ann", "amount": "5", "note": "x\x00"},
    ],
)
def test_club_payments_the_docs_refuse_are_refused(api: TestClient, payment: Any) -> None:
    club = _club(api).json()
    auth = bearer(club["token"])
    url = f"/api/clubs/{club['club']}"
    refused(api.post(f"{url}/payments", json=payment, headers=auth))
    ledger = api.get(f"{url}/ledger", headers=auth)
    assert ledger.status_code == 200, ledger.text
    assert ledger.json()["totals"]["dues_paid"] == "0.00"  # nothing was recorded
    assert [m["player"] for m in ledger.json()["members"]] == ["Ann", "Bea", "Cat", "Dee"]
    paid = api.post(f"{url}/payments", json={"player": "Ann", "amount": "5"}, headers=auth)
    assert paid.status_code == 200, paid.text
    assert paid.json()["totals"]["dues_paid"] == "5.00"


@pytest.mark.parametrize(
    "path",
    [
        "/api/nights/a%00b",
        "/api/nights/a%00b/standings",
        "/api/nights/a%0Ab/export/log.jsonl",
        "/api/clubs/a%00b",
    ],
)
def test_ids_in_paths_with_nul_or_newline_are_refused_not_a_500(api: TestClient, path: str) -> None:
    refused(api.get(path, headers=bearer("x")))
