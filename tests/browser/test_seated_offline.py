"""A table's "Everyone is seated — start" is kept on the phone like an entry (docs/outbox.md):
a phone without a connection between rounds begins its table's round on the page, the
entries tapped after it wait behind it, and once the connection is back the confirmation
and then each entry are stored once, in order, at the turns they were tapped. If the head
table's bell began the round meanwhile, the confirmation is not needed: the entries are
stored all the same, once."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import finish_round
from .conftest import Pages, Server, open_table, shoot
from .outage import check_placed, create, drained, landed, offline, outbox
from .page_checks import check_page

pytestmark = pytest.mark.browser


def round_two_offline(pages: Pages, server: Server) -> tuple[dict[str, Any], Page, str]:
    """Table 3's phone, offline once round 1 is over (its players about to move); returns
    the night, the page and who rolls first at table 3 in round 2."""
    created = create(server)
    night, host = created["night"], created["host_token"]
    three = open_table(pages, created, 3)
    finish_round(server, night, host, 1)
    expect(three.locator("#seated-ok")).to_be_visible()
    offline(three)
    first = server.state(night, host)["view"]["tables"][2]["roller"]
    return created, three, first


def emptied(page: Page, night: str) -> None:
    """Wait until table 3's outbox holds nothing (waiting, held or refused)."""
    page.wait_for_function(
        f"() => !(JSON.parse(localStorage.getItem('bunco:outbox:{night}:3') || '{{}}')"
        ".entries || []).length",
        timeout=30_000,
    )


def tap_offline(page: Page, outcomes: list[str]) -> None:
    for outcome in outcomes:
        page.click(f"#taps [data-outcome='{outcome}']")


def test_seated_offline_begins_the_round_on_the_phone_and_lands_once_back(
    pages: Pages, server: Server
) -> None:
    created, three, first = round_two_offline(pages, server)
    night, host = created["night"], created["host_token"]
    three.locator("#seated-ok").click()
    # the round begins on the page at once: whose turn, the taps; nothing reached the server
    expect(three.locator("#turn-text")).to_have_text(f"{first} rolls")
    expect(three.locator("#taps")).to_be_visible()
    expect(three.locator("#pending")).to_contain_text("\u201cEveryone is seated\u201d not sent yet")
    expect(three.locator("#moves-box")).to_have_attribute("data-fresh", "false")  # folded: begun
    tap_offline(three, ["+2", "+2", "miss"])
    expect(three.locator("body")).to_have_attribute("data-unsent", "3")
    expect(three.locator("#pending")).to_contain_text(
        "\u201cEveryone is seated\u201d and 3 entries not sent yet"
    )
    expect(three.locator("#pending")).to_contain_text("sent as soon as the connection is back")
    assert [e["kind"] for e in outbox(three, night, 3)] == ["seated", "entry", "entry", "entry"]
    view = server.state(night, host)["view"]
    assert 3 in view["seating_waits"] and view["tables"][2]["rolls"] == 0
    shoot(three, "seated-offline", ("phone",))
    measured = check_page(three, "a table begun offline")
    tapped = [e for e in outbox(three, night, 3) if e["kind"] == "entry"]
    offline(three, False)
    emptied(three, night)
    drained(three)
    view = server.state(night, host)["view"]
    assert 3 in view["seating_confirmed"] and 3 not in view["seating_waits"]
    assert view["tables"][2]["rolls"] == 3
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 3  # all 3 stored, each where it was tapped, once
    assert [stored[e["id"]].round_no for e in tapped] == [2, 2, 2]
    assert outbox(three, night, 3) == []
    assert measured["small"] == [] and measured["axe"] == []
    assert not pages.errors, pages.errors


def test_the_bell_rung_meanwhile_the_entries_land_once_all_the_same(
    pages: Pages, server: Server
) -> None:
    created, three, first = round_two_offline(pages, server)
    night, host = created["night"], created["host_token"]
    three.locator("#seated-ok").click()
    expect(three.locator("#turn-text")).to_have_text(f"{first} rolls")
    tap_offline(three, ["+2", "miss"])
    tapped = [e for e in outbox(three, night, 3) if e["kind"] == "entry"]
    server.api("POST", f"/api/nights/{night}/start", host, json={"command_id": "bell-2"})
    offline(three, False)
    emptied(three, night)
    expect(three.locator("body")).to_have_attribute("data-refused", "0")
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 2  # both stored, each where it was tapped, once
    view = server.state(night, host)["view"]
    assert view["tables"][2]["rolls"] == 2 and 3 not in view["seating_confirmed"]
    assert outbox(three, night, 3) == []
    assert not pages.errors, pages.errors
