"""A `winning-moves` game at one table, played through the table page.

By hand from RULES.md: four players at one table play as individuals to 21; three of a
kind below the round's number is a Low Bunco (7), above it a High Bunco (5), and both
let the roller roll on; a true Bunco ends the round at once; the next round starts with
the player to the left of the last round's winner.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, shoot

pytestmark = pytest.mark.browser


def test_winning_moves_one_table(pages: Pages, server: Server) -> None:
    host = pages.open("/", name="host")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    host.check("input[name=preset][value=winning-moves]")
    # the switches follow the preset: in winning-moves a Bunco ends the round
    expect(host.locator("[data-rule=bunco_ends_round]")).to_be_checked()
    host.fill("#night-name", "Game for four")
    host.fill("#players", "Ann\nBea\nCat\nDee\n")
    host.click("#start")
    expect(host.locator("#saved")).to_be_visible()  # the host link, to save first
    host.click("#open-host")
    host.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    night = host.url.split("/")[-2]
    host_token = host.evaluate("(k) => JSON.parse(localStorage.getItem(k))", f"bunco:{night}:host")
    expect(host.locator("#sheet .seat-card[data-table]")).to_have_count(1)
    expect(host.locator("#sheet .seat-card[data-table]")).to_contain_text("Individuals")
    code = host.locator(".seat-card[data-table='1'] .code").inner_text()

    table = pages.open(f"/join/{code}", name="table")
    table.wait_for_url(re.compile(rf"/n/{night}/table/1$"))
    expect(table.locator("body")).to_have_attribute("data-ready", "yes")
    # individuals: four scores, each to 21; Low and High Bunco instead of one Mini
    expect(table.locator("#tally .indiv .side")).to_have_count(4)
    expect(table.locator("#tally .side").first).to_contain_text("of 21")
    expect(table.locator("[data-outcome=low]")).to_contain_text("Low Bunco")
    expect(table.locator("[data-outcome=high]")).to_contain_text("High Bunco")
    expect(table.locator("[data-outcome=mini]")).to_have_count(0)
    expect(table.locator("[data-outcome=low]")).to_be_disabled()  # nothing is below 1
    expect(table.locator("[data-outcome=high]")).to_be_enabled()
    expect(table.locator("#turn-text")).to_have_text("Ann rolls")

    def tap(outcome: str, who: str | None = None) -> None:
        table.click(f"#taps [data-outcome='{outcome}']")
        if who is not None:
            table.locator(f"#who-choices [data-player='{who}']").click()
        expect(table.locator("#pending")).to_have_text("")

    tap("+2")
    expect(table.locator("#turn-text")).to_have_text("Ann rolls")
    tap("miss")
    expect(table.locator("#turn-text")).to_have_text("Bea rolls")
    tap("high", "Bea")  # a High Bunco: 5, and Bea rolls on
    expect(table.locator("#result")).to_have_text("Bea: High Bunco +5")
    expect(table.locator("#turn-text")).to_have_text("Bea rolls")
    expect(table.locator("#tally .side").nth(1).locator(".score")).to_have_text("5")
    shoot(table, "table-winning-moves")

    # large text, remembered on this phone; nothing spills sideways even on a small phone
    table.click("#large-text")
    table.reload()
    expect(table.locator("body")).to_have_attribute("data-ready", "yes")
    expect(table.locator("html")).to_have_class("large-text")
    expect(table.locator("#large-text")).to_have_attribute("aria-pressed", "true")
    table.set_viewport_size({"width": 320, "height": 640})
    assert table.evaluate("document.documentElement.scrollWidth") <= 320
    shoot(table, "table-large-text", ("phone",))
    table.click("#large-text")
    expect(table.locator("html")).not_to_have_class("large-text")
    assert table.evaluate("document.documentElement.scrollWidth") <= 320

    tap("bunco", "Bea")  # a true Bunco ends the round at once
    expect(table.locator("body")).to_have_attribute("data-round", "2")
    expect(table.locator("#moves-box")).to_contain_text("Round 1 results")
    expect(table.locator("#moves-box")).to_contain_text("Bea won here")
    expect(table.locator("#leaving li[data-player=Bea] .wl")).to_have_text("W")
    expect(table.locator("#leaving li[data-player=Ann] .wl")).to_have_text("L")
    expect(table.locator("#turn-text")).to_have_text("Cat rolls")  # left of Bea
    expect(table.locator("[data-outcome=low]")).to_be_enabled()  # 1-1-1 is below 2
    shoot(table, "table-winning-moves-round-2")

    # the head table rings the bell to start round 2: the round is under way, no roll yet
    expect(table.locator("#start-round")).to_have_text("Ring the bell: start round 2")
    table.click("#start-round")
    expect(table.locator("#toasts .toast").last).to_contain_text("round 2 starts")
    expect(table.locator("#start-box")).to_be_hidden()
    started = server.state(night, host_token)["view"]
    assert started["started"] is True and started["tables"][0]["rolls"] == 0

    # "who rolled it?" catches the tally up: Cat's turn ended without a score, then Dee
    table.click("#taps [data-outcome=bunco]")
    table.locator("#who-choices [data-player=Dee]").click()
    expect(table.locator("#who-title")).to_have_text("Dee rolled the Bunco?")
    table.locator("#who-choices button").click()
    expect(table.locator("body")).to_have_attribute("data-round", "3")
    expect(table.locator("#moves-box")).to_contain_text("Dee won here")
    expect(table.locator("#turn-text")).to_have_text("Ann rolls")  # left of Dee

    events = server.api("GET", f"/api/nights/{night}/events", host_token)["events"]
    entries = [
        (e["event"]["type"], e["event"].get("outcome"), e["event"].get("player"))
        for e in events
        if e["event"]["type"] == "tally"
    ]
    assert entries == [
        ("tally", "+2", None),
        ("tally", "miss", None),
        ("tally", "high", "Bea"),
        ("tally", "bunco", "Bea"),
        ("tally", "miss", None),
        ("tally", "bunco", "Dee"),
    ]
    report = server.api("GET", f"/api/nights/{night}/report", host_token)
    assert [r["tables"][0]["winners"] for r in report["rounds"]] == [["Bea"], ["Dee"]]
    assert report["players"]["Bea"]["high_buncos"] == 1
    assert report["players"]["Bea"]["buncos"] == 1
    assert pages.errors == []
