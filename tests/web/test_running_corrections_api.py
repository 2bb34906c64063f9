"""Corrections of the round in play through the API: the command path applies each once,
the table's page and the round's rolls follow, the table's undo and play go on; on SQLite
and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from test_ws import receive, until_caught_up, ws_url
from web_helpers import cid, make_night

from bunco.web.app import create_app


def _correct(night: Any, command_id: str | None = None, **body: Any) -> Any:
    return night.client.post(
        night.url("/corrections"),
        json={"command_id": command_id or cid(), "reason": "the table agreed", **body},
        headers=night.host,
    )


def test_a_running_tables_roll_moves_once_and_the_table_plays_on(any_db_url):
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        night = make_night(client)
        phone = night.table_token(1)
        for dice in ([1, 1, 4], [2, 3, 4]):  # Ann-or-whoever scores 2, then misses
            assert night.roll(1, dice, headers=phone).status_code == 200
        shown = client.get(night.url("/rounds/1/1/tables/1"), headers=night.host).json()
        assert shown["running"] is True and shown["status"] == "playing"
        assert [r["number"] for r in shown["rolls"]] == [1, 2] and shown["scores"] == [2, 0]
        players = shown["players"]
        before = night.state()["view"]["tables"][0]
        key = cid()
        made = _correct(night, key, round=1, table=1, change="move", roll=1, player=players[1])
        assert made.status_code == 200, made.text
        again = _correct(night, key, round=1, table=1, change="move", roll=1, player=players[1])
        assert again.status_code == 200 and again.json()["duplicate"] is True
        assert again.json()["seq"] == made.json()["seq"]
        assert sum(e["type"] == "correct" for e in night.log()) == 1  # applied once
        table = night.state()["view"]["tables"][0]
        assert table["points"] == [0, 2, 0, 0] and table["roller"] == before["roller"]
        assert (table["turn"], table["in_turn"]) == (before["turn"], before["in_turn"])
        fixed = client.get(night.url("/rounds/1/1/tables/1"), headers=night.viewer).json()
        assert fixed["scores"] == [0, 2] and fixed["corrected"] == 1
        assert fixed["rolls"][0]["player"] == players[1]
        # the table's undo of its last entry (not the moved roll) folds with the correction
        undone = client.post(night.url("/tables/1/undo"), json={"command_id": cid()}, headers=phone)
        assert undone.status_code == 200, undone.text
        assert night.state()["view"]["tables"][0]["points"] == [0, 2, 0, 0]
        refused = client.post(
            night.url("/tables/1/undo"), json={"command_id": cid()}, headers=phone
        )
        assert refused.status_code == 409 and refused.json()["error"] == "not_allowed_now"
        assert "host's correction at table 1 (move of roll 1" in refused.json()["message"]
        assert night.roll(1, [1, 2, 3], headers=phone).status_code == 200  # plays on
        assert night.state()["view"]["tables"][0]["points"] == [1, 2, 0, 0]
        [entry, undo] = client.get(night.url("/corrections"), headers=night.host).json()["entries"]
        assert entry["kind"] == "correction" and entry["round"] == 1 and entry["who"] == "the host"
        assert (
            entry["what"].startswith("Table 1, round 1: roll 1,") and "2–0 → 0–2" in entry["what"]
        )
        assert undo["kind"] == "undo"


def test_the_refusals_of_a_running_round_have_the_error_shape(client, night):
    phone = night.table_token(1)
    assert night.roll(1, [2, 3, 4], headers=phone).status_code == 200
    players = client.get(night.url("/rounds/1/1/tables/1"), headers=night.host).json()["players"]
    cases = [
        ({"change": "winner", "player": players[0]}, "who won there is decided when the round"),
        ({"change": "add_roll", "player": players[1], "dice": [1, 1, 1]}, "target of 21"),
    ]
    for body, words in cases:
        reply = _correct(night, round=1, table=1, **body)
        assert reply.status_code == 409, reply.text
        error = reply.json()
        assert error["error"] == "not_allowed_now" and words in error["message"]
        assert error["expected"]
    assert client.get(night.url("/rounds/1/1/tables/3"), headers=night.host).status_code == 404
    assert client.get(night.url("/rounds/1/2/tables/1"), headers=night.host).status_code == 404
    assert night.state()["view"]["corrections"] == 0


def test_a_table_phone_is_pushed_its_corrected_points_with_the_turn_unchanged(client, night):
    token = night.created["host_token"]
    with client.websocket_connect(ws_url(night, token, table=1)) as ws:
        until_caught_up(ws)
        night.roll(1, [1, 1, 4])  # Ann: +2, her turn goes on
        assert receive(ws)["table_view"]["team_scores"] == [2, 0]
        made = _correct(night, round=1, table=1, change="move", roll=1, player="Bea")
        assert made.status_code == 200, made.text
        seq = made.json()["seq"]
        page = receive(ws)
        while page["type"] != "table" or page["seq"] < seq:  # the table's page, pushed
            page = receive(ws)
        assert page["table"] == 1 and page["seq"] == seq
        view = page["table_view"]
        assert view["team_scores"] == [0, 2] and view["points"] == [0, 2, 0, 0]
        assert (view["roller"], view["in_turn"]) == ("Ann", True)
