"""The host enters a table's score from its paper tally (docs/outbox.md), in Chromium at
phone size: table 2's phone sends its first entry, goes offline and stays so across the
bell, so the server has one entry of its round (1-0, a tie-break after Eve's turn) and
the room waits for the silent phone;
the host fills "Enter table 2's score from the paper" (the tie question shows only while
the points tie), and the cards, the prizes and the results page show the paper's points
and Buncos exactly; the phone's entries, back online, are held with the paper named."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import Pages, Server, shoot
from .outage import EIGHT, check_placed, create, drained, landed, offline, outbox, tap
from .page_checks import check_page
from .test_store_and_forward import (  # noqa: F401 (quick, quick_pages: fixtures)
    SILENT,
    head_to_the_bell,
    host_page,
    quick,
    quick_pages,
    table_page,
)

pytestmark = pytest.mark.browser
TAPS = ["+1", "bunco", "miss", "+2", "miss", "mini", "miss", "miss"]
"""Eve +1, a Bunco, miss; Fay +2, miss; Gus a Mini Bunco, miss; Hal miss: on the paper,
Eve 22 (a Bunco), Fay 2, Gus 5 (a Mini Bunco), Hal 0."""
PAPER = {"Eve": ("22", "1", ""), "Fay": ("2", "", ""), "Gus": ("5", "", "1"), "Hal": ("0", "", "")}
"""The paper tally as the host types it: points, Buncos, Mini Buncos (empty: none)."""


def fill(form: Any, name: str, kind: str, value: str) -> None:
    form.locator(f"input[data-player='{name}'][data-kind='{kind}']").fill(value)


def card(server: Server, night: str, host: str, name: str) -> dict[str, Any]:
    reply: dict[str, Any] = server.api("GET", f"/api/nights/{night}/players/{name}/card", host)
    return reply["card"]  # type: ignore[no-any-return]


def test_a_table_offline_across_the_bell_is_entered_from_the_paper(
    quick_pages: Pages,  # noqa: F811
    quick: Server,  # noqa: F811
) -> None:
    pages = quick_pages
    created = create(quick, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = table_page(pages, created, 2)
    tap(page, TAPS[0])  # Eve's +1 reaches the server: the phone is heard this round
    drained(page)
    offline(page)
    for outcome in TAPS[1:]:
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    assert len(tapped) == len(TAPS) - 1
    page.wait_for_timeout(int(SILENT * 1000) + 800)  # silent since it was heard
    board = host_page(pages, created)
    head_to_the_bell(quick, night, host)
    table = quick.state(night, host)["view"]["tables"][1]
    assert table["team_scores"] == [1, 0]  # Eve's +1 only: she finishes her turn, the host
    quick.api(
        "POST", f"/api/nights/{night}/tables/2/rolls", host,
        json={"command_id": "eve-miss", "outcome": "miss"},
    )  # fmt: skip
    box = board.locator("#waiting-phones")
    expect(board.locator("#waiting-title")).to_have_text(
        "Waiting for table 2's phone", timeout=10_000
    )
    form = box.locator("form.paper-form[data-table='2']")
    expect(form.locator("h4")).to_have_text("Enter table 2's score from the paper")
    # a tie asks who won the tie-break, and only then
    tie = form.locator("fieldset.paper-tie")
    for name, points in {"Eve": "1", "Fay": "1", "Gus": "0", "Hal": "0"}.items():
        fill(form, name, "points", points)
    expect(tie).to_be_visible()
    expect(tie.locator("legend")).to_have_text("The points tie. Who won the tie-break?")
    expect(form.locator(".paper-totals")).to_have_text("Eve & Gus: 1 · Fay & Hal: 1")
    board.wait_for_timeout(5_500)  # a poll of the phones draws the box again: the form stays
    assert form.locator("input[data-player='Eve'][data-kind='points']").input_value() == "1"
    shoot(board, "host-paper-tie", ("phone",))
    measured = check_page(board, "the host's paper form with a tie")
    for name, (points, buncos, minis) in PAPER.items():
        fill(form, name, "points", points)
        fill(form, name, "buncos", buncos)
        fill(form, name, "minis", minis)
    expect(tie).to_be_hidden()
    expect(form.locator(".paper-totals")).to_have_text("Eve & Gus: 27 · Fay & Hal: 2")
    shoot(board, "host-paper-form", ("phone",))
    check_page(board, "the host's paper form")
    form.locator("button[data-act='paper']").click()
    expect(box).to_be_hidden(timeout=10_000)
    state = quick.state(night, host)
    assert state["status"]["round"] == 2 and "waiting_for" not in state["status"]
    last = state["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [27, 2] and last["winners"] == ["Eve", "Gus"]
    # the cards: exactly the paper's points, Buncos and Mini Buncos, W for Eve & Gus
    cards = {name: card(quick, night, host, name) for name in PAPER}
    figures = {
        n: (c["wins"], c["losses"], c["points"], c["buncos"], c["mini_buncos"])
        for n, c in cards.items()
    }
    assert figures == {
        "Eve": (1, 0, 22, 1, 0),
        "Fay": (0, 1, 2, 0, 0),
        "Gus": (1, 0, 5, 0, 1),
        "Hal": (0, 1, 0, 0, 0),
    }
    # the phone comes back: its 7 entries are held, saying the paper has the round
    offline(page, False)
    expect(page.locator("#held-box h2")).to_have_text(
        "7 entries from round 1 arrived after the host entered this table's score from the paper:",
        timeout=15_000,
    )
    assert page.locator("body").get_attribute("data-refused") == "7"
    stored = landed(quick, night, host)
    assert check_placed(tapped, stored) == 0  # 7 tapped offline, 0 stored, 7 held, 0 doubled
    assert len(stored) == 11 + 1 + 2  # the head table's, Eve's +1 and the host's miss there
    # the night ends after this round: the results page shows the paper's figures
    quick.api("POST", f"/api/nights/{night}/end", host, json={"command_id": "end-paper"})
    results = results_page(pages, created)
    rows = {
        name: [
            results.locator(f"#cards-table tr[data-player='{name}'] td").nth(i).inner_text()
            for i in range(5)
        ]
        for name in PAPER
    }
    assert rows == {
        "Eve": ["1", "0", "1", "0", "22"],
        "Fay": ["0", "1", "0", "0", "2"],
        "Gus": ["1", "0", "0", "1", "5"],
        "Hal": ["0", "1", "0", "0", "0"],
    }
    most = results.locator("article.prize[data-prize='most_buncos'] .winners")
    expect(most).to_have_text("Eve")
    assert measured["small"] == [] and measured["axe"] == []
    assert not pages.errors, pages.errors


def results_page(pages: Pages, created: dict[str, Any]) -> Page:
    page = pages.open(f"/n/{created['night']}/end?token={created['host_token']}", name="end")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    if not page.locator("#cards-table").is_visible():  # the cards fold open by a tap
        page.locator("#cards-fold summary").click()
    expect(page.locator("#cards-table")).to_be_visible()
    return page


def test_a_table_never_heard_in_the_round_is_entered_from_the_paper_after_the_bell(
    quick_pages: Pages,  # noqa: F811
    quick: Server,  # noqa: F811
) -> None:
    """Table 2 scores on paper only (its phone never used): the room does not wait for it,
    but after the bell it stands 0–0 in a tie-break nobody plays; the host page's box says
    so and takes its score from the paper, and the round ends with the paper's figures."""
    pages = quick_pages
    created = create(quick, players=EIGHT)
    night, host = created["night"], created["host_token"]
    board = host_page(pages, created)
    expect(board.locator("#waiting-phones")).to_be_hidden()  # before the bell: nothing asked
    head_to_the_bell(quick, night, host)
    assert quick.state(night, host)["view"]["tables"][1]["status"] == "tie_break"
    box = board.locator("#waiting-phones")
    expect(board.locator("#waiting-title")).to_have_text(
        "Table 2 has not finished since the bell", timeout=10_000
    )
    summary = box.locator("li[data-table='2'] details.unsettled summary")
    expect(summary).to_have_text("Table 2: enter its score from the paper")
    shoot(board, "host-paper-unsettled-folded", ("phone",))
    summary.click()  # one line per table until the host opens it
    expect(box.locator(".waiting-detail")).to_have_text(
        "The bell has rung and table 2 has not finished. Nothing was entered there this round:"
        " its phone was not used, or not heard. Enter the table's score from its paper tally:"
    )
    assert box.locator("button[data-act='without']").count() == 0  # the room does not wait
    form = box.locator("form.paper-form[data-table='2']")
    for name, (points, buncos, minis) in PAPER.items():
        fill(form, name, "points", points)
        fill(form, name, "buncos", buncos)
        fill(form, name, "minis", minis)
    shoot(board, "host-paper-unsettled", ("phone",))
    measured = check_page(board, "the host's paper form for a table not finished at the bell")
    form.locator("button[data-act='paper']").click()
    expect(box).to_be_hidden(timeout=10_000)
    state = quick.state(night, host)
    assert state["status"]["round"] == 2
    last = state["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [27, 2] and last["winners"] == ["Eve", "Gus"]
    eve = card(quick, night, host, "Eve")
    assert (eve["wins"], eve["points"], eve["buncos"]) == (1, 22, 1)
    assert measured["small"] == [] and measured["axe"] == []
    assert not pages.errors, pages.errors
