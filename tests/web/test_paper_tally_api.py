"""The host enters a table's score from its paper tally through the API (``POST
.../tables/{n}/go-on`` with ``points``, docs/outbox.md): the room waits for a silent
phone, the host enters each player's points and Buncos from the paper, the cards, the
standings and the prizes count them, and the phone's entries of that round are refused
saying so."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_store_and_forward import to_the_bell
from test_tapped_entries import entry, tapped
from web_helpers import Night, cid

from bunco.web.night import phone_book

PAPER = {"Eve": 6, "Fay": 23, "Gus": 2, "Hal": 1}
DOCS = Path(__file__).resolve().parents[2] / "docs"


def waiting_for_table_2(night: Night, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Table 2's phone entered one +1 (Eve), then fell silent across the bell: the room
    waits for it. Returns where its next entry would have been tapped."""
    monkeypatch.setattr(phone_book, "SILENT_PHONE", 0.3)  # seconds, not 35
    phone = night.table_token(2)
    assert night.roll(2, outcome="+1", headers=phone).status_code == 200
    where = tapped(night, 2)
    time.sleep(0.4)
    to_the_bell(night)
    assert night.roll(2, outcome="miss").status_code == 200  # Eve finishes (the host)
    assert night.state()["status"]["waiting_for"] == [{"table": 2, "entries": None}]
    return where


def go_on(night: Night, **body: Any) -> Any:
    return night.client.post(
        night.url("/tables/2/go-on"), json={"command_id": cid(), **body}, headers=night.host
    )


def test_the_score_from_the_paper_goes_on_the_cards_and_the_standings(client, night, monkeypatch):
    where = waiting_for_table_2(night, monkeypatch)
    phones = client.get(night.url("/phones"), headers=night.host).json()
    assert phones["tables"][1]["players"] == ["Eve", "Fay", "Gus", "Hal"]
    assert phones["paper_minis"] == "Mini Bunco"  # the form's column for them
    reply = go_on(night, points=PAPER, buncos={"Fay": 1}, minis={"Eve": 1})
    assert reply.status_code == 200, reply.text
    event = reply.json()["event"]
    assert event["points"] == PAPER and event["buncos"] == {"Fay": 1}
    state = night.state()
    assert state["status"]["round"] == 2 and "waiting_for" not in state["status"]
    last = state["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [8, 24] and last["winners"] == ["Fay", "Hal"]
    fay = client.get(night.url("/players/Fay/card"), headers=night.host).json()["card"]
    assert (fay["wins"], fay["buncos"], fay["points"]) == (1, 1, 23)
    eve = client.get(night.url("/players/Eve/card"), headers=night.host).json()["card"]
    assert (eve["losses"], eve["mini_buncos"], eve["points"]) == (1, 1, 6)  # not her +1
    rows = client.get(night.url("/standings"), headers=night.host).json()["standings"]
    hal = next(r for r in rows if r["player"] == "Hal")
    assert (hal["wins"], hal["points"]) == (1, 1)
    # the phone comes back with its entry of round 1: refused, saying why
    late = entry(night, 2, where, night.table_token(2), outcome="+2")
    assert late.status_code == 409 and late.json()["cause"] == "paper", late.json()
    assert "the host entered table 2's score of round 1 from the paper" in late.json()["message"]
    rolls = client.get(night.url("/rounds/1/1/tables/2"), headers=night.host).json()["rolls"]
    words = [r["words"] for r in rolls]
    assert words[:3] == [
        "6 points from the paper",
        "Mini Bunco from the paper",
        "23 points from the paper",
    ]
    assert "Bunco from the paper" in words and {r["phase"] for r in rolls} == {"paper"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"points": {**PAPER, "Ann": 3}}, "Ann does not sit at table 2 this round"),
        ({"points": {"Eve": 6, "Fay": 23}}, "the points of Gus, Hal are missing"),
        ({"points": {"Eve": 4, "Fay": 6, "Gus": 6, "Hal": 4}}, "the paper tally ties table 2"),
        ({"points": PAPER, "winner": "Gus"}, "the winner Gus contradicts the paper tally"),
        ({"points": PAPER, "buncos": {"Cat": 1}}, "Cat does not sit at table 2"),
        ({"points": {**PAPER, "Hal": 1.0}}, "points.Hal"),
        ({"points": {**PAPER, "Hal": "1"}}, "points.Hal"),
        ({"points": {**PAPER, "Hal": True}}, "points.Hal"),
        ({"points": {**PAPER, "Hal": -1}}, "points.Hal"),
        ({"points": PAPER, "buncos": {"Fay": 101}}, "buncos.Fay"),
        ({"buncos": {"Fay": 1}}, "buncos or minis come with the table's points"),
    ],
)
def test_a_wrong_paper_score_is_refused_saying_what_is_expected(
    client, night, monkeypatch, body, words
):
    waiting_for_table_2(night, monkeypatch)
    reply = go_on(night, **body)
    assert reply.status_code == 422, reply.text
    assert words in reply.text and reply.json()["expected"]
    assert night.state()["status"]["waiting_for"] == [{"table": 2, "entries": None}]


def test_a_tie_on_paper_with_who_won(client, night, monkeypatch):
    waiting_for_table_2(night, monkeypatch)
    tie = {"Eve": 4, "Fay": 6, "Gus": 6, "Hal": 4}
    refused = go_on(night, points=tie)
    assert "Eve & Gus, Fay & Hal" in refused.json()["expected"]
    assert go_on(night, points=tie, winner="Gus").status_code == 200
    last = night.state()["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [10, 10] and last["winners"] == ["Eve", "Gus"]


def test_the_paper_while_the_room_is_not_waiting_is_409(client, night):
    assert night.roll(1, outcome="+2").status_code == 200
    reply = go_on(night, points=PAPER)
    assert reply.status_code == 409
    assert "not waiting for table 2's phone" in reply.json()["message"]


def test_a_table_never_heard_is_unsettled_after_the_bell_and_takes_the_paper(client, night):
    """Table 2 enters nothing all round: before the bell the host is asked nothing; after
    it the table stands 0-0 in a tie-break, ``unsettled`` (the host page's form), and the
    paper ends the round."""
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"]
    assert [t["unsettled"] for t in phones] == [False, False]
    to_the_bell(night)
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"]
    assert [(t["unsettled"], t["awaited"], t["status"]) for t in phones] == [
        (False, False, "done"),
        (True, False, "tie_break"),
    ]
    assert go_on(night, points=PAPER).status_code == 200
    assert night.state()["status"]["round"] == 2
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"]
    assert [t["unsettled"] for t in phones] == [False, False]


def test_a_table_playing_its_tie_break_after_the_bell_is_not_unsettled(client, night):
    """A table heard this round that plays its tie-break is left to its own dice."""
    assert night.roll(2, outcome="+1", headers=night.table_token(2)).status_code == 200
    assert night.roll(2, outcome="miss", headers=night.table_token(2)).status_code == 200
    assert night.roll(2, outcome="+1", headers=night.table_token(2)).status_code == 200
    to_the_bell(night)
    assert night.roll(2, outcome="miss", headers=night.table_token(2)).status_code == 200
    table = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert (table["status"], table["unsettled"]) == ("tie_break", False)


def test_the_docs_example_runs_as_written(client, night, monkeypatch):
    """docs/outbox.md's body for table 2's score from the paper, sent as it is shown."""
    text = (DOCS / "outbox.md").read_text(encoding="utf-8")
    section = text[text.index("### The table's score from the paper") :]
    (block,) = re.findall(r"^```json\n(.*?)^```", section, flags=re.S | re.M)[:1]
    body = json.loads(block)
    waiting_for_table_2(night, monkeypatch)
    reply = client.post(night.url("/tables/2/go-on"), json=body, headers=night.host)
    assert reply.status_code == 200, reply.text
    last = night.state()["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [8, 24] and last["winners"] == ["Fay", "Hal"]
