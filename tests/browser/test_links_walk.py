"""Links carry only what they must: every link the club organizer's page and the night
host's page show (anchors, QR codes' images, links printed as text) is walked, and a
write is tried with the token each one carries. The page's own secret (the club's link,
the host's link) appears only where the page hands itself over to another phone; every
other token is of its own kind (a member's page, a calendar, a share, a viewer, a table's
join) and every write outside what that kind is for is refused (401 or 403), with the
club and the night unchanged."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server

pytestmark = pytest.mark.browser

COLLECT = """() => {
  const out = [];
  for (const a of document.querySelectorAll('a[href]')) out.push([a.id || a.closest('[id]').id, a.href]);
  for (const i of document.querySelectorAll('img[src]')) {
    const text = new URL(i.src).searchParams.get('text');
    if (text) out.push([i.id || i.closest('[id]').id, text]);
  }
  for (const t of document.querySelectorAll('.link-text')) out.push([t.id, t.textContent.trim()]);
  return out;
}"""


def tokens_on(page: Page) -> list[tuple[str, str, str]]:
    """(where on the page, the link, its token) for every link carrying a token."""
    found = []
    for where, url in page.evaluate(COLLECT):
        query = parse_qs(urlsplit(unquote(url)).query)
        for key in ("token", "viewer"):
            for token in query.get(key, []):
                found.append((where, url, token))
    return found


CLUB_WRITES = (
    ("payments", {"player": "Ann", "amount": "5"}),
    ("members", {"name": "Kim"}),
    ("plans", {"date": "2027-05-11"}),
    ("nights", {}),
    ("ladder", {"measure": "points"}),
    ("shares", {"season": "2026"}),
    ("links", None),
    ("recovery", None),
    ("rsvps", {"date": "2027-05-04", "name": "Ann", "answer": "no"}),
    ("plans/2027-05-04/cancel", None),
)


def test_every_link_on_the_organizers_page_reads_only_what_it_is_for(
    pages: Pages, server: Server
) -> None:
    made = server.api(
        "POST",
        "/api/clubs",
        json={
            "name": "Walk Club",
            "dues": "5",
            "regulars": ["Ann", "Bea", "Cat", "Dee"],
            "substitutes": ["Zoe"],
            "season": "2026",
        },
    )
    club, org = made["club"], made["token"]
    server.api(
        "POST", f"/api/clubs/{club}/plans", org, json={"date": "2027-05-04", "time": "19:00"}
    )
    server.api("POST", f"/api/clubs/{club}/shares", org, json={"season": "2026"})
    page = pages.open(f"/c/{club}?token={org}", name="organizer")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    page.click("#share-season")
    expect(page.locator("#season-share")).to_be_visible()
    page.click("text=Open the club on another phone")
    found = tokens_on(page)
    kinds = {where for where, _, _ in found}
    assert {"links", "calendar-feed", "plans", "season-share", "organizer-link"} <= kinds, kinds
    before = server.api("GET", f"/api/clubs/{club}", org)
    ledger = server.api("GET", f"/api/clubs/{club}/ledger", org)
    walked = 0
    for where, url, token in found:
        if token == org:  # the club's own link: only where the page hands itself over
            assert where in ("organizer-card", "organizer-link", "organizer-qr"), (where, url)
            continue
        for path, body in CLUB_WRITES:
            reply = server.call("POST", f"/api/clubs/{club}/{path}", token, json=body)
            assert reply.status_code in (401, 403), (where, url, path, reply.text)
        assert server.call("GET", f"/api/clubs/{club}/ledger", token).status_code == 403
        if "/me?" not in url:  # only a member's own link answers for them
            answer = {"date": "2027-05-04", "answer": "no"}
            assert (
                server.call("POST", f"/api/clubs/{club}/me/rsvp", token, json=answer).status_code
                == 403
            )
        walked += 1
    assert walked >= 8  # five members, the calendar feed and file, the season's share
    assert server.api("GET", f"/api/clubs/{club}", org) == before
    assert server.api("GET", f"/api/clubs/{club}/ledger", org) == ledger


def night_writes(night: str) -> list[tuple[str, str, dict[str, Any]]]:
    n = f"/api/nights/{night}"
    return [
        ("POST", f"{n}/tables/1/rolls", {"command_id": "walk-roll", "dice": [1, 1, 1]}),
        ("POST", f"{n}/tables/2/rolls", {"command_id": "walk-roll-2", "dice": [2, 2, 2]}),
        ("POST", f"{n}/departures", {"command_id": "walk-leave", "player": "Ann"}),
        ("POST", f"{n}/verifications", {"command_id": "walk-verify", "player": "Ann"}),
        ("POST", f"{n}/end", {"command_id": "walk-end"}),
        ("POST", f"{n}/cohosts", {"name": "Mallory"}),
        ("POST", f"{n}/viewer-links", {}),
    ]


def test_every_link_on_the_host_page_reads_only_what_it_is_for(
    pages: Pages, server: Server
) -> None:
    players = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "players": players,
            "rules": "tournament",
            "groups": {"Team 1": players[:4], "Team 2": players[4:]},
        },
    )
    night, host = created["night"], created["host_token"]
    page = pages.open(f"/night/{night}?token={host}", name="host")
    page.wait_for_url(f"**/n/{night}/host")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    found = tokens_on(page)
    assert found, "the host page shows its links"
    before = server.state(night, host)["seq"]
    walked = 0
    for where, url, token in found:
        if token == host:  # the host link: only where the page hands itself over
            assert where.startswith(("handoff", "saved")), (where, url)
            continue
        for method, path, body in night_writes(night):
            reply = server.call(method, path, token, json=body)
            assert reply.status_code in (401, 403, 404), (where, url, path, reply.text)
            assert reply.status_code != 404 or "no_such" not in reply.text, (path, reply.text)
        walked += 1
    assert walked >= 3  # the tables' join links, the players' page, the big screen
    assert server.state(night, host)["seq"] == before
