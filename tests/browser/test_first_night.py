"""A first-time host, on a 390×844 phone, from the home page to the prizes of a 12-player
night and of a 120-player night (issue 36), counting the taps and the screens.

The host sets the night up on the home page (only the players typed: every default
kept), saves the host link and runs the night from the host's console. The tables' rolls
go through the API (the table page is not what is tested here); the host's taps are. In
every moment of the night (before it starts, a round in play, between rounds, a break,
the end) and in every tab of the console the page is at most four screens tall, the bell
or the round's start is on the first screen, every tap target is 44×44 px or more,
nothing scrolls sideways, no word on it belongs to programmers and axe-core finds no
serious or critical violation. At 120 players a table calling the host is listed first
under Tables, one table and one player are found by number and by name, a guest finds
their name in a box on the players' page's first screen, and the night ends early from
the console (two rounds played) with its prizes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import finish_round
from .conftest import Pages, Server, host_tab, shoot
from .page_checks import MOST_SCREENS, check_page, in_first_screen

pytestmark = pytest.mark.browser

TABS = ("tables", "players", "seating", "prizes", "more")


class Host:
    """The host's phone: every tap counted."""

    def __init__(self, page: Page, label: str) -> None:
        self.page, self.label = page, label
        self.taps = 0
        self.rolls = 0  # a prize roll-off's rolls, one tap each (as many as the dice say)
        self.seen: dict[str, float] = {}  # moment · tab → screens tall

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1

    def tab(self, name: str) -> None:
        before = self.page.locator(f"#tabs [data-tab={name}]").get_attribute("aria-selected")
        host_tab(self.page, name)
        self.taps += before != "true"

    def every_tab(self, moment: str) -> None:
        """Each tab of the console in this moment, checked; the moment's own tab last."""
        page = self.page
        own = page.locator("#tabs [aria-selected=true]").get_attribute("data-tab") or "tables"
        for name in (*[t for t in TABS if t != own], own):
            host_tab(page, name)
            page.wait_for_timeout(150)  # a tab drawn from the view in hand, and its polls
            try:
                measured = check_page(page, f"{moment} · {name}", most=MOST_SCREENS)
            except AssertionError:  # the page as it failed, to look at
                shoot(page, f"first-night-{self.label}-{moment}-{name}", ("phone",))
                raise
            self.seen[f"{moment} · {name}"] = measured["screens"]


def set_up_on_the_home_page(
    pages: Pages, players: list[str], *, shared: bool = False
) -> tuple[Host, str, str]:
    """The host opens the home page, types the players, starts and saves the host link;
    ``shared``: in step 3 (optional), a tie for a prize is shared rather than rolled off."""
    page = pages.open("/", name="first-time host")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    host = Host(page, str(len(players)))
    # both ways in are on the first screen; the start is reached without the optional parts
    assert in_first_screen(page, "#start-title") and in_first_screen(page, "#join-code")
    check_page(page, "home", most=2.5)
    page.fill("#players", "\n".join(players))
    expect(page.locator("#player-count")).to_contain_text(f"{len(players)} players")
    if shared:
        host.tap("#step-prizes > summary")
        page.select_option("#prize-ties", "shared")
        host.taps += 1
        check_page(page, "home, step 3 open")
    host.tap("#start")
    expect(page.locator("#saved")).to_be_visible()
    check_page(page, "save the host link")
    host.tap("#open-host")
    page.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=30_000)
    night = page.url.split("/")[-2]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('bunco:{night}:host'))")
    return host, night, token


def ring_the_bell(host: Host, round_no: int) -> None:
    """The round's start is the first thing on the first screen: one tap."""
    page = host.page
    expect(page.locator("#start-round")).to_contain_text(f"start round {round_no}")
    assert in_first_screen(page, "#start-round")
    host.tap("#start-round")
    expect(page.locator("body")).to_have_attribute("data-moment", "play")


def roll_off(host: Host) -> None:
    """One roll of a prize's roll-off: "Roll for Ann" (the server's dice), one tap."""
    page = host.page
    before = page.locator("#rolloff-box").inner_text()
    page.click("#rolloff-roll")
    host.rolls += 1
    page.wait_for_function(
        "(before) => document.body.dataset.phase !== 'rolloff'"
        " || document.getElementById('rolloff-box').innerText !== before",
        arg=before,
    )


def moment(page: Page, name: str, title: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-moment", name, timeout=30_000)
    expect(page.locator("#now-title")).to_contain_text(title)
    assert in_first_screen(page, "#now-card")


def test_a_first_time_host_runs_a_12_player_night(pages: Pages, server: Server) -> None:
    players = [f"Guest {i:02d}" for i in range(1, 13)]
    host, night, token = set_up_on_the_home_page(pages, players)
    page = host.page
    assert host.taps == 2  # Start the night, open the host page

    moment(page, "before", "Before round 1")
    expect(page.locator("#now-text")).to_contain_text("scans the QR code")
    host.every_tab("before")
    host_tab(page, "seating")  # one card at a time: table 2's, one tap
    host.tap("#seat-pick [data-seat='2']")
    expect(page.locator("#sheet .seat-card[data-table='2']")).to_be_visible()
    expect(page.locator("#sheet .seat-card[data-table='1']")).to_be_hidden()
    ring_the_bell(host, 1)

    moment(page, "play", "Round 1 in play")
    host.every_tab("play")
    host.tab("tables")  # find a table: its card, with its undo
    page.fill("#find-table", "3")
    expect(page.locator("#found-table-card[data-table='3'] [data-undo-found='3']")).to_be_visible()
    finish_round(server, night, token, 1)

    moment(page, "between", "Round 1 is over")
    expect(page.locator("#moves .moves li")).to_have_count(12)
    host.every_tab("between")
    host.tab("players")  # find a player: where they sit next
    page.fill("#find-player", "guest 07")
    expect(page.locator("#found-player-card")).to_contain_text("Next round: Table")
    ring_the_bell(host, 2)
    finish_round(server, night, token, 2, seed=2)

    # a break between rounds 2 and 3, from the Prizes tab
    moment(page, "between", "Round 2 is over")
    host.tab("prizes")
    host.tap("#break-start")
    moment(page, "break", "Break time")
    expect(page.locator("#now-text")).to_contain_text("left")
    host.every_tab("break")
    assert in_first_screen(page, "#now-break-end")
    host.tap("#now-break-end")
    moment(page, "between", "Round 2 is over")

    for round_no in range(3, 7):
        ring_the_bell(host, round_no)
        finish_round(server, night, token, round_no, seed=round_no)
    expect(page.locator("body")).to_have_attribute("data-phase", re.compile("over|rolloff"))
    while page.locator("body").get_attribute("data-phase") == "rolloff":  # a tied prize
        moment(page, "rolloff", "Roll-off")
        check_page(page, "roll-off")
        roll_off(host)
    moment(page, "end", "The night is over")
    host.every_tab("end")
    taps = host.taps
    host.tap("#results-link")
    page.wait_for_url(re.compile(r"/end$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    assert in_first_screen(page, "#prizes-title")
    expect(page.locator("#prizes .prize").first).to_be_visible()
    check_page(page, "results", most=MOST_SCREENS)
    # home to prizes: start, open, 6 bells, the break (tab, start, end), the prizes; and
    # the taps to look (table 2's card, the Tables and Players tabs to find one of each)
    assert taps + 1 == 2 + 6 + 3 + 1 + 3, host.taps
    assert max(host.seen.values()) <= MOST_SCREENS, host.seen
    assert pages.errors == []
    print("12 players:", host.taps, "taps,", host.rolls, "roll-off rolls", host.seen)


def call(server: Server, night: str, token: str, table: int) -> Any:
    return server.api(
        "POST", f"/api/nights/{night}/tables/{table}/call", token, json={"command_id": f"c{table}"}
    )


def test_a_first_time_host_runs_a_120_player_night(pages: Pages, server: Server) -> None:
    players = [f"Guest {i:03d}" for i in range(1, 121)]
    host, night, token = set_up_on_the_home_page(pages, players, shared=True)
    page = host.page
    assert host.taps == 4  # step 3, a tie is shared, Start the night, open the host page
    moment(page, "before", "Before round 1")
    host.every_tab("before")
    ring_the_bell(host, 1)

    moment(page, "play", "Round 1 in play")
    call(server, night, token, 17)  # a table calls the host: first under Tables
    host.tab("tables")
    first = page.locator("#needs-list li").first
    expect(first).to_have_attribute("data-table", "17")
    assert (
        page.locator("#room-needs").bounding_box()["y"]
        < page.locator("#status-card").bounding_box()["y"]
    )
    host.every_tab("play")
    page.fill("#find-table", "17")
    expect(page.locator("#found-table-card[data-table='17']")).to_be_visible()
    host.tab("players")
    page.fill("#find-player", "Guest 099")
    expect(page.locator("#found-player-card")).to_contain_text("Table 25")
    finish_round(server, night, token, 1)

    # a guest's phone: from 20 players on, a box to find one's name, on the first screen
    viewer = page.evaluate(f"JSON.parse(localStorage.getItem('bunco:{night}:viewer'))")
    guest = pages.open(f"/n/{night}/player?token={viewer}", name="a guest")
    expect(guest.locator("body")).to_have_attribute("data-ready", "claim")
    assert in_first_screen(guest, "#name-find")
    guest.fill("#name-find", "099")
    expect(guest.locator("#names button:visible")).to_have_count(1)
    check_page(guest, "who are you? (120 players, one name found)", most=MOST_SCREENS)
    guest.press("#name-find", "Enter")  # the one name left
    expect(guest.locator("body")).to_have_attribute("data-ready", "yes")
    expect(guest.locator("#me")).to_have_text("Guest 099")

    moment(page, "between", "Round 1 is over")
    host.every_tab("between")
    ring_the_bell(host, 2)
    finish_round(server, night, token, 2, seed=2)
    moment(page, "between", "Round 2 is over")

    # the night ends early, from the console: More, End the night now, yes
    host.tab("more")
    page.once("dialog", lambda dialog: dialog.accept())
    host.tap("#end-night")
    expect(page.locator("body")).to_have_attribute(
        "data-phase", re.compile("over|rolloff"), timeout=30_000
    )
    while page.locator("body").get_attribute("data-phase") == "rolloff":
        roll_off(host)
    moment(page, "end", "The night is over")
    expect(page.locator("#now-text")).to_contain_text("You ended the night after round 2")
    host.every_tab("end")
    host.tap("#results-link")
    page.wait_for_url(re.compile(r"/end$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "yes", timeout=30_000)
    assert in_first_screen(page, "#prizes-title")
    check_page(page, "results at 120 players", most=MOST_SCREENS)
    # set-up (4), 2 bells, the Tables and Players tabs, More and End the night, the prizes
    assert host.taps == 4 + 2 + 2 + 2 + 1, host.taps
    assert host.rolls == 0  # ties shared: no roll-off
    assert max(host.seen.values()) <= MOST_SCREENS, host.seen
    assert pages.errors == []
    print("120 players:", host.taps, "taps,", host.rolls, "roll-off rolls", host.seen)
