"""Crediting an entry to another player than the roller the table shows, as ONE command:
``passed`` turns that ended without scoring are entered as misses, then the entry, all or
nothing, under the command's one id (a resend applies it once; a refusal applies none of
it). The decision with no server first, then the API on both databases.

Table 1 of the eight-player classic night seats Ann, Bea, Cat, Dee; Ann rolls first, and
the turns go Ann, Bea, Cat, Dee (the table view's ``rotation``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_decide_command import TABLE_1, Loaded, accepted, after_one_roll, cmd, fresh
from web_helpers import Night, bearer, cid, make_night

from bunco.web.app import create_app
from bunco.web.decision.commands import Credited
from bunco.web.decision.decide import decide
from bunco.web.decision.entry_rules import Tapped
from bunco.web.decision.rights import table_writer
from bunco.web.gate.principal import Principal
from bunco.web.night.command_path import STATUS_OF_KIND

MISS = {"type": "tally", "table": 1, "outcome": "miss"}


def bunco_for(player: str, passed: int) -> Credited:
    return Credited({"type": "tally", "table": 1, "outcome": "bunco", "player": player}, passed)


# -- the decision ---------------------------------------------------------------------------------


def test_the_turns_passed_and_the_entry_are_one_acceptance() -> None:
    state = fresh()
    decision = decide(
        cmd(
            bunco_for("Cat", 2),
            expected_seq=0,
            authorize=table_writer(TABLE_1, 1),
            tapped=Tapped(1, 1, 1, "Ann", 0, "t", "playing"),
        ),
        state,
        Loaded([1, 1, 1]),
    )
    assert decision.verdict == "accept"
    assert [s.event for s in decision.steps] == [
        MISS,
        MISS,
        {"type": "tally", "table": 1, "outcome": "bunco", "player": "Cat"},
    ]
    assert [s.after.tables[0].roller for s in decision.steps] == ["Bea", "Cat", "Cat"]
    assert decision.after is decision.steps[-1].after
    assert decision.after.tables[0].points[2] == 21  # Cat's Bunco, on Cat's seat
    assert state.seq == 0 and len(state.night.events) == 0  # the state is a value
    # planned in a batch, the three events follow each other; the id is the entry's
    later = accepted(state, cmd(bunco_for("Cat", 2), command_id="b"))
    assert later.seq == 3 and [e.command_id for e in later.pending] == [None, None, "b"]
    again = decide(cmd(bunco_for("Cat", 2), command_id="b"), later, Loaded([1, 1, 1]))
    assert (again.verdict, again.repeats) == ("repeat", 3)


REFUSED: list[tuple[str, Credited, dict[str, Any], int, str]] = [
    ("the player is not reached", bunco_for("Cat", 1), {}, 409, "not_your_turn"),
    ("a turn would pass twice", bunco_for("Ann", 4), {}, 422, "invalid_request"),
    (
        "the entry itself does not apply after the misses",
        Credited({"type": "tally", "table": 1, "outcome": "wipeout", "player": "Cat"}, 2),
        {},
        422,
        "invalid_tally",
    ),
    (
        "tapped for another roller",
        bunco_for("Cat", 2),
        {"tapped": Tapped(1, 1, 1, "Bea", 0, "t", "playing")},
        409,
        "roller_changed",
    ),
    ("an older version of the table", bunco_for("Dee", 2), {"expected_seq": 0}, 409, "stale"),
    (
        "a player's own phone",
        bunco_for("Cat", 2),
        {"authorize": table_writer(Principal("n1", "player", player="Cat", caller="c"), 1)},
        403,
        "forbidden",
    ),
    (
        "another table's phone",
        bunco_for("Cat", 2),
        {"authorize": table_writer(Principal("n1", "table", table=2, caller="t2"), 1)},
        403,
        "forbidden",
    ),
    (
        "no player named",
        Credited({"type": "tally", "table": 1, "outcome": "bunco"}, 2),
        {},
        422,
        "invalid_request",
    ),
]


@pytest.mark.parametrize(
    ("what", "intent", "more", "status", "code"), REFUSED, ids=[r[0] for r in REFUSED]
)
def test_a_refused_credit_writes_nothing(
    what: str, intent: Credited, more: dict[str, Any], status: int, code: str
) -> None:
    state = fresh() if "expected_seq" not in more else after_one_roll()
    decision = decide(cmd(intent, **more), state, Loaded([1, 1, 1]))
    assert (decision.verdict, decision.code) == ("refuse", code)
    assert decision.kind is not None and STATUS_OF_KIND[decision.kind] == status
    assert decision.steps == () and decision.reason and decision.expected


def test_the_same_id_with_other_turns_passed_is_another_request() -> None:
    assert cmd(bunco_for("Cat", 2)).request != cmd(bunco_for("Cat", 1)).request
    later = accepted(fresh(), cmd(bunco_for("Cat", 2), command_id="b"), commit=True)
    reused = decide(cmd(bunco_for("Dee", 3), command_id="b"), later, Loaded([1, 1, 1]))
    assert (reused.code, reused.extra) == ("id_reused", {"seq": 3})


# -- the API --------------------------------------------------------------------------------------


def where(night: Night, table: int = 1) -> dict[str, Any]:
    """Where an entry at ``table`` is tapped now, as the table page sends it."""
    state = night.client.get(night.url(f"/tables/{table}"), headers=night.host).json()
    t = state["view"]["table"]
    return {
        "set": 1,
        "round": 1,
        "table": table,
        "roller": t["roller"],
        "based_on": max(state["versions"].get("night", 0), state["versions"].get("1", 0)),
        "stage": t["status"],
        "at": "2026-11-27T20:00:00.000Z",
    }


def credit(night: Night, headers: dict[str, str], **body: Any) -> tuple[dict[str, Any], Any]:
    """Send an entry at table 1 as the table page does; the request's body and the reply."""
    tapped = where(night)
    payload = {"tapped": tapped, "expected_seq": tapped["based_on"], **body}
    reply = night.client.post(night.url("/tables/1/rolls"), json=payload, headers=headers)
    return payload, reply


def envelopes(night: Night, since: int) -> list[dict[str, Any]]:
    reply = night.client.get(night.url(f"/events?since={since}"), headers=night.host)
    events: list[dict[str, Any]] = reply.json()["events"]
    return events


def test_a_bunco_credited_after_two_turns_is_stored_once_whole(any_db_url: str) -> None:
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        night = make_night(client)
        phone = night.table_token(1)
        assert night.client.get(night.url("/tables/1"), headers=night.host).json()["view"]["table"][
            "rotation"
        ] == [
            "Ann",
            "Bea",
            "Cat",
            "Dee",
        ]
        body = {"command_id": cid(), "outcome": "bunco", "player": "Cat", "passed": 2}
        sent, first = credit(night, phone, **body)
        assert first.status_code == 200, first.text
        ack = first.json()
        assert (ack["seq"], ack["duplicate"], ack["event"]["player"]) == (3, False, "Cat")
        assert ack["entry"]["points"] == 21 and ack["table_view"]["roller"] == "Cat"
        stored = envelopes(night, 0)
        assert [(e["seq"], e["command_id"], e["event"]) for e in stored] == [
            (1, None, MISS),
            (2, None, MISS),
            (3, body["command_id"], ack["event"]),
        ]
        # the reply was lost: the same command again is answered with the first reply
        again = client.post(night.url("/tables/1/rolls"), json=sent, headers=phone)
        assert again.status_code == 200 and again.json()["duplicate"] is True
        assert again.json()["seq"] == 3 and night.seq() == 3
        # the same id with another number of turns is another request: refused
        other = client.post(
            night.url("/tables/1/rolls"),
            json={**body, "passed": 1, "tapped": where(night), "expected_seq": 3},
            headers=phone,
        )
        assert (other.status_code, other.json()["error"]) == (409, "id_reused")
        # the table's version is the entry's seq: the next entry is based on it
        _, nxt = credit(night, phone, command_id=cid(), outcome="+1")
        assert nxt.status_code == 200 and nxt.json()["seq"] == 4
        assert [e["outcome"] for e in night.log()[1:]] == ["miss", "miss", "bunco", "+1"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"outcome": "bunco", "player": "Cat", "passed": 1}, 409, "not_your_turn"),
        ({"outcome": "bunco", "player": "Ann", "passed": 4}, 422, "invalid_request"),
        ({"outcome": "wipeout", "player": "Cat", "passed": 2}, 422, "invalid_tally"),
        ({"outcome": "bunco", "player": "Cat", "passed": 2, "expected_seq": 5}, 409, "stale"),
        ({"outcome": "bunco", "passed": 2}, 422, "invalid_request"),
        ({"roll_for_me": True, "player": "Cat", "passed": 2}, 422, "invalid_request"),
        ({"outcome": "bunco", "player": "Cat", "passed": -1}, 422, "invalid_request"),
    ],
    ids=["not reached", "twice", "entry refused", "stale", "no player", "server dice", "negative"],
)
def test_a_refused_credit_leaves_the_night_as_it_was(
    client: TestClient, night: Night, body: dict[str, Any], status: int, code: str
) -> None:
    _, reply = credit(night, night.host, command_id=cid(), **body)
    assert (reply.status_code, reply.json()["error"]) == (status, code), reply.text
    assert reply.json()["message"] and reply.json()["expected"]
    assert night.seq() == 0 and envelopes(night, 0) == []


def test_a_players_phone_may_not_credit_turns_it_did_not_roll(
    client: TestClient, night: Night
) -> None:
    claimed = client.post(night.url("/claim"), json={"name": "Cat"}, headers=night.viewer)
    assert claimed.status_code == 200, claimed.text
    cat = bearer(claimed.json()["token"])
    _, reply = credit(night, cat, command_id=cid(), dice=[1, 1, 1], player="Cat", passed=2)
    assert (reply.status_code, reply.json()["error"]) == (403, "forbidden")
    assert night.seq() == 0


def test_turns_pass_only_while_the_table_plays_its_round(client: TestClient, night: Night) -> None:
    for _ in range(40):  # +2s at table 1 until the bell
        if night.state()["status"]["bell"]:
            break
        assert night.roll(1, [1, 1, 2]).status_code == 200
    before = night.seq()
    _, reply = credit(night, night.host, command_id=cid(), outcome="bunco", player="Dee", passed=1)
    assert (reply.status_code, reply.json()["error"]) == (409, "not_allowed_now")
    assert night.seq() == before
