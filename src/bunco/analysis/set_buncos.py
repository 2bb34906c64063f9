"""Exact Buncos of each player over a set: expected (every preset) and the chance of at
least one (where the head table ends the round).

Every roll a player makes that the score card counts (in play, rolling on after the
bell, in a tie-break; not a roll for high) is a Bunco with the same chance, ``1/216``,
whatever came before, so a player's expected Buncos are that chance times the rolls the
player is expected to make (Wald's identity). The rolls of a seat in a round follow from
chains that also follow who holds the dice:

- **the head table**: the chain of :mod:`bunco.analysis.set_exact` over the two team
  scores, with the position in the rolling order (0 = the first roller) added; after the
  bell, a roller whose last roll continued the turn rolls on, ``1 / (1 - c)`` rolls on
  average (``c``: the chance a roll continues the turn);
- **another table**: stopped by the head table's bell after as many rolls; the
  difference of its team scores and the position of the next roller decide whether it
  ties, and a tie-break adds rolls: sessions (every player takes one turn a session,
  until a session is not tied: ``E[sessions] = 1 / (1 - P(tied session))``) or sudden
  death (one roll each in turn until one shows the round's number, from the player to
  roll next).

:func:`expected_buncos` then weighs each seat's Buncos by the chance that the player sits
there in that round (``seat_chances`` of :func:`bunco.analysis.set_exact.set_wins`).
Where every table first rolls for high, any seat starts with chance 1/4, and a seat's
figures mix the four places it may hold in the rolling order. For parties where the
head table ends the round and ties go to sessions or sudden death (``classic``,
``scil``, ``tournament``), and where every table plays to its own target and a Bunco
ends the round everywhere (``winning-moves``: a table's roll happens if no table
rolling before it in the tick has had a Bunco; a table left tied adds its roll-off);
elsewhere :func:`buncos_refusal` says why not.

The chance of at least one Bunco (:func:`no_bunco_patterns`, where the head table ends
the round; :func:`no_bunco_refusal`): each round gives, for each
of its ``2^T`` ways and each seat, the chance of that way *and* no Bunco in that seat,
from the same chains with that seat's Buncos dropped (rolling on: only turns without a
Bunco; a tie-break: its chance of each winner with no Bunco by that player). The rounds
are independent, so :func:`bunco.analysis.set_exact.set_wins` multiplies these along
each of the set's ways, following the player's seat.

>>> from bunco.core.presets import get_rules
>>> per_seat = seat_buncos(get_rules("classic"), 1, 3)
>>> per_seat.shape, bool(per_seat[0, 0] > per_seat[0, 3])  # the first roller rolls most
((3, 4), True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.odds import TAIL_MASS, Outcome, kept_points, roll_outcomes
from bunco.analysis.set_exact import (
    HIT,
    _own_target_table,
    _tie_odds,
    advance,
    exact_refusal,
    round_chains,
    shifted,
    stop_weights,
)
from bunco.core.rules import (
    AfterBell,
    Direction,
    FirstRoller,
    RollKind,
    RoundEnd,
    RuleSet,
    TieBreak,
)

FloatArray = NDArray[np.float64]

#: The chance that a roll is a Bunco (three of the round's number), in play or not.
BUNCO = 1 / 216


def buncos_refusal(rules: RuleSet, players: int, sets: int) -> str | None:
    """Why this party's expected Buncos are not composed exactly (None: they are)."""
    reason = exact_refusal(rules, players, sets)
    if reason is not None:
        return reason
    if rules.round_end is RoundEnd.EVERY_TABLE:
        if rules.tie_break is TieBreak.SUDDEN_DEATH:
            return "Buncos at tables to their own targets are composed for roll-offs and sessions"
        return None
    if rules.tie_break not in (TieBreak.SESSIONS, TieBreak.SUDDEN_DEATH):
        return "Buncos are composed for ties settled by sessions or sudden death"
    return None


def no_bunco_refusal(rules: RuleSet, players: int, sets: int) -> str | None:
    """Why this party's chance of at least one Bunco is not composed exactly (None: it
    is)."""
    reason = buncos_refusal(rules, players, sets)
    if reason is None and rules.round_end is RoundEnd.EVERY_TABLE:
        return "the chance of at least one Bunco is composed where the head table ends the round"
    return reason


def _rolloff_turn() -> tuple[Outcome, ...]:
    """A roll in a tie-break, as :func:`bunco.core.dice.score_rolloff` scores it (any
    round: only the count of the round's number matters)."""
    return (Outcome(RollKind.MISS, 0, False, False, 125),
            Outcome(RollKind.POINTS, 1, True, False, 75),
            Outcome(RollKind.POINTS, 2, True, False, 15),
            Outcome(RollKind.BUNCO, 21, True, False, 1))


def _session_rolls() -> float:
    """Expected rolls of one player over a tie-break of sessions."""
    turn = np.array([float(p) for p in kept_points(_rolloff_turn(), after_bell=True)[0]])
    team = np.convolve(turn, turn)
    tied = float(team @ team)
    per_turn = 1.0 / (1.0 - 91 / 216)
    return per_turn / (1.0 - tied)


def _tie_rolls(rules: RuleSet, starter: int) -> FloatArray:
    """Expected tie-break rolls of the players in rolling-order positions 0-3, when the
    player in position ``starter`` is to roll next."""
    if rules.tie_break is TieBreak.SESSIONS:
        return np.full(4, _session_rolls())
    miss = 1.0 - float(HIT)
    return np.array([miss ** ((p - starter) % 4) / (1.0 - miss**4) for p in range(4)])


@lru_cache(maxsize=64)
def _head_rolls(outcomes: tuple[Outcome, ...], target: int, finish: bool) -> FloatArray:
    """Expected rolls of the head table's positions 0-3 in a round (roll-on included)."""
    moves = [(float(o.probability), o.points, o.continues, o.turn_continues) for o in outcomes]
    c = sum(p for p, _, _, goes_on in moves if goes_on)
    state = np.zeros((4, target, target))  # [position to roll, first team's, second's]
    state[0, 0, 0] = 1.0
    rolls = np.zeros(4)
    while float(state.sum()) >= TAIL_MASS / 10:
        new = np.zeros_like(state)
        for q in range(4):
            src = state[q] if q % 2 == 0 else state[q].T  # the roller's team on axis 0
            mass = float(src.sum())
            if not mass:
                continue
            rolls[q] += mass
            for p, k, goes_on, rolls_on in moves:
                dest = new[q if goes_on else (q + 1) % 4]
                rang = advance(src, dest if q % 2 == 0 else dest.T, p, k, target)
                if finish and rolls_on:
                    rolls[q] += rang / (1.0 - c)
        state = new
    return rolls


def _roll_once(state: FloatArray, moves: list[tuple[float, int, bool, bool]],
               mine: int | None) -> FloatArray:
    """One roll at a table held as ``state[position to roll, in a turn, first team's
    lead]``; position ``mine``'s Buncos dropped (None: none)."""
    new = np.zeros_like(state)
    for q in range(4):
        src = state[q, 0] + state[q, 1]
        sign = 1 if q % 2 == 0 else -1
        for p, k, goes_on, is_bunco in moves:
            if is_bunco and q == mine:
                continue
            moved = p * shifted(src, sign * k)
            if goes_on:
                new[q, 1] += moved
            else:
                new[(q + 1) % 4, 0] += moved
    return new


@lru_cache(maxsize=64)
def _other_rolls(rules: RuleSet, round_no: int) -> FloatArray:
    """Expected rolls of another table's positions 0-3 in a round: in play until the
    head table's bell, rolling on, and in a tie-break."""
    outcomes = roll_outcomes(rules, round_no)
    _, _, reach = round_chains(rules, round_no)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    moves = [(float(o.probability), o.points, o.continues, o.is_bunco) for o in outcomes]
    c = sum(float(o.probability) for o in outcomes if o.turn_continues)
    kept = np.array([float(p) for p in kept_points(outcomes, after_bell=True)[0]])
    ties = [_tie_rolls(rules, s) for s in range(4)]
    span = 16 + 2 * max(o.points for o in outcomes)
    size = 2 * span + 1
    zero = span
    state = np.zeros((4, 2, size))  # [position to roll, in a turn, first team's lead]
    state[0, 0, zero] = 1.0
    played = np.zeros(4)
    total = np.zeros(4)
    for n in range(len(reach)):
        if reach[n]:
            stop = played.copy()
            for q in range(4):
                for m in (0, 1):
                    dist = state[q, m]
                    mass = float(dist.sum())
                    if not mass:
                        continue
                    if m and finish:  # rolls on, then the dice pass
                        stop[q] += mass / (1.0 - c)
                        if q % 2 == 0:
                            tie = float(np.convolve(dist, kept)[zero])
                        else:
                            tie = float(dist[zero : zero + len(kept)] @ kept[: size - zero])
                        starter = (q + 1) % 4
                    else:
                        tie, starter = float(dist[zero]), q
                    stop += tie * ties[starter]
            total += reach[n] * stop
        played += state.sum(axis=(1, 2))
        state = _roll_once(state, moves, None)
    return total


def _race_rolls(rules: RuleSet) -> float:
    """Expected rolls of a roll-off to ``roll_off_target`` points between two teams (the
    rolls for high that pick its first roller do not count)."""
    goal = rules.roll_off_target
    turn = _rolloff_turn()
    state = np.zeros((2, goal, goal))  # [team to roll, first team's points, second's]
    state[0, 0, 0] = 1.0
    rolls = 0.0
    while float(state.sum()) >= TAIL_MASS / 10:
        rolls += float(state.sum())
        new = np.zeros_like(state)
        for r in (0, 1):
            src = state[r] if r == 0 else state[r].T
            for o in turn:
                dest = new[r if o.turn_continues else 1 - r]
                advance(src, dest if r == 0 else dest.T, float(o.probability), o.points, goal)
        state = new
    return rolls


@lru_cache(maxsize=64)
def _own_target_rolls(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """``rolls[k, p]``: expected rolls of position ``p`` at table ``k + 1`` in a round
    where every table plays to its own target and a Bunco anywhere ends it: in play while
    the table and every other has had no Bunco (tick order as in
    :func:`bunco.analysis.set_exact.stop_weights`), and in the roll-off of a table left
    tied (any position starts it, 1/4 each)."""
    outcomes = roll_outcomes(rules, round_no)
    target = rules.target(team=True, single_table=False)
    bunco, reached = _own_target_table(outcomes, target, _tie_odds(rules))
    rolled, short, any_bunco, before, after = stop_weights(bunco, reached, tables)
    steps = bunco.shape[1]
    moves = [(float(o.probability), o.points, o.continues, o.ends_round) for o in outcomes]
    state = np.zeros((4, target, target))  # [position to roll, first team's, second's]
    state[0, 0, 0] = 1.0
    lead = np.subtract.outer(np.arange(target), np.arange(target)) == 0
    alive = np.zeros((4, steps))  # P(still playing, no Bunco, position p to roll), n rolls
    tied = np.zeros(steps)
    for n in range(steps):
        alive[:, n] = state.sum(axis=(1, 2))
        tied[n] = float(state[:, lead].sum())
        new = np.zeros_like(state)
        for q in range(4):
            src = state[q] if q % 2 == 0 else state[q].T
            for p, k, goes_on, ends in moves:
                if not ends:
                    dest = new[q if goes_on else (q + 1) % 4]
                    advance(src, dest if q % 2 == 0 else dest.T, p, k, target)
        state = new
    tie_rolls = (_session_rolls() if rules.tie_break is TieBreak.SESSIONS
                 else _race_rolls(rules) / 4)
    out = np.zeros((tables, 4))
    for k in range(tables):
        lets = rolled ** (tables - 1 - k) * short**k  # the others let table k roll roll t
        out[k] = alive[:, :-1] @ lets
        out[k] += tie_rolls * float((any_bunco * (tied[1:] * before[k] + tied[:-1] * after[k])
                                     ).sum())
    return out


def seat_buncos(rules: RuleSet, round_no: int, tables: int) -> FloatArray:
    """``buncos[k, s]``: a player's expected Buncos in round ``round_no`` in seat ``s + 1``
    of table ``k + 1`` (rules :func:`buncos_refusal` accepts)."""
    step = 1 if rules.direction is Direction.LEFT else 3
    if rules.round_end is RoundEnd.EVERY_TABLE:
        rolls = _own_target_rolls(rules, round_no, tables)
        return BUNCO * rolls[:, [((s * step) % 4) for s in range(4)]]
    outcomes = roll_outcomes(rules, round_no)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    head = _head_rolls(outcomes, rules.target(team=True, single_table=False), finish)
    other = _other_rolls(rules, round_no)
    seat_of = [(p * step) % 4 for p in range(4)]  # position in the order -> seat
    out = np.zeros((tables, 4))
    if rules.first_roller is FirstRoller.ROLL_FOR_HIGH:  # any seat starts, 1/4 each
        out[0, :] = head.mean()
        out[1:, :] = other.mean()
        return BUNCO * out
    for p, s in enumerate(seat_of):
        out[0, s] = head[p]
        out[1:, s] = other[p]
    return BUNCO * out


def expected_buncos(rules: RuleSet, seat_chances: FloatArray) -> FloatArray:
    """Each player's expected Buncos over a set, exactly (parties :func:`buncos_refusal`
    accepts), from ``seat_chances[r, i, s]`` (P(player ``i`` sits in seat ``s`` in round
    ``r + 1``: :func:`bunco.analysis.set_exact.set_wins`)."""
    tables = seat_chances.shape[2] // 4
    total = np.zeros(seat_chances.shape[1])
    for r, where in enumerate(seat_chances):
        total += where @ seat_buncos(rules, r + 1, tables).reshape(-1)
    return total


# -- the chance of no Bunco -----------------------------------------------------------------------
def _no_bunco_turn(outcomes: tuple[Outcome, ...]) -> FloatArray:
    """P(a free turn rolled on after the bell scores k points and holds no Bunco)."""
    kept, _ = kept_points(tuple(o for o in outcomes if not o.is_bunco), after_bell=True)
    return np.array([float(p) for p in kept])


def _tie_no_bunco(rules: RuleSet, starter: int, mine: int) -> tuple[float, float]:
    """A tie-break from position ``starter``: (P(the first team wins it and position
    ``mine`` rolls no Bunco in it), P(``mine`` rolls no Bunco in it))."""
    if rules.tie_break is TieBreak.SESSIONS:
        turn = _rolloff_turn()
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
        state = _roll_once(state, moves, mine)
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
