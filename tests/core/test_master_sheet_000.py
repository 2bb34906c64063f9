"""000's master score sheet: Andy 2 W, Laura 2 W + 1 B, Paul 1 W, Suzi 1 W + 1 B: Laura wins."""

from __future__ import annotations

from helpers import party, roll

from bunco.core.night import Night
from bunco.party.night_report import night_report
from bunco.party.sheets import master_sheet


def win_round(night: Night, winner: str, bunco: bool) -> Night:
    """Everyone else misses; ``winner`` rolls a Bunco or gathers 21 from +2 rolls."""
    r = night.round_no
    miss = 1 if r != 1 else 2
    other = 3 if r != 3 else 4
    start = night.round_no
    while night.round_no == start and night.phase == "playing":
        roller = night.tables[0].roller
        if roller != winner:
            night = roll(night, 1, miss, miss, other, player=roller)
        elif bunco:
            night = roll(night, 1, r, r, r, player=roller)
        else:
            night = roll(night, 1, r, r, other, player=roller)
    return night


def test_laura_wins_on_buncos() -> None:
    night = party("winning-moves", ["Andy", "Laura", "Paul", "Suzi"])
    plan = [
        ("Laura", False),
        ("Suzi", True),
        ("Paul", False),
        ("Andy", False),
        ("Andy", False),
        ("Laura", True),
    ]
    for winner, bunco in plan:
        night = win_round(night, winner, bunco)
    report = night_report(night)
    rows = {row["player"]: row for row in master_sheet(night, 1)}
    assert rows["Andy"]["rounds"] == ["", "", "", "W", "W", ""]
    assert rows["Laura"]["rounds"] == ["W", "", "", "", "", "WB"]
    assert rows["Paul"]["rounds"] == ["", "", "W", "", "", ""]
    assert rows["Suzi"]["rounds"] == ["", "WB", "", "", "", ""]
    assert [(rows[p]["wins"], rows[p]["buncos"]) for p in ("Andy", "Laura", "Paul", "Suzi")] == [
        (2, 0),
        (2, 1),
        (1, 0),
        (1, 1),
    ]
    assert report["winner"] == "Laura"
    assert report["set_winners"][0]["settled_by"] == "buncos"
    assert report["set_winners"][0]["tied_on_wins"] == ["Andy", "Laura"]
    assert night.phase == "over"


def test_one_table_winning_moves_first_roller_is_left_of_the_last_winner() -> None:
    night = party("winning-moves", ["Andy", "Laura", "Paul", "Suzi"])
    assert night.tables[0].roller == "Andy"  # the scorekeeper starts round 1
    night = win_round(night, "Paul", True)
    assert night.round_no == 2
    assert night.tables[0].roller == "Suzi"  # left of Paul


def test_set_winner_roll_off_when_wins_and_buncos_tie() -> None:
    night = party("winning-moves", ["Andy", "Laura"])
    for winner in ("Andy", "Laura", "Andy", "Laura", "Andy", "Laura"):
        night = win_round(night, winner, False)
    assert night.phase == "rolloff"
    assert night.expected_rollers() == [(None, "Andy")]
    night = roll(night, None, 2, 2, 1)  # Andy's total 5
    night = roll(night, None, 6, 5, 1)  # Laura's total 12: she rolls first
    assert night.rolloff is not None and night.rolloff.order == ("Laura", "Andy")
    night = roll(night, None, 6, 6, 1, player="Laura")  # two 6's: 2 points, again
    night = roll(night, None, 1, 2, 3, player="Laura")  # miss: Andy's turn
    night = roll(night, None, 6, 6, 6, player="Andy")  # a Bunco counts: 21 >= 5
    assert night.phase == "over"
    assert night_report(night)["winner"] == "Andy"
    assert night_report(night)["set_winners"][0]["settled_by"] == "roll_off"
