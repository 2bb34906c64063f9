"""A club's season in the browser: the club is made on its page, three nights are started
from it (the second with Zoe in for Dee), each is played through the API by the host
(every round: the first roller rolls a Bunco, then a roll that scores nothing), dues are
paid on the page, and the season standings page shows the season: nights played, wins,
money won and the ledger.

By hand: with one table of four, the first roller of each round keeps seat 1 and wins the
round with a Bunco (classic: a staying pair splits, so her partners change). So in each
night one player wins six rounds with six Buncos; the pot (4 × $5, plus what was left)
pays 50% to Most Wins and 25% to Most Buncos, both to that player; the three others tie
for Most Losses (no money) and roll it off.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server, audit, shoot

pytestmark = pytest.mark.browser


def play(server: Server, night: str, host: str, tag: str) -> None:
    for r in range(1, 7):
        miss = [f for f in range(1, 7) if f != r][:2]
        for i, dice in enumerate(([r, r, r], [miss[0], miss[0], miss[1]])):
            server.api(
                "POST",
                f"/api/nights/{night}/tables/1/rolls",
                host,
                json={"command_id": f"{tag}-{r}-{i}", "dice": dice},
            )
    for n in range(400):  # the tie for Most Losses is rolled off at no table
        if server.state(night, host)["view"]["phase"] == "over":
            return
        server.api(
            "POST",
            f"/api/nights/{night}/rolloff",
            host,
            json={"command_id": f"{tag}-ro-{n}", "roll_for_me": True},
        )
    raise AssertionError("the roll-off did not end")


def test_a_season_of_three_nights_ends_in_the_standings(pages: Pages, server: Server) -> None:
    page = pages.open("/club", name="club")
    page.fill("#club-name", "Tuesday Club")
    page.fill("#club-dues", "5")
    page.fill("#club-regulars", "Ann\nBea\nCat\nDee")
    page.fill("#club-subs", "Zoe")
    page.fill("#club-season", "2026")
    page.click("#create-club")
    expect(page.locator("body")).to_have_attribute("data-ready", "saved")
    expect(page.locator("#saved-code")).to_have_text(re.compile(r"^([A-Z2-7]{4}-){4}[A-Z2-7]{4}$"))
    page.click("#open-club")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#club-title")).to_have_text("Tuesday Club")
    club = page.url.rsplit("/", 1)[1]

    for number, (date, swap) in enumerate(
        (("2026-01-13", None), ("2026-02-10", "Zoe"), ("2026-03-10", None)), start=1
    ):
        page.fill("#night-date", date)
        if swap:
            page.select_option("#swap-Dee", swap)
        page.click("#start-night")
        expect(page.locator("body")).to_have_attribute("data-ready", "night-saved")
        expect(page.locator("#night-saved-link")).to_contain_text("?token=")
        page.click("#back-to-club")
        expect(page.locator("#nights li")).to_have_count(number)
        night = page.locator("#nights li").nth(number - 1).get_attribute("data-night")
        host = page.evaluate(f"JSON.parse(localStorage.getItem('bunco:{night}:host'))")
        setup = server.state(night, host)["setup"]
        assert setup["players"] == (
            ["Ann", "Bea", "Cat", "Zoe"] if swap else ["Ann", "Bea", "Cat", "Dee"]
        )
        play(server, night, host, f"n{number}")

    page.select_option("#pay-player", "Ann")
    page.fill("#pay-amount", "15")
    page.click("#pay")
    expect(page.locator("#dues-ledger tr[data-player=Ann]")).to_contain_text("$15.00")

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    standings = page.locator("#season-standings")
    zoe = standings.locator("tr[data-player=Zoe] td")
    expect(zoe.nth(2)).to_have_text("1")  # nights played
    expect(standings.locator("tr[data-player=Ann] td").nth(2)).to_have_text("3")
    expect(standings.locator("tr[data-player=Dee] td").nth(2)).to_have_text("2")
    ann = page.locator("#dues-ledger tr[data-player=Ann] td")
    expect(ann.nth(2)).to_have_text("$15.00")  # owed
    expect(ann.nth(4)).to_have_text("$0.00")  # balance
    expect(page.locator("#nights li")).to_have_count(3)
    expect(page.locator("#nights")).to_contain_text("played")

    rows = server.api(
        "GET",
        f"/api/clubs/{club}/standings",
        page.evaluate(f"JSON.parse(localStorage.getItem('bunco:club:{club}'))"),
    )["standings"]
    won = sum(Decimal(r["won"]) for r in rows)
    wins = sum(r["wins"] for r in rows)
    assert wins == 3 * 12  # six rounds a night, two winners a round
    # three nights of $20 in dues, 75% paid out each night of what the pot held
    assert won == Decimal("15.00") + Decimal("18.75") + Decimal("19.68")
    expect(page.locator("#ledger-totals")).to_contain_text("paid out $53.43")
    assert not pages.errors
    shoot(page, "club-season")
    assert audit(page) == []


def test_an_organizers_month_from_answers_to_the_nights_results(
    pages: Pages, server: Server
) -> None:
    """The organizer makes the club and plans February's night (Ann hosts, in turn, at her
    address). Members answer on their own links; Dee can't come, so her seat is offered to
    the subs: Zoe says yes first and takes it, Yan's yes waits in line. The organizer sees
    who is coming, starts the night (its players: the answers' roster), the night is
    played, and its results are on the club page and through the season's share link."""
    page = pages.open("/club", name="organizer")
    page.fill("#club-name", "Thursday Club")
    page.fill("#club-dues", "5")
    page.fill("#club-regulars", "Ann\nBea\nCat\nDee")
    page.fill("#club-subs", "Zoe\nYan")
    page.fill("#club-season", "2026")
    page.click("#create-club")
    page.click("#open-club")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    club = page.url.rsplit("/", 1)[1]
    page.click("text=Add or change a member, hosts, a season")
    page.fill("#member-name", "Ann")
    page.fill("#member-address", "1 Elm St")
    page.click("#member-save")
    expect(page.locator("#links li")).to_have_count(6)
    page.fill("#plan-date", "2026-02-12")
    page.fill("#plan-time", "19:00")
    page.click("#plan-save")
    plan = page.locator("#plans li[data-date='2026-02-12']")
    expect(plan).to_contain_text("host Ann · 1 Elm St")
    expect(page.locator("#coming-none")).to_have_text("Not answered: Ann, Bea, Cat, Dee")
    expect(page.locator("#calendar-feed")).to_have_attribute("href", re.compile("calendar.ics"))
    links = {
        li.get_attribute("data-member"): li.locator("a").get_attribute("href")
        for li in page.locator("#links li").all()
    }

    def member(name: str) -> Page:
        opened = pages.open(
            links[name].split("://", 1)[1].split("/", 1)[1].join(["/", ""]), name=name
        )
        expect(opened.locator("body")).to_have_attribute("data-ready", "yes")
        return opened

    for name in ("Ann", "Bea", "Cat"):
        mine = member(name)
        mine.click("li[data-date='2026-02-12'] button[data-answer=yes]")
        expect(mine.locator("li[data-date='2026-02-12'] .answer")).to_have_text("Your answer: yes.")
    ann = member("Ann")
    expect(ann.locator(".hosting .coming-count")).to_contain_text("3 said yes")
    dee = member("Dee")
    dee.click("li[data-date='2026-02-12'] button[data-answer=no]")
    expect(dee.locator("li[data-date='2026-02-12'] .answer")).to_have_text("Your answer: no.")
    zoe, yan = member("Zoe"), member("Yan")
    zoe.reload()
    expect(zoe.locator("li[data-date='2026-02-12'] .seat")).to_have_text(
        "A seat is open: say yes to take it."
    )
    zoe.click("li[data-date='2026-02-12'] button[data-answer=yes]")
    expect(zoe.locator("li[data-date='2026-02-12'] .seat")).to_have_text("You have a seat.")
    yan.click("li[data-date='2026-02-12'] button[data-answer=yes]")
    expect(yan.locator("li[data-date='2026-02-12'] .seat")).to_have_text(
        "Seats are full: you are number 1 in line. The next seat that opens is offered in "
        "that order."
    )

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    page.click("#plans li[data-date='2026-02-12'] button")
    expect(page.locator("#coming-count")).to_contain_text("4 said yes · 4 holding seats of 4")
    expect(page.locator("#coming-subs")).to_have_text("Subs in: Zoe (for Dee)")
    expect(page.locator("#coming-waiting")).to_have_text("Waiting for a seat: Yan (1)")
    expect(page.locator("#swap-Dee")).to_have_value("Zoe")  # the start form follows the answers
    expect(page.locator("#coming-roster")).to_have_text("Roster: Ann, Bea, Cat, Zoe")
    expect(page.locator("#night-date")).to_have_value("2026-02-12")
    page.click("#start-night")
    expect(page.locator("body")).to_have_attribute("data-ready", "night-saved")
    page.click("#back-to-club")
    expect(page.locator("#nights li")).to_have_count(1)
    night = page.locator("#nights li").first.get_attribute("data-night")
    host = page.evaluate(f"JSON.parse(localStorage.getItem('bunco:{night}:host'))")
    assert server.state(night, host)["setup"]["players"] == ["Ann", "Bea", "Cat", "Zoe"]
    play(server, night, host, "month")

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#nights")).to_contain_text("played")
    expect(page.locator("#plans li[data-date='2026-02-12']")).to_contain_text("played")
    standings = page.locator("#season-standings")
    expect(standings.locator("tr[data-player=Zoe] td").nth(2)).to_have_text("1")
    expect(standings.locator("tr[data-player=Dee] td").nth(2)).to_have_text("0")
    page.click("#share-season")
    share = page.locator("#season-share").get_attribute("href")
    assert share is not None and f"/c/{club}/shared?token=" in share
    reader = pages.open(share.split("://", 1)[1].split("/", 1)[1].join(["/", ""]), name="reader")
    expect(reader.locator("body")).to_have_attribute("data-ready", "yes")
    expect(reader.locator("#shared-title")).to_have_text("Thursday Club: 2026")
    expect(reader.locator("#archive section.night")).to_have_count(1)
    expect(reader.locator(f"#night-{night} tbody tr")).to_have_count(4)
    expect(reader.locator("#shared-standings tr[data-player=Zoe]")).to_be_visible()
    assert not pages.errors, pages.errors
    shoot(page, "club-month")
    assert audit(page) == []
    assert audit(reader) == []
