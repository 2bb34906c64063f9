"""A scripted night with an outage at every table in every round ends with the same score
cards as the same night played online: six rounds of ``classic`` at two tables, every
entry tapped on the tables' pages; in the outage night each table's phone is offline
while it taps (``context.set_offline``) and sends when it is back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server
from .outage import EIGHT, create, drained, offline, open_ready, seated_first, tap

pytestmark = pytest.mark.browser


def burst(page: Page, outcomes: list[str], *, outage: bool) -> None:
    """Tap ``outcomes`` at a table: with ``outage``, offline, then back and sent (a new
    round's seating confirmed first, online: the players sat down before the outage, once
    the page had the room's last word: not "checking with the server")."""
    expect(page.locator("body")).to_have_attribute("data-checking", "no")
    seated_first(page)
    if outage:
        offline(page)
    for outcome in outcomes:
        tap(page, outcome)
    if outage:
        expect(page.locator("body")).not_to_have_attribute("data-unsent", "0")
        offline(page, False)
    drained(page)


def play(pages: Pages, server: Server, *, outage: bool) -> dict[str, Any]:
    """The scripted night; returns the night as the server ends it."""
    created = create(server, players=EIGHT, seed=21)
    night, host = created["night"], created["host_token"]
    tables = {n: open_ready(pages, created, n) for n in (1, 2)}
    for r in range(1, 7):
        for page in tables.values():
            expect(page.locator("body")).to_have_attribute("data-round", str(r))
        burst(tables[2], ["+1", "miss", "+2"], outage=outage)  # 1-2, Them rolling on
        burst(tables[1], ["bunco", "miss"], outage=outage)  # the bell, then its end
        expect(tables[2].locator("body")).to_have_attribute("data-status", "finishing")
        burst(tables[2], ["miss"], outage=outage)  # the turn under way ends
        if r < 6:
            expect(tables[1].locator("body")).to_have_attribute("data-round", str(r + 1))
    state = server.state(night, host)
    refused = [p.locator("body").get_attribute("data-refused") for p in tables.values()]
    assert refused == ["0", "0"]
    for page in tables.values():
        page.context.close()
    return state


def test_a_night_with_an_outage_at_every_table_in_every_round(pages: Pages, server: Server) -> None:
    online = play(pages, server, outage=False)
    outages = play(pages, server, outage=True)
    assert online["view"]["phase"] != "playing"  # six rounds: the night is done
    assert outages["seq"] == online["seq"]  # not one entry more or less
    cards = outages["view"]["players"]
    assert cards == online["view"]["players"] and len(cards) == 8
    assert sum(c["buncos"] for c in cards.values()) == 6  # one Bunco a round
    assert outages["view"]["standings"] == online["view"]["standings"]
