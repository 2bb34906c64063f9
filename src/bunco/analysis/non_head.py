"""A non-head table's scores when the head table ends the round (a Markov chain).

Every table rolls at the same pace, one roll per time step. When the head table's bell
roll is roll ``t`` the non-head table has made ``t`` rolls too; with ``finish_turn`` its
roller, if that last roll continued the turn, then rolls on until a roll fails to continue
(added to the team, or a wipeout that zeroes it). The result is the exact mixture over
``t`` of the table's state after ``t`` rolls, weighted by the head table's bell-roll
distribution, followed by that finishing turn.

Scores are held up to a cap that is raised until less than ``TAIL_MASS`` of probability
spills over it (``overflow``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points

FloatArray = NDArray[np.float64]


def trimmed(dist: FloatArray, floor: float = 1e-9) -> dict[str, float]:
    """A distribution as ``{value: probability}``, leaving out values below ``floor``."""
    return {str(i): float(p) for i, p in enumerate(dist) if p >= floor}


def oriented(array: FloatArray, roller: int) -> FloatArray:
    """A view with the roller's team's score on axis 0 (the first team is axis 0)."""
    return array if roller == 0 else array.T


@dataclass(frozen=True)
class NonHeadOdds:
    """A non-head table's team scores when the head table ends the round.

    ``scores[a, b]`` is the probability that the first team has ``a`` points and the
    second ``b`` once the round is over (after-bell rolls included).
    """

    scores: FloatArray
    tie_probability: float
    overflow: float

    @property
    def first_team_scores(self) -> FloatArray:
        return np.asarray(self.scores.sum(axis=1), dtype=np.float64)

    @property
    def second_team_scores(self) -> FloatArray:
        return np.asarray(self.scores.sum(axis=0), dtype=np.float64)

    @property
    def expected_scores(self) -> tuple[float, float]:
        points = np.arange(self.scores.shape[0])
        return float(points @ self.first_team_scores), float(points @ self.second_team_scores)

    def as_dict(self) -> dict[str, Any]:
        first, second = self.expected_scores
        return {
            "tie_probability": self.tie_probability,
            "expected_first_team_score": first,
            "expected_second_team_score": second,
            "first_team_scores": trimmed(self.first_team_scores),
            "second_team_scores": trimmed(self.second_team_scores),
            "overflow": self.overflow,
        }


def non_head_odds(
    outcomes: tuple[Outcome, ...], bell: FloatArray, finish: bool, target: int
) -> NonHeadOdds:
    """The non-head table's final scores, given the head table's bell-roll distribution
    ``bell[t]``; ``outcomes`` must hold no roll that ends the round by itself."""
    if any(o.ends_round for o in outcomes):
        raise ValueError("a roll that ends the round couples the tables")
    cap = 10 * target + 16
    while True:
        result = _capped(outcomes, bell, finish, cap)
        if result.overflow < TAIL_MASS or cap > 5000:
            return result
        cap = cap * 3 // 2


def _capped(outcomes: tuple[Outcome, ...], bell: FloatArray, finish: bool, cap: int) -> NonHeadOdds:
    moves = [(float(o.probability), o.points, o.continues, o.wipes) for o in outcomes]
    # state[r, m, a, b]: team r to roll next; m = 1 when the last roll continued a turn
    state = np.zeros((2, 2, cap, cap))
    state[0, 0, 0, 0] = 1.0
    mixture = np.zeros_like(state)
    later = np.cumsum(bell[::-1])[::-1]  # later[t] = P(bell roll >= t)
    overflow = 0.0
    for t in range(1, len(bell)):
        new = np.zeros_like(state)
        for r in (0, 1):
            src = oriented(state[r, 0] + state[r, 1], r)
            for p, k, goes_on, wipes in moves:
                dest = oriented(new[r, 1] if goes_on else new[1 - r, 0], r)
                if wipes:
                    dest[0, :] += p * src.sum(axis=0)
                elif k < cap:
                    dest[k:, :] += p * src[: cap - k, :]
                    overflow += later[t] * p * float(src[cap - k :, :].sum())
                else:
                    overflow += later[t] * p * float(src.sum())
        state = new
        if bell[t]:
            mixture += bell[t] * state
    final = mixture[:, 0].sum(axis=0)
    if not finish:
        final += mixture[:, 1].sum(axis=0)
    else:
        kept_exact, wiped_exact = kept_points(outcomes, after_bell=True)
        kept = [float(p) for p in kept_exact]
        wiped = float(wiped_exact)
        for r in (0, 1):
            src = oriented(mixture[r, 1], r)
            dest = oriented(final, r)
            dest[0, :] += wiped * src.sum(axis=0)
            for k, p in enumerate(kept):
                if not p:
                    continue
                if k < cap:
                    dest[k:, :] += p * src[: cap - k, :]
                    overflow += p * float(src[cap - k :, :].sum())
                else:
                    overflow += p * float(src.sum())
    return NonHeadOdds(scores=final, tie_probability=float(np.trace(final)), overflow=overflow)
