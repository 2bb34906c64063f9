"""A player's phone keeps one WebSocket all night (``?player=NAME``): the server sends it
the page of whatever table its player sits at, and moves it to the next table at a new
round, in order, without a new connection."""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import quote

from test_ws import MISS, receive, until_caught_up, ws_url
from web_helpers import EIGHT, make_night


def player_url(night, token: str, name: str, **params: Any) -> str:
    return ws_url(night, token, player=quote(name, safe=""), **params)


def until_page(ws, seq: int) -> list[dict[str, Any]]:
    """The messages up to the first ``table`` message at ``seq`` or later (included)."""
    out = []
    while True:
        message = receive(ws)
        out.append(message)
        if message["type"] == "table" and message["seq"] >= seq:
            return out


def where(night, name: str) -> int:
    card = night.client.get(
        night.url(f"/players/{quote(name, safe='')}/card"), headers=night.viewer
    )
    assert card.status_code == 200, card.text
    table: int = card.json()["table"]
    return table


def page_of(night, table: int) -> dict[str, Any]:
    reply = night.client.get(night.url(f"/tables/{table}"), headers=night.viewer)
    assert reply.status_code == 200, reply.text
    page: dict[str, Any] = reply.json()
    return page


def test_the_hello_carries_the_page_of_the_players_table(client, night):
    token = night.created["viewer_token"]
    table = where(night, "Fay")
    with client.websocket_connect(player_url(night, token, "fay")) as ws:  # case ignored
        hello, _ = until_caught_up(ws)
        assert hello["player"] == "Fay" and hello["table"] == table
        assert "expects" not in hello["status"]
        page = page_of(night, table)
        assert hello["table_view"] == page["view"]["table"]
        assert hello["view"]["moves"] == page["view"]["moves"]
        assert hello["versions"] == page["versions"]


def test_every_players_socket_follows_them_to_the_next_round_on_the_same_socket(client, night):
    token = night.created["viewer_token"]
    before = {name: where(night, name) for name in EIGHT}
    with contextlib.ExitStack() as stack:
        sockets = {
            name: stack.enter_context(client.websocket_connect(player_url(night, token, name)))
            for name in EIGHT
        }
        for name, ws in sockets.items():
            hello, _ = until_caught_up(ws)
            assert hello["table"] == before[name]
        night.play_round()
        changed = night.seq()
        after = {name: where(night, name) for name in EIGHT}
        assert after != before  # somebody moved
        pages = {t: page_of(night, t) for t in set(after.values())}
        for name, ws in sockets.items():
            heard = until_page(ws, changed)
            events = [m for m in heard if m["type"] == "event"]
            # every event of the player's first table, in order, and of no other table
            assert [m["seq"] for m in events] == sorted({m["seq"] for m in events})
            assert {m["table"] for m in events} == {before[name]}
            assert events[-1]["seq"] <= changed
            page = heard[-1]
            assert page["seq"] == changed and page["table"] == after[name], name
            assert page["table_view"] == pages[after[name]]["view"]["table"]
            assert page["view"]["moves"] == pages[after[name]]["view"]["moves"]
            # the pages before (the round started, the bell) are of the first table only
            assert {m["table"] for m in heard[:-1] if m["type"] == "table"} <= {before[name]}
            assert all(m["seq"] < changed for m in heard[:-1] if m["type"] == "table")
        # the next rolls: each socket hears its new table only
        moved = next(name for name in EIGHT if after[name] != before[name])
        old, new = before[moved], after[moved]
        for table in (old, new):  # the players moved: each table confirms its new seating
            assert night.seat(table).status_code == 200
        until_page(sockets[moved], night.seq())  # its table's page, the seating confirmed
        assert night.roll(old, MISS).status_code == 200
        reply = night.roll(new, MISS)
        assert reply.status_code == 200
        message = receive(sockets[moved])
        while message["type"] != "event":  # the round started: its status and page
            assert message["type"] in ("status", "table") and message.get("table") in (None, new)
            message = receive(sockets[moved])
        assert message["seq"] == reply.json()["seq"] and message["table"] == new


def test_a_reconnect_lands_at_the_players_new_table(client, night):
    token = night.created["viewer_token"]
    night.play_round()
    seq = night.seq()
    for name in EIGHT:
        with client.websocket_connect(player_url(night, token, name, since=seq)) as ws:
            hello, backlog = until_caught_up(ws)
            assert hello["table"] == where(night, name) and backlog == []
            assert hello["view"]["round"] == 2


def test_a_name_with_a_slash_and_wrong_requests(client):
    night = make_night(client, ["A/B", "Bea", "Cat", "Dee"])
    token = night.created["viewer_token"]
    with client.websocket_connect(player_url(night, token, "A/B")) as ws:
        hello, _ = until_caught_up(ws)
        assert hello["player"] == "A/B" and hello["table"] == 1
        night.roll(1, [1, 1, 4])
        assert receive(ws)["table"] == 1
    for params, code, error in (
        ({"player": "Zed"}, 4404, "no_such_player"),
        ({"player": "Bea", "table": 1}, 4422, "invalid_request"),
    ):
        with client.websocket_connect(ws_url(night, token, **params)) as ws:
            refusal = receive(ws)
            assert refusal["type"] == "error" and refusal["error"] == error
            closed = ws.receive()
            assert closed["code"] == code


def test_the_page_goes_only_to_the_sockets_that_moved(client):
    """A player sitting out (a substitute takes the seat) is told ``table: null`` and then
    hears only the night's messages; the one who comes in gets the table's page."""
    night = make_night(client, EIGHT)
    token = night.created["viewer_token"]
    night.play_round()
    seat = where(night, "Ann")
    with contextlib.ExitStack() as stack:
        ann = stack.enter_context(client.websocket_connect(player_url(night, token, "Ann")))
        until_caught_up(ann)
        reply = client.post(
            night.url("/substitutes"),
            json={"command_id": "sub-1", "out": "Ann", "in": "Ivy"},
            headers=night.host,
        )
        assert reply.status_code == 200, reply.text
        swapped = reply.json()["seq"]
        heard = until_page(ann, swapped)
        assert heard[-1] == {"type": "table", "seq": swapped, "table": None}
        with client.websocket_connect(player_url(night, token, "Ivy")) as ivy:
            hello, _ = until_caught_up(ivy)
            assert hello["table"] == seat and "Ivy" in hello["table_view"]["players"]
        assert night.seat(seat).status_code == 200  # Ann's old table sits down: not for her
        assert receive(ann)["type"] == "status"
        assert night.roll(seat, MISS).status_code == 200  # nor its roll
        assert (
            client.post(
                night.url("/presence"),
                json={"command_id": "gone", "player": "Ann", "present": False},
                headers=night.host,
            ).status_code
            == 200
        )
        heard = [receive(ann)]
        while heard[-1]["type"] != "event":
            heard.append(receive(ann))
        assert [m["type"] for m in heard[:-1]] == ["status"]  # the round started
        assert heard[-1]["table"] is None and heard[-1]["event"]["type"] == "absent"
