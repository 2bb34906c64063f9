"""How the pages load and follow the night (bunco.web.pages.assets, boot.js, live.js).

A night's page asks for its first state from the inline start in its HTML, while its one
joined script loads, and uses that reply: one GET, no second. A reopened table page under
the service worker finds the server's state written into its HTML by the worker and
draws it once; one whose state has not come draws what the phone kept at once (its
controls working, axe-core clean), then the server's state over it (not a second time
when the server's state is the one it kept). The host and results pages follow rolls from their messages (the table's
view, the bell, the traveler, the last Bunco) and reload the night only when a message
does not carry the change (a new round).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from .api_rolls import finish_round, roll
from .conftest import Pages, Server, axe, network_noise, phone
from .test_accessibility import ALSO, SERIOUS

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def watch(page: Page, pages: Pages, name: str) -> list[tuple[str, str, str]]:
    """The page's requests (method, address, kind), and its errors into ``pages``."""
    seen: list[tuple[str, str, str]] = []
    page.on("request", lambda r: seen.append((r.method, r.url, r.resource_type)))
    page.on("pageerror", lambda exc: pages.errors.append(f"{name}: {exc}"))
    page.on(
        "console",
        lambda msg: (
            pages.errors.append(f"{name}: {msg.text}")
            if msg.type == "error" and not network_noise(msg.text)
            else None
        ),
    )
    return seen


def table_1_under_a_worker(
    pages: Pages, server: Server, name: str, route: Callable[[BrowserContext], None] | None = None
) -> tuple[BrowserContext, Page, dict[str, Any]]:
    """A night made through the API (``name``) and table 1's page joined on a phone with the
    service worker (``route`` set on the phone first), ready and under the worker."""
    created = server.api("POST", "/api/nights", json={"name": name, "players": EIGHT})
    context = phone(pages, worker=True)
    if route:
        route(context)
    page = context.new_page()
    watch(page, pages, "table 1")
    page.goto(f"/join/{created['tables'][0]['code']}")
    page.wait_for_url(f"**/n/{created['night']}/table/1")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return context, page, created


def reopen(context: BrowserContext, pages: Pages, night: str, name: str) -> Page:
    """Table 1's page opened again in a new tab of ``context``, its requests watched."""
    page = context.new_page()
    watch(page, pages, name)
    page.goto(f"/n/{night}/table/1")
    return page


def shut(page: Page) -> None:
    """Close ``page`` so that it has stopped when this returns: a closed tab's renderer can
    still take the socket's message of a roll sent just after and keep it (CI saw "Bea
    rolls" kept, twice); a page navigated away from has stopped when goto returns."""
    page.goto("about:blank")
    page.close()


def joined_table(pages: Pages, created: dict[str, Any], table: int) -> tuple[BrowserContext, Page]:
    context = phone(pages)
    page = context.new_page()
    page.goto(f"/join/{created['tables'][table - 1]['code']}")
    page.wait_for_url(f"**/n/{created['night']}/table/{table}")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return context, page


def test_a_table_page_asks_for_its_state_once_while_its_script_loads(
    pages: Pages, server: Server
) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Boot", "players": EIGHT})
    night = created["night"]
    context, first = joined_table(pages, created, 2)
    first.close()
    page = context.new_page()
    seen = watch(page, pages, "table 2")
    page.goto(f"/n/{night}/table/2")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#turn-text")).to_have_text("Eve rolls")
    state = [s for s in seen if re.search(rf"/api/nights/{night}/tables/2$", s[1])]
    assert state == [("GET", state[0][1], "fetch")]  # one GET, the inline start's
    scripts = [url for _, url, kind in seen if kind == "script"]
    assert len(scripts) == 1 and "/bundle/js/table.js" in scripts[0]
    assert page.evaluate("window.buncoFirst") is None  # handed to the page
    assert page.evaluate("document.body.dataset.gets") == "1"
    assert pages.errors == []  # no policy refused the script


def test_a_players_own_page_asks_who_where_and_its_table_before_its_script_runs(
    pages: Pages, server: Server
) -> None:
    """My card, opened again on the player's phone: who the player is, the table they sit
    at and that table's page are asked by the inline start, once each, before the script
    (which asks none of them again)."""
    created = server.api("POST", "/api/nights", json={"name": "Mine", "players": EIGHT})
    night = created["night"]
    mine = server.api(
        "POST", f"/api/nights/{night}/claim", created["viewer_token"], json={"name": "Fay"}
    )
    context = phone(pages)
    context.add_init_script(f"localStorage.setItem('bunco:{night}:player', '\"{mine['token']}\"')")
    page = context.new_page()
    seen = watch(page, pages, "my card")
    page.goto(f"/n/{night}/player")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#seat-line")).to_have_text("Table 2 · seat 2")
    urls = [(url.split("?")[0], kind) for _, url, kind in seen]
    for path in (
        "/api/me",
        f"/api/nights/{night}/players/Fay/card",
        f"/api/nights/{night}/tables/2",
    ):
        asked = [u for u in urls if u[0].endswith(path)]
        assert len(asked) == 1, (path, asked)  # once, by the inline start
    assert page.evaluate("'buncoMine' in window && window.buncoMine === null")  # asked, handed on
    assert page.evaluate("window.buncoFirst") is None
    assert pages.errors == []


def test_a_page_with_no_token_here_asks_nothing_early(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Boot", "players": EIGHT})
    page = phone(pages).new_page()
    seen = watch(page, pages, "table 1")
    page.goto(f"/n/{created['night']}/table/1")
    expect(page.locator("#need-token")).to_be_visible()
    assert not [s for s in seen if "/api/" in s[1]]
    assert page.evaluate("window.buncoFirst") is None
    assert pages.errors == []


def test_a_reopened_table_draws_what_it_kept_then_the_servers(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Kept", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    context, first = joined_table(pages, created, 1)
    expect(first.locator("#turn-text")).to_have_text("Ann rolls")
    shut(first)
    roll(server, night, host, 1, [2, 3, 5])  # Ann misses while it is closed
    held: list[Route] = []
    context.route(re.compile(rf"/api/nights/{night}/tables/1$"), lambda r: held.append(r))
    page = reopen(context, pages, night, "table 1 reopened")
    body = page.locator("body")
    expect(body).to_have_attribute("data-drawn", "kept")  # before the server answered
    expect(page.locator("#turn-text")).to_have_text("Ann rolls")
    expect(page.locator("#taps [data-outcome='+1']")).to_be_enabled()
    assert body.get_attribute("data-ready") is None
    # a page state of its own: axe-core as in test_accessibility
    found = [
        f"{v['id']} ({v['impact']})" for v in axe(page) if v["impact"] in SERIOUS or v["id"] in ALSO
    ]
    assert found == []
    assert len(held) == 1
    held[0].continue_()
    expect(body).to_have_attribute("data-ready", "yes")
    expect(body).to_have_attribute("data-drawn", "fresh")
    expect(page.locator("#turn-text")).to_have_text("Bea rolls")
    assert page.evaluate("document.body.dataset.gets") == "1"
    page.close()
    # reopened again with nothing changed: the server's state is the one drawn from what
    # the phone kept, so the page is not drawn a second time (the same tally element)
    held.clear()
    again = reopen(context, pages, night, "table 1 reopened unchanged")
    expect(again.locator("body")).to_have_attribute("data-drawn", "kept")
    again.evaluate("document.querySelector('#tally .tally').dataset.keptDrawing = 'yes'")
    assert len(held) == 1
    held[0].continue_()
    expect(again.locator("body")).to_have_attribute("data-ready", "yes")
    expect(again.locator("body")).to_have_attribute("data-drawn", "fresh")
    # nor when the socket's hello brings the same state again
    expect(again.locator("body")).to_have_attribute("data-connection", "online")
    expect(again.locator("#tally .tally")).to_have_attribute("data-kept-drawing", "yes")
    expect(again.locator("#turn-text")).to_have_text("Bea rolls")
    # and it follows the night from there: Bea's roll, sent while it is open, is drawn
    roll(server, night, host, 1, [2, 3, 5])
    expect(again.locator("#turn-text")).to_have_text("Cat rolls")
    assert again.evaluate("document.body.dataset.gets") == "1"
    assert pages.errors == []


def test_the_host_and_results_pages_follow_rolls_without_reloading(
    pages: Pages, server: Server
) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Follow", "players": EIGHT})
    night, host = created["night"], created["host_token"]
    opened = []
    for path, name in (
        (f"/night/{night}?token={host}", "host"),
        (f"/n/{night}/end?token={host}", "end"),
    ):
        page = pages.open(path, name=name)
        expect(page.locator("body")).to_have_attribute("data-ready", "yes")
        opened.append(page)
    host_page, end = opened
    gets = [p.evaluate("document.body.dataset.gets") for p in opened]
    roll(server, night, host, 1, [1, 1, 4])  # Ann +2
    roll(server, night, host, 2, [1, 1, 1])  # Eve's Bunco at table 2
    seq = server.state(night, host)["seq"]
    for page in opened:
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    expect(host_page.locator("#overview [data-table='1']")).to_contain_text("Ann rolls")
    expect(host_page.locator("#overview [data-table='2'] .score").first).to_have_text("21")
    expect(end.locator("#extras")).to_have_text("Last Bunco of the night: Eve.")
    assert [p.evaluate("document.body.dataset.gets") for p in opened] == gets  # no GET
    finish_round(server, night, host, 1)  # a new round: the night again
    expect(host_page.locator("body")).to_have_attribute("data-round", "2")
    expect(end.locator("#status")).to_contain_text("Round 2")
    for page, before in zip(opened, gets, strict=True):
        assert int(page.evaluate("document.body.dataset.gets")) > int(before)
    assert pages.errors == []


# what a page drew, in order (body's data-drawn: "kept", then "fresh"), and whether the
# service worker wrote a state into its HTML (the element the page takes out as it reads)
RECORD_DRAWN = """window.drawnSteps = []; window.writtenIn = false;
new MutationObserver((records) => { for (const r of records) {
  if (r.type === "attributes") { const d = r.target.dataset.drawn;
    if (d && window.drawnSteps[window.drawnSteps.length - 1] !== d) window.drawnSteps.push(d); }
  for (const n of r.addedNodes || []) if (n.id === "bunco-first") window.writtenIn = true;
} }).observe(document, { attributes: true, attributeFilter: ["data-drawn"], childList: true,
  subtree: true });"""

FIRST_ASK = """() => caches.open("bunco-first-asks")
  .then((cache) => cache.match(location.pathname))
  .then((kept) => (kept ? kept.json() : null))"""


def written_in(open_page: Callable[[], Page], seen: list[Any], tries: int = 3) -> Page:
    """The page ``open_page`` opens whose HTML the worker wrote its early state into, the
    server's "Bea rolls" drawn (``seen``, the requests, cleared before each try: a page of
    ``open_page``'s own clears it again before the one it returns). The worker
    waits 250 ms for that state (sw.js's WAIT): on a loaded machine it can come later, and
    the page then draws what it kept and takes the state through the worker (the slow
    state's test below); such a try must end on the server's state too, and the next
    opens the page again. CI's machine once let the state come late."""
    for _ in range(tries):
        seen.clear()
        page = open_page()
        expect(page.locator("body")).to_have_attribute("data-ready", "yes")
        expect(page.locator("#turn-text")).to_have_text("Bea rolls")  # the server's
        if page.evaluate("window.writtenIn"):
            return page
        page.close()
    raise AssertionError(f"the worker's early state came too late to be written in, {tries} times")


def test_a_reopened_table_takes_the_state_its_service_worker_asked_for_as_it_opened(
    pages: Pages, server: Server
) -> None:
    context, page, created = table_1_under_a_worker(pages, server, "Worker")
    night, host = created["night"], created["host_token"]
    table_state = f"/api/nights/{night}/tables/1"
    # once ready, the page left the worker the address of its state and its token
    page.wait_for_function(FIRST_ASK, polling=100)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('bunco:{night}:table:1'))")
    assert page.evaluate(FIRST_ASK) == {"path": table_state, "token": token}
    shut(page)
    roll(server, night, host, 1, [2, 3, 5])  # Ann misses while it is closed

    seen: list[tuple[str, bool]] = []
    context.on("request", lambda r: seen.append((r.url, r.service_worker is not None)))
    context.add_init_script(RECORD_DRAWN)
    again = written_in(lambda: reopen(context, pages, night, "table 1 reopened"), seen)
    assert again.evaluate("document.body.dataset.gets") == "1"
    # the worker wrote the state into the page's HTML: one drawing, the server's (never
    # the kept "Ann rolls"), and the element with the token it names is gone once read
    assert again.evaluate("window.writtenIn") is True
    assert again.evaluate("window.drawnSteps") == ["fresh"]
    assert again.evaluate("document.getElementById('bunco-first')") is None
    # its stylesheet and script came straight from the worker's cache, by the route the
    # worker gave the browser (no turn of the worker's own)
    files = again.evaluate(
        """() => performance.getEntriesByType("resource").filter((e) =>
          e.name.includes("/static/v/")).map((e) => e.workerFinalSourceType)"""
    )
    assert files and set(files) == {"cache"}
    # one GET of the state, by the worker; the page itself asked nothing
    assert [worker for url, worker in seen if urlsplit(url).path == table_state] == [True]
    assert [url for url, _ in seen if urlsplit(url).path.startswith("/__first/")] == []
    again.close()

    # a token kept for the worker that is not the page's: the worker's early reply is not
    # used, the page's own token asks, and the page is drawn. A made-up one (the server
    # refuses it: nothing written in), and one that works but is another role's (the
    # host's: written in, with the token it was asked with, not taken, taken out)
    for other, written in (("stale", False), (host, True)):

        def after_another_token(other: str = other) -> Page:
            third = reopen(context, pages, night, "table 1, before another token")
            expect(third.locator("body")).to_have_attribute("data-ready", "yes")
            third.evaluate(
                """([night, other]) => caches.open("bunco-first-asks").then((cache) =>
                  cache.put(location.pathname, new Response(JSON.stringify(
                    {path: `/api/nights/${night}/tables/1`, token: other}))))""",
                [night, other],
            )
            third.close()
            seen.clear()
            return reopen(context, pages, night, "table 1 after another token")

        if written:
            fourth = written_in(after_another_token, seen)
        else:
            fourth = after_another_token()
            expect(fourth.locator("body")).to_have_attribute("data-ready", "yes")
            expect(fourth.locator("#turn-text")).to_have_text("Bea rolls")
            assert fourth.evaluate("window.writtenIn") is False
        expect(fourth.locator("#fatal")).to_be_hidden()
        assert fourth.evaluate("document.getElementById('bunco-first')") is None  # nor left
        # the worker's early GET, then the page's own ask through the worker, with its token
        assert [worker for url, worker in seen if urlsplit(url).path == table_state] == [
            True,
            True,
        ]
        assert [u for u, _ in seen if urlsplit(u).path == f"/__first{table_state}"] != []
        fourth.wait_for_function(
            "(token) => caches.open('bunco-first-asks').then((c) => c.match(location.pathname))"
            ".then((kept) => kept && kept.json()).then((ask) => ask && ask.token === token)",
            arg=token,
            polling=100,
        )  # the page's own token kept again
        if written:
            break
        fourth.close()

    # signed out: the page no longer leaves the worker a token that fails
    server.api("DELETE", f"/api/nights/{night}/tables/1/scorekeepers", host)
    expect(fourth.locator("#need-token")).to_be_visible()
    fourth.wait_for_function(f"() => ({FIRST_ASK})().then((ask) => ask === null)", polling=100)
    assert pages.errors == []


def test_a_reopened_table_whose_state_is_slow_draws_what_it_kept_meanwhile(
    pages: Pages, server: Server
) -> None:
    """The worker holds the page's script back for its early state a short while only: on
    a slow network the page draws what it kept, then the server's state when it comes."""
    context, page, created = table_1_under_a_worker(pages, server, "Slow")
    night, host = created["night"], created["host_token"]
    page.wait_for_function(FIRST_ASK, polling=100)
    shut(page)
    roll(server, night, host, 1, [2, 3, 5])  # Ann misses while it is closed
    held: list[Route] = []
    released: list[bool] = []
    context.route(
        re.compile(rf"/api/nights/{night}/tables/1$"),
        lambda r: r.continue_() if released else held.append(r),
    )
    context.add_init_script(RECORD_DRAWN)
    again = reopen(context, pages, night, "table 1, a slow state")
    body = again.locator("body")
    expect(body).to_have_attribute("data-drawn", "kept")
    expect(again.locator("#turn-text")).to_have_text("Ann rolls")  # as the phone kept it
    assert held  # the state is still on its way
    released.append(True)
    for route in held:
        route.continue_()
    expect(body).to_have_attribute("data-ready", "yes")
    expect(again.locator("#turn-text")).to_have_text("Bea rolls")
    assert again.evaluate("window.drawnSteps") == ["kept", "fresh"]
    assert again.evaluate("window.writtenIn") is False  # too late for the HTML
    assert again.evaluate("document.body.dataset.gets") == "1"
    assert pages.errors == []


# a worker of an earlier version, as far as this page can tell: it controls the page but
# neither writes the state in nor knows /__first/ (everything passes to the server)
EARLIER_WORKER = """self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", () => {});"""


def test_a_table_page_under_an_earlier_worker_asks_the_server_itself(
    pages: Pages, server: Server
) -> None:
    """Under a worker that does not know the early ask, the page's ask through it gets
    the server's 404 for /__first/…, and the page asks for its state at its own address:
    drawn, with no error shown."""
    context, page, created = table_1_under_a_worker(
        pages,
        server,
        "Earlier",
        lambda phone: phone.route(
            re.compile(r"/sw\.js$"),
            lambda r: r.fulfill(status=200, content_type="text/javascript", body=EARLIER_WORKER),
        ),
    )
    night, host = created["night"], created["host_token"]
    table_state = f"/api/nights/{night}/tables/1"
    shut(page)
    roll(server, night, host, 1, [2, 3, 5])  # Ann misses while it is closed
    seen: list[tuple[str, int]] = []
    context.on("response", lambda r: seen.append((urlsplit(r.url).path, r.status)))
    again = reopen(context, pages, night, "table 1 under an earlier worker")
    expect(again.locator("body")).to_have_attribute("data-ready", "yes")
    expect(again.locator("#turn-text")).to_have_text("Bea rolls")
    expect(again.locator("#fatal")).to_be_hidden()
    assert again.evaluate("navigator.serviceWorker.controller !== null")
    asks = [(path, status) for path, status in seen if path.endswith(table_state)]
    assert asks == [(f"/__first{table_state}", 404), (table_state, 200)]
    assert again.evaluate("document.body.dataset.gets") == "1"
    assert pages.errors == []
