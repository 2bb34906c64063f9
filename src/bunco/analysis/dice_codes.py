"""Dice codes: a roll of three dice as one number 0-215, and what each code scores.

A roll ``(d1, d2, d3)`` is the code ``36 (d1-1) + 6 (d2-1) + (d3-1)``; a
:class:`CodeTable`, built once per rule set and round with
:func:`bunco.core.dice.score_roll`, says what each code scores. The compiled kernels
(:mod:`bunco.analysis.night_kernel`) read these tables instead of scoring dice.

>>> from bunco.core.presets import get_rules
>>> table = code_table(get_rules("classic"), 1)
>>> int(table.points[dice_to_codes([[1, 1, 1]])[0]])
21
>>> codes_to_dice(dice_to_codes([[6, 1, 4]])).tolist()
[[6, 1, 4]]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from bunco.core.dice import score_roll, validate_round
from bunco.core.rules import RollKind, RuleSet

Codes = NDArray[np.uint8]
IntArray = NDArray[np.int32]
BoolArray = NDArray[np.bool_]

KIND_CODES: tuple[RollKind, ...] = tuple(RollKind)
"""``kind`` codes of :class:`CodeTable`: the index of each :class:`RollKind`."""


@dataclass(frozen=True)
class CodeTable:
    """What each of the 216 dice codes scores in one round under one rule set.

    ``continues`` is the rule's ``turn_continues``; in play a roll that ends the round
    ends the turn too, after the bell only ``continues`` counts.
    """

    points: IntArray
    continues: BoolArray
    wipes: BoolArray
    ends_round: BoolArray
    bunco: BoolArray
    kind: NDArray[np.int8]


def code_table(rules: RuleSet, round_no: int) -> CodeTable:
    """Score every dice code once with :func:`score_roll`."""
    validate_round(round_no)
    points = np.zeros(216, dtype=np.int32)
    continues = np.zeros(216, dtype=np.bool_)
    wipes = np.zeros(216, dtype=np.bool_)
    ends = np.zeros(216, dtype=np.bool_)
    bunco = np.zeros(216, dtype=np.bool_)
    kind = np.zeros(216, dtype=np.int8)
    for code, dice in enumerate(itertools.product(range(1, 7), repeat=3)):
        score = score_roll(dice, round_no, rules)
        points[code] = score.points
        continues[code] = score.turn_continues
        wipes[code] = score.kind is RollKind.WIPEOUT
        ends[code] = score.ends_round
        bunco[code] = score.kind is RollKind.BUNCO
        kind[code] = KIND_CODES.index(score.kind)
    return CodeTable(points, continues, wipes, ends, bunco, kind)


def dice_to_codes(dice: ArrayLike) -> Codes:
    """Codes of rolls given as an ``(..., 3)`` array of faces 1–6."""
    faces = np.asarray(dice, dtype=np.int64)
    if faces.shape[-1:] != (3,) or (faces.size and (faces.min() < 1 or faces.max() > 6)):
        raise ValueError("dice must be an array of rolls of three faces, each from 1 to 6")
    codes = 36 * (faces[..., 0] - 1) + 6 * (faces[..., 1] - 1) + (faces[..., 2] - 1)
    return codes.astype(np.uint8)


def codes_to_dice(codes: ArrayLike) -> NDArray[np.int64]:
    """The faces ``(..., 3)`` of dice codes: the inverse of :func:`dice_to_codes`."""
    c = np.asarray(codes, dtype=np.int64)
    return np.stack([c // 36 + 1, c // 6 % 6 + 1, c % 6 + 1], axis=-1)
