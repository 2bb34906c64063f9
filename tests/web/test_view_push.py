"""The server says what the pages would otherwise work out: the tallies possible now, who
rolls turn after turn, the moves after a round; and each live message carries the table's
view, the night's status and what the entry scored, so a table's phone need not reload."""

from __future__ import annotations

from test_ws import receive, until_caught_up, ws_url
from web_helpers import make_night


def test_the_view_names_the_tallies_possible_and_the_rotation(client, night):
    table = night.state()["view"]["tables"][0]
    assert table["tallies"] == ["miss", "+1", "+2", "bunco", "mini"]
    assert table["rotation"] == ["Ann", "Bea", "Cat", "Dee"]
    assert table["rolling_side"] == 0  # Ann and Cat ("Us") roll
    night.roll(1, [2, 3, 5])  # Ann misses: Bea rolls next
    after = night.state()["view"]["tables"][0]
    assert after["rotation"] == ["Bea", "Cat", "Dee", "Ann"] and after["rolling_side"] == 1
    wm = make_night(client, rules="winning-moves", house_rules={"wipeout": True})
    first = wm.state()["view"]["tables"][0]
    # round 1: nothing is below 1 (no Low Bunco), and a wipeout needs a later round
    assert first["tallies"] == ["miss", "+1", "+2", "bunco", "high"]
    scil = make_night(client, rules="scil")
    rolling_for_high = scil.state()["view"]["tables"][0]
    assert rolling_for_high["status"] == "first_roll" and rolling_for_high["tallies"] == []
    assert rolling_for_high["rotation"] == []
    alone = make_night(client, players=["Ann", "Bea", "Cat"])  # one table of individuals
    alone.roll(1, [2, 3, 5])
    assert alone.state()["view"]["tables"][0]["rolling_side"] == 1  # Bea's own seat


def test_the_moves_after_a_round_come_from_the_server(client, night):
    assert night.state()["view"]["moves"] == []
    night.play_round()
    view = night.state()["view"]
    last = view["last_round"]["tables"]
    moves = {m["player"]: m for m in view["moves"]}
    assert set(moves) == set(night.state()["setup"]["players"])
    for t in last:
        for seat, name in enumerate(t["players"], start=1):
            assert moves[name]["from"] == {"table": t["table"], "seat": seat}
            assert moves[name]["result"] == ("W" if name in t["winners"] else "L")
    for i, players in enumerate(view["next"]["tables"], start=1):
        for seat, name in enumerate(players, start=1):
            assert moves[name]["to"] == {"table": i, "seat": seat}


def test_every_live_event_carries_the_table_the_status_and_the_entry(client, night):
    token = night.created["host_token"]
    with client.websocket_connect(ws_url(night, token, table=1)) as ws:
        until_caught_up(ws)
        night.roll(1, [1, 1, 4])
        message = receive(ws)
        assert message["table_view"]["team_scores"] == [2, 0]
        assert message["status"] == {
            "phase": "playing",
            "set": 1,
            "round": 1,
            "bell": False,
            "started": True,
            "bell_roll": None,
            "traveler": None,
            "last_bunco": None,
            "round_version": 0,
        }
        assert message["entry"] == {
            "table": 1,
            "player": "Ann",
            "credited": "Ann",
            "dice": [1, 1, 4],
            "points": 2,
            "kind": "points",
            "phase": "play",
        }


def test_a_nights_dice_mode(client, night):
    assert night.state()["dice"] == "real"  # the party default
    online = make_night(client, dice="phones")
    assert online.state()["dice"] == "phones"
    changed = client.put(night.url("/dice"), json={"dice": "phones"}, headers=night.host)
    assert changed.status_code == 200 and night.state()["dice"] == "phones"
    assert (
        client.put(night.url("/dice"), json={"dice": "loaded"}, headers=night.host).status_code
        == 422
    )
    assert (
        client.put(night.url("/dice"), json={"dice": "real"}, headers=night.viewer).status_code
        == 403
    )


def test_a_dice_mode_change_is_pushed_to_the_tables(client, night):
    token = night.created["host_token"]
    with client.websocket_connect(ws_url(night, token, table=1)) as ws:
        hello, _ = until_caught_up(ws)
        assert hello["status"]["dice"] == "real"
        client.put(night.url("/dice"), json={"dice": "phones"}, headers=night.host)
        message = receive(ws)
        assert message["type"] == "status" and message["status"]["dice"] == "phones"
        assert message["status"]["round"] == 1 and "expects" not in message["status"]
    with client.websocket_connect(ws_url(night, token)) as ws:  # the whole night's followers
        hello, _ = until_caught_up(ws)
        assert hello["status"]["dice"] == "phones"
        client.put(night.url("/dice"), json={"dice": "real"}, headers=night.host)
        message = receive(ws)
        assert message["status"]["dice"] == "real" and "expects" in message["status"]
