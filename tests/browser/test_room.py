"""The room at a glance (docs/room.md), on the pages: the host's dashboard flags a silent
table and a table's "Call the host" (answered from the dashboard), and an announcement
from the host reaches a table's phone and the big screen at once."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .api_rolls import roll
from .conftest import TV, Pages, Server, host_tab, open_table, shoot
from .night_phones import wait_for
from .test_accessibility import Checks

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
# A browser that reads QR codes (BarcodeDetector) and a camera showing the card in
# ``window.shownCard``: the desktop Chromium of the tests has neither.
IN_PAGE_READER = """
window.BarcodeDetector = class {
  async detect() { return window.shownCard ? [{ rawValue: window.shownCard }] : []; }
};
navigator.mediaDevices.getUserMedia = async () => {
  const canvas = document.createElement("canvas");
  const paint = () => canvas.getContext("2d").fillRect(0, 0, 8, 8 + Math.random());
  paint();
  setInterval(paint, 100);
  return canvas.captureStream(10);
};
"""


def host_page(pages: Pages, created: dict[str, Any], tab: str = "tables") -> Page:
    """The host's page, on the console's ``tab`` (the room at a glance is under Tables)."""
    host = pages.open(f"/n/{created['night']}/host?token={created['host_token']}", name="host")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(host, tab)
    if tab == "tables":
        expect(host.locator("#room-card")).to_be_visible()
    return host


def test_the_dashboard_flags_a_silent_table_and_a_call_for_the_host(
    pages: Pages, server: Server
) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Room", "players": EIGHT})
    night, token = created["night"], created["host_token"]
    host = host_page(pages, created)
    expect(host.locator("#room-tiles li")).to_have_count(2)
    expect(host.locator("#needs-list")).to_have_text(re.compile("Nothing needs you"))
    # table 2 calls the host from its phone
    t2 = open_table(pages, created, 2)
    t2.click("#call-host")
    expect(t2.locator("#call-state")).to_contain_text("The host has been called")
    expect(t2.locator("#call-host")).to_be_disabled()
    call = host.locator("#needs-list li[data-table='2']")
    expect(call).to_contain_text("Calls you")
    # table 1 enters, table 2 does not: once the round is under way a few seconds, the
    # host's limit (here 3 s, so the test does not wait minutes) flags table 2 silent
    roll(server, night, token, 1, [2, 3, 5])
    wait_for(
        lambda: any(
            f["kind"] == "silent"
            for f in server.api("GET", f"/api/nights/{night}/dashboard?silent=0.05", token)[
                "tables"
            ][1]["flags"]
        ),
        "table 2 flagged silent on the server",
    )
    host.evaluate("""() => { const s = document.getElementById('room-silent');
      s.append(new Option('3 s', '0.05')); s.value = '0.05';
      s.dispatchEvent(new Event('change')); }""")
    expect(call).to_contain_text(re.compile(r"Silent: no entry this round after \d+ s"))
    expect(call).to_have_attribute("data-flags", "call silent")
    expect(host.locator("#room-tiles li[data-table='2']")).to_have_class(re.compile("flagged"))
    check = Checks()
    check(host, "host, the room at a glance")
    assert check.found == []
    shoot(host, "host-dashboard", ("phone",))
    # answered: gone from the dashboard and from the table's phone
    host.click("[data-answer='2']")
    expect(call.locator("[data-answer]")).to_have_count(0)
    expect(t2.locator("#call-host")).to_be_enabled()
    expect(t2.locator("#call-host")).to_have_text("Call the host")
    assert pages.errors == []


def test_an_announcement_reaches_a_table_and_the_big_screen(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Shout", "players": EIGHT})
    host = host_page(pages, created)
    t1 = open_table(pages, created, 1)
    screen = pages.open(
        f"/n/{created['night']}/screen?token={created['viewer_token']}", TV, "screen"
    )
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    expect(t1.locator("#announcement")).to_be_hidden()
    host.fill("#announce-text", "5 minutes to the break")
    host.click("#announce-form button[type=submit]")
    for page in (t1, screen):
        expect(page.locator("#announcement")).to_have_text("From the host: 5 minutes to the break")
        expect(page.locator("#announcement")).to_be_visible()
    assert t1.evaluate("window.buzzes.length") >= 1
    expect(host.locator("#announce-now")).to_contain_text("5 minutes to the break")
    # the big screen still shows every table under the line
    box = screen.locator(".tv-table[data-table='2']").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080
    # a page opened later shows it too
    late = pages.open(f"/n/{created['night']}/screen?token={created['viewer_token']}", TV, "late")
    expect(late.locator("#announcement")).to_contain_text("5 minutes to the break")
    check = Checks()
    check(t1, "table, an announcement")
    check(screen, "big screen, an announcement")
    assert check.found == []
    shoot(t1, "table-announcement", ("phone",))
    # an empty line is refused on the page, without a request
    host.fill("#announce-text", "   ")
    host.click("#announce-form button[type=submit]")
    expect(host.locator(".toast").last).to_contain_text("Type what every phone")
    host.click("#announce-clear")
    for page in (t1, screen, late):
        expect(page.locator("#announcement")).to_be_hidden()
    assert pages.errors == []


def test_check_in_turns_a_no_show_into_a_ghost_before_round_1(pages: Pages, server: Server) -> None:
    # scil seats a ghost for a missing player (classic would make a table of three)
    created = server.api(
        "POST", "/api/nights", json={"name": "Door", "rules": "scil", "players": EIGHT}
    )
    night, token = created["night"], created["host_token"]
    host = host_page(pages, created, "players")  # the door list is under Players
    card = host.locator("#checkin-card")
    expect(card).to_be_visible()
    expect(host.locator("#checkin-count")).to_have_text("0 of 8 checked in")
    for name in EIGHT[:4]:  # seven arrive; Hal does not
        host.locator(f"#checkin-list li[data-player='{name}'] .here-toggle").click()
        expect(host.locator(f"#checkin-list li[data-player='{name}']")).to_have_attribute(
            "data-here", "true"
        )
    # Fay shows her door card (her badge, or her own page): the host's phone camera app
    # opens its address, which checks her in; a second scan says since when
    fay = server.api(
        "POST", f"/api/nights/{night}/claim", created["viewer_token"], json={"name": "Fay"}
    )
    door = server.api("GET", f"/api/nights/{night}/checkin/me", fay["token"])["door_url"]
    door_path = door[door.index("/n/") :]
    host.goto(door_path)
    expect(host.locator("#door-done")).to_have_text(re.compile(r"^✓ Fay is checked in"))
    expect(host.locator("#door-count")).to_have_text("5 of 8 here")
    host.reload()
    expect(host.locator("#door-done")).to_have_text(
        re.compile(r"^Fay was already checked in at \d\d?:\d\d")
    )
    check = Checks()
    check(host, "host, a door card scanned twice")
    assert check.found == []
    # back on the door list, in a browser that reads QR codes itself (Chrome on Android;
    # here a stand-in camera and reader): "Scan" checks Eve's card in without leaving it
    host.context.add_init_script(IN_PAGE_READER)
    host.click("#door-back")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    expect(host.locator("#checkin-card")).to_be_visible()  # back under Players, by its link
    expect(host.locator("#checkin-list li[data-player='Fay']")).to_have_attribute(
        "data-here", "true"
    )
    expect(host.locator("#checkin-count")).to_have_text("5 of 8 checked in")
    eve = server.api(
        "POST", f"/api/nights/{night}/claim", created["viewer_token"], json={"name": "Eve"}
    )
    host.evaluate(
        "(url) => { window.shownCard = url; }",
        server.api("GET", f"/api/nights/{night}/checkin/me", eve["token"])["door_url"],
    )
    host.click("#checkin-scan")
    expect(host.locator("#checkin-list li[data-player='Eve']")).to_have_attribute(
        "data-here", "true"
    )
    expect(host.locator("#checkin-count")).to_have_text("6 of 8 checked in")
    host.click("#checkin-scanner button")  # Stop scanning
    expect(host.locator("#checkin-scanner")).to_be_hidden()
    # Gus checks himself in: the night's player QR, his name, "I'm here" on his own phone
    phone = pages.open(f"/n/{night}/player?token={created['viewer_token']}", name="Gus's phone")
    phone.locator("#names [data-player='Gus']").click()
    expect(phone.locator("body")).to_have_attribute("data-ready", "yes")
    expect(phone.locator("#door-qr img")).to_have_attribute("src", re.compile("door"))
    phone.click("#im-here")
    expect(phone.locator("#checkin-state")).to_contain_text("The host knows you are here")
    # a phone without the host's link that opens Hal's card checks in nobody
    hal = server.api(
        "POST", f"/api/nights/{night}/claim", created["viewer_token"], json={"name": "Hal"}
    )
    hal_door = server.api("GET", f"/api/nights/{night}/checkin/me", hal["token"])["door_url"]
    stranger = pages.open(hal_door[hal_door.index("/n/") :], name="a stranger's phone")
    expect(stranger.locator("#door-title")).to_have_text("Hal's door card")
    expect(stranger.locator("#door-where")).to_have_text("Round 1: table 2, seat 4")
    expect(stranger.locator("#door-host-hint")).to_be_visible()
    check = Checks()
    check(stranger, "a door card on a phone without the host's link")
    check(phone, "player, checked in at the door")
    assert check.found == []
    # the host's list follows without a reload
    expect(host.locator("#checkin-list li[data-player='Gus']")).to_have_attribute(
        "data-here", "true"
    )
    expect(host.locator("#checkin-count")).to_have_text("7 of 8 checked in")
    host.check("#checkin-missing")
    expect(host.locator("#checkin-list li")).to_have_count(1)
    check = Checks()
    check(host, "host, the door check-in")
    assert check.found == []
    # Hal is not coming: "No-show…", then one tap arms, the second takes him off; scil
    # seats a ghost
    host.click("[data-noshow='Hal']")
    host.click("[data-ghost='Hal']")
    expect(host.locator("[data-ghost='Hal']")).to_have_text("Sure? Hal is not coming")
    host.click("[data-ghost='Hal']")
    expect(host.locator("#checkin-list li[data-player='Hal']")).to_have_count(0)
    expect(host.locator("#checkin-count")).to_have_text("7 of 7 checked in")
    table2 = server.state(night, token)["view"]["tables"][1]
    assert table2["players"] == ["Eve", "Fay", "Gus", None]
    screen = pages.open(f"/n/{night}/screen?token={created['viewer_token']}", TV, "screen")
    expect(screen.locator(".tv-table[data-table='2'] .ghost")).to_contain_text("ghost")
    # table 2's page says who sits where: Hal's seat is the ghost's now
    t2 = open_table(pages, created, 2)
    expect(t2.locator("#seats-box li")).to_have_text(
        ["Seat 1 Eve", "Seat 2 Fay", "Seat 3 Gus", "Seat 4 ghost (partner rolls)"]
    )
    expect(t2.locator("#partners")).to_have_text("Partners: Eve & Gus · Fay & ghost")
    # the first roll closes the door list
    roll(server, night, token, 1, [2, 3, 5])
    expect(card).to_be_hidden()
    expect(phone.locator("#checkin-box")).to_be_hidden()
    assert pages.errors == []
