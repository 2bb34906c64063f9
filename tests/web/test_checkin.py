"""The door check-in (docs/room.md): the host marks who arrived before round 1; the list
closes with the first roll; a no-show's seat goes to a ghost through a departure."""

from __future__ import annotations

from web_helpers import cid


def test_the_host_checks_players_in_before_round_1(client, night):
    door = client.get(night.url("/checkin"), headers=night.host).json()
    assert door["open"] is True and door["here"] == 0 and door["missing"] == 8
    assert [(p["player"], p["table"], p["seat"]) for p in door["players"][:2]] == [
        ("Ann", 1, 1),
        ("Bea", 1, 2),
    ]
    ann = client.post(
        night.url("/checkin"), headers=night.host, json={"command_id": cid(), "player": "Ann"}
    ).json()
    assert ann["here"] == 1 and ann["players"][0]["here"] is True and ann["players"][0]["at"]
    again = client.post(
        night.url("/checkin"), headers=night.host, json={"command_id": cid(), "player": "Ann"}
    ).json()
    assert again["players"][0]["at"] == ann["players"][0]["at"]  # the first mark's time
    back = client.post(
        night.url("/checkin"),
        headers=night.host,
        json={"command_id": cid(), "player": "Ann", "here": False},
    ).json()
    assert back["here"] == 0
    # a no-show's seat goes to a ghost: they leave the list, their table plays with a ghost
    gone = client.post(
        night.url("/departures"), headers=night.host, json={"command_id": cid(), "player": "Hal"}
    )
    assert gone.status_code == 200, gone.text
    door = client.get(night.url("/checkin"), headers=night.host).json()
    assert "Hal" not in [p["player"] for p in door["players"]] and door["missing"] == 7
    assert door["open"] is True  # nothing scored yet


def test_the_door_list_is_the_hosts_and_closes_with_the_first_roll(client, night):
    assert client.get(night.url("/checkin"), headers=night.viewer).status_code == 403
    mark = client.post(
        night.url("/checkin"),
        headers=night.table_token(1),
        json={"command_id": cid(), "player": "Ann"},
    )
    assert mark.status_code == 403
    nobody = client.post(
        night.url("/checkin"), headers=night.host, json={"command_id": cid(), "player": "Zed"}
    )
    assert nobody.status_code == 404 and nobody.json()["error"] == "no_such_player"
    assert (
        client.post(
            night.url("/checkin"), headers=night.host, json={"command_id": cid(), "player": ""}
        ).status_code
        == 422
    )
    assert night.roll(1, [2, 3, 5]).status_code == 200
    door = client.get(night.url("/checkin"), headers=night.host).json()
    assert door["open"] is False
    late = client.post(
        night.url("/checkin"), headers=night.host, json={"command_id": cid(), "player": "Ann"}
    )
    assert late.status_code == 409 and late.json()["error"] == "too_late"
    assert "arrivals" in late.json()["expected"]
