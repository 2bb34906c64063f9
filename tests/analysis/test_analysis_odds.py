"""Exact odds against hand derivations.

Every expected number below is derived by hand in the comment beside it, from the 216
equally likely ordered rolls of three dice: in round r, one die shows r in 3*5*5 = 75
rolls, two dice in 3*5 = 15, three in 1; each other three of a kind is 1 roll; the rest
(125 - 5 = 120 rolls) score nothing.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bunco.analysis.odds import TAIL_MASS, roll_odds, turn_odds
from bunco.analysis.table_odds import table_odds
from bunco.core.presets import PRESETS, get_rules


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("round_no", [1, 2, 3, 4, 5, 6])
def test_roll_facts_every_preset(preset: str, round_no: int) -> None:
    roll = roll_odds(get_rules(preset), round_no)
    assert roll.bunco_probability == F(1, 216)
    assert roll.other_trips_probability == F(5, 216)
    assert roll.any_target_die_probability == F(91, 216)  # 1 - (5/6)^3 = 91/216
    assert sum(o.ways for o in roll.outcomes) == 216
    assert roll.by_kind()["miss"] == F(120, 216)


def test_roll_expected_points() -> None:
    # classic: 75*1 + 15*2 + 21 + 5 trips * 5 = 151 over 216, in every round
    for r in range(1, 7):
        assert roll_odds(get_rules("classic"), r).expected_points == F(151, 216)
    # winning-moves round 4: low trips 1,2,3 score 7, high trips 5,6 score 5:
    # 75 + 30 + 21 + 3*7 + 2*5 = 157
    assert roll_odds(get_rules("winning-moves"), 4).expected_points == F(157, 216)
    # wipeout in round 3: 1-1-1 scores 0, 2-2-2 and 4,5,6 trips score 5: 75+30+21+20 = 146
    wiped = roll_odds(get_rules("classic", {"wipeout": True}), 3)
    assert wiped.expected_points == F(146, 216)
    assert wiped.by_kind()["wipeout"] == F(1, 216)
    # round 1 has no wipeout: three 1's are the Bunco
    assert "wipeout" not in roll_odds(get_rules("classic", {"wipeout": True}), 1).by_kind()


def test_turn_classic() -> None:
    turn = turn_odds(get_rules("classic"), 2)
    # the turn goes on on 91 target-die rolls + 5 other trips = 96/216 = 4/9
    assert turn.continue_probability == F(4, 9)
    assert turn.expected_rolls == F(9, 5)  # 1 / (1 - 4/9)
    assert turn.expected_points == F(151, 120)  # (151/216) / (5/9)
    # the first roll that is a Bunco (1) or a miss (120) decides
    assert turn.bunco_probability == F(1, 121)
    assert turn.rolls_distribution[0] == F(5, 9)
    assert turn.rolls_distribution[1] == F(4, 9) * F(5, 9)
    miss = F(120, 216)
    assert turn.points_distribution[0] == miss
    assert turn.points_distribution[1] == F(75, 216) * miss
    assert turn.points_distribution[2] == (F(15, 216) + F(75, 216) ** 2) * miss
    assert turn.rolls_tail < TAIL_MASS and turn.points_tail < TAIL_MASS
    assert 1 - sum(turn.points_distribution) == turn.points_tail


def test_turn_other_presets() -> None:
    # winning-moves: a Bunco ends the round, so the turn goes on on 90 + 5 rolls
    wm = turn_odds(get_rules("winning-moves"), 1)
    assert wm.expected_rolls == F(216, 121)
    # continuing points 105 + 5*5 (high trips in round 1), the stopping Bunco 21
    assert wm.expected_points == F(151, 121)
    assert wm.bunco_probability == F(1, 121)
    # scil: trips end the turn, the Bunco does not: goes on on 90 + 1 rolls
    scil = turn_odds(get_rules("scil"), 1)
    assert scil.expected_rolls == F(216, 125)
    assert scil.expected_points == F(151, 125)
    # the first Bunco (1) or stopping roll (120 misses + 5 trips) decides
    assert scil.bunco_probability == F(1, 126)


def test_turn_wipeout() -> None:
    # round 3 with wipeout: goes on on 90 + 1 + 4 = 95, stops on 120 misses + 1 wipeout
    turn = turn_odds(get_rules("classic", {"wipeout": True}), 3)
    assert turn.expected_rolls == F(216, 121)
    assert turn.wipeout_probability == F(1, 121)
    # points kept unless the stopping roll wipes: (146/121) * (120/121)
    assert turn.expected_points == F(146, 121) * F(120, 121)
    # 0 points: a miss at once, or any turn that ends in a wipeout
    assert turn.points_distribution[0] == F(120, 216) + F(1, 121)


def test_table_target_one() -> None:
    # Target 1: the first scoring roll (96/216 = 4/9) ends the round; misses alternate
    # the teams, so P(first team) = (4/9) / (1 - (5/9)^2) = 9/14, the bell roll is
    # geometric with mean 9/4, and 1 in 96 scoring rolls is the Bunco.
    for preset in ("classic", "scil", "winning-moves", "tournament"):
        odds = table_odds(get_rules(preset, {"team_target": 1}), 2)
        assert odds.first_team_win_probability == pytest.approx(9 / 14, abs=1e-11)
        assert odds.expected_bell_roll == pytest.approx(9 / 4, abs=1e-10)
        assert odds.bunco_end_probability == pytest.approx(1 / 96, abs=1e-11)
        assert odds.bell_distribution[1] == pytest.approx(4 / 9, abs=1e-15)
        assert odds.bell_distribution[2] == pytest.approx(20 / 81, abs=1e-15)
    # classic rolls on after the bell: every scoring roll continues, 9/5 more rolls
    classic = table_odds(get_rules("classic", {"team_target": 1}), 2)
    assert classic.expected_rolls == pytest.approx(9 / 4 + 9 / 5, abs=1e-10)
    assert classic.rolls_distribution[1] == 0.0  # the bell roll always continues
    assert classic.rolls_distribution[2] == pytest.approx(4 / 9 * 5 / 9, abs=1e-15)
    # scil stops at the bell
    scil = table_odds(get_rules("scil", {"team_target": 1}), 2)
    assert scil.expected_rolls == pytest.approx(9 / 4)


def test_table_settles_on_points() -> None:
    # Target 1, classic with wipeout, round 2: the first scoring roll rings the bell while
    # the other team has 0; the roller always rolls on (every scoring roll continues) and
    # that turn ends in a wipeout with 1/121 (95 rolls go on, 120 misses + 1 wipeout stop):
    # then both teams have 0 and a tie-break follows. A roll scores with q = 95/216 and
    # passes the dice with m = 121/216 (the wipeout scores nothing), so the first team
    # rings first with q / (1 - m^2) = 1 / (1 + m) = 216/337.
    odds = table_odds(get_rules("classic", {"team_target": 1, "wipeout": True}), 2)
    assert odds.tie_probability == pytest.approx(1 / 121, abs=1e-12)
    assert odds.first_team_win_probability == pytest.approx(216 / 337 * 120 / 121, abs=1e-11)
    # no wipeout, no tie
    assert table_odds(get_rules("classic"), 2).tie_probability == 0.0
    # A Bunco worth 3 that ends the round, target 21: the first roll being a Bunco
    # (1/216) wins 3-0; otherwise whoever has more points wins
    low = table_odds(get_rules("winning-moves", {"bunco_points": 3}), 1, non_head=False)
    assert low.tie_probability > 0
    assert low.bell_distribution[1] == pytest.approx(1 / 216)


def test_non_head_target_one() -> None:
    # Wald: with the bell roll T (mean 9/4) the non-head table has made T rolls worth
    # 151/216 each; under classic its last roll continued with chance 4/9, and then the
    # roller finishes a free turn worth 151/120 on average. (scil's tables roll for high
    # first, which puts them off pace: the scorekeeper starts here.)
    scil = table_odds(
        get_rules("scil", {"team_target": 1, "first_roller": "scorekeeper"}), 1
    ).non_head
    assert scil is not None
    assert sum(scil.expected_scores) == pytest.approx(9 / 4 * 151 / 216, abs=1e-9)
    classic = table_odds(get_rules("classic", {"team_target": 1}), 1).non_head
    assert classic is not None
    assert sum(classic.expected_scores) == pytest.approx(
        9 / 4 * 151 / 216 + 4 / 9 * 151 / 120, abs=1e-9
    )
    # scil, T = 1: 0-0 after a miss (5/9); the chance T = 1 is 4/9, so at least 20/81
    assert scil.tie_probability > 20 / 81


def test_table_full_rounds() -> None:
    for preset in PRESETS:
        odds = table_odds(get_rules(preset), 3)
        assert odds.tail_mass < TAIL_MASS
        assert abs(float(odds.rolls_distribution.sum()) - 1) < TAIL_MASS
        # rolling first is an advantage, but not a large one
        assert 0.5 < odds.first_team_win_probability < 0.55
        # at least 21 points take at least one roll; a Bunco takes exactly one
        assert odds.bell_distribution[1] == pytest.approx(1 / 216)
        if odds.non_head is not None:
            assert odds.non_head.overflow < TAIL_MASS
            assert float(odds.non_head.scores.sum()) == pytest.approx(1, abs=1e-11)
    # the rules decide which tables get non-head figures, not the preset's name
    assert table_odds(get_rules("winning-moves"), 1).non_head is None
    assert table_odds(get_rules("classic", {"bunco_ends_round": True}), 1).non_head is None
    assert table_odds(get_rules("classic", {"round_end": "every_table"}), 1).non_head is None


def test_quick_game_is_shorter() -> None:
    quick = table_odds(get_rules("classic", {"quick_game": True}), 1, non_head=False)
    full = table_odds(get_rules("classic"), 1, non_head=False)
    assert quick.target == 11 and full.target == 21
    assert quick.expected_rolls < full.expected_rolls
