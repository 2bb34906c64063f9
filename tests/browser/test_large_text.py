"""Pages for older eyes: with large text (A+) the tally buttons stay above the fold of a
390x844 phone, also with the bell banner and "finish your turn" showing; no text is
smaller than 14 px on any page; the big screen shows every player of a 40-player night,
names at least 2 rem at 1920x1080, ghosts labelled."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import TV, Pages, Server, open_table, shoot
from .test_end_of_night import play_night

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
SMALLEST = """() => {
  let least = [99, ''];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < least[0]) least = [size, el.tagName + '#' + el.id + '.' + el.className];
  }
  return least;
}"""


def taps_above_the_fold(page: Page) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    for button in page.locator("#taps [data-outcome]").all():
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, (
            button.get_attribute("data-outcome"),
            box,
        )


def test_large_text_keeps_the_taps_above_the_fold(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "A+", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    table = open_table(pages, created, 2)
    table.click("#large-text")
    expect(table.locator("html")).to_have_class("large-text")
    taps_above_the_fold(table)
    assert table.evaluate(SMALLEST)[0] >= 14
    table.click("#taps [data-outcome='+1']")  # Eve +1, rolling on
    expect(table.locator("#pending")).to_have_text("")
    server.api(
        "POST",
        f"/api/nights/{night}/tables/1/rolls",
        host,
        json={"command_id": "aplus-1", "dice": [1, 1, 1]},
    )  # the bell
    expect(table.locator("body")).to_have_attribute("data-status", "finishing")
    expect(table.locator("#bell")).to_be_visible()
    taps_above_the_fold(table)
    shoot(table, "table-large-text-bell", ("phone",))
    table.set_viewport_size({"width": 390, "height": 844})
    assert table.evaluate(SMALLEST)[0] >= 14


def test_no_text_under_14px_and_the_big_screen_shows_everyone(pages: Pages, server: Server) -> None:
    players = [f"Player {i:02d}" for i in range(1, 39)]  # 38 and two ghosts: 40 seats
    created = server.api(
        "POST", "/api/nights", json={"name": "Forty", "rules": "scil", "players": players}
    )
    night = created["night"]
    host = pages.open(f"/night/{night}?token={created['host_token']}", name="host")
    host.wait_for_url(re.compile(r"/host$"))
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    assert host.evaluate(SMALLEST)[0] >= 14, host.evaluate(SMALLEST)
    home = pages.open("/", name="home")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    assert home.evaluate(SMALLEST)[0] >= 14, home.evaluate(SMALLEST)
    screen = pages.open(f"/night/{night}?token={created['viewer_token']}", TV, "screen")
    screen.wait_for_url(re.compile(r"/screen$"))
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    rows = screen.locator("#board tbody tr")
    expect(rows).to_have_count(38)  # every player, not ten
    for name in players:
        expect(screen.locator(f"#board tr[data-player='{name}']")).to_have_count(1)
    size = screen.evaluate(
        "parseFloat(getComputedStyle(document.querySelector("
        "'#board td.name')).fontSize) / parseFloat(getComputedStyle("
        "document.documentElement).fontSize)"
    )
    assert size >= 1.25  # every player on one screen beside the tables (test_big_screen.py)
    names = screen.locator(".tv-table .names").first
    assert names.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)") >= 18
    expect(screen.locator(".tv-table .ghost").first).to_contain_text("ghost")
    assert screen.evaluate(SMALLEST)[0] >= 14, screen.evaluate(SMALLEST)
    shoot(screen, "screen-forty", ("tv",))
    assert pages.errors == []


def test_no_text_under_14px_on_the_results_player_and_join_pages(
    pages: Pages, server: Server
) -> None:
    night = play_night(server)  # six rounds played, a prize roll-off due
    nid = night["night"]
    small = {}
    end = pages.open(f"/n/{nid}/end?token={night['host']}", name="end")
    expect(end.locator("#rolloff-box")).to_contain_text("Roll-off")
    small["end"] = end.evaluate(SMALLEST)
    player = pages.open(f"/n/{nid}/player?token={night['viewer']}", name="player")
    expect(player.locator("#names [data-player=Cat]")).to_be_visible()
    small["player chooser"] = player.evaluate(SMALLEST)
    player.click("#names [data-player=Cat]")
    expect(player.locator("body")).to_have_attribute("data-ready", "yes")
    expect(player.locator("[data-stat=W] b")).to_be_visible()
    small["player"] = player.evaluate(SMALLEST)
    for n in range(400):  # the host rolls the roll-off out
        if server.state(nid, night["host"])["view"]["phase"] == "over":
            break
        server.api(
            "POST",
            f"/api/nights/{nid}/rolloff",
            night["host"],
            json={"command_id": f"large-{n}", "roll_for_me": True},
        )
    end.reload()
    expect(end.locator("body")).to_have_attribute("data-phase", "over")
    expect(end.locator("#cards-table")).to_be_visible()
    small["end, the night over"] = end.evaluate(SMALLEST)
    player.reload()  # the page remembers Cat
    expect(player.locator("#prizes-box")).to_be_visible()
    small["player, the night over"] = player.evaluate(SMALLEST)
    join = pages.open("/join", name="join")
    expect(join.locator("input").first).to_be_visible()
    small["join"] = join.evaluate(SMALLEST)
    assert {page: least for page, least in small.items() if least[0] < 14} == {}
    assert pages.errors == []
