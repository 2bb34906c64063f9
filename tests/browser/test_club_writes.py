"""The club pages' writes, each applied once: every POST the organizer's and a member's
pages send to the club carries an ``Idempotency-Key`` made for the tap; a write whose
reply is lost on the way back (the server stored it, the page never heard) is sent
again by the page with the same key and applied once; and one still without a reply
after the page's tries is applied once when the person taps again.

The reply is lost for real: the test's route lets the request reach the server
(``route.fetch()``), then drops the connection before the page sees the answer
(``route.abort()``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect
from sqlalchemy import create_engine

from bunco.store import ClubStore

from .conftest import Pages, Server, phone, shoot

pytestmark = pytest.mark.browser


def writes_of(page: Page) -> list[tuple[str, str | None]]:
    """Every write the page sends to the clubs' API: its path and its key, in order."""
    seen: list[tuple[str, str | None]] = []

    def note(request: Request) -> None:
        if request.method != "GET" and "/api/clubs" in request.url:
            path = request.url.split("/api/clubs", 1)[1].split("?", 1)[0]
            seen.append((path, request.headers.get("idempotency-key")))

    page.on("request", note)
    return seen


def lose_replies(page: Page, pattern: str, times: int) -> list[dict[str, Any]]:
    """The first ``times`` requests to ``pattern`` reach the server, and their replies are
    lost before the page reads them; later ones pass. Returns the lost replies' JSON."""
    lost: list[dict[str, Any]] = []

    def handle(route: Route) -> None:
        if route.request.method == "POST" and len(lost) < times:
            reply = route.fetch()  # the server stores the write and answers...
            lost.append(reply.json())
            route.abort("connectionreset")  # ...and the page never hears it
        else:
            route.continue_()

    page.route(re.compile(pattern), handle)
    return lost


def ready(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")


def stored(server: Server, club: str, kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` in the club's log, read from the server's database."""
    engine = create_engine(f"sqlite:///{server.db}")
    try:
        return [e for e in ClubStore(engine).events(club) if e["type"] == kind]
    finally:
        engine.dispose()


def paid(server: Server, club: str, token: str, who: str) -> str:
    ledger = server.api("GET", f"/api/clubs/{club}/ledger", token)
    return str(next(m["paid"] for m in ledger["members"] if m["player"] == who))


def test_a_club_made_and_paid_with_lost_replies_is_made_and_paid_once(
    pages: Pages, server: Server
) -> None:
    page = phone(pages).new_page()
    writes = writes_of(page)
    page.goto("/club")
    lost_made = lose_replies(page, r"/api/clubs$", 1)
    page.fill("#club-name", "Tuesday Club")
    page.fill("#club-dues", "5")
    page.fill("#club-regulars", "Ann\nBea\nCat\nDee")
    page.click("#create-club")
    expect(page.locator("body")).to_have_attribute("data-ready", "saved")
    # the page sent its creation again with the same key: the same club, token and code
    assert [w[0] for w in writes] == ["", ""] and writes[0][1] == writes[1][1]
    assert len(writes[0][1] or "") >= 16
    (first,) = lost_made
    expect(page.locator("#saved-code")).to_have_text(first["recovery_code"])
    expect(page.locator("#saved-link")).to_contain_text(f"/c/{first['club']}?token=")
    club, token = first["club"], first["token"]
    page.click("#open-club")
    ready(page)
    assert server.api("GET", f"/api/clubs/{club}", token)["regulars"] == [
        "Ann",
        "Bea",
        "Cat",
        "Dee",
    ]
    assert [e["name"] for e in stored(server, club, "member")] == ["Ann", "Bea", "Cat", "Dee"]

    # a payment whose first reply is lost: sent again by the page, paid once
    lost_pay = lose_replies(page, r"/payments$", 1)
    page.select_option("#pay-player", "Ann")
    page.fill("#pay-amount", "5")
    page.click("#pay")
    expect(page.locator("#dues-ledger tr[data-player=Ann] td").nth(3)).to_have_text("$5.00")
    assert paid(server, club, token, "Ann") == "5.00"
    assert [e["player"] for e in stored(server, club, "payment")] == ["Ann"]
    pays = [key for path, key in writes if path.endswith("/payments")]
    assert len(pays) == 2 and pays[0] == pays[1] and len(lost_pay) == 1

    # a payment no reply of which comes back (the page's four tries): the person is told
    # there is no connection; tapping "Record a payment" again sends the same key
    page.unroute(re.compile(r"/payments$"))
    lost_all = lose_replies(page, r"/payments$", 4)
    page.select_option("#pay-player", "Bea")
    page.fill("#pay-amount", "5")
    page.click("#pay")
    expect(page.locator(".toast")).to_contain_text("no connection to the server")
    assert len(lost_all) == 4 and paid(server, club, token, "Bea") == "5.00"
    expect(page.locator("#pay-amount")).to_have_value("5")  # the form keeps what was typed
    page.click("#pay")
    expect(page.locator("#dues-ledger tr[data-player=Bea] td").nth(3)).to_have_text("$5.00")
    assert paid(server, club, token, "Bea") == "5.00"
    bea = [key for path, key in writes if path.endswith("/payments")][2:]
    assert len(bea) == 5 and len(set(bea)) == 1 and bea[0] != pays[0]

    # the next payment is another tap: another key, paid again
    page.fill("#pay-amount", "5")
    page.click("#pay")
    expect(page.locator("#dues-ledger tr[data-player=Bea] td").nth(3)).to_have_text("$10.00")
    assert [e["player"] for e in stored(server, club, "payment")] == ["Ann", "Bea", "Bea"]

    page.fill("#plan-date", "2099-02-12")
    page.click("#plan-save")
    expect(page.locator("#plans li[data-date='2099-02-12']")).to_be_visible()
    assert all(key for _, key in writes), writes
    keys = {path: {k for p, k in writes if p == path} for path, _ in writes}
    assert len(keys[f"/{club}/payments"]) == 3  # Ann's, Bea's, Bea's second
    assert len(keys[f"/{club}/plans"]) == 1
    shoot(page, "club-writes")
    assert not pages.errors


def test_a_members_answer_whose_reply_is_lost_is_counted_once(pages: Pages, server: Server) -> None:
    made = server.api(
        "POST",
        "/api/clubs",
        json={"name": "Thursday Club", "regulars": ["Ann", "Bea"], "substitutes": ["Zoe"]},
    )
    club, token = made["club"], made["token"]
    server.api("POST", f"/api/clubs/{club}/plans", token, json={"date": "2099-02-12", "seats": 2})
    links = server.api("GET", f"/api/clubs/{club}/links", token)["members"]
    zoe_link = next(m["url"] for m in links if m["name"] == "Zoe")
    page = phone(pages).new_page()
    writes = writes_of(page)
    page.goto(zoe_link.split("://", 1)[1].split("/", 1)[1].join(["/", ""]))
    ready(page)
    night = page.locator("li[data-date='2099-02-12']")
    server.api(  # Bea can't come: her seat is offered to Zoe
        "POST",
        f"/api/clubs/{club}/rsvps",
        token,
        json={"date": "2099-02-12", "name": "Bea", "answer": "no"},
    )
    page.reload()
    ready(page)
    lost = lose_replies(page, r"/me/rsvp$", 1)
    night.locator("button[data-answer=yes]").click()
    expect(night.locator(".seat")).to_have_text("You have a seat.")
    assert len(lost) == 1 and lost[0]["nights"][0]["seat"] == "seat"
    answers = [key for path, key in writes if path.endswith("/me/rsvp")]
    assert len(answers) == 2 and answers[0] == answers[1] and answers[0]
    seats = server.api("GET", f"/api/clubs/{club}/plans/2099-02-12", token)
    assert seats["coming"] == ["Zoe"] and seats["subs_in"] == [{"sub": "Zoe", "for": "Bea"}]
    answered = [(e["name"], e["answer"]) for e in stored(server, club, "rsvp")]
    assert answered == [("Bea", "no"), ("Zoe", "yes")]  # her yes stored once
    assert not pages.errors
