"""The host seats by hand on the host page, and may override scil's partner rule (003:
"You may not be on the same team with someone two rounds in a row").

Between rounds the host swaps two players' seats. A swap that puts round 1's partners
together again is refused with the rule named; "Keep the seating" leaves it as it was,
"Seat anyway (override the rule)" sends the same seating saying it overrides the rule,
which the night records (and the cards then mark). A swap that keeps nobody together is
simply made.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .api_rolls import finish_round, roll
from .conftest import Pages, Server, audit, axe, host_tab, shoot

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def across(tables: list[list[str]], name: str) -> str:
    """``name``'s partner in a seating of four-seat team tables (the seat across)."""
    table = next(t for t in tables if name in t)
    return table[(table.index(name) + 2) % 4]


def test_the_host_may_seat_against_the_partner_rule_only_by_saying_so(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST", "/api/nights", json={"name": "Scil night", "rules": "scil", "players": EIGHT}
    )
    nid, host = created["night"], created["host_token"]
    first = server.state(nid, host)["view"]["next"]["tables"]
    finish_round(server, nid, host, 1)
    page = pages.open(f"/n/{nid}/host?token={host}", name="host-seat")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(page, "players")  # seating by hand is under Players
    card = page.locator("#seat-hand-card")
    expect(card).to_be_visible()
    upcoming = server.state(nid, host)["view"]["next"]["tables"]
    expect(page.locator("#seat-hand-list li")).to_have_text(
        [f"Table {i + 1}: {', '.join(t)}" for i, t in enumerate(upcoming)]
    )

    # a swap that puts round 1's partners together again: Ann's partner of round 1 takes
    # the seat across from her
    ann_was_with = across(first, first[0][0])
    ann_now_with = across(upcoming, first[0][0])
    page.select_option("#swap-a", ann_was_with)
    page.select_option("#swap-b", ann_now_with)
    page.click("#swap-seats")
    refused = page.locator("#seat-refused")
    expect(refused).to_be_visible()
    expect(refused).to_contain_text("no_repeat_partners")
    expect(refused).to_contain_text("two rounds in a row")
    expect(refused).to_contain_text(f"{first[0][0]} & {ann_was_with}")
    shoot(page, "host-seat-refused", ("phone",))
    assert audit(page) == []
    assert [v for v in axe(page) if v["impact"] in ("serious", "critical")] == []
    page.click("#seat-keep")  # nothing is sent: the seating stays the engine's
    expect(refused).to_be_hidden()
    assert server.state(nid, host)["view"]["next"]["tables"] == upcoming

    page.click("#swap-seats")
    expect(refused).to_be_visible()
    page.click("#seat-anyway")
    expect(refused).to_be_hidden()
    state = server.state(nid, host)
    seated = [
        [ann_now_with if p == ann_was_with else ann_was_with if p == ann_now_with else p for p in t]
        for t in upcoming
    ]
    assert state["view"]["next"]["tables"] == seated
    assert across(seated, first[0][0]) == ann_was_with
    log = server.api("GET", f"/api/nights/{nid}/events", host)
    seat = [e["event"] for e in log["events"] if e["event"]["type"] == "seat"]
    assert len(seat) == 1 and seat[0]["overrides"] == ["no_repeat_partners"]
    change = server.api("GET", f"/api/nights/{nid}/report", host)["changes"][-1]
    assert sorted(first[0][0:3:2]) in [sorted(p) for p in change["partners_kept"]]
    expect(page.locator("#seat-hand-list li").first).to_contain_text(", ".join(seated[0]))
    assert not pages.errors

    # once the round is under way the card is gone; between rounds it is back
    status = server.state(nid, host)["status"]
    roll(server, nid, host, status["expects"][0]["table"], [2, 3, 4])
    expect(card).to_be_hidden()
    finish_round(server, nid, host, 2)
    expect(card).to_be_visible()
    assert not pages.errors
