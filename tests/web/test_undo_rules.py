"""Who may undo what: a table's phone undoes its own entries of the round in play; an undo
that reopens a finished round, cancels the bell for the room or changes another table is
the host's, and ``GET .../undo`` says so first, in words."""

from __future__ import annotations

from web_helpers import cid, make_night


def undo(night, table, headers):
    return night.client.post(
        night.url(f"/tables/{table}/undo"), json={"command_id": cid()}, headers=headers
    )


def preview(night, table, headers):
    return night.client.get(night.url(f"/tables/{table}/undo"), headers=headers)


def test_a_table_undoes_its_own_entry_of_the_round_in_play(client, night):
    t2 = night.table_token(2)
    assert night.roll(1, [1, 1, 4]).status_code == 200  # Ann: +2 at table 1
    assert night.roll(2, [1, 3, 4], headers=t2).status_code == 200  # Eve: +1 at table 2
    seen = preview(night, 2, t2).json()
    assert seen["question"] == "Undo Eve's +1 (1 3 4) at table 2?"
    assert (seen["host_only"], seen["allowed"], seen["reopens"], seen["unrings"]) == (
        False,
        True,
        None,
        False,
    )
    assert seen["player"] == "Eve" and seen["dice"] == [1, 3, 4] and seen["kind"] == "points"
    assert undo(night, 2, t2).status_code == 200
    tables = night.state()["view"]["tables"]
    assert tables[1]["team_scores"] == [0, 0] and tables[0]["team_scores"] == [2, 0]
    # another table's entries, or their preview, are not this phone's
    assert undo(night, 1, t2).status_code == 403
    assert preview(night, 1, t2).status_code == 403
    nothing = preview(night, 2, t2)
    assert nothing.status_code == 409 and "undo" in nothing.json()["message"]


def test_the_roll_that_rang_the_bell_is_the_hosts_to_undo(client, night):
    t1 = night.table_token(1)
    night.roll(2, [1, 3, 4])  # table 2 scores, mid-turn
    assert night.roll(1, [1, 1, 1], headers=t1).status_code == 200  # Ann's Bunco: 21, bell
    assert night.state()["status"]["bell"] is True
    before = night.seq()
    refused = undo(night, 1, t1)
    assert refused.status_code == 403
    body = refused.json()
    assert "only the host can undo Ann's Bunco (1 1 1) at table 1" in body["message"]
    assert "bell is cancelled" in body["message"] and "ask the host" in body["expected"]
    assert night.seq() == before  # nothing was recorded
    seen = preview(night, 1, night.host).json()
    assert seen["question"] == (
        "Undo Ann's Bunco (1 1 1) at table 1? The bell is cancelled: every table plays on."
    )
    assert seen["unrings"] is True and seen["host_only"] is True and seen["allowed"] is True
    assert preview(night, 1, t1).json()["allowed"] is False
    assert undo(night, 1, night.host).status_code == 200
    state = night.state()
    assert state["status"]["bell"] is False
    assert state["view"]["tables"][1]["status"] == "playing"


def test_an_entry_of_a_finished_round_is_the_hosts_and_reopens_it(client, night):
    t2 = night.table_token(2)
    night.play_round()
    state = night.state()
    assert state["status"]["round"] == 2
    last = state["view"]["last_round"]
    assert last["ended_by"]["round"] == 1 and last["ended_by"]["why"] == "target"
    refused = undo(night, 2, t2)
    assert refused.status_code == 403
    assert "Round 1 reopens at every table" in refused.json()["message"]
    assert night.state()["status"]["round"] == 2
    seen = preview(night, 2, night.host).json()
    assert seen["reopens"] == {"set": 1, "round": 1}
    assert seen["cancels"] == "the new seating"
    assert seen["question"].endswith(
        "Round 1 reopens at every table; the new seating is cancelled."
    )
    assert seen["question"].startswith(f"Undo {seen['player']}'s ")
    assert undo(night, 2, night.host).status_code == 200
    assert night.state()["status"]["round"] == 1


def test_a_winning_moves_bunco_that_ends_every_table_is_the_hosts(client):
    night = make_night(client, rules="winning-moves")
    t1, t2 = night.table_token(1), night.table_token(2)
    assert night.roll(1, [1, 3, 4], headers=t1).status_code == 200
    assert night.roll(2, [1, 1, 1], headers=t2).status_code == 200  # a Bunco: round over
    state = night.state()
    assert state["status"]["round"] == 2
    ended = state["view"]["last_round"]["ended_by"]
    assert ended["why"] == "bunco" and ended["table"] == 2 and ended["dice"] == [1, 1, 1]
    assert ended["player"] == "Eve" and ended["kind"] == "bunco"
    refused = undo(night, 2, t2)
    assert refused.status_code == 403
    assert "Eve's Bunco (1 1 1) at table 2" in refused.json()["message"]
    assert undo(night, 1, t1).status_code == 403  # table 1's entry is in round 1 too


def test_a_winning_moves_table_at_its_own_target_undoes_alone(client):
    night = make_night(client, rules="winning-moves")
    t2 = night.table_token(2)
    for _ in range(11):  # Eve: +2 eleven times, 22 of 21
        assert night.roll(2, [1, 1, 2], headers=t2).status_code == 200
    tables = night.state()["view"]["tables"]
    assert tables[1]["status"] == "done" and tables[0]["status"] != "done"
    seen = preview(night, 2, t2).json()
    assert seen["host_only"] is False and seen["other_tables"] == []
    assert undo(night, 2, t2).status_code == 200
    assert night.state()["view"]["tables"][1]["status"] == "playing"


def test_undoing_the_bunco_that_ended_the_round_never_rescores_a_tie_break(client):
    """winning-moves: Eve's Bunco ends the round everywhere; table 1, tied 1-1, plays its
    tie-break (seven entries). Undoing the Bunco would make those entries ordinary rolls
    (a 1-1 tie won in the tie-break would read 7-1): it is refused, in the preview's
    words too, and nothing changes; once the tie-break is undone, the Bunco can be."""
    night = make_night(client, rules="winning-moves")
    for dice in ([1, 3, 4], [2, 3, 4], [1, 3, 4], [2, 3, 4]):  # table 1: 1-1
        assert night.roll(1, dice).status_code == 200
    assert night.roll(2, [1, 1, 1]).status_code == 200  # Eve's Bunco: round over
    tie_break = 0
    highs = iter([[6, 6, 5], [5, 5, 4], [4, 4, 3], [3, 3, 2]])
    while night.state()["status"]["round"] == 1:
        t = night.state()["view"]["tables"][0]
        assert t["status"] == "tie_break"
        dice = next(highs) if t["rolling_for_high"] else [1, 2, 3] if tie_break % 2 else [1, 1, 2]
        assert night.roll(1, dice).status_code == 200
        tie_break += 1
    assert tie_break == 7
    result = night.state()["view"]["last_round"]["tables"][0]
    before = night.seq()
    seen = preview(night, 2, night.host)
    assert seen.status_code == 409
    assert seen.json()["message"] == (
        "the last entry at table 2 cannot be undone alone: table 1's 7 tie-break entries "
        "would be scored again as ordinary rolls"
    )
    assert "undo the entries at table 1 first" in seen.json()["expected"]
    refused = undo(night, 2, night.host)
    assert refused.status_code == 409 and refused.json()["message"] == seen.json()["message"]
    assert night.seq() == before
    assert night.state()["view"]["last_round"]["tables"][0] == result
    for _ in range(tie_break):  # the tie-break first
        assert undo(night, 1, night.host).status_code == 200
    assert undo(night, 2, night.host).status_code == 200  # then the Bunco
    tables = night.state()["view"]["tables"]
    assert night.state()["status"]["round"] == 1
    assert tables[0]["team_scores"] == [1, 1] and tables[0]["status"] == "playing"
    assert tables[1]["rolls"] == 0
