"""The exact chance that a player rolls at least one Bunco, at tables of four.

Each round gives, for each of its ``2^T`` ways
(:func:`bunco.analysis.set_exact.round_patterns`) and each seat, the chance of that way
*and* no Bunco in that seat (:func:`no_bunco_patterns`), from the chains of
:mod:`bunco.analysis.set_buncos` with that seat's Buncos dropped: rolling on after the
bell counts only turns without a Bunco, a tie-break its chance of each winner with no
Bunco by that player. At the head table a Bunco (21 points) rings the bell, so when the
first team wins there no one of the second team rolled one. Where every table plays to
its own target (``winning-moves``), the seat's table is replaced, in the sum over the
first Bunco (:func:`bunco.analysis.set_exact.own_target_ways`), by its variant with that
seat's Buncos dropped (a tied table's roll-off to five too). The rounds are independent,
so :func:`bunco.analysis.set_seats.seat_odds` multiplies these along the player's
seats, round after round.

>>> from bunco.core.presets import get_rules
>>> clean = no_bunco_patterns(get_rules("classic"), 1, 3)
>>> clean.shape, bool((clean.sum(axis=0) < 1).all())
((8, 12), True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.chain_steps import lead_roll, moves_of, score_chain, shifted, standing, start
from bunco.analysis.odds import Outcome, kept_points, roll_outcomes
from bunco.analysis.set_buncos import BUNCO, buncos_refusal, rolloff_turn
from bunco.analysis.set_exact import (
    head_bells,
    own_target_table,
    own_target_ways,
    round_chains,
    sudden_turn,
    tie_odds,
    ways_product,
)
from bunco.core.rules import AfterBell, Direction, FirstRoller, RoundEnd, RuleSet, TieBreak

FloatArray = NDArray[np.float64]


def no_bunco_refusal(rules: RuleSet, players: int, sets: int = 1) -> str | None:
    """Why this party's chance of at least one Bunco is not composed exactly (None: it
    is)."""
    return buncos_refusal(rules, players, sets)


def _no_bunco_turn(outcomes: tuple[Outcome, ...]) -> FloatArray:
    """P(a free turn rolled on after the bell scores k points and holds no Bunco)."""
    kept, _ = kept_points(tuple(o for o in outcomes if not o.is_bunco), after_bell=True)
    return np.array([float(p) for p in kept])


def _tie_no_bunco(rules: RuleSet, round_no: int, starter: int, mine: int) -> tuple[float, float]:
    """A tie-break from position ``starter``: (P(the first team wins it and position
    ``mine`` rolls no Bunco in it), P(``mine`` rolls no Bunco in it))."""
    if rules.tie_break is TieBreak.SESSIONS:
        turn = rolloff_turn()
        full = np.array([float(p) for p in kept_points(turn, after_bell=True)[0]])
        clean = _no_bunco_turn(turn)
        mine_team = np.convolve(clean, full)
        other_team = np.convolve(full, full)
        first, second = (mine_team, other_team) if mine % 2 == 0 else (other_team, mine_team)
        size = max(len(first), len(second))
        first = np.pad(first, (0, size - len(first)))
        second = np.pad(second, (0, size - len(second)))
        below = np.concatenate([[0.0], np.cumsum(second)[:-1]])  # P(second < x)
        wins, tied = float(first @ below), float(first @ second)
        ends = float(first.sum() * second.sum()) - tied  # not tied, and mine rolled no Bunco
        return wins / (1.0 - tied), ends / (1.0 - tied)
    turn_hit, rolls = sudden_turn(rules, round_no)  # per turn: a Mini may carry it on (004)
    hit, bunco, miss = turn_hit, BUNCO * rolls, 1.0 - turn_hit
    won = safe = 0.0
    for i in range(4):
        position = (starter + i) % 4
        chance = miss**i * (hit - bunco if position == mine else hit)
        safe += chance
        won += chance if position % 2 == 0 else 0.0
    return won / (1.0 - miss**4), safe / (1.0 - miss**4)


@lru_cache(maxsize=256)
def head_no_bunco(rules: RuleSet, round_no: int, mine: int) -> FloatArray:
    """``bells[w, t]``: P(the head table's position ``mine`` rolls no Bunco in the round
    (rolling on included) and team ``w`` rings the bell on roll ``t``)."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    go_on = sum(float(o.probability) for o in outcomes if o.turn_continues and not o.is_bunco)
    stop = sum(float(o.probability) for o in outcomes if not o.turn_continues and not o.is_bunco)
    clean_roll_on = stop / (1.0 - go_on)
    moves = moves_of(outcomes)
    length = head_bells(rules, round_no).shape[1]
    # a bell rung by ``mine`` with a roll that lets it roll on: that turn holds no Bunco
    kept = np.ones((4, len(moves)))
    kept[mine] = [clean_roll_on if finish and move.rolls_on else 1.0 for move in moves]
    bells = np.zeros((2, length))
    chain = score_chain(start(4, target), moves, target, drop=mine, rolls=length - 1)
    for t, (_, absorbed) in enumerate(chain, start=1):
        rang = (absorbed * kept).sum(axis=1)
        bells[:, t] = rang[0::2].sum(), rang[1::2].sum()
    return bells


@lru_cache(maxsize=256)
def _other_no_bunco(rules: RuleSet, round_no: int, mine: int) -> tuple[FloatArray, FloatArray]:
    """Another table stopped after ``n`` rolls: (P(its first team wins and position
    ``mine`` rolls no Bunco), P(``mine`` rolls no Bunco)), by ``n``."""
    outcomes = roll_outcomes(rules, round_no)
    _, _, reach = round_chains(rules, round_no)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    moves = moves_of(outcomes)
    kept = np.array([float(p) for p in kept_points(outcomes, after_bell=True)[0]])
    clean = _no_bunco_turn(outcomes)
    ties = [_tie_no_bunco(rules, round_no, s, mine) for s in range(4)]
    span = 16 + 2 * max(o.points for o in outcomes) + 2 * len(kept)
    size = 2 * span + 1
    zero = span
    lead = np.arange(size) - zero
    # payoff[f][q, m, d]: f = 0: P(first team wins, no Bunco by mine); f = 1: P(no Bunco)
    payoff = np.zeros((2, 4, 2, size))
    for q in range(4):
        for m in (0, 1):
            rolls_on = bool(m and finish)
            starter = (q + 1) % 4 if rolls_on else q
            won, nb = ties[starter]
            settle = [
                np.where(lead > 0, 1.0, 0.0) + np.where(lead == 0, won, 0.0),
                np.where(lead != 0, 1.0, 0.0) + np.where(lead == 0, nb, 0.0),
            ]
            if not rolls_on:
                payoff[:, q, m] = settle
                continue
            turn = clean if q == mine else kept
            sign = 1 if q % 2 == 0 else -1
            for f in (0, 1):
                payoff[f, q, m] = sum(
                    (p * shifted(settle[f], -sign * k) for k, p in enumerate(turn) if p),
                    np.zeros(size),
                )
    state = np.zeros((4, 2, size))
    state[0, 0, zero] = 1.0
    wins = np.zeros(len(reach))
    safe = np.zeros(len(reach))
    for n in range(len(reach)):
        wins[n] = float((state * payoff[0]).sum())
        safe[n] = float((state * payoff[1]).sum())
        state = lead_roll(state, moves, mine)
    return wins, safe


def _alike(rules: RuleSet, round_no: int) -> int:
    """The first round whose rolls score as round ``round_no``'s do (its chains serve)."""
    outcomes = roll_outcomes(rules, round_no)
    return next(r for r in range(1, round_no + 1) if roll_outcomes(rules, r) == outcomes)


@lru_cache(maxsize=64)
def no_bunco_patterns(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """``q[w, s]``: P(the round goes way ``w`` (as
    :func:`bunco.analysis.set_exact.round_patterns`) and whoever sits in seat ``s``
    (``4 table + seat``) rolls no Bunco in it), exactly (rules :func:`buncos_refusal`
    accepts)."""
    round_no = _alike(rules, round_no)
    if rules.round_end is RoundEnd.EVERY_TABLE:
        return _own_target_patterns_no_bunco(rules, round_no, tables)
    if rules.first_roller is FirstRoller.ROLL_FOR_HIGH:
        return _drawn_no_bunco(rules, round_no, tables)
    bells, wins, _ = round_chains(rules, round_no)
    step = 1 if rules.direction is Direction.LEFT else 3
    position_of = {(p * step) % 4: p for p in range(4)}
    others = np.array([wins, 1.0 - wins])
    out = np.zeros((2**tables, 4 * tables))
    for seat in range(4 * tables):
        k, p = divmod(seat, 4)
        factors = [bells, *[others] * (tables - 1)]
        if k == 0:
            factors[0] = head_no_bunco(rules, round_no, position_of[p])
        else:
            won, safe = _other_no_bunco(rules, round_no, position_of[p])
            factors[k] = np.array([won, safe - won])
        out[:, seat] = ways_product(factors)
    return out


def _drawn_no_bunco(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """:func:`no_bunco_patterns` where every table first rolls for high: at each table
    any seat starts, 1/4 each and apart from the dice, so the team of seats 1 and 3 wins
    a table or not with chance 1/2 apart from everything else, and a seat's chance of
    no Bunco mixes the four positions it may hold in the rolling order."""
    _, _, reach = round_chains(rules, round_no)
    step = 1 if rules.direction is Direction.LEFT else 3
    # by[k][p][b]: P(the first team wins (b = 0) or loses, and position p rolls no Bunco)
    by = []
    for k in range(2):
        rows = []
        for p in range(4):
            if k == 0:
                rows.append(head_no_bunco(rules, round_no, p).sum(axis=1))
            else:
                won, safe = _other_no_bunco(rules, round_no, p)
                rows.append(np.array([reach @ won, reach @ (safe - won)]))
        by.append(rows)
    ways = np.arange(2**tables)
    out = np.zeros((2**tables, 4 * tables))
    for seat in range(4 * tables):
        k, s = divmod(seat, 4)
        rows = by[min(k, 1)]
        mine = [
            sum(rows[((s - first) * step) % 4][bit ^ (first % 2)] for first in range(4)) / 4
            for bit in (0, 1)
        ]
        out[:, seat] = np.array(mine)[(ways >> k) & 1] * 0.5 ** (tables - 1)
    return out


# -- every table to its own target (winning-moves) -------------------------------------------------
@lru_cache(maxsize=64)
def _race_no_bunco(goal: int, mine: int) -> tuple[float, float]:
    """A roll-off to ``goal`` points between the two teams, its first roller any position
    (1/4 each, by the rolls for high): (P(the first team wins and position ``mine`` rolls
    no Bunco), P(the second team wins and ``mine`` rolls none))."""
    moves = moves_of(rolloff_turn())
    won = np.zeros(2)
    for first in range(4):
        for _, absorbed in score_chain(start(4, goal, first, 0.25), moves, goal, drop=mine):
            rang = absorbed.sum(axis=1)
            won += rang[0::2].sum(), rang[1::2].sum()
    return float(won[0]), float(won[1])


@lru_cache(maxsize=256)
def _own_target_no_bunco(rules: RuleSet, round_no: int, mine: int) -> tuple[FloatArray, FloatArray]:
    """:func:`bunco.analysis.set_exact.own_target_table` for a table whose position
    ``mine`` rolls no Bunco: ``bunco[w, t]``, its roll ``t`` is the first Bunco, by
    another position of team ``w``; ``reached[w, t]``, no Bunco in its first ``t``
    rolls and team ``w`` has won or would win (a tie: the roll-off, with no Bunco by
    ``mine`` in it)."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    steps = own_target_table(outcomes, target, tie_odds(rules, round_no))[0].shape[1]
    if rules.tie_break is TieBreak.SESSIONS:
        won, safe = _tie_no_bunco(rules, round_no, 0, mine)
        tie_first, tie_second = won, safe - won
    else:
        tie_first, tie_second = _race_no_bunco(rules.roll_off_target, mine)
    moves = moves_of(outcomes)
    ends = np.array([move.ends for move in moves])
    tie_won, tie_lost = [tie_first] * 4, [tie_second] * 4
    state = start(4, target)
    done = (0.0, 0.0)
    bunco = np.zeros((2, steps))
    reached = np.zeros((2, steps))
    reached[:, 0] = standing(state, done, tie_won, tie_lost)
    chain = score_chain(state, moves, target, drop=mine, rolls=steps - 1)
    for t, (state, absorbed) in enumerate(chain, start=1):
        bunco[:, t] = absorbed[0::2, ends].sum(), absorbed[1::2, ends].sum()
        done = (
            done[0] + float(absorbed[0::2, ~ends].sum()),
            done[1] + float(absorbed[1::2, ~ends].sum()),
        )
        reached[:, t] = standing(state, done, tie_won, tie_lost)
    return bunco, reached


def _own_target_patterns_no_bunco(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """:func:`no_bunco_patterns` where every table plays to its own target: the ways of
    :func:`bunco.analysis.set_exact.own_target_ways`, the seat's table taken by its
    no-Bunco variant."""
    outcomes = roll_outcomes(rules, round_no)
    plain = own_target_table(
        outcomes, rules.target(team=True, single_table=False), tie_odds(rules, round_no)
    )
    step = 1 if rules.direction is Direction.LEFT else 3
    out = np.zeros((2**tables, 4 * tables))
    for seat in range(4 * tables):
        k, s = divmod(seat, 4)
        chains = [plain] * tables
        chains[k] = _own_target_no_bunco(rules, round_no, (s * step) % 4)
        out[:, seat] = own_target_ways(chains)
    return out
