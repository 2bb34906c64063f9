"""A table's phone survives the party's Wi-Fi: in Chromium at 390x844 on a 12-player
``classic`` night, the table page is taken offline mid-round (``context.set_offline``) and
six entries are tapped each time. Every case counts exactly: tapped = stored in the right
round and for the right roller (the server's log replayed), 0 duplicates, 0 misplaced,
and every refusal shown to a person (docs/outbox.md)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Route, expect

from .conftest import Pages, Server, host_tab, phone
from .night_phones import type_dice
from .outage import (
    EIGHT,
    check_placed,
    create,
    drained,
    landed,
    offline,
    open_ready,
    outbox,
    seated_first,
    tap,
)

pytestmark = pytest.mark.browser
SIX = ["+1", "miss", "+2", "miss", "miss", "+1"]


def test_reload_while_offline_loses_nothing(pages: Pages, server: Server) -> None:
    created = create(server)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 2)
    first = page.locator("body").get_attribute("data-roller")
    offline(page)
    for outcome in SIX:
        tap(page, outcome)
    # the page shows the entries as they will be recorded, marked "not sent yet"
    expect(page.locator("#pending")).to_contain_text("6 entries not sent yet")
    expect(page.locator("#unsent-note")).to_contain_text("6 entries this phone still holds")
    expect(page.locator("#feed li.unsent")).to_have_count(6)
    # Eve +1 and a miss, Fay +2 and a miss, Gus a miss, Hal +1: partners sit across
    expect(page.locator("#tally .score").first).to_have_text("1")  # Us: Eve's +1
    expect(page.locator("#tally .score").nth(1)).to_have_text("3")  # Them: Fay +2, Hal +1
    moved = page.locator("body").get_attribute("data-roller")
    assert moved != first
    tapped = outbox(page, night, 2)
    assert len(tapped) == 6 and all(e["state"] == "waiting" for e in tapped)
    page.reload()  # offline: the service worker's copy
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#pending")).to_contain_text("6 entries not sent yet")
    expect(page.locator("body")).to_have_attribute("data-roller", moved)
    offline(page, False)
    drained(page)
    stored = landed(server, night, host)
    assert check_placed(tapped, stored) == 6
    t = server.state(night, host)["view"]["tables"][1]
    assert t["rolls"] == 6 and t["team_scores"] == [1, 3] and t["roller"] == moved
    expect(page.locator("#pending")).to_have_text("")
    expect(page.locator("#feed li.unsent")).to_have_count(0)
    assert not pages.errors, pages.errors


def test_a_tab_closed_offline_sends_when_opened_again(pages: Pages, server: Server) -> None:
    created = create(server)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 3)
    offline(page)
    for outcome in SIX:
        tap(page, outcome)
    tapped = outbox(page, night, 3)
    # all six wait on the phone (a request may reach the server while its reply is lost:
    # Chromium's offline emulation can cut a reply; the retry is then told "duplicate")
    assert len(tapped) == 6 and all(e["state"] == "waiting" for e in tapped)
    context = page.context
    page.close()  # the tab closed, still offline
    context.set_offline(False)  # the connection comes back
    again = context.new_page()
    again.goto(f"/n/{night}/table/3")
    expect(again.locator("body")).to_have_attribute("data-ready", "yes")
    drained(again)
    assert check_placed(tapped, landed(server, night, host)) == 6
    assert server.state(night, host)["view"]["tables"][2]["rolls"] == 6


def test_ten_minutes_offline_with_no_retry_limit(pages: Pages, server: Server) -> None:
    """The page's clock runs ten minutes (Playwright's clock: timers and Date) while the
    phone is offline: the entries stay, the page says how long they wait, and they are
    sent when the connection is back."""
    created = create(server)
    night, host = created["night"], created["host_token"]
    page = open_ready(pages, created, 1)
    page.clock.install()
    offline(page)
    for outcome in SIX:
        tap(page, outcome)
    tapped = outbox(page, night, 1)
    page.clock.run_for(10 * 60 * 1000)  # ten minutes of retries
    expect(page.locator("#pending")).to_contain_text("6 entries not sent yet")
    expect(page.locator("#pending")).to_contain_text("the oldest tapped 10 min")
    expect(page.locator("#pending")).to_contain_text("sent as soon as the connection is back")
    assert len(outbox(page, night, 1)) == 6
    offline(page, False)
    page.clock.run_for(20_000)  # the next retry (every 15 s at most)
    drained(page)
    assert check_placed(tapped, landed(server, night, host)) == 6


def test_two_phones_of_one_table_offline_at_once(pages: Pages, server: Server) -> None:
    """Both phones of table 2 tap the same three turns offline. The first to reconnect
    records its three; the second phone's three were based on the table before them, so
    the server refuses them (never a second copy) and that phone asks its scorekeeper."""
    created = create(server)
    night, host = created["night"], created["host_token"]
    one = open_ready(pages, created, 2)
    two = open_ready(pages, created, 2)
    offline(one)
    offline(two)
    for outcome in ("+1", "miss", "+2"):
        tap(one, outcome)
        tap(two, outcome)
    tapped_one, tapped_two = outbox(one, night, 2), outbox(two, night, 2)
    offline(one, False)
    drained(one)
    offline(two, False)
    expect(two.locator("#held-box")).to_be_visible()
    expect(two.locator("#held-box h2")).to_have_text(
        "3 entries from round 1 arrived after another phone entered first at this table:"
    )
    expect(two.locator("#held-box li")).to_have_count(3)
    stored = landed(server, night, host)
    assert check_placed(tapped_one, stored) == 3
    assert check_placed(tapped_two, stored) == 0
    assert server.state(night, host)["view"]["tables"][1]["rolls"] == 3
    two.click("#held-box [data-act=discard]")
    expect(two.locator("#held-box")).to_be_hidden()
    assert outbox(two, night, 2) == []


def test_the_room_reseated_during_the_outage(pages: Pages, server: Server) -> None:
    """Between rounds, table 2's phone goes offline and taps six entries for the round it
    shows; meanwhile the host seats the room by hand. Nothing lands in the new seating:
    the six come back as a question, sent to the host, who sees them."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]

    def roll(t: int, dice: list[int], n: int) -> None:
        server.api(
            "POST",
            f"/api/nights/{night}/tables/{t}/rolls",
            host,
            json={"command_id": f"r1-{n}", "dice": dice},
        )

    roll(2, [1, 3, 4], 0)  # round 1: Eve +1, then table 1 to 21
    for n in range(1, 60):
        if server.state(night, host)["status"]["bell"]:
            break
        roll(1, [1, 1, 2], n)
    roll(1, [2, 3, 4], 60)  # table 1's finishing turn ends
    roll(2, [2, 3, 4], 61)  # Eve's too: the round is over
    page = open_ready(pages, created, 2)
    expect(page.locator("body")).to_have_attribute("data-round", "2")
    seated_first(page)  # everyone sat down at their new seats: the round begins here
    offline(page)
    for outcome in SIX:
        tap(page, outcome)
    tapped = outbox(page, night, 2)
    tables = server.state(night, host)["view"]["tables"]
    swapped = [list(reversed(tables[0]["players"])), list(reversed(tables[1]["players"]))]
    server.api(
        "POST",
        f"/api/nights/{night}/seating",
        host,
        json={"command_id": "reseat", "tables": swapped},
    )
    offline(page, False)
    expect(page.locator("#held-box")).to_be_visible()
    expect(page.locator("#held-box li")).to_have_count(6)
    expect(page.locator("#held-box h2")).to_have_text(
        "6 entries from round 2 arrived after the host reseated the room:"
    )
    assert check_placed(tapped, landed(server, night, host)) == 0
    assert server.state(night, host)["view"]["tables"][1]["rolls"] == 0
    page.click("#held-box [data-act=host]")
    expect(page.locator("#held-box")).to_be_hidden()
    phones = server.api("GET", f"/api/nights/{night}/phones", host)
    assert sorted(e["id"] for e in phones["set_aside"]) == sorted(e["id"] for e in tapped)
    assert outbox(page, night, 2) == []


def test_an_entry_whose_socket_message_beats_its_reply_is_counted_once(
    pages: Pages, server: Server
) -> None:
    """The server's socket message of an entry can reach the phone before the server's
    reply to it: the page then has the entry in its state while its outbox still sends
    it. It is counted once (Eve's miss passes the dice to Fay, not on to Gus), and an
    entry tapped meanwhile goes to the roller of the moment."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    context = phone(pages)  # without the worker: every request passes the test's route
    page = context.new_page()
    page.goto(f"/join/{created['tables'][1]['code']}")
    page.wait_for_url(f"**/n/{night}/table/2")
    body = page.locator("body")
    expect(body).to_have_attribute("data-connection", "online")
    expect(page.locator("#turn-text")).to_have_text("Eve rolls")
    held: list[Route] = []
    context.route(re.compile(rf"/api/nights/{night}/tables/2/rolls$"), lambda r: held.append(r))
    before = int(body.get_attribute("data-seq") or 0)
    tap(page, "miss")  # Eve
    page.wait_for_function("() => document.body.dataset.unsent === '1'")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    reply = held[0].fetch()  # the server records the miss and tells the table's socket
    page.wait_for_function(f"() => Number(document.body.dataset.seq) > {before}")
    expect(page.locator("#turn-text")).to_have_text("Fay rolls")  # counted once
    tap(page, "+2")  # Fay, while the miss's reply is still on its way
    held[0].fulfill(response=reply)
    for _ in range(200):
        if len(held) > 1:
            break
        page.wait_for_timeout(25)
    held[1].continue_()
    drained(page)
    assert outbox(page, night, 2) == []  # both recorded, neither refused
    expect(page.locator("#turn-text")).to_have_text("Fay rolls")  # her +2: she rolls on
    stored = landed(server, night, host)
    assert [(x.roller, x.kind) for x in stored.values() if x.table == 2] == [
        ("Eve", "tally"),
        ("Fay", "tally"),
    ]
    assert pages.errors == []


def test_entries_on_their_way_count_on_the_tally_before_the_server_answers(
    pages: Pages, server: Server
) -> None:
    """While the server has not answered (the rolls held on the way), the tally counts
    each entry by the server's projection of the round: a tapped +2, typed 4 1 1 (two 1s
    in round 1), a typed miss that passes the dice to Fay, and her Mini Bunco; the
    server's score, once it answers, is the same."""
    created = create(server, players=EIGHT)
    night, host = created["night"], created["host_token"]
    context = phone(pages)  # without the worker: every request passes the test's route
    page = context.new_page()
    page.goto(f"/join/{created['tables'][1]['code']}")
    page.wait_for_url(f"**/n/{night}/table/2")
    expect(page.locator("body")).to_have_attribute("data-connection", "online")
    expect(page.locator("#turn-text")).to_have_text("Eve rolls")
    held: list[Route] = []
    holding = [True]
    context.route(
        re.compile(rf"/api/nights/{night}/tables/2/rolls$"),
        lambda r: held.append(r) if holding[0] else r.continue_(),
    )
    us, them = page.locator("#tally .score").first, page.locator("#tally .score").nth(1)

    def typed(*faces: int) -> None:
        type_dice(page, faces)

    tap(page, "+2")  # Eve
    expect(us).to_have_text("2")
    expect(page.locator("#turn-text")).to_have_text("Eve rolls")
    typed(4, 1, 1)
    expect(us).to_have_text("4")
    typed(2, 3, 4)  # a miss: the dice pass to Fay
    expect(page.locator("#turn-text")).to_have_text("Fay rolls")
    tap(page, "mini")  # Fay's Mini Bunco: 5 for Them, and she rolls on
    expect(them).to_have_text("5")
    expect(page.locator("#turn-text")).to_have_text("Fay rolls")
    expect(page.locator("#pending")).to_contain_text("4 entries not sent yet")
    assert len(held) == 1  # the first still on its way: nothing reached the server
    holding[0] = False
    held[0].continue_()
    drained(page)
    table = server.state(night, host)["view"]["tables"][1]
    assert table["rolls"] == 4 and table["team_scores"] == [4, 5] and table["roller"] == "Fay"
    expect(us).to_have_text("4")
    expect(them).to_have_text("5")
    assert pages.errors == []


def test_a_report_that_beat_its_entry_holds_up_no_question_of_the_host(
    pages: Pages, server: Server
) -> None:
    """A phone's report (1 entry waiting) reaches the server before the entry it names,
    and the phone's later reports are lost: the host, who saw "1 entry not sent yet" and
    asks to end the night once the entry is in, is not told of an entry still on the
    phone (the page asks the server before its question, and the server takes the entry's
    word: nothing more after it)."""
    created = create(server, players=EIGHT)
    night, token = created["night"], created["host_token"]
    host = pages.open(f"/n/{night}/host?token={token}", name="host")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    context = phone(pages)  # without the worker: every request passes the test's routes
    page = context.new_page()
    page.goto(f"/join/{created['tables'][1]['code']}")
    page.wait_for_url(f"**/n/{night}/table/2")
    expect(page.locator("body")).to_have_attribute("data-connection", "online")
    held: list[Route] = []
    reports: list[int] = []

    def report(route: Route) -> None:  # the first report with the entry waiting arrives
        waiting = int((route.request.post_data_json or {}).get("waiting", 0))
        if waiting and not reports:
            reports.append(waiting)
            route.continue_()
        elif reports:
            route.abort()  # the later ones are lost
        else:
            route.continue_()

    context.route(re.compile(rf"/api/nights/{night}/tables/2/outbox$"), report)
    context.route(re.compile(rf"/api/nights/{night}/tables/2/rolls$"), lambda r: held.append(r))
    tap(page, "+1")  # Eve
    row = host.locator("#phones-rows tr[data-table='2']")
    expect(row).to_have_attribute("data-waiting", "1", timeout=15_000)
    assert reports == [1] and len(held) == 1
    # the host's page polls no more for now (its polls are lost): its last word stands
    lost = [True]
    polls: list[bool] = []

    def poll(route: Route) -> None:
        polls.append(lost[0])
        route.abort() if lost[0] else route.continue_()

    host.route(re.compile(rf"/api/nights/{night}/phones$"), poll)
    seq = int(host.locator("body").get_attribute("data-seq") or 0)
    held[0].continue_()
    expect(host.locator("body")).to_have_attribute("data-seq", str(seq + 1))
    assert row.get_attribute("data-waiting") == "1"  # the host's last poll: the report's word
    lost[0] = False
    asked: list[str] = []
    host.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    host_tab(host, "more")
    host.click("#end-night")
    for _ in range(200):
        if asked:
            break
        host.wait_for_timeout(25)
    assert asked and asked[0].startswith("End the night now?"), asked
    assert polls[-1] is False  # asked of the server before the question
    expect(host.locator("#confirm")).not_to_be_visible()
    expect(row).to_have_attribute("data-waiting", "0")
    state = server.state(night, token)
    assert state["view"]["phase"] == "playing" and state["view"]["tables"][1]["rolls"] == 1
    assert pages.errors == []
