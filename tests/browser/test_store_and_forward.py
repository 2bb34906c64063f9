"""Every entry tapped before the bell counts, once (docs/outbox.md), in Chromium at phone
size with scripted faults: a phone silent across the bell whose entries the room waits
for, the host's decision from the paper tally, a lost reply and a phone that joins its
table again from the QR link, a lost reply checked against the server at every step,
the host undoing an entry while a phone is offline, and a correction during a prize
roll-off. Each case counts exactly: entries tapped, stored in the right round for the
right roller (the server's log replayed with the engine), held on the phone, doubled."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect

from bunco.core.night import Night
from night_helpers import party, random_roll, seated_first

from .conftest import Pages, Server, host_tab, phone
from .outage import EIGHT, check_placed, create, drained, landed, offline, outbox, tap

pytestmark = pytest.mark.browser
SILENT = 3.0
"""Seconds after which the quick server counts a table's phone silent (35 in the room)."""


@pytest.fixture
def quick_pages(browser: Browser, quick: Server) -> Iterator[Pages]:
    """The phones of the quick server's room."""
    opened = Pages(browser, quick.base)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own whose phones fall silent after :data:`SILENT` seconds."""
    before = os.environ.get("BUNCO_SILENT_PHONE")
    os.environ["BUNCO_SILENT_PHONE"] = str(SILENT)
    srv = Server(tmp_path_factory.mktemp("quick"))
    try:
        srv.start()
    finally:
        if before is None:
            del os.environ["BUNCO_SILENT_PHONE"]
        else:
            os.environ["BUNCO_SILENT_PHONE"] = before
    yield srv
    srv.stop()


def table_page(pages: Pages, created: dict[str, Any], table: int, *, deaf: bool = False) -> Page:
    """Table ``table``'s page on a phone of its own (no service worker: every request
    passes the test's routes), joined with its code; ``deaf``: its live connection hears
    nothing (:func:`silent_socket`)."""
    context = phone(pages)
    if deaf:
        context.route_web_socket(re.compile(r"/ws\?"), silent_socket)
    page = context.new_page()
    page.on("pageerror", lambda exc: pages.errors.append(f"table {table}: {exc}"))
    page.goto(f"/join/{created['tables'][table - 1]['code']}")
    page.wait_for_url(f"**/n/{created['night']}/table/{table}")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return page


def host_page(pages: Pages, created: dict[str, Any]) -> Page:
    page = pages.open(f"/n/{created['night']}/host?token={created['host_token']}", name="host")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return page


def head_to_the_bell(server: Server, night: str, host: str) -> None:
    """The head table's entries (the host's): +2 until the bell, then the miss that ends
    the finishing turn; the last would end the round."""
    for n in range(11):
        server.api(
            "POST", f"/api/nights/{night}/tables/1/rolls", host,
            json={"command_id": f"head-{n}", "outcome": "+2"},
        )  # fmt: skip
    assert server.state(night, host)["status"]["bell"] is True
    server.api(
        "POST", f"/api/nights/{night}/tables/1/rolls", host,
        json={"command_id": "head-end", "outcome": "miss"},
    )  # fmt: skip


def silent_table_two(pages: Pages, server: Server, taps: list[str]) -> tuple[dict[str, Any], Page]:
    """Table 2's phone enters Eve's +1 and miss online (1-0, nobody in mid-turn), goes
    offline and taps ``taps``, all before the bell; it then stays silent past
    :data:`SILENT`."""
    created = create(server, players=EIGHT)
    page = table_page(pages, created, 2)
    tap(page, "+1")
    tap(page, "miss")
    drained(page)
    offline(page)
    for outcome in taps:
        tap(page, outcome)
    page.wait_for_timeout(int(SILENT * 1000) + 800)
    return created, page


ELEVEN = ["+1", "miss", "miss", "+2", "miss", "+1", "miss", "+1", "miss", "miss", "miss"]
"""Fay +1, miss; Gus miss; Hal +2, miss; Eve +1, miss; Fay +1, miss; Gus, Hal miss: with
Eve's +1 before them, 2-4."""


def test_a_silent_phone_is_flagged_and_the_room_waits_for_its_eleven_entries(
    quick_pages: Pages, quick: Server
) -> None:
    pages = quick_pages
    created, page = silent_table_two(pages, quick, ELEVEN)
    night, host = created["night"], created["host_token"]
    tapped = outbox(page, night, 2)
    assert len(tapped) == 11
    board = host_page(pages, created)
    # before the bell: the dashboard flags the phone, the phones card says so
    flagged = board.locator("#needs-list li[data-table='2']")
    expect(flagged).to_contain_text("its phone is silent", timeout=15_000)
    expect(board.locator("#phones-rows tr[data-table='2']")).to_have_attribute(
        "data-silent", "true"
    )
    head_to_the_bell(quick, night, host)  # the head table's last miss would end the round
    state = quick.state(night, host)
    assert state["status"]["round"] == 1 and state["status"]["waiting_for"] == [
        {"table": 2, "entries": None}
    ]
    expect(board.locator("#waiting-title")).to_have_text(
        "Waiting for table 2's phone", timeout=10_000
    )
    expect(board.locator("#waiting-list li[data-table='2']")).to_contain_text(
        "Its phone went silent"
    )
    # the phone comes back; its entries are held back a moment: its report reaches the host
    held: list[Route] = []
    released: list[bool] = []
    page.context.route(
        re.compile(rf"/api/nights/{night}/tables/2/rolls$"),
        lambda route: route.continue_() if released else held.append(route),
    )
    offline(page, False)
    row = board.locator("#phones-rows tr[data-table='2']")
    expect(row).to_have_attribute("data-waiting", "11", timeout=15_000)
    expect(row).to_contain_text("11 entries not sent yet, the oldest tapped")
    released.append(True)
    for route in held:
        route.continue_()
    drained(page)
    stored = landed(quick, night, host)
    assert check_placed(tapped, stored) == 11
    assert all(stored[e["id"]].round_no == 1 for e in tapped)
    state = quick.state(night, host)
    assert state["status"]["round"] == 2 and "waiting_for" not in state["status"]
    last = state["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [2, 4] and last["winners"] == ["Fay", "Hal"]
    assert page.locator("body").get_attribute("data-refused") == "0"
    expect(board.locator("#waiting-phones")).to_be_hidden(timeout=10_000)
    assert not pages.errors, pages.errors


def test_the_host_enters_the_score_from_the_paper_while_the_room_waits(
    quick_pages: Pages, quick: Server
) -> None:
    pages = quick_pages
    created, page = silent_table_two(pages, quick, ["+2", "miss", "miss"])  # 1-2 on paper
    night, host = created["night"], created["host_token"]
    tapped = outbox(page, night, 2)
    board = host_page(pages, created)
    head_to_the_bell(quick, night, host)
    box = board.locator("#waiting-phones")
    expect(box).to_be_visible(timeout=10_000)
    form = box.locator("form.paper-form[data-table='2']")
    for name, points in {"Eve": "1", "Fay": "2", "Gus": "0", "Hal": "0"}.items():
        form.locator(f"input[data-player='{name}'][data-kind='points']").fill(points)
    expect(form.locator(".paper-totals")).to_have_text("Eve & Gus: 1 · Fay & Hal: 2")
    form.locator("button[data-act='paper']").click()
    expect(box).to_be_hidden(timeout=10_000)
    state = quick.state(night, host)
    assert state["status"]["round"] == 2
    last = state["view"]["last_round"]["tables"][1]
    assert last["winners"] == ["Fay", "Hal"] and last["team_scores"] == [1, 2]
    offline(page, False)
    expect(page.locator("#held-box h2")).to_have_text(
        "3 entries from round 1 arrived after the host entered this table's score from the paper:"
    )
    stored = landed(quick, night, host)
    assert check_placed(tapped, stored) == 0  # 3 tapped, 0 stored, 3 held, 0 doubled
    assert page.locator("body").get_attribute("data-refused") == "3"
    assert not pages.errors, pages.errors


def silent_socket(ws: WebSocketRoute) -> None:
    """A live connection that hears nothing: the page learns only from replies and GETs."""


def test_a_rejoined_phone_with_a_lost_reply_stores_each_entry_once(
    pages: Pages, server: Server
) -> None:
    """The reply to table 2's first entry is lost (the server stored it); the phone then
    loses the connection, taps three more, and is opened again from the table's QR link
    (a new token). It sends on: 4 tapped, 4 stored in round 1 for the right roller, 0
    held, 0 doubled."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = table_page(pages, created, 2, deaf=True)
    context = page.context
    lost: list[bool] = []

    def drop(route: Route) -> None:
        if not lost:
            route.fetch()  # the server stores it ...
            lost.append(True)
        route.abort()  # ... and the reply never comes back (nor does anything after)

    context.route(re.compile(rf"/api/nights/{night}/tables/2/rolls$"), drop)
    for outcome in ["+1", "miss", "+2", "miss"]:  # Eve +1, miss; Fay +2, miss
        tap(page, outcome)
    expect(page.locator("body")).to_have_attribute("data-unsent", "4")
    tapped = outbox(page, night, 2)
    assert len(tapped) == 4 and lost == [True]
    assert quick_rolls(server, night, host) == 1  # the first is stored already
    page.close()
    context.unroute(re.compile(rf"/api/nights/{night}/tables/2/rolls$"))
    qr = f"/join?token={created['tables'][1]['token']}"
    again = context.new_page()  # the same phone: its storage, its outbox
    again.on("pageerror", lambda exc: pages.errors.append(f"table 2 again: {exc}"))
    again.goto(qr)
    again.wait_for_url(f"**/n/{night}/table/2")
    expect(again.locator("body")).to_have_attribute("data-ready", "yes")
    drained(again)
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 4
    assert [stored[e["id"]].roller for e in tapped] == ["Eve", "Eve", "Fay", "Fay"]
    assert quick_rolls(server, night, host) == 4
    assert again.locator("body").get_attribute("data-refused") == "0"
    expect(again.locator("#held-box")).to_be_hidden()
    assert not pages.errors, pages.errors


def quick_rolls(server: Server, night: str, host: str) -> int:
    """Table 2's entries this round, as the server counts them."""
    return int(server.state(night, host)["view"]["tables"][1]["rolls"])


TRAIL = """() => {
  window.trail = [];
  const note = () => {
    const scores = [...document.querySelectorAll('#tally .score')].map((s) => Number(s.textContent));
    window.trail.push({ roller: document.body.dataset.roller || '', scores,
      pending: (document.getElementById('pending') || {}).textContent || '' });
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true,
    characterData: true, attributes: true, attributeFilter: ['data-roller'] });
  note();
}"""


def test_a_lost_reply_never_shows_a_turn_the_server_has_not_told(
    pages: Pages, server: Server
) -> None:
    """The reply to Eve's miss is lost (the server stored it) and the phone's live
    connection hears nothing: the page asks the server for the table's state, and at
    every step its roller and tally are the server's; the tally never goes back (no
    flicker), "who rolled it?" offers the server's roller, and while online the page never
    says the entries wait for the connection to come back."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = table_page(pages, created, 2, deaf=True)
    context = page.context
    dropped: list[str] = []

    def drop_second(route: Route) -> None:
        body = route.request.post_data_json or {}
        if body.get("outcome") == "miss" and not dropped:
            route.fetch()
            dropped.append(body["command_id"])
            route.abort()
            return
        route.continue_()

    context.route(re.compile(rf"/api/nights/{night}/tables/2/rolls$"), drop_second)
    page.evaluate(TRAIL)
    steps: list[tuple[str, list[int]]] = []
    for outcome in ["+1", "miss", "+2", "bunco", "miss", "+1"]:
        if outcome == "bunco":  # "who rolled it?": the server's roller has the turn
            server_roller = server.state(night, host)["view"]["tables"][1]["roller"]
            page.click("#taps [data-outcome='bunco']")
            expect(page.locator("#who-choices .btn.expected")).to_have_text(
                f"{server_roller} (their turn)"
            )
            page.locator("#who-choices .btn.expected").click()
        else:
            tap(page, outcome)
        drained(page)
        expect(page.locator("body")).to_have_attribute("data-checking", "no")
        table = server.state(night, host)["view"]["tables"][1]
        expect(page.locator("body")).to_have_attribute("data-roller", table["roller"])
        expect(page.locator("#tally .score")).to_have_text([str(s) for s in table["team_scores"]])
        steps.append((table["roller"], table["team_scores"]))
    assert len(dropped) == 1
    trail: list[dict[str, Any]] = page.evaluate("window.trail")
    us = [t["scores"][0] for t in trail if len(t["scores"]) == 2]
    them = [t["scores"][1] for t in trail if len(t["scores"]) == 2]
    assert us == sorted(us) and them == sorted(them), (us, them)  # never back: no flicker
    shown = [t["roller"] for t in trail if t["roller"]]
    told = {roller for roller, _ in steps} | {"Eve"}
    assert set(shown) <= told, (shown, steps)
    assert not any("connection is back" in t["pending"] for t in trail)
    events = server.api("GET", f"/api/nights/{night}/events?since=-1", host)["events"]
    mine = [e for e in events if e["table"] == 2]
    assert len(mine) == 6 and len({e["command_id"] for e in mine}) == 6  # 6 stored, 0 doubled
    assert steps[-1] == ("Gus", [2, 23])  # Eve +1, miss; Fay +2, Bunco, miss; Gus +1
    assert not pages.errors, pages.errors


def test_entries_arriving_after_the_host_undid_say_so(pages: Pages, server: Server) -> None:
    """Table 2's phone goes offline and taps two entries; meanwhile the host undoes table
    2's last entry. The two are refused, and the page says why: 2 tapped, 0 stored, 2
    held (with the entry recorded before them named), 0 doubled."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    page = table_page(pages, created, 2)
    tap(page, "+1")  # Eve +1, recorded
    drained(page)
    offline(page)
    tap(page, "+2")
    tap(page, "miss")
    tapped = outbox(page, night, 2)
    server.api("POST", f"/api/nights/{night}/tables/2/undo", host, json={"command_id": "host-undo"})
    offline(page, False)
    expect(page.locator("#held-box h2")).to_have_text(
        "2 entries from round 1 arrived after the host undid an entry at this table:"
    )
    expect(page.locator("#held-box p.small")).to_contain_text("Nothing was recorded for them.")
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 0 and quick_rolls(server, night, host) == 0
    assert not pages.errors, pages.errors


def rolled_off_night() -> list[dict[str, Any]]:
    """The events of a classic night whose last round leaves Most Buncos tied between
    Ann and Gus (the engine's seeded dice, as in tests/core/test_rolloff_corrections.py)."""
    night: Night = party("classic", EIGHT)
    rng = random.Random(8)
    events = []
    while len(night.history) < 6:
        night, event = random_roll(night, rng)
        events.append(event)
    assert night.rolloff is not None and night.rolloff.players == ("Ann", "Gus")
    return seated_first(party("classic", EIGHT), events)


def test_a_correction_during_the_prize_roll_off_decides_the_prize_again(
    pages: Pages, server: Server
) -> None:
    """Most Buncos ($100) is tied between Ann and Gus and rolled off; the host finds on
    the paper that Ann's Bunco of round 1 never happened and removes it on the host page,
    during the roll-off: the roll-off is cancelled, Gus is paid the $100, and the audit
    list says so."""
    money = {
        "currency": "$",
        "buy_in": "20",
        "payouts": [{"prize": "most_buncos", "amount": "100"}],
    }
    created = create(server, players=EIGHT, money=money)
    night, host = created["night"], created["host_token"]
    for n, event in enumerate(rolled_off_night()):
        server.api(
            "POST",
            f"/api/nights/{night}/events",
            host,
            json={"command_id": f"e{n}", "event": event},
        )
    assert server.state(night, host)["view"]["rolloff"]["purpose"] == "Most Buncos"
    log = Night.start(server.api("GET", f"/api/nights/{night}/events", host)["events"][0]["event"])
    events = server.api("GET", f"/api/nights/{night}/events", host)["events"]
    log = log.apply_all([e["event"] for e in events[1:]])
    table, number = next(
        (res.table, i)
        for res in log.history[0].tables
        for i, r in enumerate(res.rolls, 1)
        if r.kind.value == "bunco" and r.credited == "Ann"
    )
    board = host_page(pages, created)
    host_tab(board, "more")  # the correction console is under More
    board.select_option("#fix-which", "1.1")
    board.select_option("#fix-table", str(table))
    board.select_option("#fix-change", "remove_roll")
    board.select_option("#fix-roll", str(number))
    board.fill("#fix-reason", "the paper shows no Bunco for Ann")
    board.click("#fix-send")
    board.click("#confirm-yes")
    expect(board.locator("#audit-list li").last).to_contain_text(
        "Most Buncos: the roll-off among Ann, Gus is cancelled (Gus wins it)", timeout=10_000
    )
    payouts = server.api("GET", f"/api/nights/{night}/payouts", host)["payouts"]
    assert [(p["player"], p["amount"]) for p in payouts] == [("Gus", "100.00")]
    assert server.state(night, host)["view"]["rolloff"]["purpose"] != "Most Buncos"
    assert not pages.errors, pages.errors
