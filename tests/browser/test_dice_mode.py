"""A night's dice mode: real dice at the tables (taps and typing first, "Roll for me"
small at the end) or phones roll ("Roll for me" first); roll-offs take typed real dice."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, shoot
from .test_end_of_night import play_night

pytestmark = pytest.mark.browser


def test_real_dice_put_the_taps_first_and_phones_put_roll_for_me_first(
    pages: Pages, server: Server
) -> None:
    for mode in ("real", "phones"):
        created = server.api(
            "POST",
            "/api/nights",
            json={"name": f"{mode} dice", "players": ["Ann", "Bea", "Cat", "Dee"], "dice": mode},
        )
        table = pages.open(f"/join/{created['tables'][0]['code']}", name=f"{mode} table")
        table.wait_for_url(re.compile(r"/table/1$"))
        expect(table.locator("body")).to_have_attribute("data-ready", "yes")
        roll = table.locator("#roll-for-me").bounding_box()
        miss = table.locator("[data-outcome=miss]").bounding_box()
        assert roll is not None and miss is not None
        if mode == "real":
            assert roll["y"] > miss["y"] and roll["height"] <= 50  # small, last
            shoot(table, "table-real-dice", ("phone",))
        else:
            assert roll["y"] < miss["y"] and roll["height"] >= 64  # big, first


def test_a_prize_rolloff_takes_typed_real_dice(pages: Pages, server: Server) -> None:
    night = play_night(server)
    nid = night["night"]
    host = pages.open(f"/night/{nid}?token={night['host']}", name="host")
    host.wait_for_url(re.compile(r"/host$"))
    expect(host.locator("#rolloff-box")).to_contain_text("Roll-off: Most Losses")
    who = server.state(nid, night["host"])["view"]["rolloff"]["roller"]
    expect(host.locator("#rolloff-enter")).to_have_text(f"Enter {who}'s dice")
    expect(host.locator("#rolloff-enter")).to_be_disabled()
    for die, face in enumerate((6, 6, 5), start=1):
        host.locator("#rolloff-box").get_by_role("button", name=f"Die {die} shows {face}").click()
    host.click("#rolloff-enter")
    expect(host.locator("#toasts .toast").last).to_contain_text(f"{who} rolled 6 6 5")
    log = httpx.get(
        f"{server.base}/api/nights/{nid}/export/log.jsonl",
        headers={"authorization": f"Bearer {night['host']}"},
    ).text.splitlines()
    last = json.loads(log[-1])
    assert (last["type"], last["dice"], last["player"]) == ("roll", [6, 6, 5], who)
    assert "table" not in last
    assert pages.errors == []
