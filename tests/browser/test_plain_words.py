"""Plain words on every page a host or guest sees, in every state a night reaches (issue
36): a whole 8-player classic night with a tie at 0–0 when the bell rings, a break and a
prize roll-off at the end, walked on the home page (every step open), the join page, the
host's console (every tab), both tables' phones, a player's phone, the big screen and the
results page. No page shows a word that belongs to programmers (token, seq, outbox, Wake
Lock, JSON, secure page, WebSocket, API, event log); where a state needs explaining (a
tie at 0–0, a roll-off, a break, provisional results) one plain sentence says it; and on
the phones every tap target is 44×44 px or more, nothing scrolls sideways and axe-core
finds no serious or critical violation; a table's target ("Roll for 1s") is 20 px.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .api_rolls import finish_round, roll
from .conftest import TV, Pages, Server, host_tab, open_table
from .page_checks import check_page, programmer_words

pytestmark = pytest.mark.browser

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
TABS = ("tables", "players", "seating", "prizes", "more")


class Room:
    """Every page of the night, each on its own phone (the big screen on a TV)."""

    def __init__(self, pages: Pages, server: Server, created: dict[str, Any]) -> None:
        night, viewer = created["night"], created["viewer_token"]
        self.server, self.night, self.token = server, night, created["host_token"]
        self.host = pages.open(f"/night/{night}?token={self.token}", name="host")
        expect(self.host.locator("body")).to_have_attribute("data-ready", "yes")
        self.tables = [open_table(pages, created, n) for n in (1, 2)]
        self.player = pages.open(f"/n/{night}/player?token={viewer}", name="player")
        expect(self.player.locator("body")).to_have_attribute("data-ready", "claim")
        check_page(self.player, "who are you?")
        self.player.click("#names [data-player=Cat]")
        expect(self.player.locator("body")).to_have_attribute("data-ready", "yes")
        self.screen = pages.open(f"/n/{night}/screen?token={viewer}", size=TV, name="screen")
        self.end = pages.open(f"/n/{night}/end?token={viewer}", name="results")
        expect(self.end.locator("body")).to_have_attribute("data-ready", "yes")
        self.checked: list[str] = []

    def everywhere(self, state: str) -> None:
        """Every page as it stands in ``state``: the host's in every tab."""
        for tab in TABS:
            host_tab(self.host, tab)
            check_page(self.host, f"{state} · host · {tab}")
        for n, table in enumerate(self.tables, 1):
            check_page(table, f"{state} · table {n}")
            target = "parseFloat(getComputedStyle(document.getElementById('turn-sub')).fontSize)"
            assert table.evaluate(target) >= 20, state  # "Roll for 1s": read at arm's length
        check_page(self.player, f"{state} · player")
        check_page(self.end, f"{state} · results")
        assert programmer_words(self.screen) == [], state  # a TV: read, not tapped
        self.checked.append(state)

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = self.server.state(self.night, self.token)["status"]
        return status


def test_every_page_in_plain_words_through_a_night_a_tie_and_a_roll_off(
    pages: Pages, server: Server
) -> None:
    home = pages.open("/", name="home")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    home.select_option("#money-mode", "pot")
    check_page(home, "home, every step open")
    home.select_option("#money-mode", "tournament")
    expect(home.locator("#money-tournament-note")).to_contain_text("Most Buncos: $100")
    check_page(home, "home, the tournament's money table")
    join = pages.open("/join/ZZZZZZ", name="join")
    expect(join.locator("#join-error")).to_be_visible()
    check_page(join, "join, a wrong code")

    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "Words night", "rules": "classic", "players": EIGHT, "seed": 3},
    )
    room = Room(pages, server, created)
    room.everywhere("before the night")

    # round 1: table 1's Bunco rings the bell while table 2 has entered nothing: 0–0
    roll(server, room.night, room.token, 1, [1, 1, 1])
    two = room.tables[1]
    expect(two.locator("body")).to_have_attribute("data-bell", "true")
    host_tab(room.host, "tables")
    tie = room.host.locator("#overview [data-table='2'] .tie-why")
    expect(tie).to_have_text(re.compile(r"^Tied 0–0 at the bell: no winner yet\. .+\.$"))
    room.everywhere("a tie at 0–0")
    finish_round(server, room.night, room.token, 1)
    expect(room.host.locator("body")).to_have_attribute("data-moment", "between")
    room.everywhere("between rounds")

    server.api(
        "POST",
        f"/api/nights/{room.night}/breaks",
        room.token,
        json={"command_id": "b", "minutes": 5},
    )
    expect(room.host.locator("#now-title")).to_have_text("Break time")
    expect(room.host.locator("#now-text")).to_contain_text(
        "The next round starts when you ring the bell."
    )
    room.everywhere("a break")
    server.api(
        "POST", f"/api/nights/{room.night}/breaks/end", room.token, json={"command_id": "be"}
    )

    for round_no in range(2, 7):
        finish_round(server, room.night, room.token, round_no, seed=round_no)
    expect(room.end.locator("body")).to_have_attribute("data-phase", "rolloff", timeout=20_000)
    expect(room.end.locator(".rolloff-why")).to_contain_text("A tie is settled by a roll-off")
    expect(room.end.locator("#provisional")).to_contain_text("Provisional results")
    room.everywhere("a prize roll-off")
    for n in range(200):
        if room.status()["phase"] != "rolloff":
            break
        server.api(
            "POST",
            f"/api/nights/{room.night}/rolloff",
            room.token,
            json={"command_id": f"ro-{n}", "roll_for_me": True},
        )
    expect(room.end.locator("body")).to_have_attribute("data-phase", "over")
    expect(room.end.locator("#provisional")).to_contain_text(
        "Provisional results: the host may still correct them"
    )
    room.everywhere("the end")
    assert room.checked == [
        "before the night",
        "a tie at 0–0",
        "between rounds",
        "a break",
        "a prize roll-off",
        "the end",
    ]
    assert pages.errors == []
