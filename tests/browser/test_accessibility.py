"""Every page in each of its states, checked with axe-core (the npm package, see
conftest.axe) at a phone's 390x844 (the big screen at 1920x1080): no serious or critical
violation, and none of the rules a review found broken before (a control's name that
does not contain its words, a scrolling box the keyboard cannot reach, a page without an
<h1>, headings that skip a level, an empty table header).

The states: home, join, the https help; a 12-player classic night's table page (in play,
typing dice, "who rolled it?", the bell, between rounds, large text, offline), host page
(in play, between rounds, asked to confirm an undo), player page (choosing a name, my
card, my move), big screen (in play, the bell, the moves); a finished night's results
page (a roll-off, the night over) and the club's pages.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import finish_round, roll
from .conftest import TV, Pages, Server, axe, open_table
from .test_end_of_night import play_night

pytestmark = pytest.mark.browser
TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]
SERIOUS = {"serious", "critical"}
# rules below "serious" that the pages keep clean all the same
ALSO = {
    "heading-order",
    "empty-table-header",
    "page-has-heading-one",
    "label-content-name-mismatch",
    "scrollable-region-focusable",
}


class Checks:
    """axe's findings over many page states, reported together at the end."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.states: list[str] = []

    def __call__(self, page: Page, state: str) -> None:
        self.states.append(state)
        for v in axe(page):
            if v["impact"] in SERIOUS or v["id"] in ALSO:
                self.found.append(
                    f"{state}: {v['id']} ({v['impact']}, {v['count']} nodes) {v['nodes']}"
                )


def ready(page: Page) -> Page:
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return page


def test_home_join_and_https_pages(pages: Pages) -> None:
    check = Checks()
    home = ready(pages.open("/", name="home"))
    check(home, "home")
    join = pages.open("/join", name="join")
    expect(join.locator("#join-form")).to_be_visible()
    check(join, "join, typing a code")
    https = pages.open("/https", name="https")
    expect(https.locator("h1")).to_be_visible()
    check(https, "https help")
    assert check.found == [], "\n".join(check.found)
    assert pages.errors == []


def test_a_night_in_play_on_every_page(pages: Pages, server: Server) -> None:
    created: dict[str, Any] = server.api(
        "POST",
        "/api/nights",
        json={"name": "Accessible night", "rules": "classic", "players": TWELVE},
    )
    night, host_token = created["night"], created["host_token"]
    check = Checks()

    host = ready(pages.open(f"/night/{night}?token={host_token}", name="host"))
    expect(host).to_have_url(re.compile(r"/host$"))
    check(host, "host, in play")
    table = open_table(pages, created, 2)
    check(table, "table, in play")
    table.click("#faces-toggle")
    table.get_by_role("button", name="Die 1 shows 2", exact=True).click()
    check(table, "table, typing dice")
    table.click("#taps [data-outcome=bunco]")
    expect(table.locator("#who")).to_be_visible()
    check(table, "table, who rolled it?")
    table.click("#who-cancel")

    player = pages.open(f"/n/{night}/player?token={created['viewer_token']}", name="player")
    expect(player.locator("#names [data-player=Eve]")).to_be_visible()
    check(player, "player, choosing a name")
    player.click("#names [data-player=Eve]")
    ready(player)
    check(player, "player, my card")
    screen = ready(pages.open(f"/n/{night}/screen?token={created['viewer_token']}", TV, "screen"))
    check(screen, "big screen, in play")

    roll(server, night, host_token, 1, [1, 1, 1])  # Ann's Bunco: the bell
    expect(table.locator("#bell")).to_be_visible()
    check(table, "table, the bell")
    expect(screen.locator("#bell-line")).to_be_visible()
    check(screen, "big screen, the bell")

    finish_round(server, night, host_token, 1)
    for page in (table, host, screen, player):
        expect(page.locator("body")).to_have_attribute("data-round", "2")
    expect(table.locator("#moves-box")).to_be_visible()
    check(table, "table, between rounds")
    check(host, "host, between rounds")
    expect(screen.locator("#moves-box")).to_be_visible()
    check(screen, "big screen, the moves")
    expect(player.locator("#bigmove")).to_be_visible()
    check(player, "player, my move")
    host.click("#overview [data-undo='1']")
    expect(host.locator("#confirm")).to_be_visible()
    check(host, "host, asked to confirm an undo")
    host.click("#confirm-no")

    table.click("#large-text")
    expect(table.locator("html")).to_have_class(re.compile("large-text"))
    check(table, "table, large text")
    table.context.set_offline(True)
    expect(table.locator("#offline")).to_be_visible()
    check(table, "table, offline")
    table.context.set_offline(False)
    assert check.found == [], "\n".join(check.found)
    assert len(check.states) == 16
    assert pages.errors == []


def test_results_and_club_pages(pages: Pages, server: Server) -> None:
    check = Checks()
    night = play_night(server)  # six rounds played, a prize roll-off due
    nid = night["night"]
    end = ready(pages.open(f"/n/{nid}/end?token={night['host']}", name="end"))
    expect(end.locator("#rolloff-box")).to_contain_text("Roll-off")
    check(end, "results, a roll-off")
    for n in range(400):  # the host rolls the roll-off out
        if server.state(nid, night["host"])["view"]["phase"] == "over":
            break
        server.api(
            "POST",
            f"/api/nights/{nid}/rolloff",
            night["host"],
            json={"command_id": f"a11y-end-{n}", "roll_for_me": True},
        )
    expect(end.locator("body")).to_have_attribute("data-phase", "over")
    check(end, "results, the night over")
    screen = ready(pages.open(f"/n/{nid}/screen?token={night['viewer']}", TV, "screen"))
    check(screen, "big screen, the night over")

    club = pages.open("/club", name="club")
    expect(club.locator("#create-form")).to_be_visible()
    check(club, "club, starting one")
    club.fill("#club-name", "Tuesday Club")
    club.fill("#club-regulars", "Ann\nBea\nCat\nDee")
    club.click("#create-club")
    expect(club.locator("body")).to_have_attribute("data-ready", "saved")
    check(club, "club, its link and recovery code to save")
    club.click("#open-club")
    ready(club)
    check(club, "club, its page")
    assert check.found == [], "\n".join(check.found)
    assert pages.errors == []
