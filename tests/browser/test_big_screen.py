"""The big screen of a big night, on a 1920×1080 TV: every table at once in a grid sized by
the count, every player on the leaderboard within the screen or on a named page, and the
moves after a round beside the tables, never over them."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .api_rolls import finish_round, roll
from .conftest import TV, Pages, Server, shoot
from .test_accessibility import Checks


def open_screen(pages: Pages, created: dict[str, Any]) -> Page:
    """The night's big screen at TV size, with Playwright's clock (to turn its pages)."""
    context = pages.browser.new_context(viewport=TV, base_url=pages.base)
    pages.contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda exc: pages.errors.append(f"screen: {exc}"))
    page.clock.install()
    page.goto(f"/n/{created['night']}/screen?token={created['viewer_token']}")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return page


def inside(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` shown on the page but not wholly inside the
    1920×1080 screen (empty when every one is), by their text."""
    outside: list[str] = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => { const r = el.getBoundingClientRect();
        return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; })
      .map((el) => el.textContent.trim().slice(0, 40))""",
        selector,
    )
    return outside


def cut(page: Page) -> list[str]:
    """The tables whose tile cuts off some of what it shows (its text taller or wider than
    the tile)."""
    found: list[str] = page.evaluate("""() => [...document.querySelectorAll('.tv-table')]
      .filter((t) => t.scrollHeight > t.clientHeight + 1 || t.scrollWidth > t.clientWidth + 1)
      .map((t) => t.dataset.table)""")
    return found


SHOWN_PAGE = """(box) => {
  const list = document.querySelector(box);
  const shown = list.querySelector(':scope > .fit-page:not([hidden])');
  const off = (el) => { const r = el.getBoundingClientRect();
    return r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; };
  return { at: shown.dataset.page, of: Number(list.dataset.pages || 1),
    label: shown.getAttribute('aria-label') || '',
    names: [...shown.querySelectorAll('tbody tr')].map((r) => r.dataset.player),
    outside: [...shown.querySelectorAll('tr')].filter(off).map((r) => r.textContent.trim()) };
}"""


def every_page_shows(page: Page, box: str, names: list[str]) -> int:
    """Turn the list ``box`` (``#board``, ``#moves-cols``) through all its pages with the
    clock; each name must be on screen on one named page. Returns the number of pages."""
    of = int(page.locator(box).get_attribute("data-pages") or "1")
    seen: dict[str, int] = {}
    for _ in range(of + 4):
        # the page shown, read at one moment (a late live message may draw the list again)
        expect(page.locator(f"{box} > .fit-page:not([hidden])")).to_have_count(1)
        shown = page.evaluate(SHOWN_PAGE, box)
        at, of = shown["at"], shown["of"]
        if of > 1:
            assert re.search(rf"page {at} of {of} \(\d+–\d+\)$", shown["label"]), shown
        assert shown["outside"] == [], shown
        for name in shown["names"]:
            seen.setdefault(name, int(at))
        if len(seen) == len(names):
            break
        page.clock.run_for(10_000)
    assert sorted(seen) == sorted(names)
    return of


def test_forty_players_all_on_one_screen_and_the_moves_beside_the_tables(
    pages: Pages, server: Server
) -> None:
    players = [f"Player {i:02d}" for i in range(1, 41)]
    created = server.api("POST", "/api/nights", json={"name": "Forty", "players": players})
    night, host = created["night"], created["host_token"]
    screen = open_screen(pages, created)
    expect(screen.locator(".tv-table")).to_have_count(10)
    assert inside(screen, ".tv-table") == [] and cut(screen) == []
    assert screen.locator("#tables").get_attribute("data-density") == "full"
    expect(screen.locator("#board tbody tr")).to_have_count(40)
    assert screen.locator("#board").get_attribute("data-pages") == "1"  # no paging needed
    assert inside(screen, "#board tr") == []
    for t in range(1, 11):  # every table's four names on screen, readable
        expect(screen.locator(f".tv-table[data-table='{t}'] .names")).to_have_count(2)
    size = screen.locator(".tv-table .names").first.evaluate(
        "(el) => parseFloat(getComputedStyle(el).fontSize)"
    )
    assert size >= 18
    # round 1 ends: the 40 moves go beside the tables, which stay on screen
    server.api("POST", f"/api/nights/{night}/start", host, json={"command_id": "go-1"})
    roll(server, night, host, 1, [1, 1, 1])
    finish_round(server, night, host, 1)
    expect(screen.locator("body")).to_have_attribute("data-round", "2")
    expect(screen.locator("#moves-box")).to_be_visible()
    expect(screen.locator("#moves-title")).to_have_text("Round 1: winners and moves")
    assert inside(screen, ".tv-table") == [] and cut(screen) == []
    every_page_shows(screen, "#moves-cols", players)
    check = Checks()
    check(screen, "big screen, 40 players, the moves")
    assert check.found == []
    shoot(screen, "screen-forty-moves", ("tv",))
    assert pages.errors == []


def test_two_hundred_players_every_table_and_every_player_on_a_named_page(
    pages: Pages, server: Server
) -> None:
    players = [f"Guest {i:03d}" for i in range(1, 201)]
    created = server.api("POST", "/api/nights", json={"name": "Gala", "players": players})
    screen = open_screen(pages, created)
    expect(screen.locator(".tv-table")).to_have_count(50)
    assert inside(screen, ".tv-table") == [] and cut(screen) == []
    assert screen.locator("#tables").get_attribute("data-density") == "compact"
    for t in (1, 25, 50):  # names still shown at 50 tables
        expect(screen.locator(f".tv-table[data-table='{t}'] .names").first).to_be_visible()
    expect(screen.locator("#board tbody tr")).to_have_count(200)
    of = every_page_shows(screen, "#board", players)
    assert 1 < of <= 4
    expect(screen.locator("#board-page")).to_have_text(re.compile(rf"^Page \d of {of}$"))
    smallest = screen.evaluate("""() => Math.min(...[...document.querySelectorAll('body *')]
      .filter((el) => el.offsetParent !== null && [...el.childNodes].some(
        (n) => n.nodeType === 3 && n.textContent.trim()))
      .map((el) => parseFloat(getComputedStyle(el).fontSize)))""")
    assert smallest >= 14
    check = Checks()
    check(screen, "big screen, 200 players")
    assert check.found == []
    shoot(screen, "screen-two-hundred", ("tv",))
    assert pages.errors == []


def test_two_hundred_fifty_tables_fit_as_tiles(pages: Pages, server: Server) -> None:
    # names as long as a 200-player night's (a wider board, less room for the tiles)
    players = [f"Guest {i:04d}" for i in range(1, 1001)]
    created = server.api("POST", "/api/nights", json={"name": "Hall", "players": players})
    screen = open_screen(pages, created)
    expect(screen.locator(".tv-table")).to_have_count(250)
    assert screen.locator("#tables").get_attribute("data-density") == "tiny"
    assert inside(screen, ".tv-table") == [] and cut(screen) == []
    # before round 1 a tile would name who sits there, but 1,000 names cannot be read on
    # one screen: the tiles keep their numbers (the board names every player)
    assert screen.locator("#tables").get_attribute("data-seating") == "yes"
    expect(screen.locator(".seat-names li").first).to_be_hidden()
    expect(screen.locator("#tables-key")).to_be_visible()
    check = Checks()
    check(screen, "big screen, 250 tables")
    assert check.found == []
    shoot(screen, "screen-250-tables", ("tv",))
    assert pages.errors == []
