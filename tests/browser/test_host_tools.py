"""The host's tools on the host page: bots, a substitute, verifying cards, ending early.

An 8-player tournament night (prize groups, prizes count verified cards only) is made
through the API. Round 1 starts; ending the night mid-round is refused and changes
nothing. The host switches a bot on for the player whose turn it is: the server rolls for
that player until the turn passes, then the host switches it off. Round 1 is finished
through the API; between rounds a substitute takes a seat, every card is verified with a
checker's name, and the host ends the night: the results page says after which round.

The home page's "bots to fill seats" adds "Bot 1", "Bot 2"… to the players as bots.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, audit, host_tab, shoot

pytestmark = pytest.mark.browser

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def seating(view: dict[str, Any]) -> list[list[str | None]]:
    """Where everyone sits for the round under way or the next one."""
    if view["tables"]:
        return [t["players"] for t in view["tables"]]
    return [list(t) for t in view["next"]["tables"]]


def wait_for(check: Any, what: str, seconds: float = 8.0) -> Any:
    """Poll ``check()`` until it returns something true (the server's bots run on their own)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_bots_substitute_verify_and_end_early(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Charity tournament",
            "rules": "tournament",
            "players": EIGHT,
            "groups": {"A": EIGHT[:4], "B": EIGHT[4:]},
        },
    )
    nid, token = created["night"], created["host_token"]
    base = f"/api/nights/{nid}"

    def state() -> dict[str, Any]:
        return server.state(nid, token)

    host = pages.open(f"/n/{nid}/host?token={token}", name="host")
    body = host.locator("body")
    expect(body).to_have_attribute("data-ready", "yes")
    host_tab(host, "prizes")
    expect(host.locator("#verify-card")).to_be_visible()  # tournament: verify_for_prizes
    expect(host.locator("#bots-note")).to_have_text("No bots: people roll for everyone.")
    expect(host.locator("#verify-grid tbody tr[data-player]")).to_have_count(8)

    # -- mid-round: ending the night is refused, nothing changes -----------------------------
    server.api(
        "POST", f"{base}/tables/1/rolls", token, json={"command_id": "tools-1", "dice": [2, 3, 5]}
    )  # round 1: a miss
    expect(body).to_have_attribute("data-seq", "1")
    expect(host.locator("#end-note")).to_contain_text("A round is under way")
    expect(host.locator("#sub-button")).to_be_disabled()
    host_tab(host, "more")
    host.once("dialog", lambda d: d.accept())
    host.click("#end-night")
    expect(host.locator("#toasts .toast.error")).to_contain_text(
        "the night can only be ended between rounds"
    )
    now = state()
    assert now["seq"] == 1
    assert now["view"]["phase"] == "playing" and now["view"]["started"] is True
    assert now["view"]["ended_early"] is None
    expect(body).to_have_attribute("data-seq", "1")
    expect(host.locator("#end-card")).to_be_visible()

    # -- a bot rolls for the player whose turn it is, until the dice pass on -------------------
    roller = now["view"]["tables"][0]["roller"]
    assert roller not in (None, seating(now["view"])[0][0])  # the dice passed on
    host_tab(host, "players")
    host.click("#bots-fold > summary")  # the bots: one tap away, under Players
    expect(host.locator("#bots [data-bot]")).to_have_count(8)  # drawn once opened
    host.check(f"#bots [data-bot='{roller}']")
    expect(host.locator("#bots-note")).to_have_text(f"The server rolls for {roller}.")
    assert state()["bots"] == [roller]

    def passed_on() -> dict[str, Any] | None:
        s = state()
        return s if s["view"]["tables"][0]["roller"] != roller else None

    after_bot = wait_for(passed_on, f"{roller}'s bot to end the turn")
    events = server.api("GET", f"{base}/events?since=1", token)["events"]
    bot_rolls = [e["event"] for e in events if e["event"].get("player") == roller]
    assert bot_rolls and all(e["type"] == "roll" and e["table"] == 1 for e in bot_rolls)
    assert all(len(e["dice"]) == 3 for e in bot_rolls)
    table_one = after_bot["view"]["tables"][0]
    # the turn ended on a miss (or, after a lucky Bunco, the head table's round is done)
    assert 1 not in bot_rolls[-1]["dice"] or table_one["roller"] is None
    host.uncheck(f"#bots [data-bot='{roller}']")
    expect(host.locator("#bots-note")).to_have_text("No bots: people roll for everyone.")
    assert state()["bots"] == []
    expect(body).to_have_attribute("data-seq", str(after_bot["seq"]))

    # -- the rest of round 1 through the API: the host rolls for whoever is expected ----------
    for n in range(2000):
        status = state()["status"]
        if status["round"] != 1 or not status["expects"]:
            break
        table = status["expects"][0]["table"]
        server.api(
            "POST",
            f"{base}/tables/{table}/rolls",
            token,
            json={"command_id": f"tools-r{n}", "roll_for_me": True},
        )
    between = state()
    view = between["view"]
    assert (view["phase"], view["round"], view["started"]) == ("playing", 2, False)
    expect(body).to_have_attribute("data-round", "2")
    expect(body).to_have_attribute("data-seq", str(between["seq"]))
    expect(host.locator("#sub-button")).to_be_enabled()
    expect(host.locator("#end-note")).to_have_text("Ending now makes round 1 the last round.")
    expect(host.locator("#start-round")).to_have_text("Ring the bell: start round 2")

    # -- between rounds: a substitute takes Dee's seat ----------------------------------------
    before = seating(view)
    host.select_option("#sub-out", "Dee")
    host.fill("#sub-in", "Zoe")
    host.click("#sub-button")
    expect(host.locator("#toasts .toast").last).to_have_text("Zoe takes Dee's seat.")
    expect(host.locator("#sheet .seat-card li", has_text=re.compile(r"^Zoe"))).to_have_count(1)
    expect(host.locator("#sheet .seat-card li", has_text="Dee")).to_have_count(0)  # nor partner
    expect(host.locator("#sub-out option[value=Zoe]")).to_have_count(1)
    view = state()["view"]
    (zoe_table,) = [i for i, t in enumerate(seating(view), start=1) if "Zoe" in t]
    zoe_seat = seating(view)[zoe_table - 1].index("Zoe") + 1
    expect(host.locator("#moves li[data-player=Zoe]")).to_contain_text(
        f"Join at table {zoe_table}, seat {zoe_seat}"
    )  # new tonight, not a move
    expect(host.locator("#moves li[data-player=Dee]")).to_contain_text("Sitting out next round")
    view = state()["view"]
    assert seating(view) == [["Zoe" if p == "Dee" else p for p in t] for t in before]
    assert "Zoe" in view["seated"] and "Dee" not in view["seated"]

    # -- verify every card, with the checker's name --------------------------------------------
    rows = host.locator("#verify-grid tbody tr[data-player]")
    expect(rows).to_have_count(9)  # Dee's card counts too, and Zoe's
    expect(host.locator("#verify-card")).to_have_attribute("data-left", "9")
    host_tab(host, "prizes")
    for checker in host.locator("input.checker").all():  # each team's (and Zoe's, no team)
        checker.fill("Staff A")
    shoot(host, "host-tools")
    assert audit(host) == []
    host.click("#verify-all")
    expect(host.locator("#verify-card")).to_have_attribute("data-left", "0")
    expect(host.locator("#verify-note")).to_have_text("All 9 cards are verified at this break.")
    expect(host.locator("#verify-all")).to_be_disabled()
    final = state()
    for name in [*EIGHT, "Zoe"]:
        card = server.api("GET", f"{base}/players/{name}/card", token)
        figures = {k: card["card"][k] for k in ("buncos", "mini_buncos", "wins")}
        assert card["verified"] == figures, name
        assert final["verified"][name] == figures, name
        row = host.locator(f"#verify-grid tr[data-player='{name}']")
        expect(row).to_have_attribute("data-verified", "yes")
        expect(row.locator("[data-col=verified]")).to_have_text(
            f"{figures['buncos']} · {figures['mini_buncos']} · {figures['wins']}"
        )
        expect(row.locator("button")).to_be_disabled()
    assert sum(final["verified"][p]["wins"] for p in EIGHT) == 4  # two tables, two winners each
    checks = [
        e["event"]
        for e in server.api("GET", f"{base}/events?since={between['seq']}", token)["events"]
        if e["event"]["type"] == "verify"
    ]
    assert sorted(e["player"] for e in checks) == sorted([*EIGHT, "Zoe"])
    assert {e.get("checker") for e in checks} == {"Staff A"}

    # -- end the night now ------------------------------------------------------------------------
    seq = str(final["seq"])
    expect(body).to_have_attribute("data-seq", seq)
    host_tab(host, "more")
    host.once("dialog", lambda d: d.accept())
    host.click("#end-night")
    expect(body).not_to_have_attribute("data-seq", seq)
    expect(body).to_have_attribute("data-phase", re.compile(r"^(over|rolloff)$"))
    expect(host.locator("#end-card")).to_be_hidden()
    expect(host.locator("#start-round")).to_have_count(0)  # no round left to start
    expect(host.locator("#now-text")).to_contain_text("You ended the night after round 1.")
    ended = state()
    assert ended["seq"] == final["seq"] + 1
    assert ended["view"]["phase"] in ("over", "rolloff")
    assert ended["view"]["ended_early"] == {"set": 1, "round": 1}
    assert ended["view"]["next"] is None
    shoot(host, "host-ended-early", ("phone",))

    host_tab(host, "prizes")  # a roll-off may be due: the results page is under Prizes
    host.click("#end-link")
    host.wait_for_url(f"**/n/{nid}/end")
    expect(body).to_have_attribute("data-ready", "yes")
    expect(host.locator("#ended-early")).to_have_text(
        "The host ended the night after round 1 of set 1."
    )
    expect(host.locator("#verify-note")).to_contain_text("Prizes count verified cards only")
    expect(host.locator("#verify-note")).to_contain_text(
        "wait until every card present is verified as it stands (9 of 9)."
    )
    expect(host.locator("#cards-table tbody tr")).to_have_count(9)
    shoot(host, "end-ended-early")
    assert audit(host) == []
    assert pages.errors == []


def test_home_page_fills_seats_with_bots(pages: Pages, server: Server) -> None:
    home = pages.open("/", name="home")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.fill("#night-name", "Two of us")
    home.fill("#players", "Ann\nBot 1")  # a person may be called Bot 1
    home.click("#bots-more > summary")  # step 1's bots, folded
    home.fill("#bot-count", "2")
    expect(home.locator("#player-count")).to_contain_text("4 players (2 bots), about 1 table")
    home.click("#start")
    expect(home.locator("#saved")).to_be_visible()  # the host link, to save first
    home.click("#open-host")
    home.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    night = home.url.split("/")[-2]
    token = home.evaluate("(k) => JSON.parse(localStorage.getItem(k))", f"bunco:{night}:host")
    now = server.state(night, token)
    # one table, Ann (seat 1) rolls first: the bots wait for their turns
    assert now["setup"]["players"] == ["Ann", "Bot 1", "Bot 2", "Bot 3"]
    assert now["bots"] == ["Bot 2", "Bot 3"]
    assert now["view"]["expects"] == [{"table": 1, "player": "Ann"}]
    host_tab(home, "players")
    home.click("#bots-fold > summary")
    for name, on in (("Ann", False), ("Bot 1", False), ("Bot 2", True), ("Bot 3", True)):
        box = home.locator(f"#bots [data-bot='{name}']")
        expect(box).to_be_checked() if on else expect(box).not_to_be_checked()
    expect(home.locator("#verify-card")).to_be_hidden()  # classic: prizes need no checking
    assert pages.errors == []


def test_home_page_prize_groups_for_a_tournament(pages: Pages, server: Server) -> None:
    home = pages.open("/", name="home-groups")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    expect(home.locator("#groups-box")).to_be_hidden()  # classic has no groups
    home.check("input[name=preset][value=tournament]")
    expect(home.locator("#groups-box")).to_be_visible()
    home.fill("#players", "Ann, Bea, Cat, Dee, Eve, Fay, Gus, Hal")
    home.fill("#groups", "Red: Ann, Bea, cat, Dee\nBlue: Eve, Fay, Zed")
    home.click("#start")
    expect(home.locator("#setup-error")).to_have_text(
        "Prize groups: Zed (group Blue) is not one of the players"
    )
    home.fill("#groups", "Red: Ann, Bea, cat, Dee\nBlue: Eve, Fay, Gus, Hal")
    home.click("#start")
    expect(home.locator("#saved")).to_be_visible()  # the host link, to save first
    home.click("#open-host")
    home.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    night = home.url.split("/")[-2]
    token = home.evaluate("(k) => JSON.parse(localStorage.getItem(k))", f"bunco:{night}:host")
    setup = server.state(night, token)["setup"]
    assert setup["groups"] == {
        "Red": ["Ann", "Bea", "Cat", "Dee"],
        "Blue": ["Eve", "Fay", "Gus", "Hal"],
    }
    host_tab(home, "prizes")
    expect(home.locator("#verify-card")).to_be_visible()  # tournament verifies cards
    assert pages.errors == []
