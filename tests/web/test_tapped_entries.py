"""Entries carry where they were tapped (set, round, table, the roller shown, the version
they were based on), and the server applies them only there or refuses them: an entry of a
finished round is never applied in a later one, nor credited to another roller, and every
change of a table's round or seating changes that table's version."""

from __future__ import annotations

from typing import Any

from web_helpers import Night, cid, make_night


def tapped(night: Night, table: int, **over: Any) -> dict[str, Any]:
    """Where an entry at ``table`` would be tapped now (as the table page sends it)."""
    state = night.client.get(night.url(f"/tables/{table}"), headers=night.host).json()
    view = state["view"]
    base = max(state["versions"].get("night", 0), state["versions"].get(str(table), 0))
    where = {
        "set": view["set"],
        "round": view["round"],
        "table": table,
        "roller": view["table"]["roller"],
        "based_on": base,
        "stage": view["table"]["status"],
        "at": "2026-11-27T20:00:00.000Z",
    }
    return {**where, **over}


def entry(
    night: Night, table: int, where: dict[str, Any], headers: dict[str, str], **body: Any
) -> Any:
    payload = {
        "command_id": cid(),
        "outcome": "miss",
        "tapped": where,
        "expected_seq": where["based_on"],
        **body,
    }
    return night.client.post(night.url(f"/tables/{table}/rolls"), json=payload, headers=headers)


def ring_the_bell(night: Night, table: int) -> None:
    """+2 for the roller's side at ``table`` until the bell rings, then a miss that ends
    that table's finishing turn (the host's entries)."""
    for _ in range(40):
        if night.state()["status"]["bell"]:
            break
        assert night.roll(table, [1, 1, 2]).status_code == 200
    assert night.roll(table, [2, 3, 4]).status_code == 200


def test_a_round_change_changes_every_tables_version(client, night):
    night.roll(2, [1, 3, 4])
    night.play_round()
    after = night.state()
    assert after["status"]["round"] == 2
    # the round ended with one table's entry, and every table's version is now its seq
    versions = after["versions"]
    assert versions["night"] == after["seq"] == after["status"]["round_version"]
    for table in ("1", "2"):
        assert max(versions["night"], versions.get(table, 0)) == after["seq"]


def test_a_round_one_entry_is_never_applied_in_round_two(client, night):
    t2 = night.table_token(2)
    where = tapped(night, 2)  # tapped at table 2 in round 1 ...
    night.play_round()  # ... the round ended everywhere meanwhile
    before = night.seq()
    # even with the version of round 1 (the old bug: it still matched) the server refuses
    late = entry(night, 2, where, t2)
    assert late.status_code == 409
    body = late.json()
    assert body["error"] == "round_closed"
    assert "tapped in round 1, which closed before it arrived" in body["message"]
    assert body["tapped"]["round"] == 1 and body["now"]["round"] == 2
    # without its context, an old version alone is refused too (stale): the round moved
    stale = night.client.post(
        night.url("/tables/2/rolls"),
        json={"command_id": cid(), "outcome": "miss", "expected_seq": where["based_on"]},
        headers=t2,
    )
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    assert night.seq() == before
    assert all(e.get("table") != 2 or e["type"] != "tally" for e in night.log())


def test_an_entry_for_another_roller_is_refused_not_moved(client, night):
    t2 = night.table_token(2)
    where = tapped(night, 2, roller="Fay")  # the page showed Fay; it is Eve's turn
    refused = entry(night, 2, where, t2)
    assert refused.status_code == 409 and refused.json()["error"] == "roller_changed"
    assert "tapped for Fay, but it is Eve's turn at table 2" in refused.json()["message"]
    assert night.state()["view"]["tables"][1]["rolls"] == 0
    ok = entry(night, 2, tapped(night, 2), t2)
    assert ok.status_code == 200
    assert ok.json()["entry"]["player"] == "Eve"


def test_an_entry_of_another_table_is_malformed(client, night):
    t2 = night.table_token(2)
    refused = entry(night, 2, tapped(night, 1), t2)
    assert refused.status_code == 422 and refused.json()["error"] == "wrong_table"


def test_after_the_bell_an_entry_applies_while_its_tables_result_is_not_final(client, night):
    t2 = night.table_token(2)
    assert night.roll(2, [1, 3, 4], headers=t2).status_code == 200  # Eve +1, still rolling
    where = tapped(night, 2)  # Eve's next roll ...
    ring_the_bell(night, 1)  # ... the bell rings
    state = night.state()
    assert state["status"]["bell"] is True and state["view"]["tables"][1]["status"] == "finishing"
    ok = entry(night, 2, where, t2)  # Eve misses: applied
    assert ok.status_code == 200 and ok.json()["entry"]["player"] == "Eve"
    # that miss finished table 2, the last table: the round closed
    assert night.state()["status"]["round"] == 2
    again = entry(
        night, 2, {**where, "based_on": ok.json()["seq"]}, t2, expected_seq=ok.json()["seq"]
    )
    assert again.status_code == 409 and again.json()["error"] == "round_closed"


def test_a_table_the_bell_put_in_a_tie_break_takes_what_was_tapped_before_it(client):
    """winning-moves: a Bunco at table 2 ends the round at every table while table 1's
    phone still holds a roll tapped during play: it counts before the bell (store and
    forward), and table 1's tie-break is begun again on the points it leaves."""
    night = make_night(client, rules="winning-moves")
    t1, t2 = night.table_token(1), night.table_token(2)
    where = tapped(night, 1)
    assert night.roll(2, [1, 1, 1], headers=t2).status_code == 200  # a Bunco ends the round
    assert night.state()["view"]["tables"][0]["status"] == "tie_break"
    late = entry(night, 1, where, t1, outcome=None, dice=[6, 6, 5])
    assert late.status_code == 200, late.text
    assert late.json()["event"] == {
        "type": "roll",
        "table": 1,
        "dice": [6, 6, 5],
        "player": "Ann",
        "before_bell": True,
    }
    table = night.state()["view"]["tables"][0]
    assert table["rolls"] == 1 and table["status"] == "tie_break"


def test_a_table_that_played_on_after_the_bell_refuses_what_was_tapped_before_it(client):
    """Once a table has an entry after the bell (its tie-break begun), an entry tapped
    during play can no longer be placed before the bell: refused, with its cause."""
    night = make_night(client, rules="winning-moves")
    t1, t2 = night.table_token(1), night.table_token(2)
    where = tapped(night, 1)
    assert night.roll(2, [1, 1, 1], headers=t2).status_code == 200
    assert night.roll(1, [3, 4, 5], headers=t1).status_code == 200  # tie-break: for high
    late = entry(
        night,
        1,
        {**where, "based_on": night.seq()},
        t1,
        expected_seq=night.seq(),
        outcome=None,
        dice=[6, 6, 5],
    )
    body = late.json()
    assert late.status_code == 409 and body["error"] == "round_closed", body
    assert body["cause"] == "after_bell"
    assert "it has 1 entry since the bell" in body["message"]
    assert night.state()["view"]["tables"][0]["rolls"] == 1


def test_events_of_the_whole_night_that_move_nothing_keep_the_tables_versions(client, night):
    t2 = night.table_token(2)
    where = tapped(night, 2)
    present = night.client.post(
        night.url("/presence"),
        json={"command_id": cid(), "player": "Ann", "present": False},
        headers=night.host,
    )
    assert present.status_code == 200
    # the entry tapped before the host's note still fits table 2
    assert entry(night, 2, where, t2).status_code == 200


def test_a_reseating_changes_every_tables_version(client, night):
    night.play_round()
    where = tapped(night, 2)
    seating = night.state()["view"]["next"]["tables"] if night.state()["view"].get("next") else None
    tables = seating or [t["players"] for t in night.state()["view"]["tables"]]
    swapped = [tables[1], tables[0]]
    moved = night.client.post(
        night.url("/seating"), json={"command_id": cid(), "tables": swapped}, headers=night.host
    )
    assert moved.status_code == 200, moved.text
    late = entry(night, 2, where, night.table_token(2))
    assert late.status_code == 409 and late.json()["error"] in ("stale", "roller_changed")
    assert night.state()["view"]["tables"][1]["rolls"] == 0
