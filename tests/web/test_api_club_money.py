"""A club's money to the cent through the API: a night started and cancelled leaves the
ledger as if it had never been started, dues not yet paid are owed apart from the pot
collected (and the payout sheet says what it pays from them), and the pot carried over
from night to night.

Every night is played the same way at one table of four (classic, prize ties shared): the
first roller of each round rolls a Bunco, then misses, so one player wins all six rounds
with six Buncos and takes Most Wins (50%) and Most Buncos (25%); the three others share
Most Losses, which pays nothing.
"""

from __future__ import annotations

import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import bearer

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def make_club(client: TestClient) -> tuple[str, dict[str, str]]:
    reply = client.post(
        "/api/clubs",
        json={
            "name": "Tuesday Club",
            "dues": "5",
            "regulars": FOUR,
            "substitutes": ["Zoe"],
            "prize_ties": "shared",
            "season": "2026",
            "payouts": [
                {"prize": "most_wins", "share": "50%"},
                {"prize": "most_buncos", "share": "25%"},
            ],
        },
    )
    assert reply.status_code == 201, reply.text
    return reply.json()["club"], bearer(reply.json()["token"])


def start(client: TestClient, club: str, org: dict[str, str], date: str) -> dict[str, Any]:
    reply = client.post(f"/api/clubs/{club}/nights", json={"date": date}, headers=org)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def play(client: TestClient, made: dict[str, Any], tag: str) -> None:
    host = bearer(made["host_token"])
    url = f"/api/nights/{made['night']}/tables/1/rolls"
    for r in range(1, 7):
        miss = [f for f in range(1, 7) if f != r][:2]
        for i, dice in enumerate(([r, r, r], [miss[0], miss[0], miss[1]])):
            reply = client.post(
                url, json={"command_id": f"{tag}-{r}-{i}", "dice": dice}, headers=host
            )
            assert reply.status_code == 200, reply.text
    state = client.get(f"/api/nights/{made['night']}", headers=host).json()
    assert state["view"]["phase"] == "over"


def ledger(client: TestClient, club: str, org: dict[str, str]) -> dict[str, Any]:
    reply = client.get(f"/api/clubs/{club}/ledger", headers=org)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def test_a_night_started_and_cancelled_leaves_no_money_behind(client: TestClient) -> None:
    club, org = make_club(client)
    for day in ("2026-01-13", "2026-02-10", "2026-03-10"):
        client.post(f"/api/clubs/{club}/plans", json={"date": day}, headers=org)
    play(client, start(client, club, org, "2026-01-13"), "jan")
    before = ledger(client, club, org)
    assert before["totals"]["dues_owed"] == "20.00" and before["totals"]["pot"] == "5.00"

    feb = start(client, club, org, "2026-02-10")  # started, never rolled
    waiting = ledger(client, club, org)
    assert waiting["totals"] == before["totals"]  # no dues, no pot from a night not played
    assert [n["played"] for n in waiting["nights"]] == [True, False]
    assert "pot" not in waiting["nights"][1]
    busy = client.post(f"/api/clubs/{club}/nights", json={"date": "2026-03-10"}, headers=org)
    assert busy.status_code == 422 and busy.json()["error"] == "night_open"
    view = client.get(f"/api/clubs/{club}", headers=org).json()
    assert view["pot"] == "5.00" and "2026-02-10" not in view["upcoming"]

    cancelled = client.post(f"/api/clubs/{club}/nights/{feb['night']}/cancel", headers=org)
    assert cancelled.status_code == 200, cancelled.text
    assert [n["night"] for n in cancelled.json()["nights"]] == [before["nights"][0]["night"]]
    assert "2026-02-10" in cancelled.json()["upcoming"]  # a night to come again
    after = ledger(client, club, org)
    assert after == before  # as if it had never been started
    share = client.post(f"/api/clubs/{club}/shares", json={"season": "2026"}, headers=org).json()
    seen = client.get(f"/api/clubs/{club}/shared", headers=bearer(share["token"])).json()
    assert len(seen["nights"]) == 1  # the share page counts the nights played only

    again = start(client, club, org, "2026-02-10")
    setup = client.get(f"/api/nights/{again['night']}", headers=bearer(again["host_token"]))
    assert setup.json()["setup"]["money"]["carried_over"] == "5.00"  # not 25.00
    play(client, again, "feb")
    # a night played cannot be cancelled: its results and money stand
    refused = client.post(f"/api/clubs/{club}/nights/{again['night']}/cancel", headers=org)
    assert refused.status_code == 422 and refused.json()["error"] == "night_played"
    totals = ledger(client, club, org)["totals"]
    assert (totals["dues_owed"], totals["paid_out"], totals["pot"]) == ("40.00", "33.75", "6.25")
    # money in = money out + the pot now
    assert Decimal(totals["dues_owed"]) == Decimal(totals["paid_out"]) + Decimal(totals["pot"])


def test_unpaid_dues_are_owed_apart_from_the_pot_collected(
    client: TestClient, tmp_path: Path
) -> None:
    club, org = make_club(client)
    jan = start(client, club, org, "2026-01-13")
    play(client, jan, "jan")
    feb = start(client, club, org, "2026-02-10")
    play(client, feb, "feb")
    for player, amount in (("Ann", "10"), ("Bea", "5")):
        client.post(
            f"/api/clubs/{club}/payments", json={"player": player, "amount": amount}, headers=org
        )
    book = ledger(client, club, org)
    first, second = book["nights"]
    # January: $20 of dues, Ann's and Bea's $10 collected (payments pay the oldest dues
    # first), Cat's and Dee's owed; $15 paid out of $10 in hand: $5 from dues not collected
    assert (first["dues"], first["dues_collected"], first["dues_owed"]) == (
        "20.00",
        "10.00",
        "10.00",
    )
    assert first["owed_by"] == {"Cat": "5.00", "Dee": "5.00"}
    assert (first["pot"], first["pot_collected"], first["pot_owed"]) == ("20.00", "10.00", "10.00")
    assert (first["paid_out"], first["paid_from_owed"]) == ("15.00", "5.00")
    # February: $5 carried over + $20 of dues, only Ann's $5 collected; nothing in hand
    assert (second["carried_over"], second["pot"], second["dues_collected"]) == (
        "5.00",
        "25.00",
        "5.00",
    )
    assert second["owed_by"] == {"Bea": "5.00", "Cat": "5.00", "Dee": "5.00"}
    assert (second["paid_out"], second["paid_from_owed"], second["left_in_pot"]) == (
        "18.75",
        "18.75",
        "6.25",
    )
    totals = book["totals"]
    assert (totals["pot"], totals["pot_owed"], totals["pot_collected"]) == (
        "6.25",
        "25.00",
        "-18.75",
    )
    assert (totals["dues_paid"], totals["outstanding"]) == ("15.00", "25.00")
    # paid in - paid out = the pot collected
    assert Decimal(totals["dues_paid"]) - Decimal(totals["paid_out"]) == Decimal(
        totals["pot_collected"]
    )
    members = {m["player"]: m for m in book["members"]}
    assert (members["Ann"]["balance"], members["Dee"]["balance"]) == ("0.00", "10.00")

    sheet = client.get(f"/api/clubs/{club}/download/payouts/{feb['night']}.pdf", headers=org)
    assert sheet.status_code == 200 and sheet.content[:4] == b"%PDF"
    path = tmp_path / "payouts.pdf"
    path.write_bytes(sheet.content)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    text = " ".join(text.split())
    assert "not yet collected $15.00 (Bea $5.00, Cat $5.00, Dee $5.00)" in text
    assert "This sheet pays $18.75 from dues not yet collected" in text

    # Cat and Dee pay what they owe: January is collected in full
    for player in ("Cat", "Dee"):
        client.post(
            f"/api/clubs/{club}/payments", json={"player": player, "amount": "10"}, headers=org
        )
    paid = ledger(client, club, org)
    assert paid["nights"][0]["paid_from_owed"] == "0.00"
    assert paid["nights"][1]["owed_by"] == {"Bea": "5.00"}
    assert paid["totals"]["pot_owed"] == "5.00" and paid["totals"]["pot_collected"] == "1.25"


def test_the_pot_carried_over_night_after_night_to_the_cent(client: TestClient) -> None:
    club, org = make_club(client)
    left = Decimal(0)
    expected = []
    for number, day in enumerate(("2026-01-13", "2026-02-10", "2026-03-10", "2026-04-14")):
        made = start(client, club, org, day)
        state = client.get(f"/api/nights/{made['night']}", headers=bearer(made["host_token"]))
        assert Decimal(state.json()["setup"]["money"].get("carried_over", "0")) == left
        play(client, made, f"n{number}")
        pot = Decimal(20) + left
        wins = (pot / 2).quantize(Decimal("0.01"), rounding="ROUND_DOWN")
        buncos = (pot / 4).quantize(Decimal("0.01"), rounding="ROUND_DOWN")
        left = pot - wins - buncos
        expected.append((str(pot.quantize(Decimal("0.01"))), str(wins + buncos), str(left)))
    rows = ledger(client, club, org)["nights"]
    assert [(r["pot"], r["paid_out"], r["left_in_pot"]) for r in rows] == expected
    assert expected == [
        ("20.00", "15.00", "5.00"),
        ("25.00", "18.75", "6.25"),
        ("26.25", "19.68", "6.57"),
        ("26.57", "19.92", "6.65"),
    ]
