"""No round starts at a table whose players have not moved: from the night's second round
on, a table's entries wait until its new seating is confirmed (``POST .../seated``) or the
head table's bell begins the round everywhere; an entry tapped too early is refused with a
plain message (409 ``not_seated``) and recorded, sent again once the round has begun there,
in that round only (bunco.core.seating_confirm)."""

from __future__ import annotations

from typing import Any

from web_helpers import Night, cid, make_night

TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def round_two(client: Any) -> Night:
    """A night of three tables whose round 1 is played (the players are moving)."""
    night = make_night(client, TWELVE)
    night.play_round()
    status = night.state()["status"]
    assert (status["round"], status["phase"]) == (2, "playing")
    return night


def seated(night: Night, table: int, headers: dict[str, str] | None = None, **body: Any) -> Any:
    payload = {"command_id": body.pop("command_id", cid()), **body}
    return night.client.post(
        night.url(f"/tables/{table}/seated"), json=payload, headers=headers or night.host
    )


def table_view(night: Night, table: int) -> dict[str, Any]:
    reply = night.client.get(night.url(f"/tables/{table}"), headers=night.host)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_round_one_needs_no_confirmation(client):
    night = make_night(client, TWELVE)
    assert table_view(night, 3)["view"]["seating_waits"] == []
    assert night.roll(3, [1, 2, 3]).status_code == 200
    refused = seated(night, 2)
    assert refused.status_code == 409
    assert refused.json()["error"] == "not_allowed_now"
    assert "nobody moves before this round" in refused.json()["message"]


def test_an_entry_before_the_seating_is_confirmed_is_refused_in_plain_words(client):
    night = round_two(client)
    seq = night.seq()
    table = night.table_token(3)
    refused = night.roll(3, outcome="miss", headers=table)
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "not_seated"
    assert body["message"] == (
        "Table 3's new seating is not confirmed yet: everyone sits at their new seat, "
        "then tap 'Everyone is seated'"
    )
    assert night.seq() == seq  # nothing recorded
    assert night.state()["view"]["seating_waits"] == [1, 2, 3]
    assert table_view(night, 3)["view"]["seating_waits"] == [3]  # a table's page: its own
    # a roll for me, and the host's own entry, wait as well
    assert night.roll(3).json()["error"] == "not_seated"
    confirmed = seated(night, 3, table)
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["event"] == {"type": "seated", "table": 3}
    view = night.state()["view"]
    assert view["seating_waits"] == [1, 2]
    assert view["seating_confirmed"] == [3]
    assert table_view(night, 3)["view"]["seating_waits"] == []
    accepted = night.roll(3, outcome="miss", headers=table)
    assert accepted.status_code == 200, accepted.text
    # the other tables still wait: their players have not confirmed
    assert night.roll(1, outcome="miss").json()["error"] == "not_seated"


def test_the_head_tables_bell_begins_the_round_everywhere(client):
    night = round_two(client)
    bell = night.client.post(
        night.url("/start"), json={"command_id": cid()}, headers=night.table_token(1)
    )
    assert bell.status_code == 200, bell.text
    assert night.state()["view"]["seating_waits"] == []
    for table in (1, 2, 3):
        reply = night.roll(table, outcome="miss")
        assert reply.status_code == 200, reply.text
    late = seated(night, 2)
    assert late.status_code == 409
    assert "has no new seating to confirm" in late.json()["message"]


def test_a_table_confirms_its_own_seating_only(client):
    night = round_two(client)
    refused = seated(night, 2, night.table_token(3))
    assert refused.status_code == 403
    assert "this phone scores table 3, not table 2" in refused.json()["message"]


def test_a_confirmation_retried_is_applied_once(client):
    night = round_two(client)
    first = seated(night, 2, command_id="seat-2")
    again = seated(night, 2, command_id="seat-2")
    assert first.status_code == again.status_code == 200
    assert again.json()["duplicate"] is True
    assert again.json()["seq"] == first.json()["seq"]
    assert [e["type"] for e in night.log()].count("seated") == 1
    # a second phone's own confirmation: the round has begun there already
    other = seated(night, 2)
    assert other.status_code == 409
    assert other.json()["message"] == "round 2 has already begun at table 2"


def test_a_reseating_drops_the_confirmation_of_a_table_whose_seats_changed(client):
    night = round_two(client)
    assert seated(night, 3).status_code == 200
    assert seated(night, 1).status_code == 200
    seating = [t["players"] for t in night.state()["view"]["tables"]]
    seating[2][0], seating[1][0] = seating[1][0], seating[2][0]  # swap a player of 2 and 3
    moved = night.client.post(
        night.url("/seating"), json={"command_id": cid(), "tables": seating}, headers=night.host
    )
    assert moved.status_code == 200, moved.text
    view = night.state()["view"]
    assert view["seating_confirmed"] == [1]  # table 1's seats did not change
    assert view["seating_waits"] == [2, 3]
    refused = night.roll(3, outcome="miss")
    assert refused.status_code == 409
    assert refused.json()["error"] == "seating_changed"
    assert "tap 'Everyone is seated' again" in refused.json()["message"]
    assert seated(night, 3).status_code == 200
    assert night.roll(3, outcome="miss").status_code == 200
    assert night.roll(1, outcome="miss").status_code == 200


def test_an_entry_held_too_early_is_recorded_in_round_two_after_the_confirmation(client):
    night = round_two(client)
    table = night.table_token(2)
    before = night.state()
    page = table_view(night, 2)
    view = page["view"]
    based_on = max(page["versions"]["night"], page["versions"].get("2", 0))
    tapped = {
        "set": 1,
        "round": 2,
        "table": 2,
        "roller": view["table"]["roller"],
        "based_on": based_on,
        "stage": view["table"]["status"],
        "at": "2026-11-27T20:00:00.000Z",
    }
    held = {"command_id": "held-1", "outcome": "+1", "tapped": tapped, "expected_seq": based_on}
    early = night.client.post(night.url("/tables/2/rolls"), json=held, headers=table)
    assert early.status_code == 409
    assert early.json()["error"] == "not_seated"
    assert not [e for e in night.log() if e["type"] in ("roll", "tally") and e.get("id")]
    confirmed = seated(night, 2, table)
    assert confirmed.status_code == 200
    # the phone sends what it held, based on the table as it is now (only the
    # confirmation came since): recorded in round 2, at the roller it was tapped for
    again = {**held, "tapped": {**tapped, "based_on": confirmed.json()["seq"]}}
    again["expected_seq"] = confirmed.json()["seq"]
    sent = night.client.post(night.url("/tables/2/rolls"), json=again, headers=table)
    assert sent.status_code == 200, sent.text
    stored = night.log()[-1]
    assert (stored["type"], stored["table"], stored["outcome"]) == ("tally", 2, "+1")
    assert "player" not in stored  # the roller it was tapped for is checked, not written
    state = night.state()
    assert (state["status"]["set"], state["status"]["round"]) == (1, 2)
    here = state["view"]["tables"][1]
    assert (here["rolls"], here["last_roll"]["player"]) == (1, tapped["roller"])
    assert state["view"]["last_round"] == before["view"]["last_round"]  # round 1 as it was


def test_an_entry_of_round_one_never_lands_in_round_two(client):
    night = make_night(client, TWELVE)
    page = table_view(night, 2)
    tapped = {
        "set": 1,
        "round": 1,
        "table": 2,
        "roller": page["view"]["table"]["roller"],
        "based_on": 0,
        "stage": "playing",
        "at": "2026-11-27T20:00:00.000Z",
    }
    night.play_round()
    assert seated(night, 2).status_code == 200
    late = night.client.post(
        night.url("/tables/2/rolls"),
        json={"command_id": cid(), "outcome": "+1", "tapped": tapped},
        headers=night.host,
    )
    assert late.status_code == 409
    assert late.json()["error"] == "round_closed"


def test_a_night_of_one_table_needs_no_confirmation(client):
    night = make_night(client, ["Ann", "Bea", "Cat", "Dee"])
    night.play_round()
    assert night.state()["status"]["round"] == 2
    assert night.roll(1, outcome="miss").status_code == 200
