"""A table's phone follows its round from the live messages: no full-night GET per entry,
at most one per round (when the round changes)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, open_table

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_a_table_page_gets_the_night_once_per_round(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    table = open_table(pages, created, 2)
    gets: list[str] = []
    table.on("request", lambda r: gets.append(r.url) if r.method == "GET" and re.search(
        rf"/api/nights/{night}$", r.url) else None)

    def tap(outcome: str) -> None:
        table.click(f"#taps [data-outcome='{outcome}']")
        expect(table.locator("#pending")).to_have_text("")

    def api_roll(t: int, dice: list[int], n: int) -> None:
        server.api("POST", f"/api/nights/{night}/tables/{t}/rolls", host,
                   json={"command_id": f"gets-{t}-{n}", "dice": dice})

    # a round's entries at this table, and another table's, and the undo: no GET
    # Eve and Fay miss, Gus +1 +2 and a miss, Hal a miss (undone: Hal rolls again)
    for outcome in ("miss", "miss", "+1", "+2", "miss", "miss"):
        tap(outcome)
    table.click("#undo")
    expect(table.locator("#turn-text")).to_have_text("Hal rolls")
    api_roll(1, [2, 3, 5], 1)
    tap("+1")                                     # Hal: +1, rolling on
    expect(table.locator("#turn-text")).to_have_text("Hal rolls")
    assert gets == []
    # the bell (table 1's Bunco): the status message says so, still no GET
    api_roll(1, [1, 1, 1], 2)
    expect(table.locator("#bell")).to_be_visible()
    expect(table.locator("body")).to_have_attribute("data-status", "finishing")
    assert gets == []
    tap("miss")                                   # Hal's turn ends: 3-1 for Eve & Gus
    expect(table.locator("body")).to_have_attribute("data-status", "done")
    api_roll(1, [2, 3, 5], 3)                     # Ann finishes her turn: the round is over
    expect(table.locator("body")).to_have_attribute("data-round", "2")
    expect(table.locator("#moves-box")).to_be_visible()
    assert len(gets) == 1                         # one GET, for the new round
    assert table.evaluate("document.body.dataset.gets") == "2"   # with the page's first
    assert pages.errors == []
