"""Exact odds of one roll, one turn and one round, straight from a rule set.

Every figure comes from the 216 equally likely ordered rolls of three dice, each scored
by :func:`bunco.core.dice.score_roll`, so the odds follow the rule set's fields (house
rules included) and never a preset's name.

- **Per roll** and **per turn** the figures are exact fractions. A turn is a run of
  rolls by one player that goes on while a roll continues the turn (``turn_continues``
  and not ``ends_round``) and stops at the first roll that does not. It is a *free*
  turn: no target cuts it short. A turn that ends in a wipeout counts 0 points (the
  wipeout also wipes the team's earlier points in the round; the round figures of
  :mod:`bunco.analysis.table_odds` account for that).
- **Per round** (a head table of four, and the pair of a head and a non-head table) the
  figures come from float64 Markov chains in :mod:`bunco.analysis.table_odds`.

Infinite sums and distributions are cut once the mass left out is below
:data:`TAIL_MASS` (1e-12); every result reports the mass it left out.

>>> from bunco.core.presets import get_rules
>>> roll = roll_odds(get_rules("classic"), 1)
>>> roll.bunco_probability, roll.other_trips_probability, roll.any_target_die_probability
(Fraction(1, 216), Fraction(5, 216), Fraction(91, 216))
>>> turn = turn_odds(get_rules("classic"), 1)
>>> turn.expected_rolls, turn.expected_points
(Fraction(9, 5), Fraction(151, 120))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bunco.analysis.odds_shapes import RollOddsView, TurnOddsView
from bunco.core.dice import score_roll, validate_round
from bunco.core.errors import InvalidRuleValue
from bunco.core.rules import RollKind, RuleSet

TAIL_MASS = 1e-12
"""Largest probability mass any truncated distribution or sum may leave out."""

ROLLS = 216
"""Equally likely ordered rolls of three dice."""

_KIND_ORDER = list(RollKind)
_MAX_POINTS = 100_000


@dataclass(frozen=True, slots=True)
class Outcome:
    """One class of roll: every ordered roll that scores alike.

    ``turn_continues`` is the rule's answer (the roller may roll again); ``continues``
    is true when the roller really rolls again in play: the turn continues and the roll
    does not end the round. After the bell only ``turn_continues`` counts (the engine
    lets a mid-turn roller roll on). ``ways`` counts the ordered rolls out of 216.
    """

    kind: RollKind
    points: int
    turn_continues: bool
    ends_round: bool
    ways: int

    @property
    def continues(self) -> bool:
        return self.turn_continues and not self.ends_round

    @property
    def probability(self) -> Fraction:
        return Fraction(self.ways, ROLLS)

    @property
    def wipes(self) -> bool:
        """The roll wipes the roller's team's points for the round."""
        return self.kind is RollKind.WIPEOUT

    @property
    def is_bunco(self) -> bool:
        return self.kind is RollKind.BUNCO


@lru_cache(maxsize=256)
def roll_outcomes(rules: RuleSet, round_no: int) -> tuple[Outcome, ...]:
    """The classes of roll in round ``round_no``, grouped from all 216 ordered rolls (kept
    per rule set and round: ``odds --set`` asks a hundred times for the same six).

    >>> from bunco.core.presets import get_rules
    >>> [(o.kind.value, o.points, o.ways) for o in roll_outcomes(get_rules("classic"), 1)]
    [('miss', 0, 120), ('points', 1, 75), ('points', 2, 15), ('bunco', 21, 1), ('mini_bunco', 5, 5)]
    """
    validate_round(round_no)
    groups: dict[tuple[RollKind, int, bool, bool], int] = {}
    for dice in itertools.product(range(1, 7), repeat=3):
        score = score_roll(dice, round_no, rules)
        key = (score.kind, score.points, score.turn_continues, score.ends_round)
        groups[key] = groups.get(key, 0) + 1
    outcomes = [Outcome(k, p, c, e, n) for (k, p, c, e), n in groups.items()]
    outcomes.sort(key=lambda o: (_KIND_ORDER.index(o.kind), o.points, o.turn_continues))
    return tuple(outcomes)


@dataclass(frozen=True, slots=True)
class RollOdds:
    """Exact odds of one roll in a round."""

    round_no: int
    outcomes: tuple[Outcome, ...]
    expected_points: Fraction
    continue_probability: Fraction
    bunco_probability: Fraction
    other_trips_probability: Fraction
    any_target_die_probability: Fraction

    def by_kind(self) -> dict[str, Fraction]:
        """Probability of each kind of roll (miss, points, bunco, ...)."""
        out: dict[str, Fraction] = {}
        for o in self.outcomes:
            out[o.kind.value] = out.get(o.kind.value, Fraction(0)) + o.probability
        return out

    def points_distribution(self) -> dict[int, Fraction]:
        """Probability of each number of points one roll scores."""
        out: dict[int, Fraction] = {}
        for o in self.outcomes:
            out[o.points] = out.get(o.points, Fraction(0)) + o.probability
        return dict(sorted(out.items()))

    def as_dict(self) -> RollOddsView:
        return {
            "expected_points": float(self.expected_points),
            "expected_points_exact": str(self.expected_points),
            "continue_probability": float(self.continue_probability),
            "bunco_probability": float(self.bunco_probability),
            "other_trips_probability": float(self.other_trips_probability),
            "any_target_die_probability": float(self.any_target_die_probability),
            "outcomes": [
                {
                    "kind": o.kind.value,
                    "points": o.points,
                    "continues": o.continues,
                    "turn_continues": o.turn_continues,
                    "ends_round": o.ends_round,
                    "ways": o.ways,
                    "probability": float(o.probability),
                    "probability_exact": str(o.probability),
                }
                for o in self.outcomes
            ],
            "by_kind": {k: float(v) for k, v in self.by_kind().items()},
            "points_distribution": {
                str(k): float(v) for k, v in self.points_distribution().items()
            },
        }


def roll_odds(rules: RuleSet, round_no: int) -> RollOdds:
    """Exact per-roll odds: outcome classes, expected points, chance to roll again."""
    outcomes = roll_outcomes(rules, round_no)
    target_die = sum(1 for d in itertools.product(range(1, 7), repeat=3) if round_no in d)
    trips = sum(o.ways for o in outcomes if o.kind not in (RollKind.MISS, RollKind.POINTS))
    bunco = sum(o.ways for o in outcomes if o.is_bunco)
    return RollOdds(
        round_no=round_no,
        outcomes=outcomes,
        expected_points=sum((o.probability * o.points for o in outcomes), Fraction(0)),
        continue_probability=sum((o.probability for o in outcomes if o.continues), Fraction(0)),
        bunco_probability=Fraction(bunco, ROLLS),
        other_trips_probability=Fraction(trips - bunco, ROLLS),
        any_target_die_probability=Fraction(target_die, ROLLS),
    )


@dataclass(frozen=True, slots=True)
class TurnOdds:
    """Exact odds of one free turn (no target) in a round.

    ``points_distribution[k]`` and ``rolls_distribution[n - 1]`` are exact; both lists stop
    once less than :data:`TAIL_MASS` is left out (``points_tail``, ``rolls_tail``).
    ``wipeout_points`` holds the points distribution of turns that do *not* end in a
    wipeout (a sub-distribution of mass ``1 - wipeout_probability``): the finishing
    turn of a player who rolls on after the bell adds these to the team.
    """

    round_no: int
    continue_probability: Fraction
    expected_rolls: Fraction
    expected_points: Fraction
    bunco_probability: Fraction
    wipeout_probability: Fraction
    rolls_distribution: tuple[Fraction, ...]
    rolls_tail: Fraction
    points_distribution: tuple[Fraction, ...]
    points_tail: Fraction
    kept_points: tuple[Fraction, ...]

    def as_dict(self) -> TurnOddsView:
        return {
            "expected_points": float(self.expected_points),
            "expected_points_exact": str(self.expected_points),
            "expected_rolls": float(self.expected_rolls),
            "expected_rolls_exact": str(self.expected_rolls),
            "bunco_probability": float(self.bunco_probability),
            "bunco_probability_exact": str(self.bunco_probability),
            "wipeout_probability": float(self.wipeout_probability),
            "continue_probability": float(self.continue_probability),
            "rolls_distribution": {
                str(n + 1): float(p) for n, p in enumerate(self.rolls_distribution)
            },
            "rolls_tail": float(self.rolls_tail),
            "points_distribution": {
                str(k): float(p) for k, p in enumerate(self.points_distribution) if p
            },
            "points_tail": float(self.points_tail),
        }


def turn_odds(rules: RuleSet, round_no: int) -> TurnOdds:
    """Exact per-turn odds: rolls and points of a free turn, P(at least one Bunco).

    Rolls are independent, so a turn is ``j`` continuing rolls and one stopping roll:
    ``E[rolls] = 1 / (1 - c)`` with ``c`` the chance to roll again, and the points of
    the continuing rolls have the generating sum ``G = sum_j C^{*j}`` (``C`` the
    sub-distribution of continuing rolls' points), solved point by point.
    """
    outcomes = roll_outcomes(rules, round_no)
    zero = Fraction(0)
    c = sum((o.probability for o in outcomes if o.continues), zero)
    stop = 1 - c
    wipe = sum((o.probability for o in outcomes if not o.continues and o.wipes), zero)
    bunco = sum((o.probability for o in outcomes if o.is_bunco), zero)
    stop_plain = sum((o.probability for o in outcomes if not o.continues and not o.is_bunco), zero)
    cont_points = sum((o.probability * o.points for o in outcomes if o.continues), zero)
    stop_points = sum(
        (o.probability * o.points for o in outcomes if not o.continues and not o.wipes), zero
    )
    # Continuing points are kept unless the stopping roll is a wipeout.
    expected_points = cont_points / stop * (1 - wipe / stop) + stop_points / stop

    rolls: list[Fraction] = []
    left = Fraction(1)
    while left >= TAIL_MASS:
        p = c ** len(rolls) * stop
        rolls.append(p)
        left -= p

    kept, _ = kept_points(outcomes, after_bell=False)
    points = list(kept)
    points[0] += wipe / stop
    return TurnOdds(
        round_no=round_no,
        continue_probability=c,
        expected_rolls=1 / stop,
        expected_points=expected_points,
        bunco_probability=bunco / (bunco + stop_plain),
        wipeout_probability=wipe / stop,
        rolls_distribution=tuple(rolls),
        rolls_tail=left,
        points_distribution=tuple(points),
        points_tail=1 - sum(points, zero),
        kept_points=tuple(kept),
    )


@lru_cache(maxsize=256)
def kept_points(
    outcomes: tuple[Outcome, ...], *, after_bell: bool
) -> tuple[tuple[Fraction, ...], Fraction]:
    """``P(a free turn scores k points and does not end in a wipeout)`` for k = 0, 1, ...,
    and ``P(the turn ends in a wipeout)``.

    With ``after_bell`` the turn is a roller's rolling on after the bell, where a roll
    goes on whenever ``turn_continues`` (a roll that would end the round does not stop
    it). The list is cut once less than :data:`TAIL_MASS` of the sub-distribution is
    left out.
    """
    zero = Fraction(0)

    def goes_on(o: Outcome) -> bool:
        return o.turn_continues if after_bell else o.continues

    c = sum((o.probability for o in outcomes if goes_on(o)), zero)
    wipe = sum((o.probability for o in outcomes if not goes_on(o) and o.wipes), zero)
    cont: dict[int, Fraction] = {}
    stop: dict[int, Fraction] = {}
    for o in outcomes:
        if goes_on(o):
            cont[o.points] = cont.get(o.points, zero) + o.probability
        elif not o.wipes:
            stop[o.points] = stop.get(o.points, zero) + o.probability
    total = sum(stop.values(), zero) / (1 - c)
    loop = 1 - cont.pop(0, zero)
    gen: list[Fraction] = []
    kept: list[Fraction] = []
    got = zero
    k = 0
    while total - got >= TAIL_MASS:
        if k > _MAX_POINTS:
            raise InvalidRuleValue(
                "a turn's points do not settle under these rules",
                expected="rules under which a turn ends",
            )
        g = Fraction(int(k == 0)) + sum((p * gen[k - m] for m, p in cont.items() if m <= k), zero)
        gen.append(g / loop)
        value = sum((p * gen[k - m] for m, p in stop.items() if m <= k), zero)
        kept.append(value)
        got += value
        k += 1
    return tuple(kept), wipe / (1 - c)
