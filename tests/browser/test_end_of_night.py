"""The end of a classic night: prizes with ties and roll-offs, score cards, downloads.

The night is played through the API at one table: in every round the scorekeeper (seat 1)
rolls a Bunco, then a roll that scores nothing. By hand from RULES.md: Ann keeps seat 1
(the head table's winners stay) and, as a pair that stays must split, takes a new partner
each round, so Bea, Cat and Dee partner her twice each: Ann has six Buncos and six wins;
the three others two wins and four losses each. So Most Buncos, Most Wins and Last Bunco
go to Ann outright, nobody has half wins and half losses, and Most Losses is a three-way
tie that a roll-off settles; the host rolls it from the results page.
"""

from __future__ import annotations

import csv
import io
import json
import re

import httpx
import pytest
from playwright.sync_api import Route, expect

from .conftest import TV, Pages, Server, phone, shoot

pytestmark = pytest.mark.browser


def play_night(server: Server) -> dict[str, str]:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "Prize night", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]},
    )
    night, host = created["night"], created["host_token"]
    n = 0
    for r in range(1, 7):
        miss = [f for f in range(1, 7) if f != r][:2]
        for dice in ([r, r, r], [miss[0], miss[0], miss[1]]):
            n += 1
            server.api(
                "POST",
                f"/api/nights/{night}/tables/1/rolls",
                host,
                json={"command_id": f"end-{n}", "dice": dice},
            )
    return {"night": night, "host": host, "viewer": created["viewer_token"]}


def test_prizes_rolloffs_cards_downloads(pages: Pages, server: Server) -> None:
    night = play_night(server)
    nid = night["night"]
    assert server.state(nid, night["host"])["view"]["phase"] == "rolloff"

    screen = pages.open(f"/n/{nid}/screen?token={night['viewer']}", TV, "screen")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    expect(screen.locator("#rolloff-box")).to_contain_text("Roll-off: Most Losses")

    end = pages.open(f"/n/{nid}/end?token={night['host']}", name="end")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    expect(end.locator("body")).to_have_attribute("data-phase", "rolloff")
    expect(end.locator("#rolloff-box")).to_contain_text("Most Losses")
    expect(end.locator("#rolloff-box")).to_contain_text("highest total goes first (Bea, Cat & Dee)")
    expect(end.locator("[data-prize=most_losses]")).to_contain_text("Bea, Cat & Dee: roll-off")
    expect(end.locator("[data-prize=most_wins] .winners")).to_have_text("Ann")
    shoot(end, "end-rolloff")

    # the host rolls the roll-off from the results page until it has a winner
    for _ in range(400):
        if end.locator("body").get_attribute("data-phase") == "over":
            break
        button = end.locator("#rolloff-roll")
        if button.is_visible():
            # the page shows the roll's toast before it has loaded the new state: wait for
            # the state (its sequence number) so the next pass never clicks a stale button
            seq = end.locator("body").get_attribute("data-seq") or ""
            button.click()
            expect(end.locator("#toasts .toast").last).to_contain_text("rolled")
            expect(end.locator("body")).not_to_have_attribute("data-seq", seq)
        else:
            end.wait_for_timeout(100)
    expect(end.locator("body")).to_have_attribute("data-phase", "over")
    expect(end.locator("#rolloff-box")).to_be_hidden()

    prizes = server.api("GET", f"/api/nights/{nid}/prizes", night["host"])["prizes"]
    by = {p["category"]: p for p in prizes}
    assert by["most_buncos"]["winners"] == ["Ann"]
    assert by["most_wins"]["winners"] == ["Ann"]
    assert by["most_losses"]["settled_by"] == "roll_off"
    assert by["most_losses"]["winners"][0] in ("Bea", "Cat", "Dee")
    assert by["half_and_half"]["winners"] == []
    assert by["last_bunco"]["winners"] == ["Ann"]

    expect(end.locator("[data-prize=most_buncos] .winners")).to_have_text("Ann")
    # the one list of winners says how the tie was settled, next to the name
    expect(end.locator("[data-prize=most_losses] .winners")).to_have_text(
        f"{by['most_losses']['winners'][0]} (after a roll-off)"
    )
    expect(end.locator("[data-prize=half_and_half] .winners")).to_have_text("nobody to hand it to")
    expect(end.locator("[data-prize=last_bunco] .winners")).to_have_text("Ann")
    ann = end.locator("#cards-table tr[data-player=Ann]")
    expect(ann.locator(".wl")).to_have_text(["W"] * 6)
    expect(ann.locator("[data-col=buncos]")).to_have_text("6")
    bea = end.locator("#cards-table tr[data-player=Bea] .wl").all_inner_texts()
    assert sorted(bea) == ["L", "L", "L", "L", "W", "W"]
    shoot(end, "end-prizes")

    # downloads: the party log replays, the standings open in a spreadsheet
    links = {
        a.get_attribute("data-download"): a.get_attribute("href")
        for a in end.locator("#downloads a").all()
    }
    assert not any("token=" in (href or "") for href in links.values())  # in a header
    read = {"Authorization": f"Bearer {night['viewer']}"}
    log = httpx.get(server.base + links[f"bunco-{nid}.jsonl"], headers=read).text.splitlines()
    assert json.loads(log[0])["type"] == "party"
    assert sum(json.loads(line)["type"] == "roll" for line in log[1:]) >= 12
    rows = list(
        csv.DictReader(
            io.StringIO(
                httpx.get(server.base + links[f"bunco-{nid}-standings.csv"], headers=read).text
            )
        )
    )
    assert (rows[0]["player"], rows[0]["wins"], rows[0]["buncos"]) == ("Ann", "6", "6")
    end.click("#downloads-fold > summary")  # the downloads, one tap away
    with end.expect_download() as download:
        end.locator(f"[data-download='bunco-{nid}.jsonl']").click()
    assert download.value.suggested_filename == f"bunco-{nid}.jsonl"

    # the links the API printed at creation open the page of their role
    link = pages.open(f"/night/{nid}?token={night['host']}", name="host link")
    link.wait_for_url(f"**/n/{nid}/host")
    link = pages.open(
        f"/night/{nid}?token={night['viewer']}",
        name="viewer link",
        size={"width": 1920, "height": 1080},
    )
    link.wait_for_url(f"**/n/{nid}/screen")  # the viewer link: the big screen
    expect(link.locator("[data-prize=most_buncos] .winners")).to_have_text("Ann")
    end_link = pages.open(f"/n/{nid}/end?token={night['viewer']}", name="results link")
    expect(end_link.locator("[data-prize=most_buncos] .winners")).to_have_text("Ann")

    # the big screen shows the prize winners; a player's page shows them too
    expect(screen.locator("#prizes-box")).to_be_visible()
    expect(screen.locator("[data-prize=most_buncos] .winners")).to_have_text("Ann")
    expect(screen.locator("#round-line")).to_have_text("The night is over")
    shoot(screen, "screen-prizes", ("tv",))
    player = pages.open(f"/n/{nid}/player?token={night['viewer']}", name="player")
    player.click("#names [data-player=Cat]")
    expect(player.locator("body")).to_have_attribute("data-ready", "yes")
    expect(player.locator("#prizes-box [data-prize=most_buncos] .winners")).to_have_text("Ann")
    expect(player.locator("[data-stat=W] b")).to_have_text("2")
    expect(player.locator("[data-stat=L] b")).to_have_text("4")
    shoot(player, "player-end")
    assert pages.errors == []


def test_a_rolloff_page_never_shows_a_new_seq_with_the_old_roller(
    pages: Pages, server: Server
) -> None:
    """A roll-off roll changes the whole night's view, which its socket message does not
    carry: the results page reloads the view. The night's status message of the same seq
    comes before that reload lands; the page must not draw it on the old view (the old
    roller's button at the new seq, which the server would refuse). Here the roll's reply
    and the reload are held while the socket's messages pass."""
    night = play_night(server)
    nid = night["night"]
    context = phone(pages)  # without the worker: every request passes the test's routes
    end = context.new_page()
    end.on("pageerror", lambda exc: pages.errors.append(f"end: {exc}"))
    end.goto(f"/n/{nid}/end?token={night['host']}")
    body = end.locator("body")
    expect(body).to_have_attribute("data-ready", "yes")
    expect(body).to_have_attribute("data-connection", "online")
    expect(end.locator("#rolloff-roll")).to_have_attribute("data-player", "Bea")
    before = body.get_attribute("data-seq") or ""
    rolls: list[Route] = []
    reloads: list[Route] = []
    context.route(re.compile(rf"/api/nights/{nid}/rolloff$"), lambda r: rolls.append(r))
    context.route(re.compile(rf"/api/nights/{nid}$"), lambda r: reloads.append(r))
    end.locator("#rolloff-roll").click()
    for _ in range(200):
        if rolls:
            break
        end.wait_for_timeout(25)
    reply = rolls[0].fetch()  # the server records Bea's roll and tells the night's sockets
    for _ in range(200):
        if reloads:
            break
        end.wait_for_timeout(25)
    assert reloads, "the page did not reload the view after the roll-off's socket message"
    end.wait_for_timeout(400)  # longer than the page waits before it draws what came
    assert body.get_attribute("data-seq") == before
    expect(end.locator("#rolloff-roll")).to_have_attribute("data-player", "Bea")
    rolls[0].fulfill(response=reply)
    expect(end.locator("#toasts .toast").last).to_contain_text("Bea rolled")
    context.unroute(re.compile(rf"/api/nights/{nid}$"))
    for route in reloads:
        route.continue_()
    expect(body).not_to_have_attribute("data-seq", before)
    state = server.state(nid, night["host"])
    expect(body).to_have_attribute("data-seq", str(state["seq"]))
    expect(end.locator("#rolloff-roll")).to_have_attribute(
        "data-player", state["view"]["rolloff"]["roller"]
    )
    assert state["view"]["rolloff"]["roller"] == "Cat"
    assert pages.errors == []
