"""The host page's "Screen and player links" block (host_viewer_links.js), in Chromium at
390x844: the links hosts' phones made, who made each, one stopped with two taps, and the
co-host's stopped with the co-host."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Pages, Server, axe, host_tab

pytestmark = pytest.mark.browser

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_the_host_sees_and_stops_the_screen_links_hosts_phones_made(
    pages: Pages, server: Server
) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Links", "players": EIGHT})
    nid, token = created["night"], created["host_token"]
    bea = server.api("POST", f"/api/nights/{nid}/cohosts", token, json={"name": "Bea"})
    hers = server.api("POST", f"/api/nights/{nid}/viewer-links", bea["token"])
    mine = server.api("POST", f"/api/nights/{nid}/viewer-links", token)

    page = pages.open(f"/n/{nid}/host?token={token}", size=PHONE, name="host")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(page, "more")  # beside the co-hosts, under More
    block = page.locator("#viewer-links-block")
    expect(block).to_be_visible()
    rows = block.locator("li")
    expect(rows).to_have_count(3)  # this phone, which did not make the night, made one too
    expect(rows.nth(0)).to_contain_text("Link 1, made on Bea's phone (co-host 1)")
    expect(rows.nth(1)).to_contain_text("Link 2, made on a host's phone")
    expect(rows.nth(2)).to_contain_text("Link 3, made on a host's phone")
    block.scroll_into_view_if_needed()
    if os.environ.get("BUNCO_SHOTS"):  # a look at the block at phone size
        page.screenshot(path=str(Path(os.environ["BUNCO_SHOTS"]) / "viewer-links.png"))
    assert [v["id"] for v in axe(page) if v["impact"] in ("serious", "critical")] == []

    stop = rows.nth(1).get_by_role("button")
    stop.click()
    expect(stop).to_have_text("Tap again to stop link 2")  # nothing stopped on one tap
    assert _reads(server, nid, mine["token"]) == 200
    stop.click()
    expect(rows).to_have_count(2)
    assert _reads(server, nid, mine["token"]) == 401

    # stopping the co-host stops the link her phone made: its row goes with it
    page.get_by_role("button", name="Revoke co-host 1 · Bea").click()
    page.click("#confirm-yes")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Link 3")
    assert _reads(server, nid, hers["token"]) == 401


def _reads(server: Server, night: str, token: str) -> int:
    reply = httpx.get(
        f"{server.base}/api/nights/{night}", headers={"authorization": f"Bearer {token}"}
    )
    return reply.status_code
