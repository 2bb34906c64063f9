"""The fast kernel against the slow reference (same dice), and simulation against the
exact odds (within 4 standard errors, fixed seeds)."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from round_kernel import play_rounds, play_turns, simulate_rounds
from round_reference import reference_rounds

from bunco.analysis.dice_codes import code_table, codes_to_dice, dice_to_codes
from bunco.analysis.odds import roll_odds, turn_odds
from bunco.analysis.table_odds import table_odds
from bunco.core.dice import score_roll
from bunco.core.presets import PRESETS, get_rules
from bunco.core.rules import AfterBell

CASES = [(p, {}) for p in PRESETS] + [
    ("classic", {"wipeout": True}),
    ("scil", {"wipeout": True, "after_bell": "finish_turn"}),
    ("tournament", {"quick_game": True}),
    ("winning-moves", {"after_bell": "finish_turn"}),
    # a Bunco that ends the round with too few points: the table is settled on points
    ("winning-moves", {"bunco_points": 3}),
    ("winning-moves", {"bunco_points": 3, "after_bell": "finish_turn", "wipeout": True}),
]


def test_codes_round_trip() -> None:
    dice = np.array([[1, 1, 1], [6, 6, 6], [2, 5, 3], [6, 1, 4]])
    codes = dice_to_codes(dice)
    assert codes.tolist() == [0, 215, 36 + 24 + 2, 180 + 0 + 3]
    assert codes_to_dice(codes).tolist() == dice.tolist()
    with pytest.raises(ValueError, match="from 1 to 6"):
        dice_to_codes([[0, 1, 2]])


@pytest.mark.parametrize(("preset", "house"), CASES)
def test_code_table_matches_score_roll(preset: str, house: dict[str, object]) -> None:
    rules = get_rules(preset, house)
    for r in (1, 3, 6):
        table = code_table(rules, r)
        for code, dice in enumerate(codes_to_dice(np.arange(216)).tolist()):
            score = score_roll(dice, r, rules)
            assert table.points[code] == score.points
            assert table.continues[code] == score.turn_continues
            assert table.ends_round[code] == score.ends_round


@pytest.mark.parametrize(("preset", "house"), CASES)
@pytest.mark.parametrize("round_no", [1, 4])
def test_kernel_equals_reference(preset: str, house: dict[str, object], round_no: int) -> None:
    rules = get_rules(preset, house)
    rng = np.random.default_rng(2024 + round_no)
    head = rng.integers(1, 7, size=(30_000, 3))
    other = rng.integers(1, 7, size=(30_000, 3))
    ref = reference_rounds(rules, round_no, head.tolist(), other.tolist())
    fast = play_rounds(
        code_table(rules, round_no),
        rules.target(team=True, single_table=False),
        rules.after_bell is AfterBell.FINISH_TURN,
        dice_to_codes(head),
        dice_to_codes(other),
    )
    assert fast.rounds == len(ref) > 300
    assert fast.winner.tolist() == [r.winner for r in ref]
    assert fast.rolls.tolist() == [r.rolls for r in ref]
    assert fast.bell_roll.tolist() == [r.bell_roll for r in ref]
    assert fast.bunco_end.tolist() == [r.bunco_end for r in ref]
    assert [tuple(s) for s in fast.scores.tolist()] == [r.scores for r in ref]
    assert [tuple(s) for s in fast.other_scores.tolist()] == [r.other_scores for r in ref]
    # the kernel stops where the reference ran out of dice
    assert fast.head_used <= len(head) and fast.other_used <= len(other)
    # head table alone, same head dice: the same head results
    alone = play_rounds(
        code_table(rules, round_no),
        rules.target(team=True, single_table=False),
        rules.after_bell is AfterBell.FINISH_TURN,
        dice_to_codes(head),
    )
    assert alone.rolls[: fast.rounds].tolist() == fast.rolls.tolist()


def _z(sample: np.ndarray, exact: float) -> float:
    se = float(np.std(sample)) / np.sqrt(len(sample))
    return (float(np.mean(sample)) - exact) / max(se, 1e-12)


@pytest.mark.parametrize(("preset", "house"), CASES)
@pytest.mark.parametrize("round_no", [1, 3, 6])
def test_simulation_agrees_with_exact(preset: str, house: dict[str, object], round_no: int) -> None:
    rules = get_rules(preset, house)
    seed = 1000 * round_no + sum(map(ord, preset + str(house)))
    rng = np.random.default_rng(seed)
    table = code_table(rules, round_no)
    # per roll and per turn
    codes = rng.integers(0, 216, size=300_000, dtype=np.uint8)
    roll = roll_odds(rules, round_no)
    assert abs(_z(table.points[codes], float(roll.expected_points))) < 4
    turns = play_turns(table, codes)
    turn = turn_odds(rules, round_no)
    assert abs(_z(turns.rolls, float(turn.expected_rolls))) < 4
    assert abs(_z(turns.points, float(turn.expected_points))) < 4
    assert abs(_z(turns.had_bunco, float(turn.bunco_probability))) < 4
    # per round, head table and non-head table
    sim = simulate_rounds(rules, round_no, 60_000, rng=rng)
    exact = table_odds(rules, round_no)
    assert abs(_z(sim.winner == 0, exact.first_team_win_probability)) < 4
    assert abs(_z(sim.winner == -1, exact.tie_probability)) < 4
    assert abs(_z(sim.rolls, exact.expected_rolls)) < 4
    assert abs(_z(sim.bell_roll, exact.expected_bell_roll)) < 4
    assert abs(_z(sim.bunco_end, exact.bunco_end_probability)) < 4
    if exact.non_head is not None:
        first, second = exact.non_head.expected_scores
        assert abs(_z(sim.other_scores[:, 0], first)) < 4
        assert abs(_z(sim.other_scores[:, 1], second)) < 4
        ties = sim.other_scores[:, 0] == sim.other_scores[:, 1]
        assert abs(_z(ties, exact.non_head.tie_probability)) < 4


@pytest.mark.parametrize("name", ["round_kernel", "round_reference", "engine_feed"])
def test_helper_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
