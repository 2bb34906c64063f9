"""The correction console in Chromium at phone size: a correction of the round in play,
and one two rounds back that changes the score cards, the prizes and the audit list, on
the host page and the results page.

An 8-player classic night is played through the API (seeded dice) for two rounds; in
round 3 table 1 enters two rolls and the host, on the host page, moves the first to
another player while the round is played: the table's points follow at once, whose turn
it is does not, "who won" waits for the bell, and the roll list follows the table's next
entry. The round is then played out and the night ended there, so its prizes are
decided. The test folds the exported log with the engine to find a round-1 player whose
missed Bunco, added, wins them Most Buncos; the host adds it on the host page (round,
table, change, player, dice, reason, confirm), then sets the other round-1 table's winner
the other way, then moves a roll of a finished round so that the losers lead and sets
them as the winners from the console's question. The cards, the prize and the audit
list follow on both pages, the results read "provisional", and once the host closes the
night (after any roll-off the correction made due) they read "final".
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from bunco.core.errors import BuncoError
from bunco.core.night import Night

from .api_rolls import finish_round, roll
from .conftest import PHONE, Pages, Server, axe, host_tab, shoot

pytestmark = pytest.mark.browser

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def bunco_that_moves_a_prize(night: Night) -> tuple[int, str]:
    """A round-1 table and a player there whose missed Bunco (1 1 1), added, makes them the
    only one with Most Buncos where they were not (the night stays over)."""
    before = next(p.winners for p in night.prizes if p.label == "Most Buncos")
    for res in night.history[0].tables:
        for player in (p for p in res.seats if p is not None):
            after = night.apply(
                {
                    "type": "correct",
                    "set": 1,
                    "round": 1,
                    "of_table": res.table,
                    "change": "add_roll",
                    "player": player,
                    "dice": [1, 1, 1],
                    "reason": "probe",
                }
            )
            now = next(p.winners for p in after.prizes if p.label == "Most Buncos")
            if after.phase == "over" and now == (player,) != before:
                return res.table, player
    raise AssertionError(f"no added Bunco moves Most Buncos in this night ({before})")


def move_that_flips(night: Night) -> tuple[Any, ...] | None:
    """A finished round's roll that, moved to a player on the losing side, gives that side
    the most points, and whose winner correction then leaves the night over (no prize
    roll-off): (round, table, roll number, player, the leaders, their score, the winners,
    their score, the night after both corrections)."""
    for played in night.history:
        for res in played.tables:
            if not res.team:
                continue
            won = min(res.winning_seats) % 2
            for number, record in enumerate(res.rolls, start=1):
                if record.seat % 2 != won or record.points <= 0 or record.phase.value != "play":
                    continue
                to = res.seats[1 - won]
                where = {"type": "correct", "set": 1, "round": played.round_no}
                where |= {"of_table": res.table, "player": to, "reason": "probe"}
                try:
                    after = night.apply({**where, "change": "move", "roll": number})
                    settled = after.apply({**where, "change": "winner"})
                except BuncoError:  # a correction this night refuses
                    continue
                fixed = after.history[played.round_no - 1].tables[res.table - 1]
                lead, trail = fixed.side_scores[1 - won], fixed.side_scores[won]
                if lead > trail and settled.phase == "over":
                    names = (res.seats[1 - won], res.seats[3 - won])
                    winners = (res.seats[won], res.seats[2 + won])
                    return (
                        played.round_no,
                        res.table,
                        number,
                        to,
                        names,
                        lead,
                        winners,
                        trail,
                        settled,
                    )
    return None


def serious(page: Any) -> list[str]:
    return [f"{v['id']}: {v['nodes']}" for v in axe(page) if v["impact"] in ("serious", "critical")]


def test_a_correction_two_rounds_back_changes_cards_prizes_and_the_audit_list(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST", "/api/nights", json={"name": "Corrections", "rules": "classic", "players": EIGHT}
    )
    nid, token = created["night"], created["host_token"]
    for round_no in (1, 2):
        finish_round(server, nid, token, round_no, seed=20 + round_no)
    roll(server, nid, token, 1, [3, 3, 1])  # round 3, table 1: +2, the turn goes on
    roll(server, nid, token, 1, [1, 2, 4])  # a miss: the dice pass on
    view = server.state(nid, token)["view"]
    seats, turn = view["tables"][0]["players"], view["tables"][0]["roller"]

    host = pages.open(f"/n/{nid}/host?token={token}", size=PHONE, name="host")
    expect(host.locator("body")).to_have_attribute("data-ready", "yes")
    host_tab(host, "more")  # the correction console is under More
    expect(host.locator("#fix-card")).to_be_visible()
    # 0. the round in play: roll 1 at table 1 moves to the partner's opponent
    expect(host.locator('#fix-which option[value="1.3"]')).to_have_text("Round 3 (in play)")
    host.select_option("#fix-which", "1.3")
    host.select_option("#fix-table", "1")
    expect(host.locator("#fix-running")).to_contain_text("whose turn it is stays with the dice")
    expect(host.locator("#fix-rolls li")).to_have_count(2)
    expect(host.locator("#fix-result")).to_contain_text("In play")
    expect(host.locator('#fix-change option[value="winner"]')).to_be_disabled()
    host.select_option("#fix-change", "move")
    host.select_option("#fix-roll", "1")
    host.select_option("#fix-player", seats[1])
    host.fill("#fix-reason", "entered on the wrong player's turn")
    host.click("#fix-send")
    dialog = host.locator("#confirm")
    expect(dialog).to_contain_text(f"counts for {seats[1]} at table 1, round 3 (in play)")
    expect(dialog).to_contain_text("whose turn it is does not change")
    host.click("#confirm-yes")
    expect(host.locator("#fix-note")).to_contain_text("Corrected")
    expect(host.locator("#fix-rolls li").first).to_contain_text(f"{seats[1]}: +2 (3 3 1)")
    expect(host.locator("#fix-result")).to_contain_text(f"{seats[0]} & {seats[2]} 0 – 2")
    expect(host.locator("#audit-list li")).to_have_count(1)
    assert serious(host) == []
    table = server.state(nid, token)["view"]["tables"][0]
    assert table["points"] == [0, 2, 0, 0] and table["roller"] == turn
    roll(server, nid, token, 1, [2, 4, 5])  # the table plays on: the roll list follows
    expect(host.locator("#fix-rolls li")).to_have_count(3)
    finish_round(server, nid, token, 3, seed=23)
    expect(host.locator('#fix-which option[value="1.3"]')).to_have_text("Round 3")
    server.api("POST", f"/api/nights/{nid}/end", token, json={"command_id": "end-1"})
    rolled = 0
    while server.state(nid, token)["view"]["phase"] == "rolloff":  # a prize tie: rolled off
        rolled += 1
        server.api(
            "POST",
            f"/api/nights/{nid}/rolloff",
            token,
            json={"command_id": f"rolloff-{rolled}", "roll_for_me": True},
        )
    lines = httpx.get(
        f"{server.base}/api/nights/{nid}/export/log.jsonl",
        timeout=10,
        headers={"authorization": f"Bearer {token}"},
    ).text.splitlines()
    engine = Night.start(json.loads(lines[0])).apply_all([json.loads(x) for x in lines[1:]])
    assert engine.phase == "over"
    flip = move_that_flips(engine)
    assert flip is not None, "no finished round's roll flips its table in this night"
    settled = flip[-1]
    table, player = bunco_that_moves_a_prize(settled)
    buncos_before = settled.cards[player].buncos
    other = settled.history[0].tables[-1 if table == 1 else 0]
    loser = next(p for p in other.losers if p is not None)
    wins_before = settled.cards[loser].wins

    expect(host.locator("#fix-provisional")).to_contain_text("Provisional results")
    # 1. a roll moved in a finished round puts the losers ahead: the console asks, the host
    # sets them as the winners with the reason it offers
    round_no, at, number, to, leads, lead, winners, trail, _ = flip
    host.select_option("#fix-which", f"1.{round_no}")
    host.select_option("#fix-table", str(at))
    expect(host.locator("#fix-rolls li")).not_to_have_count(0)
    host.select_option("#fix-change", "move")
    host.select_option("#fix-roll", str(number))
    host.select_option("#fix-player", to)
    host.fill("#fix-reason", "the table agreed whose throw it was")
    host.click("#fix-send")
    host.click("#confirm-yes")
    prompt = host.locator("#fix-prompt")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text(
        f"{' & '.join(leads)} now have {lead} to {' & '.join(winners)}'s {trail}: "
        f"set {' & '.join(leads)} as the winners?"
    )
    expect(host.locator("#fix-prompt-reason")).to_have_value(
        f"After the correction: {' & '.join(leads)} {lead}, {' & '.join(winners)} {trail}"
    )
    expect(host.locator("#fix-result")).to_contain_text(f"Won by {' & '.join(winners)}")
    assert serious(host) == []
    host.click("#fix-prompt-yes")
    expect(prompt).to_be_hidden()
    expect(host.locator("#fix-result")).to_contain_text(f"Won by {' & '.join(leads)}")
    expect(host.locator("#audit-list li")).to_have_count(3)
    expect(host.locator("#audit-list li").nth(2)).to_contain_text(
        f"Table {at}, round {round_no}: winner set to"
    )
    expect(host.locator("#audit-list li").nth(2)).to_contain_text("why: After the correction")

    end = pages.open(f"/n/{nid}/end?token={created['viewer_token']}", size=PHONE, name="end")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    # 2. a Bunco never entered in round 1 (two rounds before the last): the prize follows
    host.select_option("#fix-which", "1.1")
    host.select_option("#fix-table", str(table))
    expect(host.locator("#fix-running")).to_have_count(0)
    expect(host.locator("#fix-rolls li").first).to_be_visible()
    host.select_option("#fix-change", "add_roll")
    host.select_option("#fix-player", player)
    for die in ("#fix-d1", "#fix-d2", "#fix-d3"):
        host.select_option(die, "1")
    host.fill("#fix-reason", "the Bunco was never entered")
    host.click("#fix-send")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"{player} also rolled 1 1 1 at table {table}, round 1")
    assert serious(host) == []
    host.click("#confirm-yes")
    expect(host.locator("#fix-note")).to_contain_text("Corrected")
    expect(host.locator("#fix-rolls li").last).to_contain_text(f"{player}: Bunco (1 1 1)")
    expect(host.locator("#audit-list li")).to_have_count(4)
    state = server.state(nid, token)["view"]
    assert state["players"][player]["buncos"] == buncos_before + 1
    assert next(p for p in state["prizes"] if p["label"] == "Most Buncos")["winners"] == [player]
    # 3. the winner of another round-1 table set the other way: the cards' W and L follow
    host.select_option("#fix-table", str(other.table))
    expect(host.locator("#fix-result")).to_contain_text("Won by")
    host.select_option("#fix-change", "winner")
    host.select_option("#fix-player", loser)
    host.fill("#fix-reason", "the table agreed the score was miscounted")
    host.click("#fix-send")
    expect(dialog).to_contain_text(f"{loser}'s side won at table {other.table}, round 1")
    host.click("#confirm-yes")
    expect(host.locator("#fix-result")).to_contain_text(f"Won by {loser}")
    entries = host.locator("#audit-list li")
    expect(entries).to_have_count(5)
    expect(entries.nth(0)).to_contain_text("Table 1, round 3: roll 1, +2 (3 3 1), moved from")
    expect(entries.nth(0)).to_contain_text("why: entered on the wrong player's turn")
    expect(entries.nth(1)).to_contain_text(f"Table {at}, round {round_no}: roll {number},")
    expect(entries.nth(2)).to_contain_text(f"Table {at}, round {round_no}: winner set to")
    expect(entries.nth(3)).to_contain_text(
        f"Table {table}, round 1: roll added for {player}: Bunco (1 1 1)"
    )
    expect(entries.nth(4)).to_contain_text(f"Table {other.table}, round 1: winner set to")
    expect(entries.nth(4)).to_contain_text("the host")
    expect(entries.nth(4)).to_contain_text("why: the table agreed the score was miscounted")
    assert serious(host) == []
    shoot(host, "corrections-host", ("phone",))
    assert server.state(nid, token)["view"]["players"][loser]["wins"] == wins_before + 1
    row = end.locator(f'#cards-table tr[data-player="{loser}"]')
    expect(row.locator('td[data-col="wins"]')).to_have_text(str(wins_before + 1))
    row = end.locator(f'#cards-table tr[data-player="{player}"]')
    expect(row.locator('td[data-col="buncos"]')).to_have_text(str(buncos_before + 1))
    expect(end.locator("#prizes")).to_contain_text(player)
    expect(end.locator("#provisional")).to_contain_text("Provisional results")
    expect(end.locator("#audit-list li")).to_have_count(5)
    expect(end.locator("#audit-list li").nth(4)).to_contain_text("why: the table agreed")
    assert serious(end) == []

    while server.state(nid, token)["view"]["phase"] == "rolloff":  # a tie the correction made
        rolled += 1
        server.api(
            "POST",
            f"/api/nights/{nid}/rolloff",
            token,
            json={"command_id": f"rolloff-{rolled}", "roll_for_me": True},
        )
    host.click("#close-night")
    host.click("#confirm-yes")
    expect(host.locator("#fix-provisional")).to_contain_text("Final results")
    expect(host.locator("#fix-form")).to_be_hidden()
    expect(end.locator("#provisional")).to_contain_text("Final results")
    shoot(end, "corrections-end", ("phone",))
    assert pages.errors == []
