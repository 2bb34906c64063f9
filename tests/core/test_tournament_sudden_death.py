"""004 (``tournament``): a tie is decided by continuing to roll, with the round's turn rules.

"Ties in the round will be decided by continuing to roll. The first person to roll the
target number wins the Round for their team", and a Mini Bunco "continues their turn".
A hand-made party log, written from the seed: table 2 is tied 1–1 when the head table's
Bunco rings the bell; in the sudden death Gus rolls three 5s (a Mini Bunco in round 1),
so Gus rolls again — the dice are not passed — and his next roll shows a 1 and wins.
"""

from __future__ import annotations

import json

import pytest

from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.core.table import Phase, Status
from bunco.party.night_report import night_report

TIED = """\
{"type": "party", "rules": "tournament", "players": ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Eve"}
{"type": "roll", "table": 2, "dice": [2, 3, 4], "player": "Eve"}
{"type": "roll", "table": 2, "dice": [1, 4, 5], "player": "Fay"}
{"type": "roll", "table": 2, "dice": [2, 3, 4], "player": "Fay"}
{"type": "roll", "table": 1, "dice": [1, 1, 1], "player": "Ann"}
{"type": "roll", "table": 1, "dice": [2, 3, 4], "player": "Ann"}
"""
# Eve & Gus 1, Fay & Hal 1 at table 2; Ann's Bunco (21) at the head table rings the bell,
# Ann finishes her turn, and table 2 goes to sudden death with Gus, whose turn it was.

MINI_THEN_HIT = """\
{"type": "roll", "table": 2, "dice": [5, 5, 5], "player": "Gus"}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Gus"}
"""


def _lines(*texts: str) -> list[str]:
    return [line for text in texts for line in text.splitlines()]


def test_the_tie_goes_to_sudden_death_with_the_player_whose_turn_it_was() -> None:
    night = read_log(_lines(TIED))
    table = night.tables[1]
    assert table.status is Status.TIE_BREAK and table.side_scores == (1, 1)
    assert night.expected_rollers() == [(2, "Gus")]


def test_a_mini_bunco_in_sudden_death_continues_the_turn() -> None:
    night = read_log(_lines(TIED, MINI_THEN_HIT.splitlines()[0]))
    assert night.expected_rollers() == [(2, "Gus")]  # not passed on to Hal
    mini = night.tables[1].rolls[-1]
    assert (mini.phase, mini.kind.value, mini.points) == (Phase.TIE_BREAK, "mini_bunco", 0)


def test_the_first_roll_showing_the_round_number_wins_and_the_mini_is_on_the_card() -> None:
    night = read_log(_lines(TIED, MINI_THEN_HIT))
    (result,) = night.history
    second = night_report(night)["rounds"][0]["tables"][1]
    assert second["winners"] == ["Eve", "Gus"] and second["losers"] == ["Fay", "Hal"]
    assert second["tie_break"]["rule"] == "sudden_death"
    assert result.tables[1].clincher == "Gus"
    cards = night_report(night)["players"]
    assert cards["Gus"]["mini_buncos"] == 1 and cards["Hal"]["mini_buncos"] == 0


def test_the_dice_pass_on_a_miss() -> None:
    night = read_log(_lines(TIED))
    night = night.apply({"type": "roll", "table": 2, "dice": [2, 3, 4], "player": "Gus"})
    assert night.expected_rollers() == [(2, "Hal")]


@pytest.mark.parametrize(
    ("house", "next_roller"), [({}, "Gus"), ({"high_trips_continues": False}, "Hal")]
)
def test_the_turn_rules_are_the_presets_own(house: dict[str, object], next_roller: str) -> None:
    """With a house rule where a three of a kind above the round's number ends the turn
    (a Baby Bunco in ``classic`` terms), it ends the tie-break turn too; still credited."""
    lines = _lines(TIED)
    party = json.loads(lines[0])
    party["house_rules"] = house
    night = Night.start(party)
    for line in lines[1:]:
        night = night.apply(json.loads(line))
    night = night.apply({"type": "tally", "table": 2, "outcome": "mini", "player": "Gus"})
    assert night.expected_rollers() == [(2, next_roller)]
    assert night.tables[1].rolls[-1].kind.value == "mini_bunco"
