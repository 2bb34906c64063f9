"""Host hand-off: the host link is shown to save right after creation, the host page hands
it to another phone (QR and copy), and a co-host's link works until it is revoked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, audit, host_tab, shoot

pytestmark = pytest.mark.browser


def test_save_the_host_link_then_a_cohost_until_revoked(pages: Pages, server: Server) -> None:
    home = pages.open("/", name="home")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    # on a phone, joining a table and hosting a night are both on the first screen
    join = home.locator("#join-form").bounding_box()
    setup = home.locator("#start-title").bounding_box()
    assert join is not None and setup is not None and join["y"] < 300 and setup["y"] < 400
    home.fill("#players", "Ann\nBea\nCat\nDee")
    home.click("#start")
    expect(home.locator("#saved")).to_be_visible()  # save this first
    expect(home.locator("#setup")).to_be_hidden()
    link = home.locator("#saved-link").inner_text()
    assert re.fullmatch(rf"{re.escape(server.base)}/night/[^/?]+\?key=[\w-]{{20,}}", link)
    expect(home.locator("#saved-qr")).to_have_attribute("src", re.compile(r"^/api/qr\.svg\?"))
    home.click("#copy-host")
    expect(home.locator("#copy-note")).not_to_have_text("")
    shoot(home, "home-save-host-link", ("phone",))
    assert audit(home) == []
    home.click("#open-host")
    home.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    night = home.url.split("/")[-2]

    # the same link on another phone opens the host page there
    host_tab(home, "more")
    expect(home.locator("#handoff-link")).to_have_text(link)
    other = pages.open(link, name="second phone")
    other.wait_for_url(re.compile(rf"/n/{night}/host$"))
    expect(other.locator("body")).to_have_attribute("data-ready", "yes")

    # a co-host: a link of their own, listed with a revoke button
    home.fill("#cohost-name", "Bea")
    home.click("#cohost-add")
    expect(home.locator("#cohosts [data-cohost='1']")).to_contain_text("co-host 1 · Bea")
    colink = home.locator("#cohost-link").inner_text()
    assert colink != link and f"/night/{night}?key=" in colink
    shoot(home, "host-cohost", ("phone",))
    cohost = pages.open(colink, name="co-host")
    cohost.wait_for_url(re.compile(rf"/n/{night}/host$"))
    expect(cohost.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(cohost, "players")
    cohost.fill("#arrival", "Eve")  # the co-host seats a late arrival
    cohost.click("#arrival-form button")
    expect(home.locator("#sheet")).to_contain_text("Eve")

    home.click("#cohosts [data-revoke='1']")
    expect(home.locator("#confirm-text")).to_contain_text("Revoke co-host 1 · Bea?")
    home.click("#confirm-yes")
    expect(home.locator("#cohosts")).to_contain_text("No co-hosts yet.")
    cohost.reload()
    expect(cohost.locator("#fatal")).to_be_visible()
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")  # the host's stays
    assert [e for e in pages.errors if "401" not in e] == []
