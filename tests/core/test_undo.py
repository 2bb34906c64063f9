"""Undo is a correcting event: the night is as if the entry had never been made."""

from __future__ import annotations

import pytest
from helpers import party, roll

from bunco.core.errors import NotAllowedNow
from bunco.party.view import live_view


def test_undo_removes_the_last_roll_at_that_table_only() -> None:
    night = party("classic", [f"P{i}" for i in range(1, 9)])
    night = roll(night, 1, 1, 1, 4)
    night = roll(night, 2, 1, 3, 4)
    night = roll(night, 1, 1, 2, 3)
    undone = night.apply({"type": "undo", "table": 1})
    expected = roll(roll(party("classic", [f"P{i}" for i in range(1, 9)]), 1, 1, 1, 4), 2, 1, 3, 4)
    assert live_view(undone) == live_view(expected)
    assert [e["type"] for e in undone.events] == ["roll", "roll", "roll", "undo"]
    undone = undone.apply({"type": "undo", "table": 1}).apply({"type": "undo", "table": 2})
    assert live_view(undone) == live_view(party("classic", [f"P{i}" for i in range(1, 9)]))


def test_undo_of_the_roll_that_rang_the_bell_reopens_the_round() -> None:
    night = party("classic", [f"P{i}" for i in range(1, 9)])
    for _ in range(10):
        night = roll(night, 1, 1, 1, 5)
    night = roll(night, 2, 1, 3, 4)
    before_bell = night
    night = roll(night, 1, 1, 1, 5)  # 22: the bell
    assert night.bell
    night = night.apply({"type": "undo", "table": 1})
    assert not night.bell and live_view(night) == live_view(before_bell)


def test_undo_of_the_last_roll_of_a_finished_round_until_the_next_round_rolls() -> None:
    base = party("wm", ["A", "B"])
    night = roll(base, 1, 1, 1, 1)  # a Bunco ends round 1
    assert night.round_no == 2
    back = night.apply({"type": "undo", "table": 1})
    assert back.round_no == 1 and live_view(back) == live_view(base)
    night = roll(night, 1, 1, 2, 3)  # round 2 has begun: undo takes back that roll first
    back = night.apply({"type": "undo", "table": 1}).apply({"type": "undo", "table": 1})
    assert live_view(back) == live_view(base)


def test_a_round_with_rolls_closes_the_round_before_it() -> None:
    night = party("wm", [f"P{i}" for i in range(1, 9)])
    night = roll(night, 2, 1, 3, 4)  # table 2 leads 1-0
    night = roll(night, 1, 1, 1, 1)  # a Bunco at table 1 ends round 1 everywhere
    assert night.round_no == 2
    night = roll(night, 2, 2, 3, 4)  # round 2 starts at table 2
    with pytest.raises(NotAllowedNow, match="no entry at table 1 to undo"):
        night.apply({"type": "undo", "table": 1})


def test_nothing_to_undo_is_refused() -> None:
    night = party("classic", ["A", "B", "C", "D"])
    with pytest.raises(NotAllowedNow, match="no entry at table 1 to undo"):
        night.apply({"type": "undo", "table": 1})
