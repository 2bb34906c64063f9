"""No tap on one table's phone can change another table, in every preset: table 1's
Undo takes back table 1's own entry (not table 2's later one), and once the round is over
it is refused on the phone (only the host may reopen a round); "who rolled it?" offers
only this table's players; the phone cannot open table 2's page with table 1's token.

By hand from RULES.md, round 1 (the dice must show 1s): table 2 scores 3 (Eve +1 and +2,
then a miss); table 1's Bunco (21) rings the bell or (``winning-moves``) ends the round
at every table at once; Ann finishing her turn with a miss ends it (``classic``,
``tournament``), so table 2 is won 3-0 by Eve & Gus.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server, open_table
from .outage import seated_first

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def tap(page: Page, outcome: str, who: str | None = None) -> None:
    page.click(f"#taps [data-outcome='{outcome}']")
    if who is not None:
        page.locator(f"#who-choices [data-player='{who}']").click()
    expect(page.locator("#pending")).to_have_text("")


def roll_for_high(page: Page) -> None:
    """``scil``: the four players of the table roll for high on its page (17, 11, 7, 4),
    a tap of the total each one's real dice show."""
    for total in (17, 11, 7, 4):
        page.locator(f'#high-totals button[data-total="{total}"]').click()
        expect(page.locator("#pending")).to_have_text("")
    expect(page.locator("body")).to_have_attribute("data-status", "playing")


def table_now(server: Server, night: str, token: str, n: int) -> dict[str, Any]:
    table: dict[str, Any] = server.state(night, token)["view"]["tables"][n - 1]
    return table


@pytest.mark.parametrize("rules", ["classic", "winning-moves", "scil", "tournament"])
def test_a_tap_on_table_ones_phone_never_changes_table_two(
    pages: Pages, server: Server, rules: str
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": f"{rules} two tables", "rules": rules, "players": EIGHT},
    )
    night, host = created["night"], created["host_token"]
    t1, t2 = open_table(pages, created, 1), open_table(pages, created, 2)
    if rules == "scil":
        roll_for_high(t1)
        roll_for_high(t2)
    expect(t2.locator("#turn-text")).to_have_text("Eve rolls")

    # table 1's undo takes back its own entry, not table 2's later one
    tap(t2, "+1")
    tap(t1, "+1")
    tap(t2, "+2")
    expect(t2.locator("[data-side=us]")).to_have_text("3")
    entries = table_now(server, night, host, 2)["rolls"]
    t1.click("#undo")
    expect(t1.locator("#toasts .toast").last).to_contain_text("Undone: Ann's +1")
    expect(t1.locator("[data-side=us]")).to_have_text("0")
    two = table_now(server, night, host, 2)
    assert (two["team_scores"], two["rolls"]) == ([3, 0], entries)
    expect(t2.locator("[data-side=us]")).to_have_text("3")
    tap(t2, "miss")

    # "who rolled it?" offers this table's four players only
    t1.click("#taps [data-outcome=bunco]")
    choices = t1.locator("#who-choices button")
    expect(choices).to_have_count(4)
    assert sorted(b.get_attribute("data-player") or "" for b in choices.all()) == [
        "Ann",
        "Bea",
        "Cat",
        "Dee",
    ]
    t1.locator("#who-choices [data-player=Ann]").click()
    expect(t1.locator("#pending")).to_have_text("")
    if rules in ("classic", "tournament"):
        expect(t1.locator("body")).to_have_attribute("data-status", "finishing")
        tap(t1, "miss")
    for page in (t1, t2):
        expect(page.locator("body")).to_have_attribute("data-round", "2")
    expect(t2.locator("#moves-box")).to_contain_text("Eve & Gus won here")

    # the round is over: table 1's phone may not reopen it (nor touch table 2's result)
    t1.click("#undo")
    expect(t1.locator("#who-title")).to_have_text("Only the host can undo this")
    t1.click("#who-cancel")
    seated_first(t2)  # table 2's players sat down at their new seats: round 2 begins there
    if rules == "scil":
        roll_for_high(t2)
    tap(t2, "+1")  # table 2 plays on in round 2
    expect(t2.locator("[data-side=us]")).to_have_text("1")
    # table 1's phone hears that the round started (at table 2): the starting bell goes,
    # and Undo has nothing of table 1's to take back; its players still move, so where
    # everyone goes stays on show with "Everyone is seated — start"
    expect(t1.locator("#moves-box")).to_have_attribute("data-fresh", "true")
    expect(t1.locator("#seated-ok")).to_be_visible()
    expect(t1.locator("#start-box")).to_be_hidden()
    expect(t1.locator("#undo")).to_be_disabled()
    after = server.state(night, host)
    assert after["status"]["round"] == 2 and after["view"]["tables"][1]["team_scores"] == [1, 0]

    # table 1's phone, sent to table 2's page, has no key to it: it asks for table 2's code
    token = t1.evaluate("(k) => JSON.parse(localStorage.getItem(k))", f"bunco:{night}:table:1")
    t1.goto(f"/n/{night}/table/2")
    expect(t1.locator("#need-token")).to_be_visible()
    expect(t1.locator("#play")).to_be_hidden()
    # and the server refuses table 1's key at table 2, whatever a page would send
    for path, body in (
        ("rolls", {"command_id": "iso-1", "outcome": "miss"}),
        ("undo", {"command_id": "iso-2"}),
    ):
        reply = httpx.post(
            f"{server.base}/api/nights/{night}/tables/2/{path}",
            json=body,
            headers={"authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert reply.status_code == 403, reply.text
        assert reply.json()["message"] == "this phone scores table 1, not table 2"
    assert server.state(night, host)["seq"] == after["seq"]
    assert [e for e in pages.errors if "403" not in e] == []
