"""The table page on a 390x844 phone: what the scorekeeper taps is above the fold in every
phase (in play, typing dice, rolling for high, the bell, between rounds, large text), the die faces are
pips on buttons of at least 48x48 px and keep the keyboard's focus while dice are typed,
the top bar's title is never cut (offline, large text), and no text anywhere is under
14 px (the https help too)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import finish_round, roll
from .conftest import Pages, Server, open_table, shoot

pytestmark = pytest.mark.browser
TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]
FOLD = 844
# the bottom of each entry control on show (its id or outcome), from the top of the page
ENTRY_BOTTOMS = """() => {
  window.scrollTo(0, 0);
  const shown = (el) => el && el.getClientRects().length > 0 && !el.closest('[hidden]');
  const out = {};
  for (const el of document.querySelectorAll(
    '#taps button, #high-totals button, #faces-enter, #start-round, #seated-ok')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    const total = el.dataset.total ? `high-${el.dataset.total}` : null;
    out[el.dataset.outcome || total || el.id] = Math.round(r.bottom);
  }
  return out;
}"""
TITLE_CUT = """() => {
  const t = document.getElementById('bar-title');
  return t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1;
}"""


def above_the_fold(page: Page, phase: str, wanted: set[str]) -> dict[str, int]:
    """Check that the controls ``wanted`` (tally outcomes or ids) show above the fold."""
    bottoms: dict[str, int] = page.evaluate(ENTRY_BOTTOMS)
    assert wanted <= set(bottoms), (phase, bottoms)
    low = {name: y for name, y in bottoms.items() if name in wanted and y > FOLD}
    assert low == {}, f"{phase}: below the fold of a 390x844 phone: {low}"
    return bottoms


def test_the_entry_controls_stay_above_the_fold_in_every_phase(
    pages: Pages, server: Server
) -> None:
    created: dict[str, Any] = server.api(
        "POST", "/api/nights", json={"name": "Fold", "rules": "classic", "players": TWELVE}
    )
    night, host = created["night"], created["host_token"]
    taps = {"miss", "+1", "+2", "bunco", "mini", "roll-for-me"}
    head = open_table(pages, created, 1)
    other = open_table(pages, created, 2)
    above_the_fold(head, "in play, head table", taps)
    above_the_fold(other, "in play", taps)
    other.click("#faces-toggle")
    above_the_fold(other, "typing dice", {"faces-enter"})  # the taps follow, under it
    other.click("#faces-toggle")

    roll(server, night, host, 1, [1, 1, 1])  # the bell at the head table
    expect(other.locator("#bell")).to_be_visible()
    above_the_fold(other, "the bell", taps)
    finish_round(server, night, host, 1, seed=5)
    for page in (head, other):
        expect(page.locator("body")).to_have_attribute("data-round", "2")
        expect(page.locator("#moves-box")).to_have_attribute("data-fresh", "true")
    # the players move first: "Everyone is seated — start" (and the bell at the head
    # table) above the fold, no roll offered
    seated = {"seated-ok"}
    assert (
        not set(above_the_fold(head, "between rounds, head table", seated | {"start-round"})) & taps
    )
    assert not set(above_the_fold(other, "between rounds", seated)) & taps
    shoot(head, "table-between-rounds", ("phone",))
    for page, name in ((head, "head table"), (other, "a table")):
        page.click("#large-text")
        expect(page.locator("html")).to_have_class(re.compile("large-text"))
        above_the_fold(page, f"between rounds, large text, {name}", seated)
        page.click("#seated-ok")  # everyone sat down: the round's taps come back
        expect(page.locator("#taps")).to_be_visible()
        above_the_fold(page, f"round 2 begun, large text, {name}", taps)
    other.click("#faces-toggle")
    above_the_fold(other, "large text, typing dice", {"faces-enter"})
    assert pages.errors == []


def test_rolling_for_high_shows_the_totals_to_tap_above_the_fold(
    pages: Pages, server: Server
) -> None:
    created: dict[str, Any] = server.api(
        "POST", "/api/nights", json={"name": "High", "rules": "scil", "players": TWELVE}
    )
    totals = {f"high-{n}" for n in range(3, 19)}
    for n in (1, 2):  # scil: each table first rolls for who starts, with real dice here
        page = open_table(pages, created, n)
        expect(page.locator("body")).to_have_attribute("data-status", "first_roll")
        expect(page.locator("#high-totals")).to_be_visible()
        expect(page.locator("#faces")).to_be_hidden()  # a tap a player, not three
        above_the_fold(page, f"rolling for high at table {n}", totals)
        page.click("#large-text")
        above_the_fold(page, f"rolling for high at table {n}, large text", totals)
    assert pages.errors == []


def test_dice_are_typed_on_pips_with_the_focus_kept(pages: Pages, server: Server) -> None:
    created: dict[str, Any] = server.api(
        "POST", "/api/nights", json={"name": "Pips", "rules": "classic", "players": TWELVE}
    )
    table = open_table(pages, created, 2)
    table.click("#faces-toggle")
    faces = table.locator("#dicepick button[data-face]")
    expect(faces).to_have_count(18)
    for box in (faces.nth(i).bounding_box() for i in range(18)):
        assert box is not None and box["width"] >= 48 and box["height"] >= 48, box
    # each face shows its pips, not a digit
    three = table.get_by_role("button", name="Die 2 shows 3", exact=True)
    expect(three.locator("circle")).to_have_count(3)
    assert three.inner_text().strip() == ""

    # 2-3-5 from the keyboard: Tab to a face, Enter; the focus stays on the face pressed
    table.get_by_role("button", name="Die 1 shows 1", exact=True).focus()
    table.keyboard.press("Tab")
    table.keyboard.press("Enter")
    focused = "() => document.activeElement.getAttribute('aria-label')"
    assert table.evaluate(focused) == "Die 1 shows 2"
    expect(table.get_by_role("button", name="Die 1 shows 2", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    tabs = 0
    for wanted in ("Die 2 shows 3", "Die 3 shows 5"):
        while table.evaluate(focused) != wanted:
            table.keyboard.press("Tab")
            tabs += 1
            assert tabs < 20
        table.keyboard.press("Space")
        assert table.evaluate(focused) == wanted
    assert tabs == 7 + 8  # to die 2's 3, then to die 3's 5: no detour
    table.keyboard.press("Tab")  # die 3's 6, then the Enter button
    table.keyboard.press("Tab")
    assert table.evaluate("() => document.activeElement.id") == "faces-enter"
    table.keyboard.press("Enter")
    expect(table.locator("#result")).to_have_text("Eve: Miss")  # 2-3-5 in round 1
    assert pages.errors == []


def test_titles_fit_and_no_text_is_under_14px(pages: Pages, server: Server) -> None:
    created: dict[str, Any] = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "A long name for a Bunco night",
            "rules": "classic",
            "players": TWELVE,
            "sets": 2,
        },
    )
    table = open_table(pages, created, 2)
    assert not table.evaluate(TITLE_CUT)
    table.click("#large-text")
    table.context.set_offline(True)
    expect(table.locator("#conn")).to_have_text("offline")
    assert not table.evaluate(TITLE_CUT), table.locator("#bar-title").inner_text()
    expect(table.locator("#bar-title")).to_contain_text("Round 1")
    table.context.set_offline(False)

    https = pages.open("/https", name="https")
    smallest = https.evaluate("""() => Math.min(...[...document.querySelectorAll('body *')]
      .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .map((el) => parseFloat(getComputedStyle(el).fontSize)))""")
    assert smallest >= 14
    assert pages.errors == []
