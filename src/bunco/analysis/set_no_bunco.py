"""The exact chance that a player rolls at least one Bunco in a set of 8 or 12 players.

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
so :func:`bunco.analysis.set_exact.set_wins` multiplies these along each of the set's
ways, following the player's seat.

>>> from bunco.core.presets import get_rules
>>> clean = no_bunco_patterns(get_rules("classic"), 1, 3)
>>> clean.shape, bool((clean.sum(axis=0) < 1).all())
((8, 12), True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points, roll_outcomes
from bunco.analysis.set_buncos import BUNCO, buncos_refusal, roll_once, rolloff_turn
from bunco.analysis.set_exact import (
    HIT,
    advance,
    own_target_table,
    own_target_ways,
    round_chains,
    shifted,
    tie_odds,
)
from bunco.core.rules import AfterBell, Direction, FirstRoller, RoundEnd, RuleSet, TieBreak

FloatArray = NDArray[np.float64]


def no_bunco_refusal(rules: RuleSet, players: int, sets: int) -> str | None:
    """Why this party's chance of at least one Bunco is not composed exactly (None: it
    is)."""
    return buncos_refusal(rules, players, sets)


def _no_bunco_turn(outcomes: tuple[Outcome, ...]) -> FloatArray:
    """P(a free turn rolled on after the bell scores k points and holds no Bunco)."""
    kept, _ = kept_points(tuple(o for o in outcomes if not o.is_bunco), after_bell=True)
    return np.array([float(p) for p in kept])


def _tie_no_bunco(rules: RuleSet, starter: int, mine: int) -> tuple[float, float]:
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
    hit, bunco, miss = float(HIT), BUNCO, 1.0 - float(HIT)
    won = safe = 0.0
    for i in range(4):
        position = (starter + i) % 4
        chance = miss**i * (hit - bunco if position == mine else hit)
        safe += chance
        won += chance if position % 2 == 0 else 0.0
    return won / (1.0 - miss**4), safe / (1.0 - miss**4)


@lru_cache(maxsize=256)
def _head_no_bunco(rules: RuleSet, round_no: int, mine: int) -> FloatArray:
    """``bells[w, t]``: P(the head table's position ``mine`` rolls no Bunco in the round
    (rolling on included) and team ``w`` rings the bell on roll ``t``)."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    go_on = sum(float(o.probability) for o in outcomes if o.turn_continues and not o.is_bunco)
    stop = sum(float(o.probability) for o in outcomes if not o.turn_continues and not o.is_bunco)
    clean_roll_on = stop / (1.0 - go_on)
    moves = [(float(o.probability), o.points, o.continues, o.turn_continues, o.is_bunco)
             for o in outcomes]
    length = len(round_chains(rules, round_no)[0][0])
    state = np.zeros((4, target, target))
    state[0, 0, 0] = 1.0
    bells = np.zeros((2, length))
    for t in range(1, length):
        new = np.zeros_like(state)
        for q in range(4):
            src = state[q] if q % 2 == 0 else state[q].T
            if not src.any():
                continue
            for p, k, goes_on, rolls_on, is_bunco in moves:
                if is_bunco and q == mine:
                    continue
                dest = new[q if goes_on else (q + 1) % 4]
                rang = advance(src, dest if q % 2 == 0 else dest.T, p, k, target)
                if finish and rolls_on and q == mine:
                    rang *= clean_roll_on
                bells[q % 2, t] += rang
        state = new
    return bells


@lru_cache(maxsize=256)
def _other_no_bunco(rules: RuleSet, round_no: int, mine: int) -> tuple[FloatArray, FloatArray]:
    """Another table stopped after ``n`` rolls: (P(its first team wins and position
    ``mine`` rolls no Bunco), P(``mine`` rolls no Bunco)), by ``n``."""
    outcomes = roll_outcomes(rules, round_no)
    _, _, reach = round_chains(rules, round_no)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    moves = [(float(o.probability), o.points, o.continues, o.is_bunco) for o in outcomes]
    kept = np.array([float(p) for p in kept_points(outcomes, after_bell=True)[0]])
    clean = _no_bunco_turn(outcomes)
    ties = [_tie_no_bunco(rules, s, mine) for s in range(4)]
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
            settle = [np.where(lead > 0, 1.0, 0.0) + np.where(lead == 0, won, 0.0),
                      np.where(lead != 0, 1.0, 0.0) + np.where(lead == 0, nb, 0.0)]
            if not rolls_on:
                payoff[:, q, m] = settle
                continue
            turn = clean if q == mine else kept
            sign = 1 if q % 2 == 0 else -1
            for f in (0, 1):
                payoff[f, q, m] = sum((p * shifted(settle[f], -sign * k)
                                       for k, p in enumerate(turn) if p), np.zeros(size))
    state = np.zeros((4, 2, size))
    state[0, 0, zero] = 1.0
    wins = np.zeros(len(reach))
    safe = np.zeros(len(reach))
    for n in range(len(reach)):
        wins[n] = float((state * payoff[0]).sum())
        safe[n] = float((state * payoff[1]).sum())
        state = roll_once(state, moves, mine)
    return wins, safe


def _alike(rules: RuleSet, round_no: int) -> int:
    """The first round whose rolls score as round ``round_no``'s do (its chains serve)."""
    outcomes = roll_outcomes(rules, round_no)
    return next(r for r in range(1, round_no + 1) if roll_outcomes(rules, r) == outcomes)


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
    others = [wins, 1.0 - wins]
    out = np.zeros((2**tables, 4 * tables))
    for seat in range(4 * tables):
        k, p = divmod(seat, 4)
        p = position_of[p]
        if k == 0:
            head = _head_no_bunco(rules, round_no, p)
            mine: list[FloatArray] = []
        else:
            head = bells
            won, safe = _other_no_bunco(rules, round_no, p)
            mine = [won, safe - won]
        for w in range(2**tables):
            chance = head[w & 1].copy()
            for j in range(1, tables):
                bit = (w >> j) & 1
                chance *= mine[bit] if j == k else others[bit]
            out[w, seat] = float(chance.sum())
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
                rows.append(_head_no_bunco(rules, round_no, p).sum(axis=1))
            else:
                won, safe = _other_no_bunco(rules, round_no, p)
                rows.append(np.array([reach @ won, reach @ (safe - won)]))
        by.append(rows)
    out = np.zeros((2**tables, 4 * tables))
    for seat in range(4 * tables):
        k, s = divmod(seat, 4)
        rows = by[min(k, 1)]
        for w in range(2**tables):
            bit = (w >> k) & 1
            mine = sum(rows[((s - first) * step) % 4][bit ^ (first % 2)]
                       for first in range(4)) / 4
            out[w, seat] = float(mine) * 0.5 ** (tables - 1)
    return out


# -- every table to its own target (winning-moves) -------------------------------------------------
@lru_cache(maxsize=64)
def _race_no_bunco(goal: int, mine: int) -> tuple[float, float]:
    """A roll-off to ``goal`` points between the two teams, its first roller any position
    (1/4 each, by the rolls for high): (P(the first team wins and position ``mine`` rolls
    no Bunco), P(the second team wins and ``mine`` rolls none))."""
    moves = [(float(o.probability), o.points, o.turn_continues, o.is_bunco)
             for o in rolloff_turn()]
    won = np.zeros(2)
    for first in range(4):
        state = np.zeros((4, goal, goal))  # [position to roll, first team's, second's]
        state[first, 0, 0] = 0.25
        while float(state.sum()) >= TAIL_MASS / 10:
            new = np.zeros_like(state)
            for q in range(4):
                src = state[q] if q % 2 == 0 else state[q].T
                for p, k, goes_on, is_bunco in moves:
                    if is_bunco and q == mine:
                        continue
                    dest = new[q if goes_on else (q + 1) % 4]
                    won[q % 2] += advance(src, dest if q % 2 == 0 else dest.T, p, k, goal)
            state = new
    return float(won[0]), float(won[1])


@lru_cache(maxsize=256)
def _own_target_no_bunco(rules: RuleSet, round_no: int, mine: int
                         ) -> tuple[FloatArray, FloatArray]:
    """:func:`bunco.analysis.set_exact.own_target_table` for a table whose position
    ``mine`` rolls no Bunco: ``bunco[w, t]``, its roll ``t`` is the first Bunco, by
    another position of team ``w``; ``reached[w, t]``, no Bunco in its first ``t``
    rolls and team ``w`` has won or would win (a tie: the roll-off, with no Bunco by
    ``mine`` in it)."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    steps = own_target_table(outcomes, target, tie_odds(rules))[0].shape[1]
    if rules.tie_break is TieBreak.SESSIONS:
        won, safe = _tie_no_bunco(rules, 0, mine)
        tie_first, tie_second = won, safe - won
    else:
        tie_first, tie_second = _race_no_bunco(rules.roll_off_target, mine)
    lead = np.subtract.outer(np.arange(target), np.arange(target))
    moves = [(float(o.probability), o.points, o.continues, o.ends_round) for o in outcomes]
    state = np.zeros((4, target, target))  # [position to roll, first team's, second's]
    state[0, 0, 0] = 1.0
    done = [0.0, 0.0]
    bunco = np.zeros((2, steps))
    reached = np.zeros((2, steps))
    for t in range(steps):
        if t:
            new = np.zeros_like(state)
            for q in range(4):
                src = state[q] if q % 2 == 0 else state[q].T
                for p, k, goes_on, ends in moves:
                    if ends:
                        if q != mine:
                            bunco[q % 2, t] += p * float(src.sum())
                        continue
                    dest = new[q if goes_on else (q + 1) % 4]
                    done[q % 2] += advance(src, dest if q % 2 == 0 else dest.T, p, k, target)
            state = new
        tie = float(state[:, lead == 0].sum())
        reached[0, t] = done[0] + float(state[:, lead > 0].sum()) + tie * tie_first
        reached[1, t] = done[1] + float(state[:, lead < 0].sum()) + tie * tie_second
    return bunco, reached


def _own_target_patterns_no_bunco(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """:func:`no_bunco_patterns` where every table plays to its own target: the ways of
    :func:`bunco.analysis.set_exact.own_target_ways`, the seat's table taken by its
    no-Bunco variant."""
    outcomes = roll_outcomes(rules, round_no)
    plain = own_target_table(outcomes, rules.target(team=True, single_table=False),
                             tie_odds(rules))
    step = 1 if rules.direction is Direction.LEFT else 3
    out = np.zeros((2**tables, 4 * tables))
    for seat in range(4 * tables):
        k, s = divmod(seat, 4)
        chains = [plain] * tables
        chains[k] = _own_target_no_bunco(rules, round_no, (s * step) % 4)
        out[:, seat] = own_target_ways(chains)
    return out
