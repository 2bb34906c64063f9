"""Seed 004's charity tournament from the set-up page to the payout sheet, without a line
of JSON, and every figure on every surface agreeing (issue 22's resolving check).

The host sets the night up on the home page (the tournament money table, Best Costume
judged, must be present, prize ties shared, breaks after rounds 2, 4 and the last, staff
verification); the tables roll through the API as the phones do; at each break the host
starts the break, verifies every card on the host page and draws a door prize; after the
last round a player goes home, the cards are verified again and Best Costume is judged.
Then, for every prize, the person paid and the amount are read off the big screen, the
end page, the night report, the two CSV files and the payout sheet PDF, and compared to
the cent with the night's payouts; the totals add up to the pot with every cent of
rounding on its own line.

A home pot (a buy-in, shares of the pot, an amount, carried over) is set up and played
the same way and checked on the same surfaces.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .api_rolls import finish_round
from .conftest import TV, Pages, Server, host_tab
from .money_surfaces import (
    csv_payouts,
    csv_prizes_won,
    download,
    expected_row,
    flat,
    handed_rows,
    html_notes,
    html_tables,
    page_payout_table,
    paid_on_row,
    pdf_payouts,
    pdf_text,
    per_player,
    printed,
    truth,
)

pytestmark = pytest.mark.browser
TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]
TEAMS = {"Team 1": TWELVE[0:4], "Team 2": TWELVE[4:8], "Team 3": TWELVE[8:12]}


# -- the night, through the pages -------------------------------------------------------------
def start_from_home(home: Page) -> tuple[str, str]:
    """Press Start on the home page and open the host page: (night id, host token)."""
    home.click("#start")
    expect(home.locator("#saved")).to_be_visible()
    home.click("#open-host")
    home.wait_for_url(re.compile(r"/n/[^/]+/host$"))
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    night = home.url.split("/")[-2]
    token = home.evaluate("(k) => JSON.parse(localStorage.getItem(k))", f"bunco:{night}:host")
    host_tab(home, "prizes")  # breaks, drawings, gone home, judged prizes, verifying
    return night, str(token)


def verify_all(host: Page, checker: str) -> None:
    """The staff's round of the cards: each team's checker verifies every card of the team
    as it stands, changed or not (seeds/004), on the host page."""
    for team in TEAMS:
        host.fill(f"input.checker[data-group='{team}']", f"{checker}, {team}")
    host.click("#verify-all")
    expect(host.locator("#verify-card")).to_have_attribute("data-left", "0")


def break_with_drawing(host: Page, screen: Page, name: str) -> None:
    """A break between rounds with a drawing, as the host page runs it."""
    host.fill("#break-minutes", "15")
    host.click("#break-start")
    expect(screen.locator("#break-line")).to_contain_text("Break time!")
    host.fill("#drawing-name", name)
    host.click("#drawing-draw")
    expect(screen.locator("#drawing-line")).to_contain_text(name)
    host.click("#break-end")
    expect(screen.locator("#break-line")).to_have_count(0)


def test_seed_004_from_the_set_up_page_to_the_payout_sheet(
    pages: Pages, server: Server, tmp_path: Path
) -> None:
    home = pages.open("/", name="host-004")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.check("input[name=preset][value=tournament]")
    expect(home.locator("[data-rule=verify_for_prizes]")).to_be_checked()  # staff verify
    expect(home.locator("#breaks")).to_have_value("2, 4, 6")
    home.fill("#night-name", "Charity tournament")
    home.fill("#players", "\n".join(TWELVE))
    home.fill("#groups", "\n".join(f"{t}: {', '.join(p)}" for t, p in TEAMS.items()))
    home.select_option("#prize-ties", "shared")
    home.select_option("#money-mode", "tournament")
    expect(home.locator("#must-be-present")).to_be_checked()  # on in the tournament preset
    nid, token = start_from_home(home)
    host = home
    screen = pages.open(host.locator("#screen-link").get_attribute("href") or "", TV, "screen")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")

    for round_no in range(1, 7):
        finish_round(server, nid, token, round_no, seed=round_no)
        if round_no in (2, 4):
            break_with_drawing(host, screen, f"Drawing after round {round_no}")
            verify_all(host, f"Staff {round_no}")
    expect(host.locator("#close-box")).to_be_visible()  # the prizes wait for the cards
    host.select_option("#presence-player", "Bea")
    host.click("#presence-gone")
    expect(host.locator("#absent-note")).to_have_text("Gone home: Bea.")
    verify_all(host, "Head staff")
    for i, (team, players) in enumerate(TEAMS.items()):
        judge = host.locator(f"form[data-judge=best_costume][data-group='{team}']")
        judge.locator(".judge-first").select_option(players[i])
        judge.locator("button").click()
    # Bea, Team 1's first choice for Best Costume, has gone home: the page warns and offers
    # the next choice; the host names her then her team-mate, who takes it
    judge = host.locator("form[data-judge=best_costume][data-group='Team 1']")
    judge.locator(".judge-first").select_option("Bea")
    expect(judge.locator(".judge-note")).to_have_text(
        "Bea has gone home and must be present to win: choose who comes next."
    )
    offered = judge.locator(".judge-next").input_value()
    assert offered in TEAMS["Team 1"] and offered != "Bea"
    host.once("dialog", lambda d: d.accept())
    judge.locator("button").click()
    expect(host.locator("#judged-note")).to_contain_text(
        f"best costume (Team 1): Bea, then {offered}"
    )
    room = host.locator("form[data-judge=group_best_costume]")
    room.locator(".judge-first").select_option("Team 3")
    room.locator("button").click()
    expect(host.locator("#judged-note")).to_contain_text("group best costume: Team 3")
    expect(host.locator("#close-box")).to_be_hidden()  # every card verified: prizes decided

    view = server.state(nid, token)["view"]
    assert view["money"]["final"] is True
    passed = {p["name"]: p["reason"] for r in view["prize_winners"] for p in r["passed_over"]}
    assert passed.get("Bea", "").startswith("absent"), passed  # named wherever she is passed
    every_surface_agrees(pages, server, nid, token, screen, tmp_path, TWELVE)
    cards = view["verification"]["cards"]  # every card checked at the end by its team's
    team_of = {p: t for t, players in TEAMS.items() for p in players}  # staff, changed or not
    assert {n: (c["checker"], c["after"]["round"]) for n, c in cards.items()} == {
        n: (f"Head staff, {team_of[n]}", 6) for n in TWELVE
    }
    assert all(cards[name]["current"] for name in TWELVE)
    assert not pages.errors


def test_a_home_pot_from_the_set_up_page_to_the_payout_sheet(
    pages: Pages, server: Server, tmp_path: Path
) -> None:
    """A classic night with a $4.75 buy-in and $1.25 carried over: half the pot to Most
    Buncos, a third to Most Wins (shares that fall between cents), $2.50 for a judged Best
    Costume; ties shared, must be present. Played through; the host judges Best Costume
    with a player who has gone home, so the prize is passed over."""
    home = pages.open("/", name="host-pot")
    expect(home.locator("body")).to_have_attribute("data-ready", "yes")
    home.check("input[name=preset][value=classic]")
    home.fill("#night-name", "Home pot")
    home.fill("#players", "\n".join(TWELVE[:8]))
    home.click("#step-prizes > summary")  # step 3: prizes and money
    home.fill("#judged", "Best Costume")
    home.select_option("#prize-ties", "shared")
    home.check("#must-be-present")
    home.select_option("#money-mode", "pot")
    home.fill("#buy-in", "4.75")
    home.fill("#carried-over", "1.25")
    for prize, kind, value in (
        ("most_buncos", "share", "50%"),
        ("most_wins", "share", "33.3%"),
        ("best_costume", "amount", "2.50"),
    ):
        row = home.locator(f"[data-payout={prize}]")
        row.locator("select").select_option(kind)
        row.locator("input").fill(value)
    nid, token = start_from_home(home)
    host = home
    screen = pages.open(host.locator("#screen-link").get_attribute("href") or "", TV, "pot-tv")
    expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
    for round_no in range(1, 7):
        finish_round(server, nid, token, round_no, seed=40 + round_no)
    host.select_option("#presence-player", "Hal")
    host.click("#presence-gone")
    expect(host.locator("#absent-note")).to_have_text("Gone home: Hal.")
    judge = host.locator("form[data-judge=best_costume]")
    judge.locator(".judge-first").select_option("Hal")
    expect(judge.locator(".judge-note")).to_contain_text("Hal has gone home")  # warned
    judge.locator(".judge-next").select_option("")  # no next choice: the host insists
    warned: list[str] = []
    host.once("dialog", lambda d: (warned.append(d.message), d.accept()))
    judge.locator("button").click()
    expect(host.locator("#judged-note")).to_contain_text("best costume: Hal")
    assert "the prize goes to nobody" in warned[0]
    view = server.state(nid, token)["view"]
    assert view["phase"] == "over", view["phase"]
    money = view["money"]
    assert (money["pot"], money["final"]) == ("39.25", True)  # 8 x $4.75 + $1.25
    assert any(x["kind"] == "rounding" for x in money["left_over"])  # 33.3% of $39.25
    costume = next(r for r in view["prize_winners"] if r["prize"] == "best_costume")
    assert costume["passed_over"] == [{"name": "Hal", "reason": "absent"}]
    every_surface_agrees(pages, server, nid, token, screen, tmp_path, TWELVE[:8])
    assert not pages.errors


# -- every surface, to the cent -------------------------------------------------------------------
def every_surface_agrees(
    pages: Pages,
    server: Server,
    nid: str,
    token: str,
    screen: Page,
    folder: Path,
    players: list[str],
) -> None:
    """For every prize, the person paid and the amount on the big screen, the end page,
    the report (HTML and PDF), the CSV files and the payout sheet PDF are the night's
    payouts; the totals add up, every cent that stays behind on a line of its own."""
    view = server.state(nid, token)["view"]
    money, rows, notes = view["money"], view["prize_winners"], view["payout_notes"]
    by_key, by_name = truth(view["payouts"])
    assert by_key and rows
    c = money["currency"]

    # the totals add up: the pot (and the host's top-up) is what is paid and what is left,
    # and what is left is every left-over line, the prizes nobody won and the unallotted
    paid = sum(Decimal(a) for _, _, a in by_key)
    assert f"{paid:.2f}" == money["paid_out"]
    pot, top_up, left = (Decimal(money[k]) for k in ("pot", "top_up", "left_in_pot"))
    assert pot + top_up == paid + left
    behind = sum(Decimal(x["amount"]) for x in money["left_over"])
    split = sum(Decimal(x["amount"]) for x in money["left_over"] if x["kind"] != "rounding")
    assert split == Decimal(money["remainder"])
    allotted = sum(Decimal(p["amount"]) for p in money["prizes"])
    assert paid + split + Decimal(money["unawarded"]) == allotted
    if not top_up:
        assert left == behind + Decimal(money["unawarded"]) + Decimal(money["unallotted"])
    for x in money["left_over"]:  # each on a line of its own, on every surface below
        assert any(
            n.startswith(f"Stays behind: {printed(x['label'], x['group'])}: ") and x["why"] in n
            for n in notes
        ), (x, notes)

    # the big screen and the end page: the same handed-out list, the persons paid
    end = pages.open(f"/n/{nid}/end?token={token}", name="end-004")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    for page in (screen, end):
        expect(page.locator("#handed-list article[data-prize]")).to_have_count(len(rows))
        shown = handed_rows(page)
        assert shown == [expected_row(r) for r in rows]
        assert set().union(*(paid_on_row(r, c) for r in shown)) == by_key
    assert page_payout_table(end) == by_name
    totals = end.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        "#totals-table tbody tr")].map((tr) => [tr.dataset.player, tr.cells[1].textContent]))""")
    assert {p: t.removeprefix(c) for p, t in totals.items()} == per_player(by_key)  # to hand over
    expect(end.locator("#payout-status")).to_have_text(view["payout_status"])
    expect(end.locator("#money-summary li")).to_have_text(notes)
    verifying = view["verification"]["required"]
    checked = {
        n: (c["checker"], c["after"]["round"]) for n, c in view["verification"]["cards"].items()
    }
    last = view["last_round"]["round"]  # a card checked after the last round: at the end
    words = {
        n: f"verified by {who} " + ("at the end, " if r == last else "") + f"after round {r}"
        for n, (who, r) in checked.items()
    }
    if verifying:
        expect(end.locator("#verify-note")).to_contain_text(
            f"({len(players)} of {len(players)}). Verified: "
            + "; ".join(f"{n} by {who} after round {r}" for n, (who, r) in checked.items())
            + "."
        )

    # the report: its Winners table is the handed-out list, its payout sheet the payouts
    report = download(server, nid, token, "download/report.html").decode("utf-8")
    winners = html_tables(report, "winners")[0]
    assert winners[0][:4] == ["Prize", "Figure", "Won by", "Amount"]
    assert [r[:4] for r in winners[1:]] == [
        [r["name"], r["figure"], r["who"], r["amount"]] for r in rows
    ]
    passing = [r for r in rows if r["passed_over"]]
    if passing:
        assert winners[0][4] == "Passed over"
        assert [r[4] for r in winners[1:] if r[4]] == [
            "; ".join(f"{p['name']}: {p['reason']}" for p in r["passed_over"]) for r in passing
        ]
    signed, sheet = html_tables(report, "payouts")  # each person's total first
    assert {(a, b, d.removeprefix(c)) for a, b, d in sheet[1:]} == by_name
    assert {a: b.removeprefix(c) for a, b, _ in signed[1:]} == per_player(by_key)
    assert html_notes(report, "payouts") == notes
    if verifying:
        verified = html_tables(report, "verified")[0]
        assert verified[1:] == [[n, words[n]] for n in players]
    else:
        assert 'id="verified"' not in report

    # the CSV files
    assert csv_payouts(download(server, nid, token, "download/payouts.csv").decode()) == by_name
    won = csv_prizes_won(download(server, nid, token, "download/standings.csv").decode())
    for player in players:  # the prizes paid, and those won that carry no money
        unpaid = {
            r["name"]
            for r in rows
            if r["status"] == "won" and not r["amount"] and player in r["handed_to"]
        }
        assert won[player] == {b for a, b, _ in by_name if a == player} | unpaid, player

    # the payout sheet and the report on paper
    for kind in ("payouts", "report"):
        data = download(server, nid, token, f"download/{kind}.pdf")
        lines, totals = pdf_payouts(pdf_text(data, folder, kind, layout=True))
        assert lines == by_name, kind
        assert totals == per_player(by_key), kind
        text = flat(pdf_text(data, folder, kind, layout=False))
        for line in notes:
            assert flat(line) in text, (kind, line)
        for r in rows:
            assert flat(r["who"]) in text and (not r["amount"] or r["amount"] in text), (kind, r)
        if kind == "payouts" and verifying:
            assert all(f"{n} {words[n]}" in text for n in players), text
