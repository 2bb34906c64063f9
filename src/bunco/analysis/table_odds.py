"""Round odds at a head table of four (a Markov chain), with a non-head table beside it.

The model (RULES.md §2–§3, read from the rule set's fields, as :mod:`bunco.core.night`
plays it):

- Two teams alternate turns: the first team (the scorekeeper's, seat 1) rolls first, the
  dice pass to the other team whenever a roll does not continue the turn. Which way the
  dice pass does not matter: the next seat always belongs to the other team.
- The head table's round ends on the *bell roll*: the roll that brings the roller's team
  to the target ``rules.target(team=True, single_table=False)``, or a roll that ends the
  round by itself (``ends_round``, the ``winning-moves`` Bunco).
- With ``after_bell == finish_turn`` a bell roll that continues the turn
  (``turn_continues``) lets its roller roll on until a roll does not; those rolls count
  among the round's rolls and their points (or wipeout) count for the team.
- The table is then settled on points: the team with more points wins, equal points go to
  a tie-break (``tie_probability``; not played out here). Under the presets a tie at the
  head table can only come from a wipeout after the bell (house rule).
- A wipeout sets the roller's team's round score to 0 and ends the turn.
- The non-head table (:mod:`bunco.analysis.non_head`) rolls at the same pace (after
  rolling for high, like the head table, under ``first_roller = roll_for_high``); its figures
  need a round that only the head table ends (``round_end == head_table``) and no roll
  that ends the round by itself; otherwise they are ``None`` with a note.

Chains run until less than ``TAIL_MASS`` of probability is left.

>>> from bunco.core.presets import get_rules
>>> head = table_odds(get_rules("classic"), 1, non_head=False)
>>> 0.5 < head.first_team_win_probability < 0.6
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.non_head import (
    NonHeadOdds,
    high_roll_steps,
    non_head_odds,
    offset_bell,
    oriented,
    trimmed,
)
from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points, roll_outcomes
from bunco.analysis.odds_shapes import TableOddsView
from bunco.core.errors import InvalidRuleValue
from bunco.core.rules import AfterBell, FirstRoller, RoundEnd, RuleSet

__all__ = ["MAX_STEPS", "NonHeadOdds", "TableOdds", "table_odds"]

MAX_STEPS = 50_000
"""Rolls after which a round that still has not ended is refused as not computable."""

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class TableOdds:
    """A head table's round: who wins, how many rolls, whether a Bunco ends it.

    ``rolls_distribution[n]`` is P(the round takes ``n`` rolls, after-bell rolls
    included); ``bell_distribution[t]`` is P(the bell roll is roll ``t``).
    ``first_team_win_probability`` counts wins on points; ``tie_probability`` is the
    chance of a tie-break at the head table.
    """

    round_no: int
    target: int
    first_team_win_probability: float
    tie_probability: float
    expected_rolls: float
    expected_bell_roll: float
    expected_after_bell_rolls: float
    bunco_end_probability: float
    rolls_distribution: FloatArray
    bell_distribution: FloatArray
    tail_mass: float
    non_head: NonHeadOdds | None
    non_head_note: str | None

    def as_dict(self) -> TableOddsView:
        return {
            "target": self.target,
            "first_team_win_probability": self.first_team_win_probability,
            "tie_probability": self.tie_probability,
            "expected_rolls": self.expected_rolls,
            "expected_bell_roll": self.expected_bell_roll,
            "expected_after_bell_rolls": self.expected_after_bell_rolls,
            "bunco_end_probability": self.bunco_end_probability,
            "rolls_distribution": trimmed(self.rolls_distribution),
            "tail_mass": self.tail_mass,
            "non_head": None if self.non_head is None else self.non_head.as_dict(),
            "non_head_note": self.non_head_note,
        }


def table_odds(rules: RuleSet, round_no: int, *, non_head: bool = True) -> TableOdds:
    """Round odds at a head table of four (and a non-head table when ``non_head``).

    Rounds whose rolls score alike (every round of ``classic``) are computed once.
    """
    outcomes = roll_outcomes(rules, round_no)
    note: str | None = None
    if any(o.ends_round for o in outcomes):
        note = "a roll that ends the round by itself couples the tables; not computed"
    elif rules.round_end is not RoundEnd.HEAD_TABLE:
        note = "every table plays to its own target; not computed"
    odds = _table_odds(
        outcomes,
        rules.target(team=True, single_table=False),
        rules.after_bell is AfterBell.FINISH_TURN,
        non_head and note is None,
        rules.first_roller is FirstRoller.ROLL_FOR_HIGH,
    )
    return replace(odds, round_no=round_no, non_head_note=note)


@lru_cache(maxsize=64)
def _table_odds(
    outcomes: tuple[Outcome, ...],
    target: int,
    finish: bool,
    with_non_head: bool,
    roll_for_high: bool = False,
) -> TableOdds:
    top = target + max(o.points for o in outcomes)
    # state[r, a, b]: team r about to roll, first team has a, second b (both < target)
    state = np.zeros((2, target, target))
    state[0, 0, 0] = 1.0
    # bell[g][r][x, b]: team r rang the bell with x points, the other team has b;
    # g = 1 when the roller then rolls on after the bell
    at_bell = np.zeros((2, 2, top, target))
    bunco_end = 0.0
    bell_go: list[float] = [0.0]
    bell_stop: list[float] = [0.0]
    left = 1.0
    while left >= TAIL_MASS / 10:
        if len(bell_go) > MAX_STEPS:
            raise InvalidRuleValue(
                f"a round at a table does not end within {MAX_STEPS} rolls under these rules",
                expected="rules under which a team can reach its target",
            )
        new = np.zeros_like(state)
        ended = [0.0, 0.0]
        for r in (0, 1):
            src = oriented(state[r], r)
            if not src.any():
                continue
            for o in outcomes:
                p = float(o.probability)
                g = int(finish and o.turn_continues)
                k = o.points
                if o.wipes:
                    oriented(new[r if o.continues else 1 - r], r)[0, :] += p * src.sum(axis=0)
                    continue
                if o.ends_round or k >= target:
                    absorbed = src
                    at_bell[g, r, k : k + target, :] += p * src
                else:
                    dest = oriented(new[r if o.continues else 1 - r], r)
                    dest[k:, :] += p * src[: target - k, :]
                    absorbed = src[target - k :, :]
                    at_bell[g, r, target : target + k, :] += p * absorbed
                done = p * float(absorbed.sum())
                ended[g] += done
                if o.is_bunco:
                    bunco_end += done
        state = new
        bell_stop.append(ended[0])
        bell_go.append(ended[1])
        left = float(state.sum())

    first_wins, tie = _settle(at_bell, outcomes)
    bell = np.array(bell_go) + np.array(bell_stop)
    c_raw = sum(float(o.probability) for o in outcomes if o.turn_continues)
    after_bell = float(np.sum(bell_go)) / (1.0 - c_raw)
    rolls = _with_after_bell(np.array(bell_stop), np.array(bell_go), c_raw)
    steps = np.arange(len(bell))
    nh = None
    if with_non_head:
        # both tables first roll for high: the non-head table is that many rolls off pace
        other = offset_bell(bell, high_roll_steps(4)) if roll_for_high else bell
        nh = non_head_odds(outcomes, other, finish, target)
    return TableOdds(
        round_no=0,
        target=target,
        first_team_win_probability=first_wins,
        tie_probability=tie,
        expected_rolls=float(steps @ bell) + after_bell,
        expected_bell_roll=float(steps @ bell),
        expected_after_bell_rolls=after_bell,
        bunco_end_probability=bunco_end,
        rolls_distribution=rolls,
        bell_distribution=bell,
        tail_mass=max(0.0, 1.0 - float(rolls.sum())),
        non_head=nh,
        non_head_note=None,
    )


def _settle(at_bell: FloatArray, outcomes: tuple[Outcome, ...]) -> tuple[float, float]:
    """P(first team wins on points) and P(tie), from the scores at the bell.

    Without rolling on, the roller's ``x`` meets the other team's ``b``. Rolling on adds
    ``K`` points with probability ``kept[K]``, or wipes the team to 0 with ``wiped``.
    """
    top, target = at_bell.shape[2], at_bell.shape[3]
    x = np.arange(top)[:, None]
    b = np.arange(target)[None, :]
    kept_exact, wiped_exact = kept_points(outcomes, after_bell=True)
    kept = np.array([float(p) for p in kept_exact])
    wiped = float(wiped_exact)
    above = np.concatenate([np.cumsum(kept[::-1])[::-1][1:], [0.0]])  # above[d] = P(K > d)
    d = b - x
    inside = (d >= 0) & (d < len(kept))
    safe = np.clip(d, 0, len(kept) - 1)
    go_win = np.where(d < 0, kept.sum(), np.where(inside, above[safe], 0.0))
    go_tie = np.where(inside, kept[safe], 0.0) + np.where(b == 0, wiped, 0.0)
    win = [0.0, 0.0]
    lose = [0.0, 0.0]
    tie = 0.0
    for r in (0, 1):
        stop, go = at_bell[0, r], at_bell[1, r]
        win[r] = float((stop * (x > b)).sum() + (go * go_win).sum())
        t = float((stop * (x == b)).sum() + (go * go_tie).sum())
        tie += t
        lose[r] = float(stop.sum() + go.sum()) - win[r] - t
    return win[0] + lose[1], tie


def _with_after_bell(stop: FloatArray, go: FloatArray, c: float) -> FloatArray:
    """Rolls in the round: bell roll ``t``, plus ``k >= 1`` rolls when the roller rolls on.

    ``P(k) = c**(k-1) (1 - c)``, cut where less than ``TAIL_MASS / 10`` is left.
    """
    k_max = 1
    while c**k_max >= TAIL_MASS / 10:
        k_max += 1
    geo = np.array([0.0] + [c ** (k - 1) * (1 - c) for k in range(1, k_max + 1)])
    out = np.zeros(len(stop) + k_max)
    out[: len(stop)] += stop
    out += np.convolve(go, geo)[: len(out)]
    return out
