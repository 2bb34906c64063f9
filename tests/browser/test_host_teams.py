"""The host's seat cards say who plays as a team from the server's view: a one-table
`winning-moves` night is four individuals also between sets, when the cards show the
seating of the round to come (the page once counted four seats and called it a team)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server

pytestmark = pytest.mark.browser
FOUR = ["Ann", "Bea", "Cat", "Dee"]


def test_one_table_winning_moves_stays_individuals_in_the_set_rolloff(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "Game for four", "rules": "winning-moves", "players": FOUR, "sets": 2},
    )
    nid, token = created["night"], created["host_token"]
    host = pages.open(f"/n/{nid}/host?token={token}", name="host")
    body = host.locator("body")
    expect(body).to_have_attribute("data-ready", "yes")
    card = host.locator("#sheet .seat-card[data-table='1']")
    expect(card).to_contain_text("Individuals")
    # each round's first roller taps a Bunco (it ends the round): Ann, Bea, Cat, Dee, Ann,
    # Bea win a round each: Ann and Bea tie for the set, a roll-off at no table follows
    for n in range(1, 7):
        server.api(
            "POST",
            f"/api/nights/{nid}/tables/1/rolls",
            token,
            json={"command_id": f"teams-{n}", "outcome": "bunco"},
        )
    state = server.state(nid, token)
    assert state["status"]["phase"] == "rolloff" and state["view"]["tables"] == []
    assert state["view"]["next"]["teams"] == [False]
    expect(body).to_have_attribute("data-seq", "6")
    expect(card).to_contain_text("Individuals: each player for themselves")
    # a host page opened now (another phone, a reload) draws the cards from the next round's
    # seating, the tables of the set being over
    host.reload()
    expect(body).to_have_attribute("data-ready", "yes")
    expect(body).to_have_attribute("data-phase", "rolloff")
    expect(card).to_contain_text("Individuals: each player for themselves")
    expect(card).not_to_contain_text(" vs ")
    expect(card.locator("li")).to_have_count(4)
    expect(card).not_to_contain_text("partner")


def test_a_team_table_still_says_who_plays_with_whom(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "Classic for four", "rules": "classic", "players": FOUR},
    )
    host = pages.open(f"/n/{created['night']}/host?token={created['host_token']}", name="host")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    card = host.locator("#sheet .seat-card[data-table='1']")
    expect(card).to_contain_text("Ann & Cat vs Bea & Dee")
    expect(card).to_contain_text("partner Cat")
