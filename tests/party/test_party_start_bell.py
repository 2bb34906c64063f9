"""The head table's bell starts a round (000, 001, 003, 004): an optional ``start_round``
event. Without it a round starts with its first roll, as before."""

from __future__ import annotations

import pytest
from party_helpers import miss, party, roll

from bunco.core.errors import NotAllowedNow
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report
from bunco.party.view import live_view
from night_helpers import night_log

FOUR = ["Ann", "Bea", "Cat", "Dee"]
START = {"type": "start_round"}


def finish_round_one(night: Night) -> Night:
    """Classic at one table: Ann's Bunco rings the bell, she rolls on and misses."""
    night = roll(night, 1, 1, 1, 1)  # Ann: Bunco, 21, the bell
    night = roll(night, 1, *miss(1))  # Ann rolls on and misses: round over
    return night


def test_the_bell_starts_a_round_and_closes_the_one_before() -> None:
    night = party("classic", FOUR)
    assert night.started is False
    started = night.apply(START)
    assert started.started is True and live_view(started)["started"] is True
    assert live_view(started)["tables"][0]["rolls"] == 0
    with pytest.raises(NotAllowedNow, match="round 1 has already started"):
        started.apply(START)
    with pytest.raises(NotAllowedNow, match="between rounds"):  # changes wait for the end
        started.apply({"type": "join", "player": "Ivy"})
    night = finish_round_one(started)
    assert (night.round_no, night.started) == (2, False)
    # before round 2's bell the last roll of round 1 can still be undone ...
    assert night.apply({"type": "undo", "table": 1}).round_no == 1
    # ... after it, round 1 is closed and nothing of round 2 is entered yet
    rung = night.apply(START)
    with pytest.raises(NotAllowedNow, match="no entry at table 1 to undo"):
        rung.apply({"type": "undo", "table": 1})
    with pytest.raises(NotAllowedNow, match="a round is under way"):
        rung.apply({"type": "end_night"})
    rolled = roll(rung, 1, 2, 2, 4)  # round 2: two 2s
    assert rolled.apply({"type": "undo", "table": 1}).started is True  # the bell stands
    # the log replays the bells exactly, and a night without bells scores the same rolls alike
    assert live_view(read_log(night_log(rolled).splitlines())) == live_view(rolled)
    plain = roll(finish_round_one(party("classic", FOUR)), 1, 2, 2, 4)
    assert night_report(plain)["rounds"] == night_report(rolled)["rounds"]
    assert live_view(plain)["tables"] == live_view(rolled)["tables"]


def test_no_bell_in_a_roll_off_or_after_the_night() -> None:
    night = party("winning-moves", ["Ann", "Bea"])
    for r in range(1, 7):  # Ann rolls a Bunco every round
        while night.round_no == r and night.phase == "playing":
            roller = night.tables[0].roller
            night = roll(night, 1, *((r, r, r) if roller == "Ann" else miss(r)))
    assert night.phase == "over"
    with pytest.raises(NotAllowedNow, match="there is no round to start: the night is over"):
        night.apply(START)
