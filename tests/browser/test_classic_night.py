"""A 12-player classic night played through the pages, in real browsers.

The host starts it on the home page; three scorekeepers join (QR link, typed code, code
link); a big screen and a player follow. Round 1 is played through the table pages until
the head table reaches 21: every page shows the bell, the winners and the moves; one
scorekeeper's page reloads mid-round and carries on; another goes offline and catches up.

Expected results are worked out by hand from RULES.md (classic: the head table's 21 rings
the bell, a player in mid-turn finishes the turn; winners move up, losers down, the head
table's winners and the last table's losers stay).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import SHOTS, TV, Pages, Server, audit, host_tab, shoot

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


def stored(page: Page, key: str) -> str:
    value: str = page.evaluate("(k) => JSON.parse(localStorage.getItem(k))", key)
    return value


def tap(page: Page, outcome: str) -> None:
    """Tap a quick-tally button and wait until the phone has sent it."""
    page.click(f"#taps [data-outcome='{outcome}']")
    expect(page.locator("#pending")).to_have_text("")


def expect_us_them(page: Page, us: str, them: str) -> None:
    """Wait until the page's tally shows Us ``us`` and Them ``them`` (a tap's reply lands
    before the page has drawn the new state)."""
    side = page.locator("#tally .score")
    expect(side.nth(0)).to_have_text(us)
    expect(side.nth(1)).to_have_text(them)


def test_classic_night_round_one(pages: Pages, server: Server) -> None:
    # -- the host sets the night up on the home page ---------------------------------------
    host = pages.open("/", name="host")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    expect(host.locator("#presets .preset")).to_have_count(4)
    # the presets by their plain names, each with how it plays
    expect(host.locator("[data-preset=classic] strong")).to_have_text("Classic party")
    expect(host.locator("#sum-classic")).to_contain_text("winners move up a table")
    expect(host.locator("#sum-winning-moves")).to_contain_text("a Bunco ends the round")
    host.fill("#night-name", "Friday Bunco")
    host.check("input[name=preset][value=classic]")
    host.fill("#players", "\n".join(PLAYERS[:6]) + ", " + ", ".join(PLAYERS[6:]))
    expect(host.locator("#player-count")).to_contain_text("12 players")
    expect(host.locator("[data-prize=most_buncos]")).to_be_checked()
    host.click("#more-rules > summary")  # step 2's "Change a rule"
    host.select_option("#traveling", "bunco")  # a house rule: any Bunco takes the traveler
    host.click("#step-prizes > summary")  # step 3, prizes and money
    host.check("[data-prize=traveling]")
    shoot(host, "home")
    assert audit(host) == []
    host.click("#start")
    expect(host.locator("#saved")).to_be_visible()  # the host link, to save first
    host.click("#open-host")
    host.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    night = host.url.split("/")[-2]
    host_token = stored(host, f"bunco:{night}:host")
    setup = server.state(night, host_token)["setup"]
    assert setup["house_rules"] == {"traveling": "bunco"}
    assert "traveling" in setup["prizes"] and setup["name"] == "Friday Bunco"

    # the seating sheet: three tables of four in the order given, a QR code and a code each
    cards = host.locator("#sheet .seat-card[data-table]")
    expect(cards).to_have_count(3)
    expect(cards.nth(0).locator("ol li")).to_have_text(
        [re.compile(f"^{p}") for p in ["Ann", "Bea", "Cat", "Dee"]]
    )
    expect(cards.nth(2).locator("ol li")).to_have_text(
        [re.compile(f"^{p}") for p in ["Ivy", "Jo", "Kim", "Lou"]]
    )
    codes = [cards.nth(i).locator(".code").inner_text() for i in range(3)]
    assert all(re.fullmatch(r"[2-9A-HJ-NP-Z]{6}", c) for c in codes), codes
    qr = cards.nth(0).locator("img.qr")
    expect(qr).to_have_attribute("src", re.compile(r"^/api/qr\.svg\?text="))
    assert host.evaluate("(img) => img.complete && img.naturalWidth > 0", qr.element_handle())
    shoot(host, "host-seating")
    assert audit(host) == []
    host.emulate_media(media="print")  # the printable seating: cards only, no buttons
    expect(host.locator("#print")).to_be_hidden()
    expect(host.locator("#status-card")).to_be_hidden()
    expect(host.locator("#sheet .seat-card[data-table='3'] .code")).to_be_visible()
    host.pdf(path=str(SHOTS / "host-seating-print.pdf"))
    host.emulate_media(media="screen")

    # -- the big screen, a player and the three scorekeepers join ----------------------------
    screen = pages.open(host.locator("#screen-link").get_attribute("href") or "", TV, "screen")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    expect(screen.locator(".tv-table")).to_have_count(3)

    player = pages.open(host.locator("#player-link").get_attribute("href") or "", name="player")
    expect(player.locator("body")).to_have_attribute("data-ready", "claim")
    player.click("#names [data-player=Fay]")
    expect(player.locator("body")).to_have_attribute("data-ready", "yes")
    expect(player.locator("#seat-line")).to_have_text("Table 2 · seat 2")
    expect(player.locator("#partner-line")).to_contain_text("Hal")

    t1 = pages.open(
        host.locator("a.join-link[data-table='1']").get_attribute("href") or "", name="table 1"
    )  # the QR link
    t2 = pages.open("/", name="table 2")  # the typed code
    t2.fill("#join-code", codes[1].lower())
    t2.click("#join-form button")
    t3 = pages.open(f"/join/{codes[2]}", name="table 3")  # a code link
    tables = [t1, t2, t3]
    for n, page in enumerate(tables, start=1):
        page.wait_for_url(re.compile(rf"/n/{night}/table/{n}$"))
        expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(t1.locator("#turn-text")).to_have_text("Ann rolls")
    expect(t2.locator("#turn-text")).to_have_text("Eve rolls")
    # classic names every three of a kind a Mini Bunco: one button, no Low/High
    expect(t1.locator("[data-outcome=mini]")).to_contain_text("Mini Bunco")
    expect(t1.locator("[data-outcome=low]")).to_have_count(0)

    # -- round 1 ------------------------------------------------------------------------------
    # table 3: the server rolls (animation), the page shows the dice the server stored; undo it
    t3.click("#roll-for-me")
    expect(t3.locator("#dice")).to_have_attribute("aria-label", re.compile(r"^dice: "))
    expect(t3.locator("#dice svg.die")).to_have_count(3)
    expect(t3.locator("#result")).to_contain_text("Ivy: ")
    last = server.state(night, host_token)["view"]["tables"][2]["last_roll"]
    faces = ", ".join(str(d) for d in last["dice"])
    expect(t3.locator("#dice")).to_have_attribute("aria-label", f"dice: {faces}")
    shoot(t3, "table-rolled")
    t3.click("#undo")
    expect(t3.locator("#toasts")).to_contain_text("Undone: Ivy's")  # asked, then sent
    expect(t3.locator("#pending")).to_have_text("")
    assert server.state(night, host_token)["view"]["tables"][2]["rolls"] == 0
    expect(t3.locator("#turn-text")).to_have_text("Ivy rolls")
    tap(t3, "+1")  # Ivy 1 ...
    tap(t3, "miss")  # ... Jo's turn
    tap(t3, "+1")  # Jo 1, still rolling
    expect_us_them(t3, "1", "1")

    tap(t2, "+2")  # Eve 2 ...
    tap(t2, "miss")  # ... then her turn ends: Fay rolls
    expect(t2.locator("#turn-text")).to_have_text("Fay rolls")
    expect_us_them(t2, "2", "0")

    tap(t1, "+1")  # Ann 1, still rolling
    expect(t1.locator("[data-side=us]")).to_have_text("1")
    # the scorekeeper's page reloads mid-round and carries on where it was
    t1.reload()
    expect(t1.locator("body")).to_have_attribute("data-ready", "yes")
    expect(t1.locator("[data-side=us]")).to_have_text("1")
    expect(t1.locator("#turn-text")).to_have_text("Ann rolls")
    expect(t1.locator("#bell")).to_be_hidden()
    expect(t1.locator("body")).to_have_attribute("data-awake", "yes")  # Wake Lock held

    # a Bunco goes on a card: "who rolled it?"
    t1.click("#taps [data-outcome=bunco]")
    dialog = t1.locator("#who")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#who-choices button")).to_have_count(4)
    shoot(t1, "table-who-rolled", ("phone",))
    dialog.locator("[data-player=Ann]").click()
    expect(t1.locator("#pending")).to_have_text("")

    # -- the bell: the head table has 22; everyone sees it --------------------------------------
    expect(t1.locator("[data-side=us]")).to_have_text("22")
    for page in [*tables, host, player]:
        expect(page.locator("#bell")).to_be_visible()
    expect(screen.locator("#bell-state")).to_be_visible()
    expect(screen.locator("#bell-overlay")).to_be_visible()
    expect(screen.locator("#traveler")).to_have_text("Ann holds it")
    shoot(screen, "screen-bell", ("tv",))
    expect(t1.locator("body")).to_have_attribute("data-status", "finishing")
    expect(t1.locator("#turn-sub")).to_contain_text("until a roll scores nothing")
    expect(t1.locator("#bell")).to_contain_text("Finish your turn")
    expect(t3.locator("body")).to_have_attribute("data-status", "finishing")  # Jo was rolling
    expect(t3.locator("#turn-text")).to_have_text("Jo finishes the turn")
    expect(t2.locator("body")).to_have_attribute("data-status", "done")  # Fay was not
    expect(t2.locator("#status-box")).to_contain_text("Eve & Gus win")
    expect(screen.locator(".tv-table[data-table='2'] .badge")).to_have_text("done")
    shoot(t1, "table-finish-turn")
    shoot(t2, "table-done")
    for page in (t1, t2, t3, player):
        assert audit(page) == [], page.url

    # a scorekeeper loses the connection: the page says so, then catches up by itself
    t2.context.set_offline(True)
    expect(t2.locator("#offline")).to_be_visible()
    expect(t2.locator("#conn")).to_have_text("offline")
    shoot(t2, "table-offline", ("phone",))

    tap(t1, "miss")  # Ann's finishing turn ends
    expect(t1.locator("body")).to_have_attribute("data-status", "done")
    tap(t3, "miss")  # Jo's too: 1-1, a tie at table 3
    expect(t3.locator("body")).to_have_attribute("data-status", "tie_break")
    expect(t3.locator("#turn-text")).to_have_text("Tie! Ivy rolls")
    expect(t3.locator("#turn-sub")).to_have_text(  # what the rules do next, in words
        "Tied 1–1 at the bell: no winner yet. Each tied player takes one turn here; most "
        "points wins (still tied: again)."
    )
    expect(screen.locator(".tv-table[data-table='3'] .badge")).to_have_text("tie-break")
    shoot(t3, "table-tie-break")
    tap(t3, "+1")  # a session: every player takes a turn
    for _ in range(4):
        tap(t3, "miss")  # Ivy's turn ends, Jo, Kim, Lou miss
    # Ivy & Kim win the tie-break 1-0: the round is over everywhere

    # -- round 2: winners, moves, on every page ----------------------------------------------
    for page in (t1, t3, host, player):
        expect(page.locator("body")).to_have_attribute("data-round", "2")
    t2.context.set_offline(False)
    expect(t2.locator("#offline")).to_be_hidden()
    expect(t2.locator("body")).to_have_attribute("data-round", "2")
    expect(t2.locator("#conn")).to_have_text("live")

    view = server.state(night, host_token)["view"]
    seating = [t["players"] for t in view["tables"]]
    # by hand: head winners Ann & Cat stay, Eve & Gus (table 2) and Ivy & Kim (table 3) move
    # up, Bea & Dee and Fay & Hal move down, Jo & Lou (last table, lost) stay
    assert [sorted(t) for t in seating] == [
        sorted(["Ann", "Cat", "Eve", "Gus"]),
        sorted(["Bea", "Dee", "Ivy", "Kim"]),
        sorted(["Fay", "Hal", "Jo", "Lou"]),
    ]
    for a, b in (("Ann", "Cat"), ("Jo", "Lou")):  # a pair that stays is split up
        t = next(t for t in seating if a in t)
        assert t.index(b) != (t.index(a) + 2) % 4
    fay = seating[2].index("Fay") + 1

    expect(t1.locator("#moves-box")).to_contain_text("Ann & Cat won here")
    expect(t2.locator("#moves-box")).to_contain_text("Eve & Gus won here")
    expect(t3.locator("#moves-box")).to_contain_text("Ivy & Kim won here")
    expect(t2.locator("#leaving li[data-player=Fay]")).to_contain_text(
        f"Move to table 3, seat {fay}"
    )
    expect(t1.locator("#leaving li[data-player=Bea]")).to_contain_text("Move to table 2")
    expect(t3.locator("#leaving li[data-player=Jo]")).to_contain_text("Stay at table 3")
    expect(t3.locator("#coming li[data-player=Fay]")).to_contain_text("from table 2")
    expect(player.locator("#move-text")).to_have_text(f"Move to table 3, seat {fay}")
    assert player.evaluate("window.buzzes.length") >= 2  # the bell, then the move
    assert player.evaluate("document.body.dataset.rang") == "1"  # the bell rang once
    expect(player.locator("#bigmove")).to_contain_text("You lost round 1")
    expect(player.locator("#card [data-round='1'] .wl")).to_have_text("L")
    expect(player.locator("[data-stat=L] b")).to_have_text("1")
    for moves in (
        screen.locator("#moves-cols tr[data-player=Eve]"),  # the TV's columns
        host.locator("ul.moves li[data-player=Eve]"),
    ):
        expect(moves).to_contain_text(re.compile("Move to table 1|Table 1 · seat"))
        expect(moves.locator(".wl")).to_have_text("W")
    expect(screen.locator("#moves-box")).to_contain_text("Round 1: winners and moves")
    expect(screen.locator("#board tr[data-player=Ann] td").nth(2)).to_have_text("1")  # W
    expect(screen.locator("#feed")).to_contain_text("Ann: BUNCO!")
    # the players move first: no roll before "Everyone is seated — start" (then the first roller)
    expect(t1.locator("#turn-text")).to_have_text("Everyone to their new seat")
    expect(t1.locator("#seated-ok")).to_be_visible()
    expect(t1.locator("#taps")).to_be_hidden()
    for page, name in (
        (t1, "table-moves"),
        (player, "player-moves"),
        (host, "host-moves"),
        (screen, "screen-moves"),
    ):
        shoot(page, name)
        assert audit(page) == [], name

    # the results page in mid-night: cards so far, downloads
    end = pages.open(f"/n/{night}/end?token={host_token}", name="end")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    expect(end.locator("#cards-table tr[data-player=Ann] [data-col=buncos]")).to_have_text("1")
    shoot(end, "end-midnight")
    assert audit(end) == []

    # between rounds the host adds a late arrival: the seating is redone for everyone
    host_tab(host, "players")
    # the host changes the seating once every table's phone is in touch (on a loaded machine
    # a phone's 15 s report can come late; a change made then asks "Wait, or go on?" first)
    expect(host.locator("body")).to_have_attribute("data-out-of-touch", "0", timeout=45_000)
    host.fill("#arrival", "Max")
    host.click("#arrival-form button")
    expect(host.locator("#night-sub")).to_contain_text("13 players")
    expect(host.locator("#sheet .seat-card[data-table] li", has_text="Max")).to_have_count(1)
    assert "Max" in server.state(night, host_token)["view"]["seated"]
    expect(screen.locator("#tables")).to_contain_text("Max")
    assert pages.errors == []
