"""A revoked credential's open page goes dark at once: when the host revokes a co-host (on
the host page) or signs a table's phones out, the server closes their live sockets with
code 4401, and the page, left open and never reloaded, stops following the night and says
so. A page that still holds a live credential keeps following it.

Each page records its WebSockets (an init script wraps ``WebSocket``): how many it opened,
the close codes it got and the messages it received, so the test knows the stream is
gone, not merely quiet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import RECORD_BUZZ, Pages, Server, axe, host_tab, network_noise

pytestmark = pytest.mark.browser

RECORD_SOCKETS = """
window.__sockets = {opened: 0, closes: [], frames: 0};
(() => {
  const Native = window.WebSocket;
  class Recorded extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.opened += 1;
      this.addEventListener("message", () => { window.__sockets.frames += 1; });
      this.addEventListener("close", (ev) => { window.__sockets.closes.push(ev.code); });
    }
  }
  window.WebSocket = Recorded;
})();
"""


def open_recorded(pages: Pages, path: str, name: str) -> Page:
    """A phone's page at ``path`` whose WebSockets are recorded (``window.__sockets``)."""
    context = pages.browser.new_context(viewport={"width": 390, "height": 844}, base_url=pages.base)
    context.set_default_timeout(15_000)
    context.add_init_script(RECORD_BUZZ)
    context.add_init_script(RECORD_SOCKETS)
    pages.contexts.append(context)
    page = context.new_page()
    page.on("pageerror", lambda exc: pages.errors.append(f"{name}: {exc}"))
    page.on(
        "console",
        lambda msg: (
            pages.errors.append(f"{name}: {msg.text}")
            if msg.type == "error" and not network_noise(msg.text)
            else None
        ),
    )
    page.goto(path)
    return page


def sockets(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => ({...window.__sockets})")
    return found


def live_socket(page: Page) -> None:
    """Wait until the page follows the night on an open socket."""
    page.wait_for_function("() => window.__sockets.opened >= 1 && window.__sockets.frames >= 1")


def arrive(server: Server, night: str, host: str, player: str) -> None:
    """The host seats a late arrival (an event every follower of the night receives)."""
    server.api(
        "POST",
        f"/api/nights/{night}/arrivals",
        host,
        json={"player": player, "command_id": f"arrival-{player}-{night}"},
    )


def test_a_revoked_cohost_page_goes_dark_at_once(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST", "/api/nights", json={"name": "Revoked", "players": ["Ann", "Bea", "Cat", "Dee"]}
    )
    night, host_token = created["night"], created["host_token"]
    cohost = server.api("POST", f"/api/nights/{night}/cohosts", host_token, json={"name": "Bea"})
    host = open_recorded(pages, created["links"]["host"], "host")
    host.wait_for_url(re.compile(rf"/n/{night}/host$"))
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    co = open_recorded(pages, cohost["link"], "co-host")
    co.wait_for_url(re.compile(rf"/n/{night}/host$"))
    expect(co.locator("body")).to_have_attribute("data-ready", "yes")
    live_socket(co)
    expect(co.locator("#fatal")).to_be_hidden()

    host_tab(host, "more")
    host.click("#cohosts [data-revoke='1']")
    expect(host.locator("#confirm-text")).to_contain_text("Revoke co-host 1 · Bea?")
    host.click("#confirm-yes")
    # the co-host's page, never reloaded, loses its stream and says so
    co.wait_for_function("() => window.__sockets.closes.includes(4401)", timeout=10_000)
    expect(co.locator("#fatal")).to_have_text(
        "The host revoked this link: this page no longer follows the night "
        "(ask the host for a new link)."
    )
    expect(co.locator("body")).to_have_attribute("data-revoked", "true")
    seen = sockets(co)
    assert seen["closes"] == [4401] and seen["opened"] == 1

    # the night goes on: the host's page follows it, the revoked page hears nothing more
    arrive(server, night, host_token, "Eve")
    expect(host.locator("#sheet")).to_contain_text("Eve")
    after = sockets(co)
    assert after["opened"] == 1 and after["frames"] == seen["frames"]  # no reconnect
    expect(co.locator("#sheet")).not_to_contain_text("Eve")
    serious = [v for v in axe(co) if v["impact"] in ("serious", "critical")]
    assert serious == []
    assert [e for e in pages.errors if "401" not in e] == []


def test_a_signed_out_table_page_goes_dark_and_keeps_its_entries(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Signed out",
            "players": ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"],
        },
    )
    night, host_token = created["night"], created["host_token"]
    tables = {}
    for n in (1, 2):
        page = open_recorded(pages, f"/join/{created['tables'][n - 1]['code']}", f"table {n}")
        page.wait_for_url(f"**/n/{night}/table/{n}")
        expect(page.locator("body")).to_have_attribute("data-ready", "yes")
        live_socket(page)
        tables[n] = page

    revoked = server.api("DELETE", f"/api/nights/{night}/tables/1/scorekeepers", host_token)
    assert revoked["revoked"] == 1
    one = tables[1]
    one.wait_for_function("() => window.__sockets.closes.includes(4401)", timeout=10_000)
    expect(one.locator("#fatal")).to_have_text(
        "The host signed this phone out (its link no longer works), so it no longer "
        "follows the night."
    )
    expect(one.locator("#play")).to_be_hidden()
    expect(one.locator("#need-token")).to_be_visible()  # it can join again with the code
    seen = sockets(one)
    assert seen["closes"] == [4401] and seen["opened"] == 1

    # table 2's phone is not signed out: it hears the arrival; table 1's hears nothing
    before = sockets(tables[2])["frames"]
    arrive(server, night, host_token, "Ivy")
    tables[2].wait_for_function("(before) => window.__sockets.frames > before", arg=before)
    two = sockets(tables[2])
    assert two["closes"] == [] and two["opened"] == 1
    after = sockets(one)
    assert after["opened"] == 1 and after["frames"] == seen["frames"]
    serious = [v for v in axe(one) if v["impact"] in ("serious", "critical")]
    assert serious == []

    # joining again with the table's code brings the page back; the page sends its night,
    # so the code is checked against this night's tables only (docs/server.md, Guessing)
    one.fill("#code", created["tables"][0]["code"])
    with one.expect_request(lambda r: r.url.endswith("/api/join")) as joining:
        one.locator("#code-form button").click()
    assert joining.value.post_data_json == {"code": created["tables"][0]["code"], "night": night}
    expect(one.locator("body")).to_have_attribute("data-ready", "yes")
    expect(one.locator("#play")).to_be_visible()
    assert [e for e in pages.errors if "401" not in e] == []
