"""Deleting through the server (SQLite, one process): the host deletes a night and every
token of it stops at once (its sockets closed with 4401), its queued commands and a write
that lands after the deletion are answered 404 (never 503), its bots and timer stop; the
organizer deletes a club (with its nights) and erases a member's personal data, which
the nights held in memory show at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_api_club import FOUR, make_club, play_night
from web_helpers import EIGHT, Night, bearer, cid, make_night

from bunco.store import EventStore, NightGone
from bunco.store.deletion import delete_nights
from bunco.web.decision.commands import RollForMe
from bunco.web.night.service import NightService
from bunco.web.values.replies import ServiceError


def _closed_with(ws: Any) -> tuple[dict[str, Any], int]:
    last: dict[str, Any] = {}
    try:
        while True:
            last = ws.receive_json()
    except WebSocketDisconnect as closed:
        return last, closed.code


def test_only_a_host_deletes_and_then_every_token_of_the_night_stops(client, night):
    phone = night.table_token(1)
    player = client.post(night.url("/claim"), json={"name": "Ann"}, headers=night.viewer).json()
    cohost = client.post(night.url("/cohosts"), json={}, headers=night.host).json()
    other = make_night(client)
    assert night.roll(1, [2, 3, 5], headers=phone).status_code == 200
    for refused in (night.viewer, phone, bearer(player["token"]), other.host):
        reply = client.delete(night.url(), headers=refused)
        assert reply.status_code == 403, reply.text
        assert reply.json()["error"] == "forbidden"
    with contextlib.ExitStack() as stack:
        socket = stack.enter_context(
            client.websocket_connect(night.url(f"/ws?token={night.created['viewer_token']}"))
        )
        assert socket.receive_json()["type"] == "hello"
        reply = client.delete(night.url(), headers=bearer(cohost["token"]))  # a co-host may
        assert reply.status_code == 200, reply.text
        done = reply.json()
        assert done["night"] == night.id and done["clubs"] == []
        assert done["deleted"]["nights"] == 1 and done["deleted"]["events"] == 2
        assert done["deleted"]["tokens"] == 2 + 2 * 2 + 3  # host, viewer, codes, joined
        last, code = _closed_with(socket)
        assert code == 4401 and last["error"] == "unauthorized"
    for token in (night.host, night.viewer, phone, bearer(player["token"])):
        assert client.get(night.url(), headers=token).status_code == 401
    assert night.roll(1, [2, 3, 5], headers=phone).status_code == 401
    code = night.created["tables"][1]["code"]
    assert client.post("/api/join", json={"code": code}).status_code == 404
    assert client.delete(night.url(), headers=night.host).status_code == 401  # once only
    assert other.roll(1, [2, 3, 5]).status_code == 200  # the other night goes on
    assert client.app.state.sockets.count(night.id) == 0  # type: ignore[attr-defined]


def test_a_write_after_a_deletion_elsewhere_is_404_and_the_night_is_let_go(client, night):
    night.roll(1, [2, 3, 5])  # held, and its host token cached
    store: EventStore = client.app.state.service.store  # type: ignore[attr-defined]
    delete_nights(store.engine, [night.id])  # as `bunco delete` does, beside the server
    reply = night.roll(1, [2, 3, 5])
    assert reply.status_code == 404, reply.text  # not 503 "busy" after 20 tries
    assert reply.json()["error"] == "no_such_night"
    assert night.id not in client.app.state.service.nights  # type: ignore[attr-defined]
    assert client.get(night.url(), headers=night.host).status_code == 401  # forgotten


def test_the_bots_and_the_round_timer_of_a_deleted_night_stop(client):
    night = make_night(client, EIGHT, bots=EIGHT[1:], house_rules={"round_minutes": 5})
    night.roll(1, [2, 3, 5])  # the round's clock runs; the bots roll for the others
    state = client.app.state  # type: ignore[attr-defined]
    assert night.id in state.bots._tasks and night.id in state.round_timer._tasks
    assert client.delete(night.url(), headers=night.host).status_code == 200
    assert night.id not in state.bots._tasks and night.id not in state.round_timer._tasks
    time.sleep(0.1)  # nothing rolls for it any more, and nothing failed
    assert night.id not in state.service.nights


@pytest.mark.parametrize("holding", [True, False])
def test_commands_waiting_for_a_deleted_night_get_404(tmp_path, holding):
    """The commands in the night's inbox when it is deleted, and the batch waiting for the
    night's lock (stored after the deletion), are each answered 404."""

    async def scene() -> list[Any]:
        store = EventStore(f"sqlite:///{tmp_path / 'n.sqlite3'}")
        store.upgrade()
        service = NightService(store)
        live, _secrets = await service.create(
            {"type": "party", "rules": "classic", "players": EIGHT},
            name="n",
            options={},
            key=None,
            request="r",
        )

        def roll(table: int) -> Any:
            return service.submit(
                live.id, RollForMe({"type": "roll", "table": table}), command_id=cid()
            )

        async with live.lock:  # the first batch waits for it: the rest stay in the inbox
            first = asyncio.ensure_future(roll(1))
            await asyncio.sleep(0)
            later = [asyncio.ensure_future(roll(t)) for t in (1, 2)]
            await asyncio.sleep(0)
            assert len(live.writing.inbox) == 2
            delete_nights(store.engine, [live.id])
            if holding:
                service.drop(live.id)
        replies = await asyncio.gather(first, *later, return_exceptions=True)
        await service.aclose()
        store.close()
        return replies

    replies = asyncio.run(scene())
    assert [r.status for r in replies] == [404, 404, 404]
    assert all(isinstance(r, ServiceError) and r.code == "no_such_night" for r in replies)


def test_a_store_write_to_a_deleted_night_is_night_gone(tmp_path):
    store = EventStore(f"sqlite:///{tmp_path / 'n.sqlite3'}")
    store.upgrade()
    store.create_night("n1", "N", {"type": "party", "rules": "classic", "players": FOUR})
    delete_nights(store.engine, ["n1"])
    with pytest.raises(NightGone):
        store.append("n1", 1, table=1, command_id="c", event={"type": "roll", "table": 1})
    store.close()


def test_the_organizer_deletes_a_club_with_its_nights(client):
    club, token = make_club(client)
    kept = make_club(client, name="Other club")
    played = play_night(client, club, token, date="2026-01-13")
    share = client.post(f"/api/clubs/{club}/shares", json={"night": played.id}, headers=token)
    reply = client.delete(f"/api/clubs/{club}", headers=bearer(share.json()["token"]))
    assert reply.status_code == 403 and reply.json()["error"] == "read_only"
    assert client.delete(f"/api/clubs/{club}", headers=played.host).status_code == 401
    reply = client.delete(f"/api/clubs/{club}?nights=true", headers=token)
    assert reply.status_code == 200, reply.text
    done = reply.json()
    assert done["nights"] == [played.id] and done["kept_nights"] == []
    assert done["deleted"]["clubs"] == 1 and done["deleted"]["nights"] == 1
    assert client.get(f"/api/clubs/{club}", headers=token).status_code == 404
    assert client.get(played.url(), headers=played.host).status_code == 401
    assert client.delete(f"/api/clubs/{club}", headers=token).status_code == 404
    assert client.get(f"/api/clubs/{kept[0]}", headers=kept[1]).status_code == 200


def test_a_club_deleted_without_its_nights_keeps_them(client):
    club, token = make_club(client)
    played = play_night(client, club, token, date="2026-01-13")
    reply = client.delete(f"/api/clubs/{club}", headers=token)
    assert reply.status_code == 200, reply.text
    assert reply.json()["nights"] == [] and reply.json()["kept_nights"] == [played.id]
    assert client.get(played.url(), headers=played.host).status_code == 200


def test_erasing_a_member_shows_at_once_in_the_nights_held(client):
    club, token = make_club(client)
    client.post(
        f"/api/clubs/{club}/members",
        json={"name": "Ann", "role": "regular", "email": "ann@example.org"},
        headers=token,
    )
    played: Night = play_night(client, club, token, date="2026-01-13")
    assert "Ann" in played.state()["setup"]["players"]  # held in memory
    assert client.delete(f"/api/clubs/{club}/members/Nobody", headers=token).status_code == 404
    reply = client.delete(f"/api/clubs/{club}/members/ann", headers=token)
    assert reply.status_code == 200, reply.text
    done = reply.json()
    assert (done["name"], done["replacement"], done["nights"]) == (
        "Ann",
        "Former member 1",
        [played.id],
    )
    players = played.state()["setup"]["players"]
    assert "Ann" not in players and "Former member 1" in players
    standings = client.get(played.url("/standings"), headers=played.host).json()
    assert "Former member 1" in {row["player"] for row in standings["standings"]}
    view = client.get(f"/api/clubs/{club}", headers=token).json()
    assert "Ann" not in view["regulars"] and "Former member 1" in view["regulars"]
    assert "ann@example.org" not in str(view)


def test_erasing_under_a_name_in_use_is_refused_and_changes_nothing(client):
    club, token = make_club(client)
    reply = client.delete(f"/api/clubs/{club}/members/Ann?as=Bea", headers=token)
    assert reply.status_code == 422, reply.text
    assert "already use" in reply.json()["message"]
    assert "Ann" in client.get(f"/api/clubs/{club}", headers=token).json()["regulars"]


def test_a_deleted_night_id_in_use_by_no_night_is_404_for_the_creator_too(db_url):
    with TestClient(create_app_for(db_url)) as first:
        night = make_night(first)
        assert first.delete(night.url(), headers=night.host).status_code == 200
    with TestClient(create_app_for(db_url)) as second:  # after a restart: nothing of it
        assert second.get(night.url(), headers=night.host).status_code == 401


def create_app_for(db_url: str) -> Any:
    from bunco.web.app import create_app

    return create_app(db_url, bot_pace=0)
