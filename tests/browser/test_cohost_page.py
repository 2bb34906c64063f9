"""A co-host's page is the host page, in Chromium at 390x844: the "Big screen" link
carries a viewer token and opens the TV, the player QR and the tables' printed join codes
are shown, and a new join code is made only after a question naming the printed card that
stops working.

The night is made through the API (so the co-host's phone holds none of the creation's
secrets); the host adds a co-host through the API and the co-host opens their link.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import PHONE, TV, Pages, Server, axe, host_tab

pytestmark = pytest.mark.browser

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_a_cohost_shows_the_join_codes_makes_one_after_confirming_and_opens_the_tv(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST", "/api/nights", json={"name": "Co-hosted", "rules": "classic", "players": EIGHT}
    )
    nid, token = created["night"], created["host_token"]
    cohost = server.api("POST", f"/api/nights/{nid}/cohosts", token, json={"name": "Bea"})
    printed = created["tables"][1]["code"]

    co = pages.open(f"/n/{nid}/host?token={cohost['token']}", size=PHONE, name="co-host")
    expect(co.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(co, "seating")
    screen = co.locator("#screen-link")
    expect(screen).to_have_attribute("href", re.compile(rf"/n/{nid}/screen\?token=[\w-]{{16,}}$"))
    href = screen.get_attribute("href") or ""
    expect(co.locator("#player-card img.qr")).to_be_visible()
    # the seating guide cards print from here too, their QR codes with this viewer token
    guide = co.locator("#guide-link")
    expect(guide).to_be_visible()
    viewer = href.rsplit("token=", 1)[1]
    expect(guide).to_have_attribute("href", re.compile(rf"/download/guide\.pdf\?viewer={viewer}$"))
    pdf = httpx.get(
        server.base + (guide.get_attribute("href") or ""),
        headers={"Authorization": f"Bearer {cohost['token']}"},
        timeout=60,
    )
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.text[:200]

    # the co-host's phone shows and prints the codes printed at creation (the server keeps
    # them for every host), and a new one is made only after a question naming the card
    code = co.locator('.seat-card[data-table="2"] .code')
    expect(code).to_have_text(printed)
    first = created["tables"][0]["code"]
    expect(co.locator('.seat-card[data-table="1"] .code')).to_have_text(first)
    co.click("#seat-pick [data-seat='2']")  # table 2's card, on this phone's screen
    renew = co.locator('.seat-card[data-table="2"] button', has_text="New code")
    renew.click()
    dialog = co.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"Table 2's printed card with the code {printed}")
    expect(dialog).to_contain_text("stops working")
    assert [v["id"] for v in axe(co) if v["impact"] in ("serious", "critical")] == []
    co.click("#confirm-no")  # kept: the printed code still works
    expect(dialog).to_be_hidden()
    kept = httpx.post(f"{server.base}/api/join", json={"code": printed}, timeout=10)
    assert kept.status_code == 200, kept.text
    renew.click()
    co.click("#confirm-yes")
    expect(code).not_to_have_text(printed)
    expect(code).to_have_text(re.compile(r"^[A-Z0-9]{4,8}$"))
    new = code.text_content() or ""
    gone = httpx.post(f"{server.base}/api/join", json={"code": printed}, timeout=10)
    assert gone.status_code in (401, 404), gone.text
    joined = httpx.post(f"{server.base}/api/join", json={"code": new}, timeout=10)
    assert joined.status_code == 200, joined.text
    # the host's phone, opened now, shows the co-host's new code, not its own old one
    kept_codes = server.api("GET", f"/api/nights/{nid}/join-codes", token)
    assert [c["code"] for c in kept_codes["tables"]] == [first, new]
    # "New code" on the card now names the code printed there
    co.locator('.seat-card[data-table="2"] button', has_text="New code").click()
    expect(dialog).to_contain_text(f"Table 2's printed card with the code {new}")
    co.click("#confirm-no")

    tv = pages.open(href.replace(server.base, ""), size=TV, name="tv")
    expect(tv.locator("body")).to_have_attribute("data-ready", "yes")
    expect(tv.locator("#fatal")).to_be_hidden()
    assert pages.errors == []
