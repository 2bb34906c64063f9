"""The club API: a season of three nights with a substitute, dues, payouts and standings."""

from __future__ import annotations

import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

from web_helpers import Night, bearer

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def make_club(client: Any, **extra: Any) -> tuple[str, dict[str, str]]:
    body = {
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
        **extra,
    }
    reply = client.post("/api/clubs", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()["club"], bearer(reply.json()["token"])


def play_night(client: Any, club: str, token: dict[str, str], **body: Any) -> Night:
    reply = client.post(f"/api/clubs/{club}/nights", json=body, headers=token)
    assert reply.status_code == 201, reply.text
    night = Night(client, reply.json())
    while night.state()["status"]["phase"] != "over":
        night.play_round()
    return night


def test_a_season_of_three_nights(client: Any, tmp_path: Path) -> None:
    club, token = make_club(client)
    first = play_night(client, club, token, date="2026-01-13")
    setup = first.state()["setup"]
    assert setup["players"] == FOUR
    assert setup["money"] == {
        "currency": "$",
        "buy_in": "5.00",
        "top_up": False,
        "payouts": [
            {"prize": "most_wins", "share": "50%"},
            {"prize": "most_buncos", "share": "25%"},
        ],
    }
    left = Decimal(first.state()["view"]["money"]["left_in_pot"])
    second = play_night(client, club, token, date="2026-02-10", substitutes={"Dee": "Zoe"})
    setup = second.state()["setup"]
    assert setup["players"] == ["Ann", "Bea", "Cat", "Zoe"]
    assert Decimal(setup["money"].get("carried_over", "0")) == left  # the pot carried over
    play_night(client, club, token, date="2026-03-10")
    for player, amount in (("Ann", "15"), ("Zoe", "5"), ("Dee", "5")):
        reply = client.post(
            f"/api/clubs/{club}/payments", json={"player": player, "amount": amount}, headers=token
        )
        assert reply.status_code == 200, reply.text
    assert (
        client.post(
            f"/api/clubs/{club}/hosts", json={"month": "2026-01", "host": "Ann"}, headers=token
        ).status_code
        == 200
    )
    rows = {
        r["player"]: r
        for r in client.get(f"/api/clubs/{club}/standings", headers=token).json()["standings"]
    }
    assert (rows["Ann"]["nights"], rows["Dee"]["nights"], rows["Zoe"]["nights"]) == (3, 2, 1)
    assert rows["Zoe"]["role"] == "substitute"
    assert sum(r["wins"] + r["losses"] for r in rows.values()) == 3 * 6 * 4
    ledger = client.get(f"/api/clubs/{club}/ledger", headers=token).json()
    dues = {m["player"]: m for m in ledger["members"]}
    assert (dues["Ann"]["owed"], dues["Ann"]["paid"], dues["Ann"]["balance"]) == (
        "15.00",
        "15.00",
        "0.00",
    )
    assert (dues["Dee"]["owed"], dues["Dee"]["balance"]) == ("10.00", "5.00")
    assert (dues["Zoe"]["owed"], dues["Zoe"]["balance"]) == ("5.00", "0.00")
    assert ledger["totals"]["dues_owed"] == "60.00" and ledger["totals"]["outstanding"] == "35.00"
    assert ledger["hosts"] == [{"month": "2026-01", "host": "Ann"}]
    won = sum(Decimal(r["won"]) for r in rows.values())
    assert won == sum(Decimal(n["paid_out"]) for n in ledger["nights"])
    # money in = money out + what the pot holds now: nothing is lost between nights
    assert Decimal("60.00") == won + Decimal(ledger["totals"]["pot"])
    csv = client.get(f"/api/clubs/{club}/download/standings.csv", headers=token).text
    assert csv.splitlines()[0].startswith("rank,player,role,nights,wins")
    page = client.get(f"/api/clubs/{club}/download/season.html?token={token['Authorization'][7:]}")
    assert page.status_code == 200 and "<h2>Season standings</h2>" in page.text
    assert 'alt="Standings over the season" src="data:image/svg+xml;base64,' in page.text
    assert "<td>Zoe (sub)</td>" in page.text and "<h2>Dues ledger</h2>" in page.text
    pdf = client.get(f"/api/clubs/{club}/download/season.pdf", headers=token)
    assert pdf.status_code == 200 and pdf.content[:4] == b"%PDF"
    path = tmp_path / "season.pdf"
    path.write_bytes(pdf.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Tuesday Club: 2026" in text and "Season standings" in text
    assert "Dues ledger" in text and "Zoe (sub)" in text and "2026-02-10" in text
    assert "outstanding $35.00" in text


def test_the_club_needs_its_token_and_refuses_bad_input(client: Any) -> None:
    club, token = make_club(client)
    assert client.get(f"/api/clubs/{club}").status_code == 401
    assert client.get(f"/api/clubs/{club}", headers=bearer("wrong")).status_code == 401
    assert client.get("/api/clubs/nope", headers=token).status_code == 404
    for path, body, message in (
        ("nights", {"substitutes": {"Zed": "Zoe"}}, "'Zed' is not a regular"),
        ("nights", {"substitutes": {"Dee": "Ann"}}, "'Ann' already plays tonight"),
        ("payments", {"player": "Ann", "amount": "-5"}, "negative"),
        ("hosts", {"month": "2026-13", "host": "Ann"}, "month '2026-13'"),
        ("hosts", {"month": "2026-01", "host": "Zed"}, "'Zed' is not a member"),
    ):
        reply = client.post(f"/api/clubs/{club}/{path}", json=body, headers=token)
        assert reply.status_code == 422, (path, reply.text)
        assert message in reply.json()["message"]
    assert client.get(f"/api/clubs/{club}", headers=token).json()["nights"] == []
    bad = client.post(
        "/api/clubs",
        json={
            "name": "X",
            "dues": "1",
            "payouts": [{"prize": "most_wins", "amount": "100"}],
            "regulars": FOUR,
        },
    )
    assert bad.status_code == 422 and "more than the pot" in bad.json()["message"]
