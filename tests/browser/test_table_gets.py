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


def play_round_one(server: Server, night: str, host: str, *, seed: int) -> None:
    """Whoever may roll rolls (seeded dice, through the API) until round 1 is over."""
    rng = random.Random(seed)
    for n in range(400):
        status = server.state(night, host)["status"]
        if status["round"] != 1:
            return
        table = status["expects"][0]["table"]
        server.api(
            "POST",
            f"/api/nights/{night}/tables/{table}/rolls",
            host,
            json={"command_id": f"r1-{seed}-{n}", "dice": [rng.randint(1, 6) for _ in range(3)]},
        )
    raise AssertionError("round 1 did not end")


def test_a_table_page_gets_nothing_over_a_round(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    table = open_table(pages, created, 2)
    gets: list[str] = []
    table.on(
        "request",
        lambda r: (
            gets.append(r.url)
            if r.method == "GET" and re.search(rf"/api/nights/{night}(/tables/\d+)?$", r.url)
            else None
        ),
    )
    assert table.evaluate("document.body.dataset.gets") == "1"  # the page's first load

    def tap(outcome: str) -> None:
        table.click(f"#taps [data-outcome='{outcome}']")
        expect(table.locator("#pending")).to_have_text("")

    def api_roll(t: int, dice: list[int], n: int) -> int:
        reply = server.api(
            "POST",
            f"/api/nights/{night}/tables/{t}/rolls",
            host,
            json={"command_id": f"gets-{t}-{n}", "dice": dice},
        )
        return int(reply["seq"])

    # a round's entries at this table, and another table's, and the undo: no GET
    # Eve and Fay miss, Gus +1 +2 and a miss, Hal a miss (undone: Hal rolls again)
    for outcome in ("miss", "miss", "+1", "+2", "miss", "miss"):
        tap(outcome)
    table.click("#undo")
    expect(table.locator("#turn-text")).to_have_text("Hal rolls")
    api_roll(1, [2, 3, 5], 1)
    tap("+1")  # Hal: +1, rolling on
    expect(table.locator("#turn-text")).to_have_text("Hal rolls")
    assert gets == []
    # the bell (table 1's Bunco): the status message says so, still no GET
    api_roll(1, [1, 1, 1], 2)
    expect(table.locator("#bell")).to_be_visible()
    expect(table.locator("body")).to_have_attribute("data-status", "finishing")
    assert gets == []
    tap("miss")  # Hal's turn ends: 3-1 for Eve & Gus
    expect(table.locator("body")).to_have_attribute("data-status", "done")
    api_roll(1, [2, 3, 5], 3)  # Ann finishes her turn: the round is over
    expect(table.locator("body")).to_have_attribute("data-round", "2")
    # the pushed page: this table's result, where its four go and who comes here
    expect(table.locator("#moves-box")).to_be_visible()
    expect(table.locator("#leaving li")).to_have_count(4)
    expect(table.locator("#coming li")).to_have_count(4)
    expect(table.locator("#moves-box")).to_contain_text("won here")
    assert gets == []  # no GET for the new round either
    # a dropped connection, an entry meanwhile: the hello of the new connection brings the
    # table's page, still no GET
    sockets: list[str] = []
    table.on("websocket", lambda ws: sockets.append(ws.url))
    table.context.set_offline(True)
    # another phone of the table confirms its new seating, then a miss in round 2 (2s)
    server.api(
        "POST",
        f"/api/nights/{night}/tables/2/seated",
        host,
        json={"command_id": "gets-seated"},
    )
    seq = api_roll(2, [3, 4, 5], 4)
    table.context.set_offline(False)
    expect(table.locator("body")).to_have_attribute("data-seq", str(seq))
    # one new socket (a second attempt when Chromium's offline emulation lifts a moment
    # late for a page under a service worker), each asking from the seq it saw
    assert 1 <= len(sockets) <= 2 and all("since=" in s for s in sockets)
    assert gets == []
    assert table.evaluate("document.body.dataset.gets") == "1"
    assert pages.errors == []


def test_a_player_page_follows_its_player_to_the_next_table_on_one_socket(
    pages: Pages, server: Server
) -> None:
    """Eve and Fay sit at table 2, on opposite teams: after round 1 the winners go up to
    table 1. Each page keeps the one WebSocket it opened (?player=) and shows its new seat
    from the pushed page, with no GET of the night or of a table."""
    created = server.api("POST", "/api/nights", json={"name": "Player GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    phones = {}
    sockets: dict[str, list[str]] = {"Eve": [], "Fay": []}
    gets: dict[str, list[str]] = {"Eve": [], "Fay": []}
    for name in sockets:
        phone = pages.open(f"/n/{night}/player?token={created['viewer_token']}", name=name)
        phone.on("websocket", lambda ws, n=name: sockets[n].append(ws.url))
        phone.click(f"#names [data-player={name}]")
        expect(phone.locator("body")).to_have_attribute("data-ready", "yes")
        expect(phone.locator("#seat-line")).to_contain_text("Table 2")
        phone.on(
            "request",
            lambda r, n=name: (
                gets[n].append(r.url)
                if r.method == "GET" and re.search(rf"/api/nights/{night}(/tables/\d+)?$", r.url)
                else None
            ),
        )
        phones[name] = phone
    for name in sockets:
        assert len(sockets[name]) == 1 and f"player={name}" in sockets[name][0]
    play_round_one(server, night, host, seed=3)
    view = server.state(night, host)["view"]
    goes = {m["player"]: m["to"] for m in view["moves"]}
    assert {goes["Eve"]["table"], goes["Fay"]["table"]} == {1, 2}  # one moved up
    for name, phone in phones.items():
        expect(phone.locator("#bigmove")).to_be_visible()
        expect(phone.locator("#seat-line")).to_contain_text(f"Table {goes[name]['table']}")
        expect(phone.locator("#seat-line")).to_contain_text(f"seat {goes[name]['seat']}")
        card = view["players"][name]
        expect(phone.locator("[data-stat=W] b")).to_have_text(str(card["wins"]))
    # round 2 (the head table's bell begins it everywhere): a roll at each player's new
    # table reaches its page on the same socket
    server.api("POST", f"/api/nights/{night}/start", host, json={"command_id": "r2-bell"})
    for name, phone in phones.items():
        table = goes[name]["table"]
        seq = server.api(
            "POST",
            f"/api/nights/{night}/tables/{table}/rolls",
            host,
            json={"command_id": f"r2-{name}", "dice": [2, 3, 5]},
        )["seq"]
        expect(phone.locator("body")).to_have_attribute("data-seq", str(seq))
    assert sockets == {name: sockets[name][:1] for name in sockets}  # no new WebSocket
    assert gets == {"Eve": [], "Fay": []}  # nothing fetched: the pages were pushed
    assert pages.errors == []


def test_a_player_page_sat_out_and_back_keeps_its_socket(pages: Pages, server: Server) -> None:
    """Between rounds the host puts a substitute in Ann's seat: her page says she is not
    seated (the server tells her socket she follows no table; the page loads the night),
    and when she comes back in it shows her seat again, on the same socket."""
    created = server.api("POST", "/api/nights", json={"name": "Sat out", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    sockets: list[str] = []
    phone = pages.open(f"/n/{night}/player?token={created['viewer_token']}", name="Ann")
    phone.on("websocket", lambda ws: sockets.append(ws.url))
    phone.click("#names [data-player=Ann]")
    expect(phone.locator("body")).to_have_attribute("data-ready", "yes")
    play_round_one(server, night, host, seed=5)
    server.api(
        "POST",
        f"/api/nights/{night}/substitutes",
        host,
        json={"command_id": "out", "out": "Ann", "in": "Ivy"},
    )
    expect(phone.locator("#where")).to_contain_text("Not seated this round")
    server.api(
        "POST",
        f"/api/nights/{night}/substitutes",
        host,
        json={"command_id": "back", "out": "Ivy", "in": "Ann"},
    )
    seat = next(m["to"] for m in server.state(night, host)["view"]["moves"] if m["player"] == "Ann")
    expect(phone.locator("#seat-line")).to_contain_text(f"Table {seat['table']}")
    expect(phone.locator("#seat-line")).to_contain_text(f"seat {seat['seat']}")
    assert len(sockets) == 1 and "player=Ann" in sockets[0]
    assert pages.errors == []


def test_a_big_screen_patches_rolls_and_reloads_rarely(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Screen GETs", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    screen = pages.open(
        f"/n/{night}/screen?token={created['viewer_token']}",
        size={"width": 1920, "height": 1080},
        name="screen",
    )
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    gets: list[float] = []
    screen.on(
        "request",
        lambda r: (
            gets.append(time.monotonic())
            if r.method == "GET" and re.search(rf"/api/nights/{night}$", r.url)
            else None
        ),
    )
    start = time.monotonic()
    for n in range(24):  # misses in round 1 (no 1s): the round goes on, the turn moves
        server.api(
            "POST",
            f"/api/nights/{night}/tables/{1 + n % 2}/rolls",
            host,
            json={"command_id": f"s-{n}", "dice": [2, 3, 5]},
        )
    state = server.state(night, host)
    for t in state["view"]["tables"]:  # each table's card shows its roller now
        expect(screen.locator(f"article[data-table='{t['table']}'] .tv-roller")).to_have_text(
            f"{t['roller']} rolls"
        )
    elapsed = time.monotonic() - start
    # a reload of the whole night at most every 3 s while rolls come in (not one per roll)
    assert len(gets) <= 1 + elapsed / 3, (len(gets), elapsed)
    assert pages.errors == []
