"""Between rounds, a table's phone shows who comes and who goes and offers no roll until
everyone is seated: "Everyone is seated — start" begins the round there (or the head
table's bell, everywhere). On a 390×844 phone, axe-core clean in that state. And a tie at
the bell (0–0 too) says in words what the rules do next."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import finish_round
from .conftest import Pages, Server, axe, open_table, shoot
from .page_checks import in_first_screen

pytestmark = pytest.mark.browser
TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def create(server: Server, rules: str = "classic") -> dict[str, Any]:
    created: dict[str, Any] = server.api(
        "POST", "/api/nights", json={"name": "Seats", "rules": rules, "players": TWELVE}
    )
    return created


def roll(server: Server, night: str, token: str, table: int, dice: list[int]) -> Any:
    return server.call(
        "POST",
        f"/api/nights/{night}/tables/{table}/rolls",
        token,
        json={"command_id": f"s{random.random()}", "dice": dice},
    )


def serious(page: Page) -> list[dict[str, Any]]:
    return [v for v in axe(page) if v["impact"] in ("serious", "critical")]


def test_the_last_table_waits_for_its_players_to_move(pages: Pages, server: Server) -> None:
    created = create(server)
    night, host = created["night"], created["host_token"]
    three = open_table(pages, created, 3)
    finish_round(server, night, host, 1)
    body = three.locator("body")
    expect(body).to_have_attribute("data-round", "2")
    # who comes and who goes, and one big button; no roll, tally or dice offered
    expect(three.locator("#turn-text")).to_have_text("Everyone to their new seat")
    button = three.locator("#seated-ok")
    expect(button).to_have_text("Everyone is seated — start")
    expect(three.locator("#taps")).to_be_hidden()
    expect(three.locator("#faces-toggle")).to_be_hidden()
    expect(three.locator("#moves-box")).to_be_visible()
    view = server.state(night, host)["view"]
    coming = [p for p in view["tables"][2]["players"] if p]
    for name in coming:
        expect(three.locator(f"#coming [data-player='{name}']")).to_have_count(1)
    leaving = three.locator("#leaving li")
    expect(leaving).not_to_have_count(0)
    assert in_first_screen(three, "#seated-ok")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44
    assert serious(three) == []
    shoot(three, "seating-confirm-waiting", ("phone",))
    # an entry from elsewhere is refused, in plain words, and nothing is recorded
    early = roll(server, night, host, 3, [1, 2, 3])
    assert early.status_code == 409
    assert early.json()["message"].startswith("Table 3's new seating is not confirmed yet")
    seq = server.state(night, host)["seq"]
    button.click()
    expect(three.locator("#seated-ok")).to_have_count(0)
    expect(three.locator("#taps")).to_be_visible()
    expect(three.locator("#turn-text")).to_have_text(f"{view['tables'][2]['roller']} rolls")
    after = server.state(night, host)
    assert after["seq"] == seq + 1
    assert after["view"]["seating_confirmed"] == [3]
    assert after["view"]["seating_waits"] == [1, 2]
    three.click("#taps [data-outcome='miss']")
    expect(three.locator("#pending")).to_have_text("")
    assert server.state(night, host)["view"]["tables"][2]["rolls"] == 1
    assert serious(three) == []
    shoot(three, "seating-confirm-begun", ("phone",))


def test_the_head_tables_bell_begins_the_round_at_every_table(pages: Pages, server: Server) -> None:
    created = create(server)
    night, host = created["night"], created["host_token"]
    two = open_table(pages, created, 2)
    head = open_table(pages, created, 1)
    finish_round(server, night, host, 1)
    expect(two.locator("#seated-ok")).to_be_visible()
    expect(head.locator("#start-round")).to_be_visible()
    head.click("#start-round")
    expect(two.locator("#seated-ok")).to_have_count(0)
    expect(two.locator("#taps")).to_be_visible()
    assert server.state(night, host)["view"]["seating_waits"] == []


def test_a_tie_at_the_bell_says_what_happens_next(pages: Pages, server: Server) -> None:
    """Table 2 scores nothing while the head table reaches 21: a 0–0 tie at the bell, and
    classic breaks it with roll-off sessions at that table."""
    created = create(server)
    night, host = created["night"], created["host_token"]
    two = open_table(pages, created, 2)
    host_page = pages.open(f"/night/{night}?token={host}", name="host")
    for _ in range(40):
        if server.state(night, host)["status"]["bell"]:
            break
        assert roll(server, night, host, 1, [1, 1, 2]).status_code == 200
    for _ in range(10):  # the head table's finishing turn, then table 2's misses
        t1 = server.state(night, host)["view"]["tables"][0]
        if t1["roller"] is None:
            break
        assert roll(server, night, host, 1, [2, 3, 4]).status_code == 200
    t2 = server.state(night, host)["view"]["tables"][1]
    while t2["status"] == "finishing":
        assert roll(server, night, host, 2, [2, 3, 4]).status_code == 200
        t2 = server.state(night, host)["view"]["tables"][1]
    assert t2["status"] == "tie_break", t2
    assert t2["team_scores"] == [0, 0]
    words = (
        "Tied 0–0 at the bell: no winner yet. Each tied player takes one turn here; most "
        "points wins (still tied: again)."
    )
    assert t2["tie_break"]["why"] == words
    expect(two.locator("#turn-sub")).to_have_text(words)
    expect(host_page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(host_page.locator(".tie-why").first).to_have_text(words)
    assert serious(two) == []
