"""A non-head table's scores when the head table ends the round (a Markov chain).

Every table rolls at the same pace, one roll per time step. When the head table's bell
roll is roll ``t`` the non-head table has made ``t`` rolls too; with ``finish_turn`` its
roller, if that last roll continued the turn, then rolls on until a roll fails to continue
(added to the team, or a wipeout that zeroes it). The result is the exact mixture over
``t`` of the table's state after ``t`` rolls, weighted by the head table's bell-roll
distribution, followed by that finishing turn.

Where every table first rolls for high to decide who starts (``roll_for_high``), each
table spends its own random number of steps on it (:func:`high_roll_steps`: one roll per
player, then re-rolls among those tied for the highest total). The non-head table then
has made ``max(0, t + H_head - H_other)`` rolls in play at the bell (:func:`offset_bell`);
a table still rolling for high when the bell rings stands at 0-0, a tie.

Scores are held up to a cap that is raised until less than ``TAIL_MASS`` of probability
spills over it (``overflow``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points
from bunco.analysis.odds_shapes import NonHeadView

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

    def as_dict(self) -> NonHeadView:
        first, second = self.expected_scores
        return {
            "tie_probability": self.tie_probability,
            "expected_first_team_score": first,
            "expected_second_team_score": second,
            "first_team_scores": trimmed(self.first_team_scores),
            "second_team_scores": trimmed(self.second_team_scores),
            "overflow": self.overflow,
        }


def high_roll_steps(players: int = 4) -> FloatArray:
    """``steps[n]``: P(``players`` rolling for high total take ``n`` rolls to leave one
    highest roller), re-rolling among those tied for the highest, one roll each.

    >>> steps = high_roll_steps(2)
    >>> round(float(steps[2]), 4), round(float(steps[4]), 4)  # no tie; one tie
    (0.9072, 0.0842)
    """
    totals = np.zeros(19)
    for dice in itertools.product(range(1, 7), repeat=3):
        totals[sum(dice)] += 1 / 216
    below = np.concatenate([[0.0], np.cumsum(totals)[:-1]])  # below[s] = P(total < s)
    # tied[n][m]: P(m of n rollers share the highest total), m >= 1
    tied = np.zeros((players + 1, players + 1))
    for n in range(1, players + 1):
        for m in range(1, n + 1):
            tied[n, m] = math.comb(n, m) * float(np.sum(totals**m * below ** (n - m)))
    size = 8 * players
    while True:
        # after[n][k]: P(k rolls until one is highest, from n contenders); a roll each,
        # then m >= 2 tied at the top go again (m = n too: the same chain, n rolls later)
        after = np.zeros((players + 1, size))
        after[1, 0] = 1.0
        for n in range(2, players + 1):
            for k in range(n, size):
                after[n, k] = sum(tied[n, m] * after[m, k - n] for m in range(1, n + 1))
        out: FloatArray = after[players]
        if 1.0 - float(out.sum()) < TAIL_MASS / 10 or size > 4096:
            return out
        size *= 2


def offset_bell(bell: FloatArray, high: FloatArray) -> FloatArray:
    """The distribution of the non-head table's rolls in play when the head table's bell
    roll is its roll ``t`` (``bell[t]``) and both tables first rolled for high, taking
    ``H`` steps each (``high[H]``, independent): ``max(0, t + H_head - H_other)``.

    >>> import numpy as np
    >>> offset_bell(np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.5, 0.5])).tolist()
    [0.0, 0.25, 0.5, 0.25, 0.0]
    """
    shift = np.convolve(high, high[::-1])  # index i: H_head - H_other = i - (len(high) - 1)
    zero = len(high) - 1
    out = np.zeros(len(bell) + zero)
    for t, p in enumerate(bell):
        if not p:
            continue
        for i, q in enumerate(shift):
            if q:
                out[max(0, t + i - zero)] += p * q
    return out


def non_head_odds(
    outcomes: tuple[Outcome, ...], bell: FloatArray, finish: bool, target: int
) -> NonHeadOdds:
    """The non-head table's final scores, given the distribution ``bell[t]`` of its rolls
    in play when the bell rings (the head table's bell roll, or :func:`offset_bell`);
    ``outcomes`` must hold no roll that ends the round by itself."""
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
    mixture += bell[0] * state  # the bell before any roll in play
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
