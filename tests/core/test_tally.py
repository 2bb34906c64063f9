"""Quick-tally input goes through the same scoring as dice."""

from __future__ import annotations

import pytest

from bunco.core.dice import score_roll, tally_dice
from bunco.core.errors import InvalidTally
from bunco.core.presets import get_rules


@pytest.mark.parametrize(
    "preset, tally, round_no, points, kind",
    [
        ("classic", "miss", 1, 0, "miss"),
        ("classic", "+1", 4, 1, "points"),
        ("classic", "+2", 6, 2, "points"),
        ("classic", "bunco", 2, 21, "bunco"),
        ("classic", "mini", 1, 5, "mini_bunco"),
        ("classic", "low", 5, 5, "mini_bunco"),
        ("wm", "low", 4, 7, "low_bunco"),
        ("wm", "high", 4, 5, "high_bunco"),
        ("scil", "x", 3, 5, "mini_bunco"),
        ("tournament", "b", 6, 21, "bunco"),
    ],
)
def test_tally_scores_like_the_dice(
    preset: str, tally: str, round_no: int, points: int, kind: str
) -> None:
    rules = get_rules(preset)
    score = score_roll(tally_dice(tally, round_no, rules), round_no, rules)
    assert (score.points, score.kind.value) == (points, kind)


def test_wipeout_tally_needs_the_house_rule() -> None:
    with pytest.raises(InvalidTally, match="wipeout house rule"):
        tally_dice("wipeout", 3, get_rules("classic"))
    rules = get_rules("classic", {"wipeout": True})
    assert score_roll(tally_dice("w", 3, rules), 3, rules).kind.value == "wipeout"
    # with wipeout on, a miss or a +1 must not be drawn as three 1's
    assert tally_dice("miss", 2, rules) != (1, 1, 1)


def test_impossible_tallies_are_refused() -> None:
    wm = get_rules("wm")
    with pytest.raises(InvalidTally, match="low or high"):
        tally_dice("mini", 3, wm)
    with pytest.raises(InvalidTally, match="no three of a kind is below 1"):
        tally_dice("low", 1, wm)
    with pytest.raises(InvalidTally, match="no three of a kind is above 6"):
        tally_dice("high", 6, wm)
    with pytest.raises(InvalidTally, match="unknown tally 'seven'"):
        tally_dice("seven", 1, wm)
