"""Exact odds of one round at tables of four: the ``2^T`` ways it can go at ``T`` tables.

Where either the head table ends every round (``round_end = head_table``, no roll ending
a round by itself: ``classic``, ``scil``, ``tournament``) or every table plays to its own
target and a Bunco at any table ends the round (``every_table``, the scorekeeper first,
nobody rolling on: ``winning-moves``), wipeouts or not (:mod:`bunco.analysis.set_wipeout`
follows them at a head-table party), one round
at ``T`` tables of four goes one of ``2^T`` ways: at each table one team wins, the team
of seats 1 and 3 or that of seats 2 and 4. Its chance depends only on the round's
number, never on who sits where, so the rounds of a set compose
(:mod:`bunco.analysis.set_seats`, :mod:`bunco.analysis.set_most_wins`). The chains
themselves roll with :mod:`bunco.analysis.chain_steps`.

*The head table ends the round.* The head table is a Markov chain over the two team
scores, as in :mod:`bunco.analysis.table_odds`, kept apart by the roll ``t`` of the
bell and the team that rang it (that team wins the head table). Every other table
has made ``t`` rolls by then (all tables roll at one pace; the night kernel's and the
engine's schedule) and only the difference of its two team scores decides it, a
chain over that difference; with ``finish_turn`` a roller in the middle of a turn
then rolls on (:func:`bunco.analysis.odds.kept_points`). A tie is settled by the
preset's tie-break: sessions and the roll-off to five are even for both teams (the
same turns for each, or a starter drawn by rolling for high); sudden death favours
the team to roll next, ``1 / (2 - h)`` with ``h = 91/216`` the chance a roll shows
the round's number. Given ``t`` the other tables are independent, so the chance of
each of the ``2^T`` ways is a sum over ``t``. Where every table first rolls for high
to pick its first roller, the team that starts at a table is either one with chance
1/2, independently of the dice, so each of the ``2^T`` ways has chance ``2^-T``.

*Every table to its own target.* Each table is a chain over its two team scores that
ends at the target (that team wins) or at a Bunco (the roller's team wins, and the
round ends everywhere: the other tables go to the team ahead, a tie to the tie-break).
In each tick every table still playing rolls once, the last table first, and the
tick stops at a Bunco, so when the Bunco is table ``j``'s roll ``t`` the tables after
it in the tick have made ``t`` rolls and those before it ``t - 1``; given that, the
tables are independent, and the chance of each way is a sum over ``j`` and ``t``
(plus the rounds with no Bunco, where every table plays to its target).

A round's ways (:func:`round_patterns`), each table's chance of a win by the team that
rolled first there (:func:`first_team_chances`), and the chains behind them.

>>> from bunco.core.presets import get_rules
>>> q = round_patterns(get_rules("classic"), 1, 3)
>>> round(float(q.sum()), 12), q.shape
(1.0, (8,))
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.chain_steps import (
    lead_roll,
    moves_of,
    score_chain,
    standing,
    start,
)
from bunco.analysis.non_head import high_roll_steps, offset_bell
from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points, roll_outcomes
from bunco.analysis.set_wipeout import head_bells_wiping, other_wins_wiping
from bunco.core.dice import score_checked
from bunco.core.rules import AfterBell, FirstRoller, RoundEnd, RuleSet, TieBreak

FloatArray = NDArray[np.float64]

#: Chance that one roll shows the round's number (a sudden-death hit).
HIT = Fraction(91, 216)


def sudden_carry_on(rules: RuleSet, round_no: int) -> Fraction:
    """Chance that a sudden-death roll in round ``round_no`` neither wins nor ends the
    turn: a three of a kind of another number that continues the turn in play (004: a
    Mini Bunco "continues their turn"; ``TableRound._sudden_death_roll``). A turn then
    wins with ``HIT / (1 - carry_on)``.

    >>> from bunco.core.presets import get_rules
    >>> sudden_carry_on(get_rules("tournament"), 3)
    Fraction(5, 216)
    >>> sudden_carry_on(get_rules("tournament", {"wipeout": "true"}), 3)  # 1 1 1 wipes
    Fraction(1, 54)
    """
    carry = sum(
        score_checked((v, v, v), round_no, rules).turn_continues
        for v in range(1, 7)
        if v != round_no
    )
    return Fraction(carry, 216)


def sudden_turn(rules: RuleSet, round_no: int) -> tuple[float, float]:
    """(P(a sudden-death turn wins), expected rolls in the turn) in round ``round_no``
    (:func:`sudden_carry_on`)."""
    carry_on = sudden_carry_on(rules, round_no)
    return float(HIT / (1 - carry_on)), float(1 / (1 - carry_on))


def rules_refusal(rules: RuleSet) -> str | None:
    """Why this rule set's rounds at several tables are not composed exactly, table by
    table (None: they are; then each table's split and the players' Buncos are too)."""
    rounds = [roll_outcomes(rules, round_no) for round_no in range(1, 7)]
    wipes = any(o.wipes for outcomes in rounds for o in outcomes)
    ends = any(o.ends_round for outcomes in rounds for o in outcomes)
    if rules.first_roller is FirstRoller.LEFT_OF_LAST_WINNER:
        return "the first roller depends on the last round's winner: not composed"
    if rules.round_end is RoundEnd.HEAD_TABLE:
        if ends:
            return "a roll that ends the round at every table, at a head-table party: not composed"
        return None
    if rules.first_roller is not FirstRoller.SCOREKEEPER:
        return "every table plays to its own target after rolling for high: not composed"
    if ends and rules.after_bell is AfterBell.FINISH_TURN:
        return "rolling on after a Bunco ends the round elsewhere: not composed"
    if wipes and rules.after_bell is AfterBell.FINISH_TURN:
        return "a wipeout can tie a table that has reached its target: not composed"
    if any(o.ends_round and not o.is_bunco for outcomes in rounds for o in outcomes):
        return "a roll other than a Bunco ends the round: not composed"
    return None


def ways_refusal(rules: RuleSet) -> str | None:
    """Why the ``2^T`` ways of this rule set's rounds (:func:`round_patterns`) are not
    exact (None: they are). Where every table first rolls for high at a head-table
    party, each way has chance ``2^-T`` whatever the dice do, wipeouts included."""
    if (
        rules.round_end is RoundEnd.HEAD_TABLE
        and rules.first_roller is FirstRoller.ROLL_FOR_HIGH
        and not any(o.ends_round for r in range(1, 7) for o in roll_outcomes(rules, r))
    ):
        return None
    return rules_refusal(rules)


@lru_cache(maxsize=64)
def _head_bells(outcomes: tuple[Outcome, ...], target: int) -> FloatArray:
    """``bells[w, t]``: P(the head table's bell is its roll ``t`` and the team of seats
    1 and 3 (``w = 0``) or of seats 2 and 4 (``w = 1``) rang it, and so won); the team of
    seat 1 rolls first."""
    bells = [np.zeros(2)]
    for _, absorbed in score_chain(start(2, target), moves_of(outcomes), target):
        bells.append(absorbed.sum(axis=1))
    return np.array(bells).T


@lru_cache(maxsize=64)
def own_target_table(
    outcomes: tuple[Outcome, ...], target: int, tie_first: tuple[float, float]
) -> tuple[FloatArray, FloatArray]:
    """A table that plays to its own target, where a Bunco at any table ends the round
    (``round_end = every_table``), the team of seats 1 and 3 rolling first.

    Returns ``(bunco, reached)``: ``bunco[w, t]`` is P(no Bunco and no target before, and
    the table's roll ``t`` is a Bunco by team ``w``, which wins); ``reached[w, t]`` is
    P(no Bunco at this table in its first ``t`` rolls, and team ``w`` has won it by then
    or would win it if the round were stopped now: it has reached the target, or it leads
    on points; a tie goes to the roll-off, ``tie_first``)."""
    moves = moves_of(outcomes)
    ends = np.array([move.ends for move in moves])
    won = list(tie_first)
    lost = [1.0 - x for x in won]
    state = start(2, target)
    done = (0.0, 0.0)
    bunco = [np.zeros(2)]
    reached = [np.array(standing(state, done, won, lost))]
    chain = score_chain(state, moves, target)
    for state, absorbed in chain:
        bunco.append(absorbed[:, ends].sum(axis=1))
        done = (
            done[0] + float(absorbed[0, ~ends].sum()),
            done[1] + float(absorbed[1, ~ends].sum()),
        )
        reached.append(np.array(standing(state, done, won, lost)))
    return np.array(bunco).T, np.array(reached).T


def _own_target_patterns(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """:func:`round_patterns` where every table plays to its own target and a Bunco at any
    table ends the round. In each tick every table still playing rolls once, the last
    table first and the head table last, and the tick stops at a Bunco: when table
    ``j``'s roll ``t`` is the Bunco, tables after it have made ``t`` rolls, tables before
    it ``t - 1``."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    return own_target_ways([own_target_table(outcomes, target, tie_odds(rules, round_no))] * tables)


def own_target_ways(chains: list[tuple[FloatArray, FloatArray]]) -> FloatArray:
    """The ``2^T`` ways of a round at tables that play to their own targets, from each
    table's ``(bunco, reached)`` (:func:`own_target_table`, or a variant of it for one
    table): the rounds with no Bunco (every table to its end), plus, for each table ``j``
    and roll ``t``, the rounds whose first Bunco is table ``j``'s roll ``t`` (the tables
    rolling after ``j`` in the tick, numbered below it, one roll short)."""
    steps = chains[0][0].shape[1]
    q = ways_product([reached[:, -1:] for _, reached in chains])
    for j, (bunco, _) in enumerate(chains):
        q += ways_product(
            [
                bunco[:, 1:] if i == j else reached[:, : steps - 1] if i < j else reached[:, 1:]
                for i, (_, reached) in enumerate(chains)
            ]
        )
    return q


def ways_product(factors: list[FloatArray]) -> FloatArray:
    """``out[w]``: the sum over ``t`` of the product over tables ``k`` of
    ``factors[k][b, t]``, ``b`` bit ``k`` of ``w``: the ``2^T`` ways of a round at
    tables independent given ``t``.

    >>> ways_product([np.array([[0.5], [0.5]]), np.array([[0.25], [0.75]])]).tolist()
    [0.125, 0.125, 0.375, 0.375]
    """
    out = factors[-1]
    for factor in reversed(factors[:-1]):  # each table below as the next lower bit
        out = (out[:, None, :] * factor[None, :, :]).reshape(-1, factor.shape[1])
    return np.asarray(out.sum(axis=1), dtype=np.float64)


@lru_cache(maxsize=64)
def _other_table_wins(
    outcomes: tuple[Outcome, ...], steps: int, finish: bool, tie_first: tuple[float, float]
) -> FloatArray:
    """``wins[n]``: P(the team of seats 1 and 3, which rolls first, wins a table that is
    stopped after ``n`` rolls in play), for ``n < steps``. ``tie_first[x]``: P(that team
    wins a tie when team ``x`` rolls next)."""
    kept_exact, _ = kept_points(outcomes, after_bell=True)
    kept = np.array([float(p) for p in kept_exact])
    moves = moves_of(outcomes)
    span = 16 + 2 * max(o.points for o in outcomes)
    while True:
        size = 2 * span + 1
        zero = span
        # payoff[r, m, d]: P(the first team wins) when the bell stops the table with team
        # r to roll next (m = 1: in the middle of a turn) and the first team d - zero
        # points ahead; with ``finish`` a roller in the middle of a turn rolls on
        payoff = np.zeros((2, 2, size))
        for r in (0, 1):
            payoff[r, :, zero + 1 :] = 1.0
            payoff[r, :, zero] = tie_first[r]
            if finish:
                ahead = np.zeros(size + 2 * len(kept))
                ahead[zero + 1 + len(kept) :] = 1.0
                ahead[zero + len(kept)] = tie_first[1 - r]
                # P(first wins | d) = sum_k kept[k] ahead(d + sign k)
                reach = np.convolve(ahead, kept[::-1] if r == 0 else kept, mode="valid")
                offset = len(kept) if r == 0 else 1
                payoff[r, 1] = reach[offset : offset + size]
        state = np.zeros((2, 2, size))  # state[r, m, d], as ``payoff``
        state[0, 0, zero] = 1.0
        wins = np.zeros(steps)
        lost = 0.0
        for n in range(steps):
            wins[n] = float((state * payoff).sum())
            new = lead_roll(state, moves)
            lost += float(state.sum() - new.sum())
            state = new
        if lost < TAIL_MASS or span > 20_000:
            return wins
        span *= 2


def tie_odds(rules: RuleSet, round_no: int) -> tuple[float, float]:
    """P(the first team wins a tie-break) when the first (index 0) or the second team
    rolls next."""
    if rules.tie_break is TieBreak.SUDDEN_DEATH:
        starter = 1.0 / (2.0 - sudden_turn(rules, round_no)[0])
        return starter, 1.0 - starter
    return 0.5, 0.5


def head_bells(rules: RuleSet, round_no: int) -> FloatArray:
    """``bells[w, t]``: P(the head table's bell is its roll ``t`` and team ``w`` wins the
    table): :func:`_head_bells`, or with wipeouts
    :func:`bunco.analysis.set_wipeout.head_bells_wiping`."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    if any(o.wipes for o in outcomes):
        return head_bells_wiping(
            outcomes, target, rules.after_bell is AfterBell.FINISH_TURN, tie_odds(rules, round_no)
        )
    return _head_bells(outcomes, target)


@lru_cache(maxsize=64)
def round_chains(rules: RuleSet, round_no: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(bells, wins, reach)``: the head table's bell by roll and team
    (:func:`_head_bells`), a stopped table's first-team wins by rolls in play
    (:func:`_other_table_wins`) and the chance of each number of rolls in play at another
    table when the bell rings."""
    outcomes = roll_outcomes(rules, round_no)
    bells = head_bells(rules, round_no)
    bell = bells.sum(axis=0)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    for_high = rules.first_roller is FirstRoller.ROLL_FOR_HIGH
    reach = offset_bell(bell, high_roll_steps(4)) if for_high else bell
    if any(o.wipes for o in outcomes):
        wins = other_wins_wiping(outcomes, tuple(reach.tolist()), finish, tie_odds(rules, round_no))
    else:
        wins = _other_table_wins(outcomes, len(reach), finish, tie_odds(rules, round_no))
    return bells, wins, reach


def first_team_odds(rules: RuleSet, round_no: int) -> tuple[float, float]:
    """P(the team that rolls first wins round ``round_no``) at the head table and at any
    other table, exactly, where the head table ends the round (rules
    :func:`rules_refusal` accepts). A table stopped before its first roll (possible where
    tables first roll for high) has no team that rolled first: it counts as not won by
    one, as the night kernel counts it.

    >>> from bunco.core.presets import get_rules
    >>> head, other = first_team_odds(get_rules("classic"), 1)
    >>> round(head, 4), round(other, 4)
    (0.5177, 0.5237)
    """
    bells, wins, reach = round_chains(rules, round_no)
    return float(bells[0].sum()), float(reach[1:] @ wins[1:])


def first_team_chances(rules: RuleSet, round_no: int, tables: int) -> list[float]:
    """P(the team that rolls first at table ``k + 1`` wins round ``round_no``), for each
    table, exactly (rules :func:`rules_refusal` accepts). A table stopped before its
    first roll counts as not won by the team that rolls first (there is none; the night
    kernel counts it so)."""
    if rules.round_end is RoundEnd.HEAD_TABLE:
        head, other = first_team_odds(rules, round_no)
        return [head] + [other] * (tables - 1)
    return _own_target_chances(rules, round_no, tables)


def _own_target_chances(rules: RuleSet, round_no: int, tables: int) -> list[float]:
    """:func:`first_team_chances` where every table plays to its own target. The tables
    are alike, so the chance that the others let table ``k`` reach its roll ``t`` is a
    product of powers: when table ``j``'s roll ``t`` is the first Bunco, the tables
    after ``j`` in the tick (lower numbers) have made ``t - 1`` rolls without one, those
    before it ``t``."""
    tie_first = tie_odds(rules, round_no)
    bunco, reached = own_target_table(
        roll_outcomes(rules, round_no), rules.target(team=True, single_table=False), tie_first
    )
    rolled, short, any_bunco, before, after = stop_weights(bunco, reached, tables)
    none = float(reached[0, -1]) * float(reached.sum(axis=0)[-1]) ** (tables - 1)
    out = []
    for k in range(tables):
        chance = none + float((bunco[0, 1:] * rolled ** (tables - 1 - k) * short**k).sum())
        chance += float(
            (any_bunco * (reached[0, 1:] * before[k] + reached[0, :-1] * after[k])).sum()
        )
        # a Bunco at a table rolling before k in the first tick: k never rolled
        out.append(chance - tie_first[0] * (1.0 - (1.0 - float(any_bunco[0])) ** (tables - 1 - k)))
    return out


def stop_weights(bunco: FloatArray, reached: FloatArray, tables: int) -> tuple[FloatArray, ...]:
    """Where every table plays to its own target (:func:`own_target_table`'s ``bunco``
    and ``reached``), the chances that the other tables let a table roll, by tick ``t``
    (1, 2, ...): ``rolled[t]`` and ``short[t]``, P(a table has had no Bunco in its first
    ``t`` or ``t - 1`` rolls); ``any_bunco[t]``, P(a table's roll ``t`` is its first
    Bunco); and ``before[k, t]`` / ``after[k, t]``, summed over the tables ``j`` before
    / after table ``k`` in number: P(no table but ``j`` and ``k`` had a Bunco when table
    ``j``'s roll ``t`` is one). In a tick the tables roll from the last to the head table,
    so the tables numbered above ``j`` have then made ``t`` rolls, those below ``t - 1``;
    table ``k`` is left out of the product."""
    clean = reached.sum(axis=0)  # P(no Bunco at a table in its first n rolls)
    rolled, short = clean[1:], clean[:-1]
    any_bunco = bunco[:, 1:].sum(axis=0)
    j = np.arange(tables)[:, None]
    ahead = np.where(j <= tables - 2, rolled ** np.maximum(tables - 2 - j, 0) * short**j, 0.0)
    before = np.cumsum(ahead, axis=0) - ahead
    behind = np.where(j >= 1, rolled ** (tables - 1 - j) * short ** np.maximum(j - 1, 0), 0.0)
    after = np.cumsum(behind[::-1], axis=0)[::-1] - behind
    return rolled, short, any_bunco, before, after


@lru_cache(maxsize=64)
def round_patterns(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """The ways one round goes at ``tables`` tables of four, exactly: ``q[w]`` is the
    chance that at table ``k + 1`` the team of seats 2 and 4 wins when bit ``k`` of ``w``
    is set (else the team of seats 1 and 3). Only for rules :func:`ways_refusal`
    accepts.
    """
    if rules.round_end is RoundEnd.EVERY_TABLE:
        return _own_target_patterns(rules, round_no, tables)
    if rules.first_roller is FirstRoller.ROLL_FOR_HIGH:
        return np.full(2**tables, 0.5**tables)  # the first team is either, 1/2 each
    bells, wins, _ = round_chains(rules, round_no)
    return ways_product([bells, *[np.array([wins, 1.0 - wins])] * (tables - 1)])
