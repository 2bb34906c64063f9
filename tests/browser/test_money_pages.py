"""Prize money on the pages: the host's break, drawing, presence and judging controls, the
big screen's break countdown and drawing, and the payout sheet on the results page.

A tournament night of eight in two groups with seeds/004's payouts ("money": "tournament")
and a judged Best Costume; the rounds are rolled through the API ("roll for me").
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from .api_rolls import play_out
from .conftest import TV, Pages, Server, audit, host_tab, shoot

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_breaks_drawings_judging_and_the_payout_sheet(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Charity tournament",
            "rules": "tournament",
            "players": EIGHT,
            "groups": {"Team 1": EIGHT[:4], "Team 2": EIGHT[4:]},
            "prize_ties": "shared",
            "judged": ["Best Costume"],
            "must_be_present": True,
            "money": "tournament",
        },
    )
    nid, host = created["night"], created["host_token"]
    screen = pages.open(f"/n/{nid}/screen?token={created['viewer_token']}", TV, "screen")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    page = pages.open(f"/n/{nid}/host?token={host}", name="host")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(page, "prizes")  # breaks, drawings, gone home, judged prizes

    page.fill("#break-minutes", "10")
    page.click("#break-start")
    expect(screen.locator("#break-line")).to_contain_text("Break time!")
    expect(screen.locator("#break-countdown")).to_contain_text(":")
    page.select_option("#presence-player", "Eve")
    page.click("#presence-gone")
    expect(page.locator("#absent-note")).to_have_text("Gone home: Eve.")
    page.fill("#drawing-name", "Door prize")
    page.click("#drawing-draw")
    expect(screen.locator("#drawing-line")).to_contain_text("Door prize")
    expect(screen.locator("#drawing-line")).to_contain_text("drawn among 7")
    drawing = server.state(nid, host)["view"]["drawings"][0]
    assert (
        drawing["winner"] == drawing["candidates"][drawing["pick"]]
        and "Eve" not in drawing["candidates"]
    )
    shoot(screen, "screen-break", ("tv",))
    page.click("#break-end")
    expect(screen.locator("#break-line")).to_have_count(0)
    expect(screen.locator("#drawing-line")).to_be_visible()  # until the next round starts
    server.api(
        "POST",
        f"/api/nights/{nid}/tables/1/rolls",
        host,
        json={"command_id": "m-first", "roll_for_me": True},
    )
    expect(screen.locator("#break-box")).to_be_hidden()

    play_out(server, nid, host, "m")  # every round, the server rolling
    for player in EIGHT:
        server.api(
            "POST",
            f"/api/nights/{nid}/verifications",
            host,
            json={"command_id": f"v-{player}", "player": player},
        )
    judge = page.locator("form[data-judge=best_costume][data-group='Team 2']")
    judge.locator(".judge-first").select_option("Hal")
    judge.locator("button").click()
    expect(page.locator("#judged-note")).to_contain_text("best costume (Team 2): Hal")

    end = pages.open(f"/n/{nid}/end?token={host}", name="end")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    expect(end.locator("#payouts-box")).to_be_visible()
    report = server.api("GET", f"/api/nights/{nid}/payouts", host)
    rows = end.locator("#payouts-table tbody tr")
    expect(rows).to_have_count(len(report["payouts"]))
    assert [p["player"] for p in report["payouts"] if p["prize"] == "best_costume"] == ["Hal"]
    expect(
        end.locator("#payouts-table tr[data-player=Hal][data-prize=best_costume]")
    ).to_contain_text("$25.00")
    paid = sum(Decimal(p["amount"]) for p in report["payouts"])
    expect(end.locator("#money-summary")).to_contain_text(f"Host's top-up: ${paid:.2f}")
    assert all(p["player"] != "Eve" for p in report["payouts"])  # she went home
    assert not pages.errors
    shoot(end, "end-payouts")
    assert audit(end) == [] and audit(page) == [] and audit(screen) == []
