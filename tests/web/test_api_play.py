"""Playing through the API: rolls, tallies, roll for me, undo, the bell, rounds, changes."""

from __future__ import annotations

from web_helpers import EIGHT, cid, make_night


def test_a_roll_scores_and_the_reply_carries_seq_and_table(client, night):
    reply = night.roll(1, [1, 1, 4])  # round 1: two 1s are 2 points, Ann rolls on
    assert reply.status_code == 200
    body = reply.json()
    assert body["seq"] == 1 and body["table"] == 1 and body["duplicate"] is False
    assert body["event"]["type"] == "roll" and body["event"]["dice"] == [1, 1, 4]
    assert body["table_view"]["team_scores"] == [2, 0]
    assert body["table_view"]["roller"] == "Ann"
    miss = night.roll(1, [2, 3, 5]).json()  # no 1: the dice pass to Bea
    assert miss["seq"] == 2 and miss["table_view"]["roller"] == "Bea"


def test_a_quick_tally_is_an_event_too(client, night):
    night.roll(1, [2, 3, 5])  # Ann's first roll misses (a tally is for rolls after the first)
    reply = night.roll(1, outcome="+2")
    assert reply.status_code == 200, reply.text
    assert reply.json()["event"] == {**reply.json()["event"], "type": "tally", "outcome": "+2"}
    assert reply.json()["table_view"]["team_scores"] == [0, 2]  # Bea's team


def test_roll_for_me_draws_and_records_real_dice(client, night):
    faces = set()
    for _ in range(30):
        body = night.roll(2, None).json()
        dice = body["event"]["dice"]
        assert len(dice) == 3 and all(1 <= d <= 6 for d in dice)
        faces.update(dice)
    assert len(faces) >= 4  # thirty draws of three dice show most faces
    stored = [e for e in night.log() if e.get("table") == 2]
    assert len(stored) == 30


def test_undo_removes_the_last_entry_at_that_table_only(client, night):
    night.roll(1, [1, 1, 4])
    night.roll(2, [2, 2, 1])  # table 2: Eve, one 1 = 1 point
    reply = client.post(night.url("/tables/1/undo"), json={"command_id": cid()}, headers=night.host)
    assert reply.status_code == 200, reply.text
    assert reply.json()["event"]["type"] == "undo"
    view = night.state()["view"]["tables"]
    assert view[0]["team_scores"] == [0, 0]
    assert view[1]["team_scores"] == [1, 0]
    nothing = client.post(
        night.url("/tables/1/undo"), json={"command_id": cid()}, headers=night.host
    )
    assert nothing.status_code == 409
    assert "undo" in nothing.json()["message"]


def test_not_your_turn_and_wrong_table_are_refused_without_change(client, night):
    before = night.seq()
    reply = night.roll(1, [1, 2, 3], player="Bea")  # Ann rolls first at table 1
    assert reply.status_code == 409
    assert reply.json()["error"] == "not_your_turn"
    assert "Ann" in reply.json()["expected"]
    wrong = night.roll(9, [1, 2, 3])
    assert wrong.status_code == 422 and "9" in wrong.json()["message"]
    assert night.seq() == before


def test_the_bell_the_after_bell_play_and_the_next_round(client, night):
    # Round 1, head table: Ann's Bunco (three 1s) is 21 points and rings the bell.
    body = night.roll(1, [1, 1, 1]).json()
    assert body["status"]["bell"] is True
    assert body["table_view"]["team_scores"] == [21, 0]
    # classic: whoever is mid-turn rolls on after the bell until a roll scores nothing
    assert night.state()["status"]["expects"][0] == {"table": 1, "player": "Ann"}
    night.play_round()
    state = night.state()
    assert state["status"]["round"] == 2 and state["status"]["bell"] is False
    report = client.get(night.url("/report"), headers=night.host).json()
    head = report["rounds"][0]["tables"][0]
    assert sorted(head["winners"]) == ["Ann", "Cat"]  # partners sit opposite
    # classic movement: head winners stay, so Ann and Cat are still at table 1
    seated = state["view"]["tables"][0]["players"]
    assert "Ann" in seated and "Cat" in seated


def test_substitute_arrival_departure_and_seating_between_rounds(client, night):
    sub = client.post(
        night.url("/substitutes"),
        json={"command_id": cid(), "out": "Hal", "in": "Zoe"},
        headers=night.host,
    )
    assert sub.status_code == 200, sub.text
    tables = night.state()["view"]["tables"]
    assert "Zoe" in tables[1]["players"] and "Hal" not in tables[1]["players"]
    seat = client.post(
        night.url("/seating"),
        json={
            "command_id": cid(),
            "tables": [["Eve", "Fay", "Gus", "Zoe"], ["Ann", "Bea", "Cat", "Dee"]],
        },
        headers=night.host,
    )
    assert seat.status_code == 200, seat.text
    assert night.state()["view"]["tables"][0]["players"] == ["Eve", "Fay", "Gus", "Zoe"]
    night.roll(1, [2, 3, 5])
    late = client.post(
        night.url("/arrivals"), json={"command_id": cid(), "player": "Ivy"}, headers=night.host
    )
    assert late.status_code == 409  # the round has started
    assert "between rounds" in late.json()["message"]
    night.play_round()
    late = client.post(
        night.url("/arrivals"), json={"command_id": cid(), "player": "Ivy"}, headers=night.host
    )
    assert late.status_code == 200, late.text
    assert "Ivy" in night.state()["view"]["seated"]
    gone = client.post(
        night.url("/departures"), json={"command_id": cid(), "player": "Ivy"}, headers=night.host
    )
    assert gone.status_code == 200
    assert "Ivy" not in night.state()["view"]["seated"]


def test_verification_of_a_tournament_card(client):
    night = make_night(client, EIGHT, rules="tournament", groups={"A": EIGHT[:4], "B": EIGHT[4:]})
    night.roll(1, [1, 1, 1])  # Ann: a Bunco in round 1
    night.play_round()
    reply = client.post(
        night.url("/verifications"),
        json={"command_id": cid(), "player": "Ann", "checker": "Staff A"},
        headers=night.host,
    )
    assert reply.status_code == 200, reply.text
    card = client.get(night.url("/players/Ann/card"), headers=night.host).json()
    assert card["verified"]["buncos"] == card["card"]["buncos"] >= 1
    table = night.table_token(1)
    refused = client.post(
        night.url("/verifications"), json={"command_id": cid(), "player": "Ann"}, headers=table
    )
    assert refused.status_code == 403


def test_the_head_table_rings_the_bell_to_start_a_round(client, night):
    table2 = client.post(
        night.url("/start"), json={"command_id": cid()}, headers=night.table_token(2)
    )
    assert table2.status_code == 403 and "head table" in table2.json()["message"]
    viewer = client.post(night.url("/start"), json={"command_id": cid()}, headers=night.viewer)
    assert viewer.status_code == 403
    assert night.seq() == 0
    rung = client.post(
        night.url("/start"), json={"command_id": "bell-1"}, headers=night.table_token(1)
    )
    assert rung.status_code == 200, rung.text
    assert rung.json()["event"]["type"] == "start_round"
    assert night.state()["view"]["started"] is True
    again = client.post(night.url("/start"), json={"command_id": cid()}, headers=night.host)
    assert again.status_code == 409 and "already started" in again.json()["message"]
    late = client.post(
        night.url("/arrivals"), json={"command_id": cid(), "player": "Ivy"}, headers=night.host
    )
    assert late.status_code == 409  # the round is under way
    assert night.seq() == 1
    assert night.roll(1, [1, 1, 4]).status_code == 200


def test_the_host_ends_the_night_early_between_rounds(client, night):
    night.roll(1, [2, 3, 5])
    mid = client.post(night.url("/end"), json={"command_id": cid()}, headers=night.host)
    assert mid.status_code == 409  # a round is under way
    assert "between rounds" in mid.json()["message"]
    assert "first roll" in mid.json()["expected"]
    table = client.post(night.url("/end"), json={"command_id": cid()}, headers=night.table_token(1))
    assert table.status_code == 403
    night.play_round()
    before = night.seq()
    reply = client.post(night.url("/end"), json={"command_id": "end-1"}, headers=night.host)
    assert reply.status_code == 200, reply.text
    assert reply.json()["event"]["type"] == "end_night"
    again = client.post(night.url("/end"), json={"command_id": "end-1"}, headers=night.host)
    assert again.json()["duplicate"] is True and night.seq() == before + 1
    view = night.state()["view"]
    assert view["phase"] in ("over", "rolloff")
    assert view["ended_early"] == {"set": 1, "round": 1}
    report = client.get(night.url("/report"), headers=night.host).json()
    assert len(report["rounds"]) == 1 and report["next"] is None
    assert all(p["wins"] + p["losses"] == 1 for p in report["players"].values())


def test_generic_events_endpoint(client, night):
    reply = client.post(
        night.url("/events"),
        json={"command_id": cid(), "event": {"type": "roll", "table": 2, "dice": [1, 5, 6]}},
        headers=night.host,
    )
    assert reply.status_code == 200
    assert reply.json()["table_view"]["team_scores"] == [1, 0]
    bad = client.post(
        night.url("/events"),
        json={"command_id": cid(), "event": {"type": "dance", "table": 2}},
        headers=night.host,
    )
    assert bad.status_code == 422 and "dance" in bad.json()["message"]


def test_a_whole_night_plays_to_prizes(client):
    night = make_night(client, EIGHT, prize_ties="shared")
    for _ in range(6):
        night.play_round()
    state = night.state()
    assert state["status"]["phase"] == "over"
    assert state["status"]["expects"] == []
    prizes = client.get(night.url("/prizes"), headers=night.viewer).json()
    assert prizes["phase"] == "over"
    assert {p["category"] for p in prizes["prizes"]} >= {"most_buncos", "most_wins"}
    standings = client.get(night.url("/standings"), headers=night.viewer).json()["standings"]
    assert all(r["wins"] + r["losses"] == 6 for r in standings)
    # shared ties: everyone with the most wins shares the prize
    most_wins = next(p for p in prizes["prizes"] if p["category"] == "most_wins")
    top = max(r["wins"] for r in standings)
    assert sorted(most_wins["winners"]) == sorted(
        r["player"] for r in standings if r["wins"] == top
    )
    late = night.roll(1, [1, 2, 3])
    assert late.status_code == 409 and late.json()["error"] == "round_over"
