"""Bots fill seats so two people play a 12-seat night; a restart rebuilds every night."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from web_helpers import EIGHT, bearer, cid, make_night

from bunco.web.app import create_app

TWELVE = [*EIGHT, "Ivy", "Jon", "Kim", "Lou"]


def test_two_people_and_ten_bots_play_a_whole_night(client):
    night = make_night(client, TWELVE, bots=TWELVE[2:])
    phones = {}
    for name in ("Ann", "Bea"):
        reply = client.post(night.url("/claim"), json={"name": name}, headers=night.viewer)
        phones[name] = bearer(reply.json()["token"])
    human_rolls = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = client.get(night.url(), headers=phones["Ann"]).json()
        status = state["status"]
        if status["phase"] == "over":
            break
        for name in phones:  # a new round: a person's table waits until they sit down
            table = next(
                (t["table"] for t in state["view"]["tables"] if name in t["players"]), None
            )
            if table in state["view"]["seating_waits"]:
                seated = client.post(
                    night.url(f"/tables/{table}/seated"),
                    json={"command_id": cid()},
                    headers=phones[name],
                )
                assert seated.status_code in (200, 409), seated.text
        humans = [e["player"] for e in status["expects"] if e["player"] in phones]
        if not humans:
            time.sleep(0.005)  # the bots are rolling
            continue
        for name in humans:
            reply = client.post(
                night.url("/me/roll"),
                json={"command_id": cid(), "roll_for_me": True},
                headers=phones[name],
            )
            assert reply.status_code in (200, 409), reply.text
            human_rolls += reply.status_code == 200
    report = client.get(night.url("/report"), headers=night.host).json()
    assert report["phase"] == "over"
    assert len(report["rounds"]) == 6
    for name in TWELVE:
        card = report["players"][name]
        assert card["wins"] + card["losses"] == 6, name
    assert human_rolls > 0
    events = client.get(night.url("/events"), headers=night.host).json()["events"]
    bot_rolls = [e for e in events[1:] if e["event"].get("player") in TWELVE[2:]]
    assert bot_rolls and all(e["command_id"].startswith("bot:") for e in bot_rolls)
    assert all(len(e["event"]["dice"]) == 3 for e in bot_rolls)
    assert len({e["command_id"] for e in bot_rolls}) == len(bot_rolls)


def test_a_restart_rebuilds_the_night_from_the_log(db_url):
    with TestClient(create_app(db_url, bot_pace=0)) as first:
        night = make_night(first)
        night.play_round()
        assert night.seat(1).status_code == 200  # the players moved: table 1 sits down
        night.roll(1, [1, 1, 4], command_id="before-restart")
        before = night.state()
        table1 = night.table_token(1)
    with TestClient(create_app(db_url, bot_pace=0)) as second:
        night.client = second
        after = night.state()
        assert after["seq"] == before["seq"]
        assert after["view"] == before["view"]
        assert after["versions"] == before["versions"]
        # a retry of a command acknowledged before the restart is not applied again
        retry = night.roll(1, [1, 1, 4], command_id="before-restart")
        assert retry.json()["duplicate"] is True and retry.json()["seq"] == before["seq"]
        # tokens survive too, and the night goes on
        go_on = night.roll(1, [2, 3, 5], headers=table1)
        assert go_on.status_code == 200 and go_on.json()["seq"] == before["seq"] + 1


def test_bots_resume_after_a_restart(db_url):
    with TestClient(create_app(db_url, bot_pace=60)) as first:  # too slow to finish
        night = make_night(first, ["Ann", "Bea", "Cat", "Dee"], bots=["Bea", "Cat", "Dee"])
        night.roll(1, [2, 3, 5])  # Ann misses: a bot's turn
    with TestClient(create_app(db_url, bot_pace=0)) as second:
        night.client = second
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            expects = night.state()["status"]["expects"]
            if expects and expects[0]["player"] == "Ann":
                break
            time.sleep(0.01)
        assert night.state()["status"]["expects"][0]["player"] == "Ann"
        assert night.seq() > 1


def test_a_log_that_no_longer_replays_is_a_clear_refusal(db_url):
    with TestClient(create_app(db_url)) as first:
        night = make_night(first)
        store = first.app.state.service.store  # type: ignore[attr-defined]
        # an event the engine refuses, written behind the server's back
        store.append(
            night.id,
            1,
            table=9,
            command_id="bad",
            event={"type": "roll", "table": 9, "dice": [1, 2, 3]},
        )
    with TestClient(create_app(db_url)) as second:
        reply = second.get(night.url(), headers=night.host)
        assert reply.status_code == 409
        assert reply.json()["error"] == "log_error"
        assert "event 1" in reply.json()["message"]
