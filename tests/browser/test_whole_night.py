"""A 12-player night of each preset, from phones alone, to its very end.

The host starts the night on the home page and saves the host link; three scorekeepers
join (the host page's QR link, a typed code, a code link); every roll of every round is
entered on the table pages (tally buttons and typed dice, "who rolled it?" answered),
every tie-break too (``night_phones`` says which rolls, the same every run). Halfway, the
host's phone is lost: a new phone opens the saved host link (or a co-host's link made
earlier) and finishes the night: it verifies the cards (``tournament``), rolls off the
tied prizes and set winners with typed dice. The results page then agrees with the night
the server stored: its party log, replayed here by the engine, gives the same prizes,
set winners, cards and rounds.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from bunco.core.party_log import decode_lines, read_log
from bunco.party.night_report import night_report

from .conftest import TV, Pages, Server, host_tab, shoot
from .night_phones import Room, names

pytestmark = pytest.mark.browser

TIE_BREAK = {
    "classic": "sessions",
    "winning-moves": "roll_off_to_five",
    "scil": "sessions",
    "tournament": "sudden_death",
}
PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
GROUPS = "Red: Ann, Bea, Cat, Dee, Eve, Fay\nBlue: Gus, Hal, Ivy, Jo, Kim, Lou"


def stored(page: Page, key: str) -> str:
    value: str = page.evaluate("(k) => JSON.parse(localStorage.getItem(k))", key)
    return value


def create_on_home_page(pages: Pages, preset: str) -> tuple[Page, str, str]:
    """The host sets the night up on the home page; returns the host page, the night and
    the host link the page asked to save."""
    home = pages.open("/", name=f"{preset} host")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.fill("#night-name", f"{preset} night")
    home.check(f"input[name=preset][value={preset}]")
    home.fill("#players", "\n".join(PLAYERS))
    expect(home.locator("#player-count")).to_contain_text("12 players")
    if preset == "tournament":
        home.fill("#groups", GROUPS)
    if preset == "winning-moves":  # the preset where sets count: two, a winner each
        home.click("#more-rules > summary")  # step 2's "Change a rule"
        home.select_option("#sets", "2")
    home.click("#start")
    expect(home.locator("#saved")).to_be_visible()
    link = home.locator("#saved-link").inner_text()
    home.click("#open-host")
    home.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    return home, home.url.split("/")[-2], link


def join_tables(pages: Pages, host: Page, night: str) -> dict[int, Page]:
    """Table 1 by the QR link on the host page, table 2 by its typed code, table 3 by a
    code link."""
    codes = [host.locator(f".seat-card[data-table='{n}'] .code").inner_text() for n in (1, 2, 3)]
    t1 = pages.open(
        host.locator("a.join-link[data-table='1']").get_attribute("href") or "", name="table 1"
    )
    t2 = pages.open("/", name="table 2")
    t2.fill("#join-code", codes[1].lower())
    t2.click("#join-form button")
    t3 = pages.open(f"/join/{codes[2]}", name="table 3")
    tables = {1: t1, 2: t2, 3: t3}
    for n, page in tables.items():
        page.wait_for_url(re.compile(rf"/n/{night}/table/{n}$"))
        expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return tables


def expected_prizes(report: dict[str, Any]) -> list[str]:
    """What the results page lists, in its order: the set winners, then, once the prizes
    are decided, the server's one list of who is handed each prize (its words: "Dee (after
    a roll-off)", "Ann, Bea (shared)"); before that, each prize's winners."""
    out = [s["winner"] for s in report["set_winners"] if s["winner"]]
    if report.get("prize_winners"):
        return out + [r["who"] for r in report["prize_winners"]]
    for p in report["prizes"]:
        out.append(names(p["winners"]) if p["winners"] else "nobody")
    return out


@pytest.mark.parametrize("preset", ["classic", "winning-moves", "scil", "tournament"])
def test_a_twelve_player_night_from_phones_to_its_end(
    pages: Pages, server: Server, preset: str
) -> None:
    began = time.monotonic()
    host, night, host_link = create_on_home_page(pages, preset)
    viewer = stored(host, f"bunco:{night}:viewer")
    cohost_link = None
    if preset in ("winning-moves", "tournament"):  # a co-host, made while all is well
        host_tab(host, "more")
        host.fill("#cohost-name", "Bea")
        host.click("#cohost-add")
        expect(host.locator("#cohosts [data-cohost='1']")).to_contain_text("Bea")
        cohost_link = host.locator("#cohost-link").inner_text()
    tables = join_tables(pages, host, night)
    screen = pages.open(
        host.locator("#screen-link").get_attribute("href") or "", TV, f"{preset} screen"
    )  # the TV follows the night
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    room = Room(
        read=lambda: server.state(night, viewer),
        tables=tables,
        host=host,
        typed={3},
        any_table_ends=preset == "winning-moves",
    )
    first = room.read()
    sets, rounds = first["view"]["sets"], 6 * first["view"]["sets"]

    # -- the first half of the night ---------------------------------------------------------
    room.play_until(lambda s: (s["view"]["set"] - 1) * 6 + s["view"]["round"] > rounds // 2)
    expect(host.locator("#moves")).to_contain_text(f"Moves after round {rounds // 2}")

    # -- the host's phone is lost: another phone opens the saved link and runs the night -----
    host.context.close()
    pages.contexts.remove(host.context)
    link = cohost_link or host_link
    host = pages.open(link, name=f"{preset} new host")
    host.wait_for_url(re.compile(rf"/n/{night}/host$"))
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    room.host = host

    # -- the second half, to the last round's end ---------------------------------------------
    state = room.play_until(
        lambda s: (
            s["view"]["phase"] != "playing"
            and (s["view"]["last_round"]["set"], s["view"]["last_round"]["round"]) == (sets, 6)
        )
    )
    if preset == "tournament":  # prizes count verified cards: the host verifies them all
        host_tab(host, "prizes")
        for checker in host.locator("input.checker").all():  # each team's, or the one
            checker.fill("Lou")
        if not host.locator("input.checker").count():
            host.fill("#checker", "Lou")
        host.click("#verify-all")
        expect(host.locator("#verify-note")).to_have_text("All 12 cards are verified at the end.")
    state = room.host_rolloffs(host)
    assert state["view"]["phase"] == "over"

    # -- the results, as the host's new phone shows them, against the stored night ------------
    end = host
    end.goto(f"/n/{night}/end")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    expect(end.locator("body")).to_have_attribute("data-phase", "over")
    log_href = end.locator(f"[data-download='bunco-{night}.jsonl']").get_attribute("href")
    assert log_href is not None and "token=" not in log_href  # the token goes in a header
    log = httpx.get(
        server.base + log_href, headers={"Authorization": f"Bearer {viewer}"}, timeout=10
    ).content
    report = night_report(read_log(decode_lines(log)))
    assert report["phase"] == "over"
    assert [(r["set"], r["round"]) for r in report["rounds"]] == [
        (s, r) for s in range(1, sets + 1) for r in range(1, 7)
    ]
    assert all(len(r["tables"]) == 3 for r in report["rounds"])
    assert report["prizes"] == server.api("GET", f"/api/nights/{night}/report", viewer)["prizes"]
    assert not any(p["settled_by"] == "pending_roll_off" for p in report["prizes"])
    # this night (the same every run) has a table tie-break and a roll-off on the host page
    assert room.tie_breaks == {TIE_BREAK[preset]}
    settled = [p["settled_by"] for p in report["prizes"] + report["set_winners"]]
    assert "roll_off" in settled and room.rolloffs >= 2
    assert room.undone == 1
    expect(end.locator("#prizes .prize .winners")).to_have_text(expected_prizes(report))
    for player, card in report["players"].items():
        row = end.locator(f"#cards-table tr[data-player='{player}']")
        expect(row.locator("[data-col=wins]")).to_have_text(str(card["wins"]))
        expect(row.locator("[data-col=buncos]")).to_have_text(str(card["buncos"]))
        expect(row.locator(".wl")).to_have_text([m["result"] for m in card["rounds"]])
    assert sum(c["wins"] for c in report["players"].values()) == 6 * rounds  # 2 per table
    shoot(end, f"end-{preset}-twelve", ("phone",))
    expect(screen.locator("#round-line")).to_have_text("The night is over")
    expect(screen.locator("#prizes .prize .winners")).to_have_text(expected_prizes(report))
    board = [s["player"] for s in server.state(night, viewer)["view"]["standings"]]
    expect(screen.locator("#board tbody tr")).to_have_count(12)
    assert (
        screen.locator("#board tbody tr").evaluate_all("rows => rows.map(r => r.dataset.player)")
        == board
    )
    for page in tables.values():
        expect(page.locator("body")).to_have_attribute("data-phase", "over")
    assert pages.errors == []
    print(
        f"{preset}: {room.entries} entries in {time.monotonic() - began:.1f} s",
        [(p["category"], p.get("group"), p["settled_by"]) for p in report["prizes"]],
        [(s["winner"], s["settled_by"]) for s in report["set_winners"]],
        room.rolloffs,
    )
