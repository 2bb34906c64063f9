"""A player checks themselves in at the door from their own phone: they scanned the
night's player QR, picked their name, and tap "I'm here" (docs/room.md). Only their own
name; the host's list follows through a ``checkin`` message."""

from __future__ import annotations

from test_ws import receive, until_caught_up, ws_url
from web_helpers import bearer, cid


def claim(client, night, name: str) -> dict[str, str]:
    reply = client.post(night.url("/claim"), json={"name": name}, headers=night.viewer)
    assert reply.status_code == 200, reply.text
    return bearer(reply.json()["token"])


def test_a_player_checks_in_from_their_own_phone(client, night) -> None:
    ann = claim(client, night, "Ann")
    mine = client.get(night.url("/checkin/me"), headers=ann).json()
    door = mine.pop("door_url")  # the player's door card (tests/web/test_door_cards.py)
    assert door.startswith(f"http://testserver/n/{night.id}/door/")
    assert mine == {
        "night": night.id,
        "player": "Ann",
        "open": True,
        "seated": True,
        "here": False,
        "at": None,
    }
    with client.websocket_connect(ws_url(night, night.created["host_token"])) as ws:
        until_caught_up(ws)
        reply = client.post(
            night.url("/checkin"), headers=ann, json={"command_id": cid(), "player": "ann"}
        )
        assert reply.status_code == 200, reply.text
        body = reply.json()
        assert body["here"] == 1 and [p["player"] for p in body["players"]] == ["Ann"]
        news = receive(ws)  # the host's page hears it and reads its list again
        assert news["type"] == "checkin" and news["here"] == 1 and news["missing"] == 7
    door = client.get(night.url("/checkin"), headers=night.host).json()
    assert [p["player"] for p in door["players"] if p["here"]] == ["Ann"]
    mine = client.get(night.url("/checkin/me"), headers=ann).json()
    assert mine["here"] is True and mine["at"] == door["players"][0]["at"]


def test_a_player_checks_in_nobody_else_and_not_once_play_began(client, night) -> None:
    ann = claim(client, night, "Ann")
    other = client.post(
        night.url("/checkin"), headers=ann, json={"command_id": cid(), "player": "Bea"}
    )
    assert other.status_code == 403 and other.json()["error"] == "forbidden"
    assert "Ann" in other.json()["expected"]
    assert client.get(night.url("/checkin"), headers=ann).status_code == 403  # the list
    assert client.get(night.url("/checkin/me"), headers=night.viewer).status_code == 403
    assert client.get(night.url("/checkin/me"), headers=night.host).status_code == 403
    assert night.roll(1, [2, 3, 5]).status_code == 200
    late = client.post(
        night.url("/checkin"), headers=ann, json={"command_id": cid(), "player": "Ann"}
    )
    assert late.status_code == 409 and late.json()["error"] == "too_late"
    assert client.get(night.url("/checkin/me"), headers=ann).json()["open"] is False
