"""Prize money set up on the home page, without a line of JSON, and the winners named.

1. seeds/004's tournament: teams, the tournament money table in one choice (its judged
   Best Costume comes with it), must be present, one prize per person, breaks.
2. A home pot: a $4.75 buy-in, a share and an amount, carried over, one prize per person
   in the order listed; a bad amount is refused on the page, naming the prize.
3. The big screen and the end page name the person handed each prize: the host's first
   choice for Best Costume went home, so the next in line is named and paid, and the
   passed-over player is named with why.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import play_out
from .conftest import TV, Pages, Server, audit, shoot

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def created_setup(home: Page, server: Server) -> dict[str, Any]:
    """Start the night on the home page, open the host page, return the night's setup."""
    home.click("#start")
    expect(home.locator("#saved")).to_be_visible()
    home.click("#open-host")
    home.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    night = home.url.split("/")[-2]
    token = home.evaluate("(k) => JSON.parse(localStorage.getItem(k))", f"bunco:{night}:host")
    setup: dict[str, Any] = server.state(night, token)["setup"]
    return setup


def test_seed_004_money_from_the_set_up_page(pages: Pages, server: Server) -> None:
    home = pages.open("/", name="home-004")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.check("input[name=preset][value=tournament]")
    expect(home.locator("#breaks")).to_have_value("2, 4, 6")  # the preset's breaks
    home.fill("#night-name", "Charity tournament")
    home.fill("#players", ", ".join(EIGHT))
    home.fill("#groups", "Team 1: Ann, Bea, Cat, Dee\nTeam 2: Eve, Fay, Gus, Hal")
    home.select_option("#money-mode", "tournament")
    expect(home.locator("#money-tournament-note")).to_be_visible()
    # what the chosen money table brings: each group's amounts, the room's, the judged prize
    note = home.locator("#money-tournament-note")
    expect(note.locator("[data-preview=most_buncos]")).to_have_text("Most Buncos: $100")
    expect(note.locator("[data-preview=best_costume]")).to_have_text(
        "Best Costume: $25 (judged: you name the winner)"
    )
    expect(note.locator("[data-preview=group_most_buncos]")).to_have_text(
        "Group with the most Buncos: $100"
    )
    expect(note).to_contain_text("No buy-in: the host pays the prizes.")
    expect(home.locator("#money-fields")).to_be_hidden()
    expect(home.locator("#must-be-present")).to_be_checked()  # on in the tournament preset
    home.check("#one-prize")
    shoot(home, "home-money-tournament", ("phone",))
    assert audit(home) == []
    setup = created_setup(home, server)
    assert setup["judged"] == ["Best Costume"]
    assert "must_be_present" not in setup  # the preset's own (must be present to win)
    assert setup["one_prize_per_person"] is True
    assert setup["groups"] == {"Team 1": EIGHT[:4], "Team 2": EIGHT[4:]}
    money = setup["money"]
    assert (money["currency"], money["buy_in"], money["top_up"]) == ("$", "0.00", True)
    assert money["payouts"] == [
        {"prize": "most_buncos", "amount": "100.00"},
        {"prize": "most_mini_buncos", "amount": "50.00"},
        {"prize": "most_wins", "amount": "40.00"},
        {"prize": "best_costume", "amount": "25.00"},
        {"prize": "group_most_buncos", "amount": "100.00"},
        {"prize": "group_best_costume", "amount": "25.00"},
    ]
    assert "one_prize_order" not in money  # by value, the default
    assert "breaks_after_rounds" not in setup.get("house_rules", {})  # the preset's own
    assert not pages.errors


def test_a_home_pot_from_the_set_up_page(pages: Pages, server: Server) -> None:
    home = pages.open("/", name="home-pot")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.check("input[name=preset][value=classic]")
    home.fill("#players", "Ann\nBea\nCat\nDee\nEve\nFay\nGus\nHal")
    home.click("#step-prizes > summary")  # step 3: prizes and money (optional)
    home.fill("#judged", "Best Costume")
    home.select_option("#money-mode", "pot")
    expect(home.locator("#money-fields")).to_be_visible()
    home.fill("#buy-in", "$4.75")
    home.fill("#carried-over", "1.25")
    home.fill("#breaks", "3")
    rows = home.locator("[data-payout]")
    expect(home.locator("[data-payout=best_costume]")).to_have_count(1)  # judged: payable
    buncos = home.locator("[data-payout=most_buncos]")
    buncos.locator("select").select_option("share")
    buncos.locator("input").fill("50%")
    wins = home.locator("[data-payout=most_wins]")
    wins.locator("select").select_option("amount")
    wins.locator("input").fill("ten")
    home.click("#start")
    expect(home.locator("#setup-error")).to_have_text(
        "Most Wins: ten is not an amount (e.g. 25 or 12.50)."
    )
    wins.locator("input").fill("10")
    costume = home.locator("[data-payout=best_costume]")
    costume.locator("select").select_option("amount")
    costume.locator("input").fill("2.50")
    home.check("#one-prize")
    home.select_option("#one-prize-order", "listed")
    assert rows.count() >= 4
    setup = created_setup(home, server)
    money = setup["money"]
    assert (money["buy_in"], money["carried_over"], money["top_up"]) == ("4.75", "1.25", False)
    assert money["payouts"] == [
        {"prize": "most_buncos", "share": "50%"},
        {"prize": "most_wins", "amount": "10.00"},
        {"prize": "best_costume", "amount": "2.50"},
    ]
    assert money["one_prize_order"] == "listed" and setup["one_prize_per_person"] is True
    assert setup["house_rules"]["breaks_after_rounds"] == "3" or setup["house_rules"][
        "breaks_after_rounds"
    ] == [3]
    assert not pages.errors


def test_screen_and_end_page_name_the_person_paid(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Costume night",
            "rules": "classic",
            "players": EIGHT[:4],
            "prizes": ["most_buncos"],
            "prize_ties": "shared",
            "judged": ["Best Costume"],
            "must_be_present": True,
            "money": {
                "buy_in": "5",
                "payouts": [
                    {"prize": "best_costume", "amount": "7.50"},
                    {"prize": "most_buncos", "share": "50%"},
                ],
            },
        },
    )
    nid, host = created["night"], created["host_token"]
    play_out(server, nid, host, "s")  # every round, the server rolling
    assert server.state(nid, host)["status"]["phase"] == "over"  # ties shared: no roll-off
    server.api(
        "POST",
        f"/api/nights/{nid}/judged",
        host,
        json={"command_id": "j", "prize": "best_costume", "ranking": ["Ann", "Bea"]},
    )
    server.api(
        "POST",
        f"/api/nights/{nid}/presence",
        host,
        json={"command_id": "gone", "player": "Ann", "present": False},
    )
    view = server.state(nid, host)["view"]
    rows = {r["prize"]: r for r in view["prize_winners"]}
    costume = rows["best_costume"]
    assert costume["handed_to"] == ["Bea"] and costume["amount"] == "$7.50"
    assert costume["passed_over"] == [{"name": "Ann", "reason": "absent"}]
    paid = {
        (p["player"], p["prize"])
        for p in server.api("GET", f"/api/nights/{nid}/payouts", host)["payouts"]
    }
    assert ("Bea", "best_costume") in paid and ("Ann", "best_costume") not in paid

    screen = pages.open(f"/n/{nid}/screen?token={created['viewer_token']}", TV, "screen-paid")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    card = screen.locator("#handed-list article[data-prize=best_costume]")
    expect(card.locator(".winners")).to_have_text("Bea (judged, next in line)")
    expect(card).to_contain_text("$7.50")
    expect(card).to_contain_text("Passed over: Ann (absent)")
    most = screen.locator("#handed-list article[data-prize=most_buncos] .winners")
    expect(most).to_have_text(rows["most_buncos"]["who"])
    shoot(screen, "screen-named-winners", ("tv",))

    end = pages.open(f"/n/{nid}/end?token={host}", name="end-paid")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    card = end.locator("#handed-list article[data-prize=best_costume]")
    expect(card.locator(".winners")).to_have_text("Bea (judged, next in line)")
    expect(card).to_contain_text("Passed over: Ann (absent)")
    expect(
        end.locator("#payouts-table tr[data-player=Bea][data-prize=best_costume]")
    ).to_contain_text("$7.50")
    assert not pages.errors
    assert audit(end) == [] and audit(screen) == []
