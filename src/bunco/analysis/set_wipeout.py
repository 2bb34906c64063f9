"""Round chains at a head-table party where a wipeout can strike (the house rule).

A wipeout (three 1's outside round 1) takes the roller's team's points for the round
back to 0 and ends the turn. Two things change from :mod:`bunco.analysis.set_exact`:

- **the head table** can tie after its bell: with ``finish_turn`` the bell's roller may
  roll on, and a wipeout then leaves the team at 0; the other team wins if it has a
  point, else the two teams tie and the tie-break decides, the other team to roll next
  (:func:`head_bells_wiping`);
- **another table**, stopped by the bell, is no longer decided by the lead alone: a
  wipeout takes away the roller's team's own points, so the chain follows both team
  scores, up to a cap raised until less than ``TAIL_MASS`` spills over it
  (:func:`other_wins_wiping`).

>>> from bunco.analysis.odds import roll_outcomes
>>> from bunco.core.presets import get_rules
>>> outcomes = roll_outcomes(get_rules("classic", {"wipeout": True}), 2)
>>> bells = head_bells_wiping(outcomes, 21, True, (0.5, 0.5))
>>> round(float(bells.sum()), 9), bool(0.5 < bells[0].sum() < 0.53)
(1.0, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.chain_steps import moves_of, pair_roll, score_chain, start
from bunco.analysis.non_head import oriented
from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points

FloatArray = NDArray[np.float64]


def _team_wins_tie(team: int, tie_first: tuple[float, float]) -> float:
    """P(team ``team`` wins a tie-break in which the other team rolls next)."""
    first = tie_first[1 - team]  # P(the first team wins when team 1 - team rolls next)
    return first if team == 0 else 1.0 - first


@lru_cache(maxsize=64)
def head_bells_wiping(
    outcomes: tuple[Outcome, ...], target: int, finish: bool, tie_first: tuple[float, float]
) -> FloatArray:
    """``bells[w, t]``: P(the head table's bell is its roll ``t`` and team ``w`` wins the
    table), a wipeout after the bell included; ``tie_first[x]``: P(the first team wins a
    tie when team ``x`` rolls next)."""
    moves = moves_of(outcomes)
    wiped = float(kept_points(outcomes, after_bell=True)[1]) if finish else 0.0
    on = np.array([move.rolls_on for move in moves])
    bells = [np.zeros(2)]
    state = start(2, target)
    for new, absorbed in score_chain(state, moves, target):
        won = absorbed.sum(axis=1)
        for r in (0, 1):  # team r rang the bell and rolls on; a wipeout, 0 points
            src = oriented(state[r], r)
            at_nil = sum(
                move.p * float(src[max(target - move.points, 0) :, 0].sum())
                for move in moves
                if move.rolls_on
            )  # the other team has 0
            wiped_out = wiped * float(absorbed[r, on].sum())
            tie = wiped * at_nil
            share = _team_wins_tie(r, tie_first)
            won[r] -= wiped_out - tie * share
            won[1 - r] += wiped_out - tie * share
        bells.append(won)
        state = new
    return np.array(bells).T


def _settle(a: NDArray[np.int64], b: NDArray[np.int64], tie: float) -> FloatArray:
    """P(the first team wins) at scores ``a`` to ``b``, a tie going its way with ``tie``."""
    return np.where(a > b, 1.0, 0.0) + np.where(a == b, tie, 0.0)


def _payoff(
    cap: int, kept: FloatArray, wiped: float, finish: bool, tie_first: tuple[float, float]
) -> FloatArray:
    """``payoff[r, m, a, b]``: P(the first team wins) when the bell stops the table with
    team ``r`` to roll next (``m = 1``: in the middle of a turn, rolling on with
    ``finish``) and the scores ``a`` to ``b``."""
    a = np.arange(cap)[:, None]
    b = np.arange(cap)[None, :]
    payoff = np.zeros((2, 2, cap, cap))
    for r in (0, 1):
        payoff[r, 0] = _settle(a, b, tie_first[r])
        if not finish:
            payoff[r, 1] = payoff[r, 0]
            continue
        after = tie_first[1 - r]  # the roller rolls on, then the dice pass
        on = wiped * (_settle(0 * a, b, after) if r == 0 else _settle(a, 0 * b, after))
        for k, p in enumerate(kept):
            if p:
                on = on + p * (_settle(a + k, b, after) if r == 0 else _settle(a, b + k, after))
        payoff[r, 1] = on
    return payoff


@lru_cache(maxsize=64)
def other_wins_wiping(
    outcomes: tuple[Outcome, ...],
    reach: tuple[float, ...],
    finish: bool,
    tie_first: tuple[float, float],
) -> FloatArray:
    """``wins[n]``: P(the team of seats 1 and 3, which rolls first, wins a table stopped
    after ``n`` rolls in play), for ``n < len(reach)``, following both team scores;
    ``reach[n]``: P(the table is stopped after ``n`` rolls), which weighs the points
    pushed past the cap (raised until less than ``TAIL_MASS`` of weight spills)."""
    kept_exact, wiped_exact = kept_points(outcomes, after_bell=True)
    kept = np.array([float(p) for p in kept_exact])
    moves = moves_of(outcomes)
    later = np.cumsum(np.array(reach)[::-1])[::-1]  # later[n]: P(stopped after n or more)
    cap = 64
    while True:
        payoff = _payoff(cap, kept, float(wiped_exact), finish, tie_first)
        state = np.zeros((2, 2, cap, cap))  # [team to roll, in a turn, first's, second's]
        state[0, 0, 0, 0] = 1.0
        wins = np.zeros(len(reach))
        lost = 0.0
        for n in range(len(reach)):
            wins[n] = float((state * payoff).sum())
            if n + 1 < len(reach):
                new = pair_roll(state, moves)
                lost += float(later[n + 1]) * float(state.sum() - new.sum())
                state = new
            if lost >= TAIL_MASS and cap <= 4096:
                break  # too small: start again with a larger cap
        else:
            return wins
        cap *= 2
