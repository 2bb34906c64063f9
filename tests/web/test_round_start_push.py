"""A round starts with its first roll at any table: every other table's phone hears it
(a status message with ``started``, then its table's page), so the head table's "Ring the
bell" goes away and the last round's results stop being news there, without a reload."""

from __future__ import annotations

from test_ws import receive, until_caught_up, ws_url


def test_the_first_roll_at_table_two_tells_table_one_the_round_started(client, night):
    night.play_round()
    for table in (1, 2):  # the players moved: each table confirms its new seating
        assert night.seat(table).status_code == 200
    assert night.state()["view"]["started"] is False
    token = night.created["host_token"]
    with client.websocket_connect(ws_url(night, token, table=1)) as ws:
        until_caught_up(ws)
        assert night.roll(2, [2, 3, 4]).status_code == 200  # table 2's first roll
        assert night.roll(2, [2, 3, 4]).status_code == 200  # later rolls: nothing new
        assert night.roll(1, [2, 3, 4]).status_code == 200  # then table 1's own
        message = receive(ws)
        assert message["type"] == "status"
        assert message["status"]["round"] == 2 and message["status"]["started"] is True
        assert "expects" not in message["status"]
        page = receive(ws)  # and table 1's page, pushed: the round under way
        assert page["type"] == "table" and page["table"] == 1
        assert page["view"]["started"] is True and page["view"]["round"] == 2
        following = receive(ws)
        assert following["type"] == "event" and following["table"] == 1
