"""Every roll (216 faces x 6 rounds) under every preset, against a table written here.

The expected values come from RULES.md §1, typed in below per preset; the classifier in
this file counts faces itself and does not use bunco's scoring code.
"""

from __future__ import annotations

import itertools

import pytest

from bunco.core.dice import score_roll
from bunco.core.errors import InvalidDice
from bunco.core.presets import get_rules

# category -> (points, kind, turn continues, ends round), per preset (RULES.md §1 table)
EXPECTED = {
    "classic": {
        "bunco": (21, "bunco", True, False),
        "low": (5, "mini_bunco", True, False),
        "high": (5, "mini_bunco", True, False),
    },
    "winning-moves": {
        "bunco": (21, "bunco", True, True),
        "low": (7, "low_bunco", True, False),
        "high": (5, "high_bunco", True, False),
    },
    "scil": {
        "bunco": (21, "bunco", True, False),
        "low": (5, "mini_bunco", False, False),
        "high": (5, "mini_bunco", False, False),
    },
    "tournament": {
        "bunco": (21, "bunco", True, False),
        "low": (5, "mini_bunco", True, False),
        "high": (5, "mini_bunco", True, False),
    },
}


def expected(preset: str, dice: tuple[int, int, int], r: int, wipeout: bool = False) -> tuple:
    a, b, c = dice
    if a == b == c:
        if a == r:
            return EXPECTED[preset]["bunco"]
        if wipeout and a == 1:
            return (0, "wipeout", False, False)
        return EXPECTED[preset]["low" if a < r else "high"]
    hits = [a, b, c].count(r)
    if hits:
        return (hits, "points", True, False)
    return (0, "miss", False, False)


ALL_DICE = list(itertools.product(range(1, 7), repeat=3))


@pytest.mark.parametrize("preset", list(EXPECTED))
def test_every_roll_every_round(preset: str) -> None:
    rules = get_rules(preset)
    checked = 0
    for r in range(1, 7):
        for dice in ALL_DICE:
            got = score_roll(dice, r, rules)
            assert (got.points, got.kind.value, got.turn_continues, got.ends_round) == expected(
                preset, dice, r
            ), (preset, r, dice)
            checked += 1
    assert checked == 216 * 6


@pytest.mark.parametrize("preset", list(EXPECTED))
def test_every_roll_with_wipeout(preset: str) -> None:
    rules = get_rules(preset, {"wipeout": True})
    for r in range(1, 7):
        for dice in ALL_DICE:
            got = score_roll(dice, r, rules)
            assert (got.points, got.kind.value, got.turn_continues, got.ends_round) == expected(
                preset, dice, r, wipeout=True
            )


def test_counts_per_round_match_hand_counts() -> None:
    rules = get_rules("classic")
    kinds = [score_roll(d, 3, rules).kind.value for d in ALL_DICE]
    assert kinds.count("bunco") == 1
    assert kinds.count("mini_bunco") == 5
    # 216 - 125 (no 3 at all) = 91 rolls show a 3; one of them is the Bunco
    assert kinds.count("points") == 90
    assert kinds.count("miss") == 125 - 5


def test_worked_examples_of_the_seeds() -> None:
    # 004: "rolling '1', '1', '2' in Round 1 earns 2 points; in Round 2, ... one point.
    # In Rounds 3 through 6 the roll earns no points."
    t = get_rules("tournament")
    assert [score_roll((1, 1, 2), r, t).points for r in range(1, 7)] == [2, 1, 0, 0, 0, 0]
    # 000: three 2's in round 4 is a Low Bunco worth 7; three 5's a High Bunco worth 5
    wm = get_rules("wm")
    assert score_roll((2, 2, 2), 4, wm).points == 7
    assert score_roll((5, 5, 5), 4, wm).points == 5
    # 001: three 6's in round 4 earn 5 points
    assert score_roll((6, 6, 6), 4, get_rules("classic")).points == 5


@pytest.mark.parametrize(
    "faces, message",
    [
        ((1, 2), "got 2 dice"),
        ((1, 2, 3, 4), "got 4 dice"),
        ((0, 1, 2), "cannot show 0"),
        ((7, 1, 2), "cannot show 7"),
        (("a", 1, 2), "not a number"),
        ((1.5, 2, 3), "not a whole number"),
        ("123", "must be a list"),
    ],
)
def test_bad_dice_are_refused_with_what_was_expected(faces: object, message: str) -> None:
    with pytest.raises(InvalidDice) as err:
        score_roll(faces, 1, get_rules("classic"))  # type: ignore[arg-type]
    assert message in str(err.value)
    assert "each a whole number from 1 to 6" in str(err.value)


def test_bad_round_is_refused() -> None:
    with pytest.raises(InvalidDice, match="round 7 does not exist"):
        score_roll((1, 2, 3), 7, get_rules("classic"))
