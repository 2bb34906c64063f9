"""A `scil` table through the table page: rolling for high with typed dice, then play.

By hand from RULES.md: in `scil` each player at the table rolls once and the highest
total starts; play proceeds to the right (seat 1 → 4 → 3 → 2); a Baby Bunco scores 5
and ends the turn.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server, audit, shoot
from .night_phones import type_dice

pytestmark = pytest.mark.browser


def enter_dice(page: Page, faces: list[int]) -> None:
    type_dice(page, faces)
    expect(page.locator("#pending")).to_have_text("")


def test_scil_roll_for_high_then_play(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "SCIL table", "rules": "scil", "players": ["Ann", "Bea", "Cat", "Dee"]},
    )
    code = created["tables"][0]["code"]
    wrong = pages.open("/join/22222X", name="wrong code")  # a code no table has
    expect(wrong.locator("#join-error")).to_contain_text("no table has this join code")
    expect(wrong.locator("#join-form")).to_be_visible()
    wrong.fill("#join-code", code)  # typed again, right this time
    wrong.click("#join-form button")
    wrong.wait_for_url(re.compile(r"/table/1$"))
    table = pages.open(f"/join/{code}", name="table")
    table.wait_for_url(re.compile(r"/table/1$"))
    expect(table.locator("body")).to_have_attribute("data-status", "first_roll")
    expect(table.locator("#turn-text")).to_have_text("Ann rolls for high")
    expect(table.locator("#high-totals")).to_be_visible()  # the dice's total, not tallies
    expect(table.locator("#high-totals .high-title")).to_have_text("Ann rolled a total of")
    expect(table.locator("#taps [data-outcome='+1']")).to_be_disabled()
    expect(table.locator("[data-outcome=mini]")).to_contain_text("Baby Bunco")
    shoot(table, "table-first-roll", ("phone",))
    assert audit(table) == []

    # to the right: Ann, then Dee, Cat, Bea; Ann's 17 is the highest total
    for name, faces in (
        ("Ann", [6, 6, 5]),
        ("Dee", [1, 1, 2]),
        ("Cat", [2, 3, 1]),
        ("Bea", [3, 1, 1]),
    ):
        expect(table.locator("#turn-text")).to_have_text(f"{name} rolls for high")
        enter_dice(table, faces)
    expect(table.locator("body")).to_have_attribute("data-status", "playing")
    expect(table.locator("#turn-text")).to_have_text("Ann rolls")
    expect(table.locator("#taps [data-outcome='+1']")).to_be_enabled()

    table.click("#taps [data-outcome=mini]")  # a Baby Bunco ...
    table.locator("#who-choices [data-player=Ann]").click()
    expect(table.locator("#result")).to_have_text("Ann: Baby Bunco +5")
    expect(table.locator("#turn-text")).to_have_text("Dee rolls")  # ... ends Ann's turn
    expect(table.locator("#tally [data-side=us]")).to_have_text("5")

    # a second phone at the same table (the host's) taps while offline; this phone enters
    # Dee's +2 meanwhile; back online, the second phone's stale entry is refused, not stacked
    other = pages.open(
        f"/n/{created['night']}/table/1?token={created['host_token']}", name="second phone"
    )
    expect(other.locator("#turn-text")).to_have_text("Dee rolls")
    other.context.set_offline(True)
    other.click("#taps [data-outcome='+1']")
    expect(other.locator("#pending")).to_contain_text("1 entry not sent yet")
    table.click("#taps [data-outcome='+2']")
    expect(table.locator("#tally [data-side=them]")).to_have_text("2")
    other.context.set_offline(False)
    # refused, and asked about (docs/outbox.md): the scorekeeper discards it
    expect(other.locator("#held-box h2")).to_have_text(
        "1 entry from round 1 arrived after another phone entered first at this table:"
    )
    expect(other.locator("#pending")).to_have_text("")
    expect(other.locator("#tally [data-side=them]")).to_have_text("2")
    other.click("#held-box [data-act=discard]")
    expect(other.locator("#held-box")).to_be_hidden()
    events = server.api("GET", f"/api/nights/{created['night']}/events", created["host_token"])[
        "events"
    ]
    assert [e["event"].get("outcome") for e in events if e["event"]["type"] == "tally"] == [
        "mini",
        "+2",
    ]
    assert pages.errors == []
