"""A table's phone follows its round from the live messages: it loads its table's page once
(GET /api/nights/<id>/tables/<n>, a few kilobytes) and then needs no GET at all, not per
entry, not at the bell, not when the round changes (the server pushes the table's page:
its new players, the round's result there, where everyone goes), not after a reconnect."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, open_table

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_a_table_page_gets_nothing_over_a_round(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    table = open_table(pages, created, 2)
    gets: list[str] = []
    table.on("request", lambda r: gets.append(r.url) if r.method == "GET" and re.search(
        rf"/api/nights/{night}(/tables/\d+)?$", r.url) else None)
    assert table.evaluate("document.body.dataset.gets") == "1"   # the page's first load

    def tap(outcome: str) -> None:
        table.click(f"#taps [data-outcome='{outcome}']")
        expect(table.locator("#pending")).to_have_text("")

    def api_roll(t: int, dice: list[int], n: int) -> int:
        reply = server.api("POST", f"/api/nights/{night}/tables/{t}/rolls", host,
                           json={"command_id": f"gets-{t}-{n}", "dice": dice})
        return int(reply["seq"])

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
    # the pushed page: this table's result, where its four go and who comes here
    expect(table.locator("#moves-box")).to_be_visible()
    expect(table.locator("#leaving li")).to_have_count(4)
    expect(table.locator("#coming li")).to_have_count(4)
    expect(table.locator("#moves-box")).to_contain_text("won here")
    assert gets == []                             # no GET for the new round either
    # a dropped connection, an entry meanwhile: the hello of the new connection brings the
    # table's page, still no GET
    sockets: list[str] = []
    table.on("websocket", lambda ws: sockets.append(ws.url))
    table.context.set_offline(True)
    seq = api_roll(2, [3, 4, 5], 4)               # round 2 (2s): a miss at this table
    table.context.set_offline(False)
    expect(table.locator("body")).to_have_attribute("data-seq", str(seq))
    assert len(sockets) == 1 and "since=" in sockets[0]
    assert gets == []
    assert table.evaluate("document.body.dataset.gets") == "1"
    assert pages.errors == []


def test_a_player_page_follows_its_table_without_the_whole_night(
        pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Player GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    player = pages.open(f"/n/{night}/player?token={created['viewer_token']}", name="Eve")
    player.click("#names [data-player=Eve]")
    expect(player.locator("body")).to_have_attribute("data-ready", "yes")
    expect(player.locator("#seat-line")).to_contain_text("seat 1")
    whole: list[str] = []
    player.on("request", lambda r: whole.append(r.url) if r.method == "GET" and re.search(
        rf"/api/nights/{night}$", r.url) else None)
    rng = random.Random(3)
    for n in range(400):  # whoever may roll rolls until round 1 is over
        status = server.state(night, host)["status"]
        if status["round"] != 1:
            break
        table = status["expects"][0]["table"]
        server.api("POST", f"/api/nights/{night}/tables/{table}/rolls", host,
                   json={"command_id": f"p-{n}", "dice": [rng.randint(1, 6) for _ in range(3)]})
    view = server.state(night, host)["view"]
    move = next(m for m in view["moves"] if m["player"] == "Eve")
    # the pushed page of table 2 says where Eve goes; the page then follows that table
    expect(player.locator("#bigmove")).to_be_visible()
    expect(player.locator("#seat-line")).to_contain_text(
        f"Table {move['to']['table']}")
    expect(player.locator("#seat-line")).to_contain_text(f"seat {move['to']['seat']}")
    card = view["players"]["Eve"]
    expect(player.locator("[data-stat=W] b")).to_have_text(str(card["wins"]))
    assert whole == []                            # never the whole night
    assert pages.errors == []


def test_a_big_screen_patches_rolls_and_reloads_rarely(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Screen GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    screen = pages.open(f"/n/{night}/screen?token={created['viewer_token']}",
                        size={"width": 1920, "height": 1080}, name="screen")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    gets: list[float] = []
    screen.on("request", lambda r: gets.append(time.monotonic()) if r.method == "GET"
              and re.search(rf"/api/nights/{night}$", r.url) else None)
    start = time.monotonic()
    for n in range(24):  # misses in round 1 (no 1s): the round goes on, the turn moves
        server.api("POST", f"/api/nights/{night}/tables/{1 + n % 2}/rolls", host,
                   json={"command_id": f"s-{n}", "dice": [2, 3, 5]})
    state = server.state(night, host)
    for t in state["view"]["tables"]:  # each table's card shows its roller now
        expect(screen.locator(f"article[data-table='{t['table']}'] .tv-roller")).to_have_text(
            f"{t['roller']} rolls")
    elapsed = time.monotonic() - start
    # a reload of the whole night at most every 3 s while rolls come in (not one per roll)
    assert len(gets) <= 1 + elapsed / 3, (len(gets), elapsed)
    assert pages.errors == []
