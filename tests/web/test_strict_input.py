"""What the API takes, held strictly (issue 38, items 5 to 9): one check for every text a
client sends, look-alike names refused with the name they collide with, the door route
that tells nothing, U+2028 never raw in the party log, numbers as documented, each key
once in a body."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import EIGHT, Night, cid, make_night

from bunco.web.app import create_app

LOOK_ALIKES = ["A nn", "An\ufe0fn", "\u13aann", "\u1d00nn", "A\u0578\u0578", "\u0391NN", "ANN"]
"""Each drawn like "Ann": an inner space, an invisible variation selector, Cherokee Ꭺ,
small capital ᴀ, Armenian ո, Greek capitals, capitals."""
BAD_TEXTS = {
    "A\u0000B": "control characters",
    "A\u202eB": "turns the text's direction",
    "A\u2028B": "line or paragraph separator",
    "A\u2029B": "line or paragraph separator",
    "\u200b": "invisible format character",
    "\u3164\u2800": "nothing visible",
    "A\u00adB": "invisible format character",
}


def _routes_with_bodies(client: TestClient) -> list[tuple[str, str]]:
    doc = client.get("/openapi.json").json()
    return [
        (method, path.replace("{night_id}", "n1").replace("{club_id}", "c1"))
        for path, operations in doc["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    ]


def test_every_text_of_every_body_goes_through_the_one_check(client):
    """Whatever the route (and before its token is looked at), a text the checker refuses
    is a 422 that says which text and what is wrong with it."""
    routes = _routes_with_bodies(client)
    assert len(routes) > 40
    for method, path in routes:
        for bad, why in BAD_TEXTS.items():
            path_now = path.replace("{", "").replace("}", "")  # any value: the body is first
            body = {"command_id": "c-1", "deep": [{"text": bad}]}
            reply = client.request(method, path_now, json=body)
            assert reply.status_code == 422, (method, path, bad, reply.text)
            detail = reply.json()["details"][0]
            assert detail["where"] == "deep.0.text" and why in detail["message"], reply.text


def test_announcements_currencies_and_reasons_refuse_what_the_checker_refuses(client, night):
    for bad, why in BAD_TEXTS.items():
        text = bad if why == "nothing visible" else f"Break {bad}"
        said = client.post(
            night.url("/announcements"),
            json={"command_id": cid(), "text": text},
            headers=night.host,
        )
        assert said.status_code == 422, (bad, said.text)
    assert client.get(night.url("/room"), headers=night.viewer).json()["announcement"] is None
    emoji = client.post(
        night.url("/announcements"),
        json={"command_id": cid(), "text": "Pizza is here 🍕 👩\u200d🍳"},
        headers=night.host,
    )
    assert emoji.status_code == 200, emoji.text  # a joiner inside an emoji is no trick
    for currency in ("\u200b", " \ufe0f ", "$\u2028"):
        made = client.post(
            "/api/nights", json={"players": EIGHT, "money": {"currency": currency, "buy_in": "5"}}
        )
        assert made.status_code == 422, (currency, made.text)


@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_look_alike_names_are_refused_at_creation_and_as_late_arrivals(client, look_alike):
    made = client.post("/api/nights", json={"players": ["Ann", look_alike, "Bea", "Cat"]})
    assert made.status_code == 422, made.text
    said = made.json()["message"]
    assert "'Ann'" in said and ("same name" in said or "drawn as 'Ann'" in said), said
    night = make_night(client, ["Ann", "Bea", "Cat", "Dee"])
    late = client.post(
        night.url("/arrivals"),
        json={"command_id": cid(), "player": look_alike},
        headers=night.host,
    )
    if "\ufe0f" in look_alike:  # an invisible character in a name is refused outright
        assert late.status_code == 422 and "drawn as 'Ann'" in late.json()["message"], late.text
    else:
        assert late.status_code == 409 and late.json()["error"] == "name_taken", late.text
        assert "'Ann'" in late.json()["message"]
    assert night.seq() == 0


def test_names_that_only_look_different_from_afar_still_play():
    """Distinct names stay distinct: accents, one letter more, another letter."""
    with TestClient(create_app("sqlite://", bot_pace=0)) as client:
        made = client.post(
            "/api/nights",
            json={"players": ["Ann", "Anne", "Zoë", "Zoe", "Eli", "Ell", "Ian", "Al"]},
        )
        assert made.status_code == 201, made.text


def test_the_door_route_answers_alike_for_no_night_and_no_card_and_counts_misses(client, night):
    card = "a" * 16
    no_card = client.get(night.url(f"/door/{card}"))
    no_night = client.get(f"/api/nights/NoSuchNight/door/{card}")
    assert no_card.status_code == no_night.status_code == 404
    assert no_card.json() == no_night.json()
    statuses = [client.get(f"/api/nights/n{i}/door/{card}").status_code for i in range(12)]
    assert statuses[:8] == [404] * 8 and set(statuses[9:]) == {429}  # ten misses a minute
    assert "retry-after" in client.get(night.url(f"/door/{card}")).headers


def test_line_separators_never_reach_the_party_log_raw(client):
    made = client.post("/api/nights", json={"players": ["Ann\u2028Lee", "Bea"]})
    assert made.status_code == 422 and "line or paragraph separator" in made.text
    night = make_night(client, ["Ann", "Bea", "Cat", "Dee"], name="Spring night")
    late = client.post(
        night.url("/arrivals"),
        json={"command_id": cid(), "player": "Eve\u2029Z"},
        headers=night.host,
    )
    assert late.status_code == 422
    log = client.get(night.url("/export/log.jsonl"), headers=night.host).content
    assert b"\xe2\x80\xa8" not in log and b"\xe2\x80\xa9" not in log
    assert len(log.decode().splitlines()) == len(log.split(b"\n")) - 1  # one event a line


@pytest.mark.parametrize(
    "money",
    [
        {"buy_in": "\u0661\u0662"},  # Arabic-Indic digits
        {"buy_in": "\uff15"},  # fullwidth 5
        {"buy_in": "1_000"},
        {"buy_in": " 5"},
        {"buy_in": "5 "},
        {"buy_in": "+5"},
        {"buy_in": "1e3"},
        {"buy_in": "5.001"},
        {"buy_in": "5", "payouts": [{"prize": "most_buncos", "share": "50.001%"}]},
        {"buy_in": "5", "payouts": [{"prize": "most_buncos", "share": " 50%"}]},
        {"buy_in": "5", "payouts": [{"prize": "most_buncos", "amount": "5", "tip": "1"}]},
        {"buy_in": 1e3},
    ],
)
def test_money_is_written_in_plain_digits(client, money: dict[str, Any]):
    made = client.post("/api/nights", json={"players": EIGHT, "money": money})
    assert made.status_code == 422, (money, made.text)
    assert made.json()["expected"]


def test_plain_money_is_taken(client):
    money = {"buy_in": "5.50", "payouts": [{"prize": "most_buncos", "share": "33.33%"}]}
    made = client.post("/api/nights", json={"players": EIGHT, "money": money})
    assert made.status_code == 201, made.text


@pytest.mark.parametrize(
    "tail",
    [
        "/rounds/1/1.0/tables/1",
        "/rounds/1/+1/tables/1",
        "/rounds/1/1/tables/1e0",
        "/tables/%D9%A1",
        "/events?table=1.0",
        "/events?since=%201",
        "/events?since=1_0",
        "/dashboard?silent=1e1",
    ],
)
def test_path_and_query_numbers_are_plain_digits(client, night: Night, tail: str):
    reply = client.get(night.url(tail), headers=night.host)
    assert reply.status_code == 422, (tail, reply.text)
    assert "digits" in reply.json()["message"]


def test_a_key_given_twice_is_refused_not_taken_last(client, night):
    body = '{"command_id": "r-1", "dice": [2, 3, 5], "dice": [1, 1, 1]}'
    reply = client.post(
        night.url("/tables/1/rolls"),
        content=body,
        headers={**night.host, "content-type": "application/json"},
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["details"] == [
        {"where": "dice", "message": "the key 'dice' is given twice"}
    ]
    nested = json.dumps({"players": EIGHT})[:-1] + ', "money": {"buy_in": "5", "buy_in": "6"}}'
    made = client.post("/api/nights", content=nested, headers={"content-type": "application/json"})
    assert made.status_code == 422 and made.json()["details"][0]["where"] == "money.buy_in"
    odd = client.post(  # keys that are digits of another kind (the fuzz found a 500 here)
        "/api/nights",
        content='{"\u00b2": "\u200b", "\u00b2": 1}'.encode(),
        headers={"content-type": "application/json"},
    )
    assert odd.status_code == 422 and len(odd.json()["details"]) == 2, odd.text
    assert night.seq() == 0  # no Bunco recorded


def test_exponents_in_json_numbers_are_refused(client, night):
    reply = client.post(
        night.url("/bots"),
        content=b'{"players": [], "pace": 1e0}',
        headers={**night.host, "content-type": "application/json"},
    )
    assert reply.status_code == 422 and "exponent" in reply.text
