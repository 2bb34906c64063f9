"""The correction console's API: corrections through the command path, the audit list,
a finished round's rolls, closing the night; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import bearer, cid, make_night

from bunco.web.app import create_app


def _finished_rounds(night: Any, rounds: int) -> None:
    for _ in range(rounds):
        night.play_round()


def _correct(night: Any, headers: dict[str, str] | None = None, **body: Any) -> Any:
    return night.client.post(
        night.url("/corrections"),
        json={"command_id": cid(), "reason": "the table agreed", **body},
        headers=headers or night.host,
    )


def test_a_correction_two_rounds_back_changes_the_cards_and_the_audit_list(any_db_url):
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        night = make_night(client)
        _finished_rounds(night, 3)
        before = night.state()["view"]
        shown = client.get(night.url("/rounds/1/1/tables/2"), headers=night.viewer)
        assert shown.status_code == 200, shown.text
        table = shown.json()
        assert table["rolls"][0]["number"] == 1 and table["corrected"] == 0
        loser = next(p for p in table["players"] if p not in table["winners"])
        winner = table["winners"][0]
        made = _correct(night, round=1, table=2, change="winner", player=loser)
        assert made.status_code == 200, made.text
        assert made.json()["event"]["by"] == "the host"
        assert made.json()["event"]["of_table"] == 2
        after = night.state()["view"]
        assert after["players"][loser]["wins"] == before["players"][loser]["wins"] + 1
        assert after["players"][winner]["wins"] == before["players"][winner]["wins"] - 1
        assert (after["set"], after["round"]) == (before["set"], before["round"])
        again = client.get(night.url("/rounds/1/1/tables/2"), headers=night.host).json()
        assert loser in again["winners"] and again["corrected"] == 1
        audit = client.get(night.url("/corrections"), headers=night.viewer)
        assert audit.status_code == 200, audit.text
        doc = audit.json()
        assert doc["provisional"] is True and doc["closed"] is False
        [entry] = doc["entries"]
        assert entry["kind"] == "correction" and entry["who"] == "the host"
        assert entry["why"] == "the table agreed" and entry["at"]
        assert entry["what"].startswith("Table 2, round 1: winner set to ")
        assert (entry["round"], entry["table"], entry["change"]) == (1, 2, "winner")
        # the exported log keeps the typed event, and replays to the same cards
        [logged] = [e for e in night.log() if e["type"] == "correct"]
        assert logged["reason"] == "the table agreed" and logged["player"] == loser


def test_a_cohost_corrects_and_is_named_on_the_audit_list(client, night):
    _finished_rounds(night, 2)
    made = client.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host).json()
    co = bearer(made["token"])
    table = client.get(night.url("/rounds/1/2/tables/1"), headers=co).json()
    player = table["players"][1]
    added = _correct(
        night,
        co,
        round=2,
        table=1,
        change="add_roll",
        player=player,
        dice=[2, 2, 2],
        reason="the Bunco was never entered",
    )
    assert added.status_code == 200, added.text
    assert night.state()["view"]["players"][player]["buncos"] >= 1
    [entry] = client.get(night.url("/corrections"), headers=night.host).json()["entries"]
    assert entry["who"] == "co-host 1 · Bea"
    assert entry["what"] == (
        f"Table 1, round 2: roll added for {player}: Bunco (2 2 2); "
        f"scores {table['scores'][0]}–{table['scores'][1]} → "
        f"{table['scores'][0]}–{table['scores'][1] + 21}"
    )


def test_undos_are_on_the_audit_list_with_the_phone_that_sent_them(client, night):
    phone = night.table_token(1)
    first = night.roll(1, [4, 5, 6], headers=phone)
    assert first.status_code == 200, first.text
    undone = client.post(night.url("/tables/1/undo"), json={"command_id": cid()}, headers=phone)
    assert undone.status_code == 200, undone.text
    [entry] = client.get(night.url("/corrections"), headers=night.host).json()["entries"]
    assert entry["kind"] == "undo" and entry["who"] == "table 1's phone"
    assert "(4 5 6) at table 1" in entry["what"] and entry["why"] is None


def test_refusals_have_the_documented_error_shape(client, night):
    _finished_rounds(night, 1)
    table = client.get(night.url("/rounds/1/1/tables/1"), headers=night.host).json()
    stranger = next(p for p in night.state()["view"]["seated"] if p not in table["players"])
    cases = [
        (
            {"round": 3, "table": 1, "change": "winner", "player": "Ann"},
            409,
            "not_allowed_now",
            "round 3 was not played tonight",
        ),
        (
            {"round": 2, "table": 1, "change": "winner", "player": "Ann"},
            409,
            "not_allowed_now",
            "round 2 has not started",
        ),
        (
            {"round": 1, "table": 9, "change": "winner", "player": "Ann"},
            422,
            "wrong_table",
            "no table 9",
        ),
        (
            {"round": 1, "table": 1, "change": "winner", "player": stranger},
            422,
            "invalid_setup",
            f"'{stranger}' did not play at table 1 in round 1",
        ),
        (
            {"round": 1, "table": 1, "change": "remove_roll", "roll": 999},
            422,
            "invalid_setup",
            "so there is no roll 999",
        ),
        ({"round": 1, "table": 1, "change": "move", "player": "Ann"}, 422, None, "needs roll"),
        (
            {"round": 1, "table": 1, "change": "winner", "player": "Ann", "reason": "  "},
            422,
            None,
            "reason is blank",
        ),
        ({"round": 7, "table": 1, "change": "winner", "player": "Ann"}, 422, None, None),
    ]
    for body, status, code, words in cases:
        reply = _correct(night, **body)
        assert reply.status_code == status, (body, reply.text)
        error = reply.json()
        assert set(error) >= {"error", "message", "expected"}
        if code is not None:
            assert error["error"] == code
        if words is not None:
            assert words in reply.text
    # a table's phone and a viewer may not correct
    assert (
        _correct(
            night, night.table_token(1), round=1, table=1, change="winner", player="Ann"
        ).status_code
        == 403
    )
    assert (
        _correct(night, night.viewer, round=1, table=1, change="winner", player="Ann").status_code
        == 403
    )
    assert client.get(night.url("/rounds/1/4/tables/1"), headers=night.host).status_code == 404
    assert client.get(night.url("/corrections"), headers=night.host).json()["entries"] == []


def test_closing_the_night_makes_results_final(client, night):
    early = client.post(night.url("/close"), json={"command_id": cid()}, headers=night.host)
    assert early.status_code == 409 and "cannot be closed yet" in early.text
    _finished_rounds(night, 1)
    ended = client.post(night.url("/end"), json={"command_id": cid()}, headers=night.host)
    assert ended.status_code == 200, ended.text
    while night.state()["view"]["phase"] == "rolloff":
        night.play_round()
    closed = client.post(night.url("/close"), json={"command_id": cid()}, headers=night.host)
    assert closed.status_code == 200, closed.text
    doc = client.get(night.url("/corrections"), headers=night.host).json()
    assert doc["closed"] is True and doc["provisional"] is False
    table = client.get(night.url("/rounds/1/1/tables/1"), headers=night.host).json()
    loser = next(p for p in table["players"] if p not in table["winners"])
    late = _correct(night, round=1, table=1, change="winner", player=loser)
    assert late.status_code == 409 and "closed the night" in late.text
