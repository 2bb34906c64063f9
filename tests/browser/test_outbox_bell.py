"""Entries tapped before the bell that arrive after it (docs/outbox.md): applied in their
round while their table's result is not final (the turn under way is finished, by the
rules), refused once it is; never moved into the next round. Every refused entry comes
back to the table as a question, and the host sees it too."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server
from .outage import EIGHT, check_placed, create, drained, landed, offline, open_ready, outbox, tap

pytestmark = pytest.mark.browser
SIX = ["+1", "miss", "+2", "miss", "miss", "+1"]


def head_table_to_the_bell(server: Server, night: str, host: str, *, finish: bool) -> None:
    """Table 1 scores +2 until the bell rings (21), then (``finish``) misses to end its
    finishing turn (the host's entries, through the API)."""
    for n in range(40):
        if server.state(night, host)["status"]["bell"]:
            break
        server.api(
            "POST",
            f"/api/nights/{night}/tables/1/rolls",
            host,
            json={"command_id": f"head-{n}", "dice": [1, 1, 2]},
        )
    if finish:
        server.api(
            "POST",
            f"/api/nights/{night}/tables/1/rolls",
            host,
            json={"command_id": "head-end", "dice": [2, 3, 4]},
        )


def by_round(tapped: list[dict[str, Any]], stored: dict[str, Any]) -> list[int]:
    return sorted({stored[e["id"]].round_no for e in tapped if e["id"] in stored})


def test_the_head_tables_bell_rang_during_the_outage(pages: Pages, server: Server) -> None:
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 2)
    offline(page)
    head_table_to_the_bell(server, night, host, finish=True)  # the bell, table 1 done
    for outcome in SIX:  # Eve +1, Eve miss, ...
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    offline(page, False)
    # at the bell no turn was under way at table 2 (Eve had not rolled): its round was
    # over there (the rules: only a turn in progress is finished), so all six come back
    expect(page.locator("#held-box")).to_be_visible()
    expect(page.locator("#held-box h2")).to_have_text(
        "6 entries from round 1 arrived after the round closed at this table:"
    )
    expect(page.locator("#held-box li")).to_have_text(
        ["Eve: +1", "Eve: Miss", "Fay: +2", "Fay: Miss", "Gus: Miss", "Hal: +1"]
    )
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 0
    state = server.state(night, host)
    assert state["status"]["round"] == 2 or state["view"]["tables"][1]["status"] != "playing"
    assert all(e["id"] not in stored for e in tapped)
    drained(page)
    assert page.locator("body").get_attribute("data-refused") == "6"
    page.click("#held-box [data-act=discard]")
    expect(page.locator("#held-box")).to_be_hidden()
    assert outbox(page, night, 2) == []


def test_the_bell_rang_mid_turn_during_the_outage(pages: Pages, server: Server) -> None:
    """Fay is mid-turn (+2 recorded online) when table 2's phone goes offline; the bell
    rings; the scorekeeper taps six more. Fay's turn is finished by the rules (+1, +2, then
    her miss), the rest is refused, with the host told."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 2)
    tap(page, "miss")  # Eve misses: Fay rolls
    tap(page, "+2")  # Fay +2, rolling on (tapped at once: for Fay, whether or not the
    # page's state has Eve's miss yet, outbox.recordedAfter)
    drained(page)
    assert outbox(page, night, 2) == []  # both recorded, neither refused
    assert page.locator("body").get_attribute("data-roller") == "Fay"
    offline(page)
    head_table_to_the_bell(server, night, host, finish=True)
    for outcome in ["+1", "+2", "miss", "+1", "miss", "miss"]:
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    offline(page, False)
    expect(page.locator("#held-box li")).to_have_count(3)
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 3 and by_round(tapped, stored) == [1]
    assert [stored[e["id"]].roller for e in tapped if e["id"] in stored] == ["Fay"] * 3
    host_page = pages.open(f"/n/{night}/host?token={host}", name="host")
    rows = host_page.locator("#phones-rows tr[data-table='2']")
    expect(rows).to_have_attribute("data-refused", "3")
    expect(rows).to_contain_text("3 refused entries for the table to decide")
    page.click("#held-box [data-act=host]")
    expect(page.locator("#held-box")).to_be_hidden()
    expect(host_page.locator("#set-aside-list li")).to_have_count(3, timeout=15_000)
    expect(host_page.locator("#set-aside-list li").first).to_contain_text("Table 2 · Gus: +1")
    host_page.locator("#set-aside-list li button").first.click()
    expect(host_page.locator("#set-aside-list li")).to_have_count(2)


def test_the_round_ended_everywhere_during_a_short_outage(pages: Pages, server: Server) -> None:
    """winning-moves: during a 25 s outage at table 2, a Bunco at table 1 ends the round
    everywhere. None of table 2's six entries lands in round 2: all six come back as one
    question; the host, warned before starting the next round, chooses to wait."""
    created = create(server, players=EIGHT, rules="winning-moves")
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 2)
    host_page = pages.open(f"/n/{night}/host?token={host}", name="host")
    expect(host_page.locator("body")).to_have_attribute("data-ready", "yes")
    tap(page, "+1")  # Eve +1: table 2 leads 1-0
    drained(page)
    page.clock.install()
    offline(page)
    for outcome in SIX:
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    server.api(
        "POST",
        f"/api/nights/{night}/tables/1/rolls",
        host,
        json={"command_id": "head-bunco", "dice": [1, 1, 1]},
    )  # round over everywhere
    page.clock.run_for(25_000)
    expect(page.locator("#pending")).to_contain_text("6 entries not sent yet")
    offline(page, False)
    page.clock.run_for(16_000)
    expect(page.locator("#held-box h2")).to_have_text(
        "6 entries from round 1 arrived after the round closed at this table:"
    )
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 0
    state = server.state(night, host)
    assert state["status"]["round"] == 2 and state["view"]["tables"][1]["rolls"] == 0
    assert state["view"]["last_round"]["tables"][1]["team_scores"] == [1, 0]
    # the host, about to start round 2, is told first and waits
    page.clock.run_for(16_000)  # the phone's report
    expect(host_page.locator("#phones-rows tr[data-table='2']")).to_have_attribute(
        "data-refused", "6", timeout=15_000
    )
    host_page.click("#start-round")
    expect(host_page.locator("#confirm-title")).to_have_text("Entries still on the tables' phones")
    expect(host_page.locator("#confirm-text")).to_contain_text("Table 2: 6 refused entries")
    host_page.click("#confirm-no")  # Wait
    assert server.state(night, host)["view"]["started"] is False
