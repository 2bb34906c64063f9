"""POST .../tables/{n}/rolls with ``total``: a scil table's roll for high with real dice,
one entry per player; refused with the documented error shape where it cannot stand."""

from __future__ import annotations

from typing import Any

from web_helpers import Night, cid, make_night

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def enter(night: Night, headers: dict[str, str] | None = None, **body: Any) -> Any:
    return night.client.post(
        night.url("/tables/1/rolls"),
        json={"command_id": cid(), **body},
        headers=headers or night.host,
    )


def test_a_table_enters_its_roll_for_high_as_totals(client) -> None:
    night = make_night(client, FOUR, rules="scil")
    table = night.table_token(1)
    rollers = []
    for total in (9, 15, 4, 11):
        rollers.append(night.state()["view"]["tables"][0]["roller"])
        reply = enter(night, table, total=total)
        assert reply.status_code == 200, reply.text
        entry = reply.json()["entry"]
        assert entry["phase"] == "first_roll" and sum(entry["dice"]) == total
        assert entry["points"] == 0
    view = night.state()["view"]["tables"][0]
    assert view["status"] == "playing" and view["roller"] == rollers[1]  # 15 starts
    assert [e.get("total") for e in night.log() if e["type"] == "tally"] == [9, 15, 4, 11]
    # in play a total stands for nothing: the faces or a tally
    refused = enter(night, table, total=12)
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert body["error"] == "not_allowed_now" and "tally" in body["expected"]


def test_bad_totals_are_422(night) -> None:
    for body in ({"total": 2}, {"total": 19}, {"total": "12"}, {"total": 12.0}):
        reply = enter(night, **body)
        assert reply.status_code == 422, (body, reply.text)
    both = enter(night, total=12, outcome="miss")
    assert both.status_code == 422 and "exactly one of" in both.text
