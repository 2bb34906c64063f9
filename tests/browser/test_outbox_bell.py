"""Entries tapped before the bell that arrive after it (docs/outbox.md): store and forward.
An entry tapped during play counts in its round while its table has not moved past it (no
entry there since the bell, the room not moved on): the table's result is worked out
again, its tie-break dropped, and the room waits for a phone that still holds entries of
the round. Once the round has closed they come back to the table as a question, never
moved into the next round, and the host sees them too."""

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
    """Table 2's phone is offline from before its first tap until after the bell: at the
    bell table 2 stood 0-0 (a tie-break). Its six entries, tapped before the bell, count
    there: 6 tapped, 6 stored in round 1 for the roller each was tapped for, 0 held, 0
    doubled; the tie-break is dropped and Hal, in mid-turn at the bell, finishes it."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 2)
    offline(page)
    head_table_to_the_bell(server, night, host, finish=True)  # the bell, table 1 done
    assert server.state(night, host)["view"]["tables"][1]["status"] == "tie_break"
    for outcome in SIX:  # Eve +1, Eve miss, Fay +2, Fay miss, Gus miss, Hal +1
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    assert len(tapped) == 6
    offline(page, False)
    drained(page)
    stored = landed(server, night, host)  # (asserts no command id was stored twice)
    assert check_placed(tapped, stored) == 6 and by_round(tapped, stored) == [1]
    assert [stored[e["id"]].roller for e in tapped] == ["Eve", "Eve", "Fay", "Fay", "Gus", "Hal"]
    table = server.state(night, host)["view"]["tables"][1]
    assert table["team_scores"] == [1, 3] and table["tie_break"] is None
    assert (table["status"], table["roller"], table["rolls"]) == ("finishing", "Hal", 6)
    expect(page.locator("#turn-text")).to_have_text("Hal finishes the turn")
    expect(page.locator("#held-box")).to_be_hidden()
    assert page.locator("body").get_attribute("data-refused") == "0"
    assert outbox(page, night, 2) == []
    assert not pages.errors, pages.errors


def test_the_bell_rang_mid_turn_during_the_outage(pages: Pages, server: Server) -> None:
    """Fay is mid-turn (+2 recorded online) when table 2's phone goes offline; the bell
    rings; the scorekeeper taps six more, all rolled before the bell. Fay's miss settles
    table 2 with three entries still on the phone: the room waits for them (the round
    does not end), and all six count: 6 tapped, 6 stored in round 1, 0 held, 0 doubled."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 2)
    tap(page, "miss")  # Eve misses: Fay rolls
    tap(page, "+2")  # Fay +2, rolling on
    drained(page)
    assert outbox(page, night, 2) == []  # both recorded, neither refused
    assert page.locator("body").get_attribute("data-roller") == "Fay"
    offline(page)
    head_table_to_the_bell(server, night, host, finish=True)
    for outcome in ["+1", "+2", "miss", "+1", "miss", "miss"]:
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    offline(page, False)
    drained(page)
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 6 and by_round(tapped, stored) == [1]
    assert [stored[e["id"]].roller for e in tapped] == ["Fay"] * 3 + ["Gus"] * 2 + ["Hal"]
    state = server.state(night, host)
    assert state["status"]["round"] == 2  # the room went on once the phone's last was in
    last = state["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [1, 5] and last["winners"] == ["Fay", "Hal"]
    kinds = [
        e["event"]["type"] for e in server.api("GET", f"/api/nights/{night}/events", host)["events"]
    ]
    assert kinds.count("wait_for_phone") == 1 and kinds.count("go_on") == 1
    expect(page.locator("#held-box")).to_be_hidden()
    assert not pages.errors, pages.errors


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
        "6 entries from round 1 arrived after the round closed: the room has moved on:"
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
