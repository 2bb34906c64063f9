"""The money API: a night with money, judged prizes, presence, breaks, drawings, payouts."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from web_helpers import EIGHT, cid, make_night

from bunco.core.party_log import read_log
from bunco.party.night_report import night_report

GROUPS = {"Team 1": EIGHT[:4], "Team 2": EIGHT[4:]}


def tournament(client: Any) -> Any:
    return make_night(
        client,
        EIGHT,
        rules="tournament",
        groups=GROUPS,
        judged=["Best Costume"],
        must_be_present=True,
        prize_ties="shared",
        money="tournament",
    )


def test_a_night_with_money_reports_its_payouts(client: Any) -> None:
    night = tournament(client)
    assert night.state()["setup"]["money"]["payouts"][0] == {
        "prize": "most_buncos",
        "amount": "100.00",
    }
    night.client.post(
        night.url("/breaks"), json={"command_id": cid(), "minutes": 10}, headers=night.host
    )
    for _ in range(6):
        night.play_round()
    for player in EIGHT:
        assert (
            client.post(
                night.url("/verifications"),
                json={"command_id": cid(), "player": player},
                headers=night.host,
            ).status_code
            == 200
        )
    for group, winner in (("Team 1", "Ann"), ("Team 2", "Hal")):
        reply = client.post(
            night.url("/judged"),
            json={"command_id": cid(), "prize": "best_costume", "group": group, "winner": winner},
            headers=night.host,
        )
        assert reply.status_code == 200, reply.text
    assert (
        client.post(
            night.url("/judged"),
            json={"command_id": cid(), "prize": "group_best_costume", "winner": "Team 2"},
            headers=night.host,
        ).status_code
        == 200
    )
    while night.state()["status"]["phase"] != "over":
        night.play_round()
    body = client.get(night.url("/payouts"), headers=night.viewer).json()
    assert body["money"]["final"] is True
    paid = {(p["player"], p["prize"], p["group"]) for p in body["payouts"]}
    assert ("Ann", "best_costume", "Team 1") in paid and ("Hal", "best_costume", "Team 2") in paid
    # the judged group prize: $25 among Team 2's four members
    assert [p["amount"] for p in body["payouts"] if p["prize"] == "group_best_costume"] == [
        "6.25"
    ] * 4
    total = sum(Decimal(p["amount"]) for p in body["payouts"])
    assert Decimal(body["money"]["paid_out"]) == total == Decimal(body["money"]["top_up"])
    report = client.get(night.url("/report"), headers=night.viewer).json()
    assert report["payouts"] == body["payouts"]
    assert night.state()["view"]["payouts"] == body["payouts"]
    # the exported log replays to the same payouts
    text = client.get(night.url("/export/log.jsonl"), headers=night.host).text
    assert night_report(read_log(text.splitlines()))["payouts"] == body["payouts"]
    csv = client.get(night.url("/download/payouts.csv"), headers=night.viewer)
    assert (
        csv.status_code == 200 and csv.text.splitlines()[0] == "player,prize,group,amount,currency"
    )
    assert len(csv.text.splitlines()) == len(body["payouts"]) + 1
    page = client.get(night.url("/download/report.html"), headers=night.viewer).text
    assert "Payout sheet" in page and "Signature" in page


def test_bad_money_is_a_422_and_no_night(client: Any) -> None:
    for money, message in (
        ({"payouts": [{"prize": "most_bunco", "amount": "5"}]}, "'most_bunco'"),
        ({"buy_in": "-1"}, "negative"),
        (
            {"buy_in": "5", "payouts": [{"prize": "most_wins", "amount": "50"}]},
            "more than the pot of $40.00",
        ),
    ):
        reply = client.post("/api/nights", json={"players": EIGHT, "money": money})
        assert reply.status_code == 422, reply.text
        assert message in reply.json()["message"] and reply.json()["expected"]


def test_drawings_are_drawn_by_the_server_and_recorded(client: Any) -> None:
    night = make_night(client)
    for player in EIGHT[1:]:
        client.post(
            night.url("/presence"),
            json={"command_id": cid(), "player": player, "present": False},
            headers=night.host,
        )
    reply = client.post(
        night.url("/drawings"), json={"command_id": cid(), "name": "Door prize"}, headers=night.host
    )
    assert reply.status_code == 200, reply.text
    event = night.log()[-1]
    assert (event["type"], event["candidates"], event["pick"], event["winner"]) == (
        "drawing",
        ["Ann"],
        0,
        "Ann",
    )
    reply = client.post(
        night.url("/drawings"),
        json={"command_id": cid(), "exclude_winners": True},
        headers=night.host,
    )
    assert reply.status_code == 409
    assert "nobody is present to win a drawing" in reply.json()["message"]
    seq = night.seq()
    forbidden = client.post(
        night.url("/drawings"), json={"command_id": cid()}, headers=night.viewer
    )
    assert forbidden.status_code == 403 and night.seq() == seq
    assert night.state()["view"]["drawings"][0]["winner"] == "Ann"
    # nobody picks a drawing's winner by hand, not even the host
    crafted = client.post(
        night.url("/events"),
        json={
            "command_id": cid(),
            "event": {
                "type": "drawing",
                "candidates": ["Ann"],
                "pick": 0,
                "winner": "Ann",
                "exclude_winners": False,
            },
        },
        headers=night.host,
    )
    # /events takes only the party-log events a person enters (docs/server.md): not a drawing
    assert crafted.status_code == 422 and "tag 'drawing'" in crafted.json()["message"]


def test_judging_and_breaks_are_the_hosts_and_checked(client: Any) -> None:
    night = tournament(client)
    bad = client.post(
        night.url("/judged"),
        json={"command_id": cid(), "prize": "best_costume", "group": "Team 1", "winner": "Eve"},
        headers=night.host,
    )
    assert bad.status_code == 422 and "'Eve' is not a player in Team 1" in bad.json()["message"]
    both = client.post(
        night.url("/judged"),
        json={"command_id": cid(), "prize": "best_costume", "winner": "Ann", "ranking": ["Ann"]},
        headers=night.host,
    )
    assert both.status_code == 422
    table = night.table_token(1)
    seq = night.seq()
    assert (
        client.post(night.url("/breaks"), json={"command_id": cid()}, headers=table).status_code
        == 403
    )
    assert (
        client.post(
            night.url("/breaks/end"), json={"command_id": cid()}, headers=night.host
        ).status_code
        == 409
    )
    assert night.seq() == seq
    assert (
        client.post(
            night.url("/breaks"), json={"command_id": cid(), "minutes": 15}, headers=night.host
        ).status_code
        == 200
    )
    assert night.state()["view"]["break"]["minutes"] == 15
    assert night.state()["view"]["break"]["started_at"]  # the server's time of the event
