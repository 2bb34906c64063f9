"""The table page draws what the server's view says: the tally buttons' words and points
(a house rule shows on the button), which entries ask "who rolled it?", and the night's
dice mode, pushed live when the host changes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import TV, Pages, Server, open_table

pytestmark = pytest.mark.browser
FOUR = ["Ann", "Bea", "Cat", "Dee"]
EIGHT = [*FOUR, "Eve", "Fay", "Gus", "Hal"]


def test_the_buttons_say_what_the_house_rules_score(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "House rules",
            "players": FOUR,
            "house_rules": {"bunco_points": 10, "mini_label": "Baby Bunco"},
        },
    )
    table = open_table(pages, created, 1)
    bunco = table.locator("#taps [data-outcome='bunco']")
    expect(bunco).to_contain_text("Bunco")
    expect(bunco.locator(".hint")).to_have_text("three 1s · 10")
    expect(bunco).to_have_attribute("aria-label", "Bunco: three 1s · 10, for Ann")
    mini = table.locator("#taps [data-outcome='mini']")
    expect(mini.locator(".label")).to_have_text("Baby Bunco")
    expect(mini.locator(".hint")).to_have_text("3 of a kind · 5")
    # the view's taps are the page's buttons, in order, with the view's words
    view = server.state(created["night"], created["host_token"])["view"]["tables"][0]
    assert table.locator("#taps [data-outcome]").evaluate_all(
        "bs => bs.map(b => b.dataset.outcome)"
    ) == [t["outcome"] for t in view["taps"]]
    mini.click()  # a three of a kind asks who rolled it
    expect(table.locator("#who-title")).to_have_text("Baby Bunco: who rolled it?")
    table.click("#who-cancel")
    table.click("#taps [data-outcome='+1']")  # a +1 does not ask
    expect(table.locator("#pending")).to_have_text("")
    expect(table.locator("#who")).not_to_be_visible()
    expect(table.locator("#result")).to_have_text("Ann: +1")
    expect(bunco.locator(".hint")).to_have_text("three 1s · 10")
    assert pages.errors == []


def test_a_dice_mode_change_reaches_the_table_without_a_reload(
    pages: Pages, server: Server
) -> None:
    created = server.api("POST", "/api/nights", json={"name": "Dice", "players": FOUR})
    table = open_table(pages, created, 1)

    def roll_first() -> bool:
        roll = table.locator("#roll-for-me").bounding_box()
        miss = table.locator("[data-outcome=miss]").bounding_box()
        assert roll is not None and miss is not None
        return bool(roll["y"] < miss["y"])

    assert not roll_first()  # real dice: the taps first
    gets = table.evaluate("document.body.dataset.gets")
    host = created["host_token"]
    server.api("PUT", f"/api/nights/{created['night']}/dice", host, json={"dice": "phones"})
    expect(table.locator("#taps")).not_to_have_class("taps real")
    assert roll_first()  # the phones roll: "Roll for me" first
    server.api("PUT", f"/api/nights/{created['night']}/dice", host, json={"dice": "real"})
    expect(table.locator("#taps")).to_have_class("taps real")
    assert not roll_first()
    assert table.evaluate("document.body.dataset.gets") == gets  # no reload of the night
    assert pages.errors == []


def test_the_pages_say_the_servers_words_for_a_three_of_a_kind_and_a_tie_break(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Words",
            "players": EIGHT,
            "house_rules": {
                "mini_label": "Lucky Bunco",
                "tie_break": "roll_off_to_five",
                "roll_off_target": 3,
            },
        },
    )
    night, host = created["night"], created["host_token"]
    t1, t2 = open_table(pages, created, 1), open_table(pages, created, 2)
    screen = pages.open(f"/n/{night}/screen?token={created['viewer_token']}", TV, "screen")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    for outcome in ("+1", "miss", "+1", "miss"):  # table 2: 1-1
        t2.click(f"#taps [data-outcome='{outcome}']")
        expect(t2.locator("#pending")).to_have_text("")
    t1.click("#taps [data-outcome=mini]")  # the house rule's name
    t1.locator("#who-choices [data-player=Ann]").click()
    expect(t1.locator("#result")).to_have_text("Ann: Lucky Bunco +5")
    expect(screen.locator("#board th").nth(5)).to_have_text("Lucky")
    expect(screen.locator("#feed")).to_contain_text("Ann: Lucky Bunco +5 (2 2 2) at table 1")
    t1.click("#taps [data-outcome=bunco]")  # 26: the bell; Ann finishes
    t1.locator("#who-choices [data-player=Ann]").click()
    t1.click("#taps [data-outcome=miss]")
    # table 2 is tied: the tied players roll for high, then a roll-off to 3 (the server's words)
    expect(t2.locator("body")).to_have_attribute("data-status", "tie_break")
    expect(t2.locator("#turn-text")).to_have_text("Tie! Eve rolls for high")
    expect(t2.locator("#turn-sub")).to_contain_text(
        "Each tied player rolls once for high here; the highest starts a roll-off to 3."
    )
    expect(t2.locator("#high-totals")).to_be_visible()  # real dice: the total to tap, offered
    view = server.state(night, host)["view"]
    assert t2.locator("#turn-sub").inner_text() == view["tables"][1]["tie_break"]["why"]
    end = pages.open(f"/n/{night}/end?token={host}", name="end")
    expect(end.locator("#cards-table thead th").nth(4)).to_have_text("Lucky")
    assert pages.errors == []
