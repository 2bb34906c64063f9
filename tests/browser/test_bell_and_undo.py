"""The bell and the roll that ended the round, on every page in every preset; undo that
cannot surprise anyone (a table's phone is refused across a round, the host is asked
first, in the server's words); typed three of a kind asks who rolled it.

By hand from RULES.md: round 1's number is 1, so 1-1-1 is a Bunco worth 21. At the head
table that is the target: the bell (classic, tournament: the others finish their turn;
scil: everyone stops at once). In winning-moves a Bunco anywhere ends the round at every
table at once.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server, shoot
from .night_phones import type_dice

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
HIGH = [[6, 6, 5], [4, 4, 4], [3, 3, 2], [2, 1, 1]]  # totals 17, 12, 8, 4: no ties


def create(server: Server, rules: str) -> dict[str, Any]:
    created: dict[str, Any] = server.api(
        "POST", "/api/nights", json={"name": f"{rules} bell", "rules": rules, "players": EIGHT}
    )
    return created


def roll(server: Server, night: str, token: str, table: int, dice: list[int]) -> dict[str, Any]:
    reply: dict[str, Any] = server.api(
        "POST",
        f"/api/nights/{night}/tables/{table}/rolls",
        token,
        json={"command_id": f"c{random.random()}", "dice": dice},
    )
    return reply


def past_first_roll(server: Server, night: str, token: str, table: int) -> None:
    """Roll for high at ``table`` (scil) with totals that never tie."""
    for dice in HIGH:
        if server.state(night, token)["view"]["tables"][table - 1]["status"] != "first_roll":
            return
        roll(server, night, token, table, dice)


def finish_round(server: Server, night: str, token: str) -> None:
    """Whoever may still roll rolls (seeded dice) until round 1 is over."""
    rng = random.Random(7)
    for _ in range(400):
        status = server.state(night, token)["status"]
        if status["round"] != 1 or not status["expects"]:
            return
        table = status["expects"][0]["table"]
        roll(server, night, token, table, [rng.randint(1, 6) for _ in range(3)])
    raise AssertionError("round 1 did not end")


def ready(page: Page) -> Page:
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return page


@pytest.mark.parametrize("rules", ["classic", "scil", "tournament", "winning-moves"])
def test_every_page_shows_the_bell_and_the_roll_that_ended_the_round(
    pages: Pages, server: Server, rules: str
) -> None:
    created = create(server, rules)
    night, host_token = created["night"], created["host_token"]
    host = ready(pages.open(f"/night/{night}?token={host_token}", name=f"{rules} host"))
    table2 = ready(pages.open(f"/join/{created['tables'][1]['code']}", name=f"{rules} table 2"))
    screen = ready(
        pages.open(
            f"/n/{night}/screen?token={created['viewer_token']}",
            size={"width": 1920, "height": 1080},
            name=f"{rules} screen",
        )
    )
    player = pages.open(
        f"/n/{night}/player?token={created['viewer_token']}", name=f"{rules} player"
    )
    player.click("#names [data-player=Cat]")
    ready(player)
    for table in (1, 2):
        past_first_roll(server, night, host_token, table)
    roll(server, night, host_token, 2, [1, 2, 3])  # table 2: +1, mid-turn
    head = server.state(night, host_token)["view"]["tables"][0]["roller"]
    ack = roll(server, night, host_token, 1, [1, 1, 1])  # the head table's Bunco: 21
    assert ack["entry"]["kind"] == "bunco" and ack["entry"]["player"] == head
    finish_round(server, night, host_token)
    state = server.state(night, host_token)
    assert state["status"]["round"] == 2
    ended = state["view"]["last_round"]["ended_by"]
    assert (ended["table"], ended["dice"], ended["player"]) == (1, [1, 1, 1], head)
    assert ended["why"] == ("bunco" if rules == "winning-moves" else "target")
    words = f"Round 1 is over — {head}: BUNCO! +21 (1 1 1) at table 1"
    for page in (host, table2, player):
        expect(page.locator("#bell")).to_be_visible()
        expect(page.locator("#bell-text")).to_contain_text(words)
        expect(page.locator("body")).to_have_attribute("data-ending", "1.1")
        assert int(page.evaluate("document.body.dataset.rang || '0'")) >= 1  # it rang
    expect(screen.locator("#bell-line")).to_contain_text(words)
    expect(screen.locator("#bell-state")).to_be_visible()
    expect(screen.locator("#feed")).to_contain_text(f"{head}: BUNCO! +21 (1 1 1) at table 1")
    # the bell banner stays in view: it sits under the sticky top bar while scrolling
    table2.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = table2.locator("#bell").bounding_box()
    assert box is not None and box["y"] < 120
    # also after a reload, before the next round's first roll
    table2.reload()
    ready(table2)
    expect(table2.locator("#bell-text")).to_contain_text(words)
    expect(table2.locator("#result")).to_have_text(f"{head}: BUNCO! +21 (1 1 1) at table 1")
    if rules == "scil":
        shoot(table2, "table-round-over-scil", ("phone",))
        shoot(screen, "screen-round-over-scil", ("tv",))


def enter_dice(page: Page, faces: list[int]) -> None:
    type_dice(page, faces)


def test_a_typed_bunco_asks_who_and_only_the_host_undoes_a_finished_round(
    pages: Pages, server: Server
) -> None:
    created = create(server, "winning-moves")
    night, host_token = created["night"], created["host_token"]
    host = ready(pages.open(f"/night/{night}?token={host_token}", name="host"))
    table = pages.open(f"/join/{created['tables'][1]['code']}", name="table 2")
    table.wait_for_url(re.compile(rf"/n/{night}/table/2$"))
    ready(table)
    expect(table.locator("#turn-text")).to_have_text("Eve rolls")

    # an entry of this table's round in play: the table's own to undo
    table.click("#taps [data-outcome='+1']")
    expect(table.locator("#result")).to_have_text("Eve: +1")
    table.click("#undo")
    expect(table.locator("#tally [data-side=us]")).to_have_text("0")

    roll(server, night, host_token, 1, [1, 2, 3])  # table 1 leads 1-0, so nobody ties there
    # typed 1-1-1 is a Bunco: the page asks who rolled it, as the tally buttons do. Gus
    # rolled it, two turns after Eve's: the turns passed (as misses) and the Bunco go as
    # ONE command, which the server applies whole
    posts: list[Any] = []
    table.on(
        "request",
        lambda r: posts.append(r.post_data_json) if r.url.endswith("/tables/2/rolls") else None,
    )
    enter_dice(table, [1, 1, 1])
    expect(table.locator("#who")).to_be_visible()
    expect(table.locator("#who-title")).to_have_text("Three 1s: who rolled it?")
    table.locator("#who-choices [data-player=Gus]").click()
    expect(table.locator("#who-text")).to_have_text(
        "Then Eve & Fay finished without scoring more: a miss for each of those turns and "
        "Gus's Three 1s go in as one entry."
    )
    # tapped without the connection: the outbox holds it as one entry, already counted
    table.context.set_offline(True)
    table.get_by_role("button", name="Yes: 2 misses, then Gus").click()
    expect(table.locator("#pending")).to_contain_text("1 entry not sent yet")
    expect(table.locator("#feed .unsent")).to_have_text("Not sent yet · 2 misses, then Gus: 1 1 1")
    expect(table.locator("#turn-text")).to_have_text("Gus rolls")
    table.context.set_offline(False)
    expect(table.locator("body")).to_have_attribute("data-round", "2")
    expect(table.locator("#result")).to_have_text("Gus: BUNCO! +21 (1 1 1) at table 2")
    expect(table.locator("#bell-text")).to_contain_text(
        "Round 1 is over — Gus: BUNCO! +21 (1 1 1) at table 2 ended the round at every table"
    )
    # one command, sent (and tried again while offline) under one id
    assert {(p["command_id"], p["passed"], p["player"], str(p["dice"])) for p in posts} == {
        (posts[0]["command_id"], 2, "Gus", "[1, 1, 1]")
    }
    stored = server.api("GET", f"/api/nights/{night}/events?since=3", host_token)["events"]
    assert [(e["command_id"], e["event"].get("outcome"), e["event"].get("player")) for e in stored][
        :3
    ] == [(None, "miss", None), (None, "miss", None), (posts[0]["command_id"], None, "Gus")]
    expect(table.locator("#moves-box")).to_have_attribute("data-fresh", "true")
    # the players move first: no roll offered, "Everyone is seated — start" above the
    # fold; the results and where everyone goes come right after the entry controls
    table.evaluate("window.scrollTo(0, 0)")
    expect(table.locator("#taps")).to_be_hidden()
    expect(table.locator("#faces")).to_be_hidden()
    moves_y = table.locator("#moves-box").bounding_box()
    seated_y = table.locator("#seated-ok").bounding_box()
    assert moves_y is not None and seated_y is not None and seated_y["y"] < moves_y["y"]
    assert seated_y["y"] + seated_y["height"] <= 844
    assert table.evaluate("document.getElementById('entry').nextElementSibling.id") == "moves-box"
    shoot(table, "table-round-over-winning-moves", ("phone",))

    # the table's phone may not reopen the round: it says why and to ask the host
    table.click("#undo")
    expect(table.locator("#who-title")).to_have_text("Only the host can undo this")
    expect(table.locator("#who-text")).to_contain_text(
        "Undo Gus's Bunco (1 1 1) at table 2? Round 1 reopens at every table; the new "
        "seating is cancelled. Ask the host"
    )
    table.click("#who-cancel")
    assert server.state(night, host_token)["status"]["round"] == 2

    # the host is asked first, in the same words, and can keep it
    expect(host.locator("body")).to_have_attribute("data-round", "2")
    host.click("#overview [data-undo='2']")
    expect(host.locator("#confirm-text")).to_have_text(
        "Undo Gus's Bunco (1 1 1) at table 2? Round 1 reopens at every table; the new "
        "seating is cancelled."
    )
    shoot(host, "host-undo-confirm", ("phone",))
    host.click("#confirm-no")
    assert server.state(night, host_token)["status"]["round"] == 2
    host.click("#overview [data-undo='2']")
    host.click("#confirm-yes")
    expect(host.locator("body")).to_have_attribute("data-round", "1")
    expect(table.locator("body")).to_have_attribute("data-round", "1")
    expect(table.locator("#turn-text")).to_have_text("Gus rolls")  # the misses stand
    assert pages.errors == []
