"""The kernel against the real night engine: the same dice, every result compared."""

from __future__ import annotations

import numpy as np
import pytest
from engine_feed import engine_rounds
from round_kernel import play_rounds

from bunco.analysis.dice_codes import code_table, dice_to_codes
from bunco.core.presets import get_rules
from bunco.core.rules import AfterBell

SINGLE = [
    ("classic", {}),
    ("tournament", {}),
    ("scil", {}),
    # one table of winning-moves plays individuals unless told to play teams
    ("winning-moves", {"single_table_teams": True}),
    ("winning-moves", {"single_table_teams": True, "bunco_points": 3, "after_bell": "finish_turn"}),
    ("classic", {"wipeout": True, "single_table_target": 5}),
    ("scil", {"wipeout": True, "after_bell": "finish_turn", "quick_game": True}),
]
PAIR = [
    ("classic", {}),
    ("tournament", {"wipeout": True}),
    ("scil", {}),
    ("scil", {"after_bell": "finish_turn", "team_target": 9}),
]


def _extra(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)

    def draw() -> tuple[int, int, int]:
        a, b, c = (int(x) for x in rng.integers(1, 7, size=3))
        return (a, b, c)

    return draw


def _stream(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 7, size=(n, 3))


@pytest.mark.parametrize(("preset", "house"), SINGLE)
def test_kernel_equals_engine_one_table(preset: str, house: dict[str, object]) -> None:
    rules = get_rules(preset, house)
    head = _stream(11, 6000)
    played = engine_rounds(preset, house, (tuple(map(int, d)) for d in head), extra=_extra(5))
    assert len(played) > 40
    codes = dice_to_codes(head)
    target = rules.target(team=True, single_table=True)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    pos = 0
    for n, er in enumerate(played):
        fast = play_rounds(code_table(rules, er.round_no), target, finish, codes[pos:], n=1)
        assert fast.rounds == 1, n
        got = (
            int(fast.winner[0]),
            int(fast.rolls[0]),
            int(fast.bell_roll[0]),
            bool(fast.bunco_end[0]),
            tuple(int(s) for s in fast.scores[0]),
        )
        assert got == (er.winner, er.rolls, er.bell_roll, er.bunco_end, er.scores), (n, er)
        pos += fast.head_used
    # the engine ran out of dice in the middle of the next round, and so does the kernel
    upcoming = played[-1].round_no % 6 + 1
    assert play_rounds(code_table(rules, upcoming), target, finish, codes[pos:], n=1).rounds == 0


@pytest.mark.parametrize(("preset", "house"), PAIR)
def test_kernel_equals_engine_two_tables(preset: str, house: dict[str, object]) -> None:
    rules = get_rules(preset, house)
    head = _stream(21, 5000)
    other = _stream(22, 5000)
    played = engine_rounds(
        preset,
        house,
        (tuple(map(int, d)) for d in head),
        (tuple(map(int, d)) for d in other),
        extra=_extra(6),
    )
    assert len(played) > 30
    hc, oc = dice_to_codes(head), dice_to_codes(other)
    target = rules.target(team=True, single_table=False)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    hp = op = 0
    for n, er in enumerate(played):
        fast = play_rounds(code_table(rules, er.round_no), target, finish, hc[hp:], oc[op:], n=1)
        assert fast.rounds == 1, n
        got = (
            int(fast.winner[0]),
            int(fast.rolls[0]),
            int(fast.bell_roll[0]),
            bool(fast.bunco_end[0]),
            tuple(int(s) for s in fast.scores[0]),
            tuple(int(s) for s in fast.other_scores[0]),
        )
        want = (er.winner, er.rolls, er.bell_roll, er.bunco_end, er.scores, er.other_scores)
        assert got == want, (n, er)
        hp += fast.head_used
        op += fast.other_used
