"""The server pushes what a table's phone draws: at a new round the ``table`` message
carries the table's page (its result, where its players go, their cards), the hello of
a table follower carries it too, and ``GET /tables/{n}`` serves it in a few kilobytes:
no phone needs the whole night's view."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from test_group_commit import roll, with_night
from test_ws import receive, until_caught_up, ws_url
from web_helpers import cid, make_night

from bunco.party import view as views
from bunco.store import EventStore
from bunco.web.night import page_cache


def page_of(night, table: int) -> dict[str, Any]:
    reply = night.client.get(night.url(f"/tables/{table}"), headers=night.host)
    assert reply.status_code == 200, reply.text
    return reply.json()


def same_page_as_the_whole_view(page: dict[str, Any], whole: dict[str, Any], n: int) -> None:
    """A table's page says what the whole night's view says about that table."""
    view, full = page["view"], whole["view"]
    for key in (
        "phase",
        "set",
        "round",
        "sets",
        "bell",
        "bell_roll",
        "started",
        "rolloff",
        "prizes",
        "set_winners",
        "on_break",
        "ended_early",
    ):
        assert view[key] == full[key], key
    assert view["table"] == (full["tables"][n - 1] if n <= len(full["tables"]) else None)
    here = [
        m
        for m in full["moves"]
        if (m["from"] or {}).get("table") == n or (m["to"] or {}).get("table") == n
    ]
    assert view["moves"] == here
    assert view["expects"] == [e for e in full["expects"] if e["table"] in (None, n)]
    if full["last_round"] is None:
        assert view["last_round"] is None
    else:
        assert view["last_round"]["tables"] == [
            t for t in full["last_round"]["tables"] if t["table"] == n
        ]
        assert view["last_round"]["ended_by"] == full["last_round"]["ended_by"]
    seated = {p for p in (view["table"] or {}).get("players", []) if p}
    assert set(view["cards"]) == {m["player"] for m in here} | seated
    assert view["cards"] == {p: full["players"][p] for p in view["cards"]}
    assert page["versions"] == {
        k: v for k, v in whole["versions"].items() if k in ("night", "rolloff", str(n))
    }
    assert page["seq"] == whole["seq"] and page["setup"] == whole["setup"]


def test_a_tables_page_is_the_whole_view_cut_to_that_table(client):
    night = make_night(client, players=[f"P{i:02d}" for i in range(1, 17)])  # 4 tables
    night.roll(2, [2, 2, 5])
    for n in (1, 2, 4):
        same_page_as_the_whole_view(page_of(night, n), night.state(), n)
    night.play_round()
    whole = night.state()
    assert whole["view"]["round"] == 2 and whole["view"]["moves"]
    for n in (1, 2, 3, 4):
        page = page_of(night, n)
        same_page_as_the_whole_view(page, whole, n)
        assert page["view"]["last_round"]["tables"][0]["table"] == n
        assert len(page["view"]["moves"]) >= 4  # the four who played here, and who comes
    small, big = (
        len(client.get(night.url("/tables/3"), headers=night.host).content),
        len(client.get(night.url(), headers=night.host).content),
    )
    assert small < big / 2


def test_a_table_that_is_not_there(client, night):
    missing = client.get(night.url("/tables/3"), headers=night.host)
    assert missing.status_code == 404 and missing.json()["error"] == "no_such_table"
    assert "1 to 2" in missing.json()["expected"]
    assert client.get(night.url("/tables/0"), headers=night.host).status_code == 422
    assert client.get(night.url("/tables/1")).status_code == 401


def test_the_round_change_pushes_each_tables_page(client, night):
    token = night.created["host_token"]
    with client.websocket_connect(ws_url(night, token, table=2)) as ws:
        hello, _ = until_caught_up(ws)
        first = page_of(night, 2)
        assert hello["view"] == {k: v for k, v in first["view"].items() if k != "table"}
        assert hello["table_view"] == first["view"]["table"]
        assert hello["versions"] == first["versions"]
        # its status leaves out who may roll at every table (the page's expects say it)
        assert "expects" not in hello["status"] and "expects" not in first["status"]
        assert first["view"]["expects"] == [{"table": 2, "player": "Eve"}]
        night.play_round()
        pushed = []
        while not pushed or pushed[-1]["view"]["round"] == 1:  # start, bell, round 2
            message = receive(ws)
            if message["type"] == "table":
                assert message["table"] == 2  # a table's follower gets its own table's
                pushed.append(message)
        start, bell, pushed = pushed[0], pushed[1], pushed[-1]
        assert start["view"]["started"] and not start["view"]["bell"]  # the first roll
        assert bell["view"]["bell"] and bell["view"]["bell_roll"]["table"] == 1
        page = page_of(night, 2)
        assert pushed["seq"] == page["seq"]
        assert pushed["table_view"] == page["view"]["table"]
        assert pushed["view"] == {k: v for k, v in page["view"].items() if k != "table"}
        assert pushed["view"]["round"] == 2 and pushed["view"]["last_round"]["round"] == 1
        players = {m["player"] for m in pushed["view"]["moves"]}
        assert {"Eve", "Fay", "Gus", "Hal"} <= players  # round 1's players here


def until_pong(ws) -> list[str]:
    """The types of the messages before the answer to a ping."""
    ws.send_text('{"type":"ping"}')
    kinds = []
    while (kind := receive(ws)["type"]) != "pong":
        kinds.append(kind)
    return kinds


def test_a_page_is_pushed_again_only_when_it_changed(client, night):
    token = night.created["viewer_token"]
    night.play_round()
    with client.websocket_connect(ws_url(night, token)) as ws:  # every table's messages
        until_caught_up(ws)
        # a late arrival between rounds: the seating changes, so the tables' pages do
        reply = client.post(
            night.url("/arrivals"), json={"command_id": cid(), "player": "Ivy"}, headers=night.host
        )
        assert reply.status_code == 200, reply.text
        kinds = until_pong(ws)
        assert kinds[:2] == ["event", "status"] and "table" in kinds
        # someone gone home changes nothing a table's phone draws: no table message
        reply = client.post(
            night.url("/presence"),
            json={"command_id": cid(), "player": "Ann", "present": False},
            headers=night.host,
        )
        assert reply.status_code == 200, reply.text
        assert until_pong(ws) == ["event", "status"]


def test_the_nights_view_is_built_once_per_seq_off_the_event_loop(tmp_path, monkeypatch):
    builds: list[str] = []

    def recording(night):
        builds.append(threading.current_thread().name)
        return views.live_view(night)

    monkeypatch.setattr(page_cache, "live_view", recording)

    async def scenario(svc, night):
        live = await svc.get(night)
        first, again = await asyncio.gather(live.view_json(), live.view_json())
        assert first is again and len(builds) == 1  # GETs at one seq share one build
        await svc.submit(night, roll(1, 0), command_id="c0")
        after = await live.view_json()
        assert len(builds) == 2 and json.loads(after) == views.live_view(live.night)
        assert threading.current_thread().name not in builds  # never on the event loop

    with_night(EventStore(f"sqlite:///{tmp_path / 'night.sqlite3'}"), scenario)
