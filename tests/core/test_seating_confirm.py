"""Where the round in play has begun (bunco.core.seating_confirm): the night's first
round at once; from the second on, at a party of more than one table, a table once its
new seating is confirmed (``seated``) or the head table's bell rings; a reseating by the
host drops the confirmation of a table whose seats it changed."""

from __future__ import annotations

import random

import pytest

from bunco.core.errors import NotAllowedNow
from bunco.core.night import Night
from bunco.core.seating_confirm import (
    NotSeated,
    SeatingChanged,
    check_begun,
    waiting_tables,
)
from night_helpers import party

TWELVE = [f"P{i}" for i in range(1, 13)]


def round_two(rules: str = "classic") -> Night:
    night = party(rules, TWELVE)
    rng = random.Random(3)
    while night.round_no == 1:
        table, _ = rng.choice(night.expected_rollers())
        night = night.apply(
            {"type": "roll", "table": table, "dice": [rng.randint(1, 6) for _ in range(3)]}
        )
    return night


def test_round_one_begins_with_the_nights_start() -> None:
    night = party("classic", TWELVE)
    assert waiting_tables(night) == ()
    check_begun(night, 3)
    with pytest.raises(NotAllowedNow, match="nobody moves before this round"):
        night.apply({"type": "seated", "table": 3})


def test_later_rounds_begin_table_by_table() -> None:
    night = round_two()
    assert waiting_tables(night) == (1, 2, 3)
    with pytest.raises(NotSeated) as refused:
        check_begun(night, 3)
    assert refused.value.code == "not_seated"
    assert refused.value.message == (
        "Table 3's new seating is not confirmed yet: everyone sits at their new seat, "
        "then tap 'Everyone is seated'"
    )
    night = night.apply({"type": "seated", "table": 3})
    assert waiting_tables(night) == (1, 2)
    assert night.seated_tables == frozenset({3})
    check_begun(night, 3)
    with pytest.raises(NotAllowedNow, match="round 2 has already begun at table 3"):
        night.apply({"type": "seated", "table": 3})


def test_the_bell_begins_the_round_everywhere() -> None:
    night = round_two().apply({"type": "start_round"})
    assert waiting_tables(night) == ()
    with pytest.raises(NotAllowedNow, match="the head table's bell"):
        night.apply({"type": "seated", "table": 2})


def test_a_reseating_drops_the_confirmation_of_a_changed_table() -> None:
    night = round_two().apply({"type": "seated", "table": 3}).apply({"type": "seated", "table": 1})
    moved = night.tables[2].seats[0]
    night = night.apply({"type": "leave", "player": moved})
    assert 3 in night.unseated
    assert 3 not in night.seated_tables
    with pytest.raises(SeatingChanged, match="tap 'Everyone is seated' again"):
        check_begun(night, 3)
    night = night.apply({"type": "seated", "table": 3})
    assert 3 not in night.unseated
    check_begun(night, 3)


def test_an_entry_begins_the_round_and_an_undo_keeps_the_confirmation() -> None:
    night = round_two().apply({"type": "seated", "table": 2})
    night = night.apply({"type": "roll", "table": 2, "dice": [1, 2, 3]})
    night = night.apply({"type": "undo", "table": 2})
    assert waiting_tables(night) == (1, 3)
    # a log of before the rule: an entry there means the round had begun there
    old = round_two().apply({"type": "roll", "table": 1, "dice": [2, 3, 4]})
    assert old.begun_at(1)
    assert waiting_tables(old) == (2, 3)


def test_a_night_of_one_table_never_waits() -> None:
    night = party("classic", ["Ann", "Bea", "Cat", "Dee"])
    night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 1]})  # Ann's Bunco: 21
    night = night.apply({"type": "roll", "table": 1, "dice": [2, 3, 4]})  # her turn ends
    assert night.round_no == 2
    assert waiting_tables(night) == ()
