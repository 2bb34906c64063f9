"""Exact expected Buncos of each player at tables of four (every preset).

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
there in that round (``seat_chances`` of :func:`bunco.analysis.set_seats.seat_odds`).
Where every table first rolls for high, any seat starts with chance 1/4, and a seat's
figures mix the four places it may hold in the rolling order. For parties where the
head table ends the round and ties go to sessions or sudden death (``classic``,
``scil``, ``tournament``; no wipeout), and where every table plays to its own target and
a Bunco ends the round everywhere (``winning-moves``, wipeouts too: a table's roll
happens if no table rolling before it in the tick has had a Bunco; a table left tied
adds its roll-off); elsewhere :func:`buncos_refusal` says why not.

The chance of at least one Bunco: :mod:`bunco.analysis.set_no_bunco`.

>>> from bunco.core.presets import get_rules
>>> per_seat = seat_buncos(get_rules("classic"), 1, 3)
>>> per_seat.shape, bool(per_seat[0, 0] > per_seat[0, 3])  # the first roller rolls most
((3, 4), True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.chain_steps import lead_roll, moves_of, score_chain, start
from bunco.analysis.odds import Outcome, kept_points, roll_outcomes
from bunco.analysis.set_exact import (
    own_target_table,
    round_chains,
    rules_refusal,
    stop_weights,
    sudden_turn,
    tie_odds,
)
from bunco.analysis.set_seats import seats_refusal
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


def buncos_refusal(rules: RuleSet, players: int, sets: int = 1) -> str | None:
    """Why this party's expected Buncos are not composed exactly (None: they are; any
    number of sets: the seats go on from set to set)."""
    reason = seats_refusal(rules, players) or rules_refusal(rules)
    if reason is not None:
        return reason
    if rules.round_end is RoundEnd.HEAD_TABLE and any(
        o.wipes for r in range(1, 7) for o in roll_outcomes(rules, r)
    ):
        return (
            "Buncos with a wipeout at a head-table party are not composed (the rolls "
            "of a tie-break follow both teams' points at every table)"
        )
    if rules.round_end is RoundEnd.EVERY_TABLE:
        if rules.tie_break is TieBreak.SUDDEN_DEATH:
            return "Buncos at tables to their own targets are composed for roll-offs and sessions"
        return None
    if rules.tie_break not in (TieBreak.SESSIONS, TieBreak.SUDDEN_DEATH):
        return "Buncos are composed for ties settled by sessions or sudden death"
    return None


def rolloff_turn() -> tuple[Outcome, ...]:
    """A roll in a tie-break, as :func:`bunco.core.dice.score_rolloff` scores it (any
    round: only the count of the round's number matters)."""
    return (
        Outcome(RollKind.MISS, 0, False, False, 125),
        Outcome(RollKind.POINTS, 1, True, False, 75),
        Outcome(RollKind.POINTS, 2, True, False, 15),
        Outcome(RollKind.BUNCO, 21, True, False, 1),
    )


def _session_rolls() -> float:
    """Expected rolls of one player over a tie-break of sessions."""
    turn = np.array([float(p) for p in kept_points(rolloff_turn(), after_bell=True)[0]])
    team = np.convolve(turn, turn)
    tied = float(team @ team)
    per_turn = 1.0 / (1.0 - 91 / 216)
    return per_turn / (1.0 - tied)


def _tie_rolls(rules: RuleSet, round_no: int, starter: int) -> FloatArray:
    """Expected tie-break rolls of the players in rolling-order positions 0-3, when the
    player in position ``starter`` is to roll next."""
    if rules.tie_break is TieBreak.SESSIONS:
        return np.full(4, _session_rolls())
    hit, rolls = sudden_turn(rules, round_no)  # per turn: a Mini may carry it on (004)
    miss = 1.0 - hit
    return np.array([rolls * miss ** ((p - starter) % 4) / (1.0 - miss**4) for p in range(4)])


@lru_cache(maxsize=64)
def head_rolls(outcomes: tuple[Outcome, ...], target: int, finish: bool) -> FloatArray:
    """Expected rolls of the head table's positions 0-3 in a round (roll-on included)."""
    moves = moves_of(outcomes)
    c = sum(move.p for move in moves if move.rolls_on)
    on = np.array([finish and move.rolls_on for move in moves])
    state = start(4, target)
    rolls = np.zeros(4)
    for new, absorbed in score_chain(state, moves, target):
        rolls += state.sum(axis=(1, 2)) + absorbed[:, on].sum(axis=1) / (1.0 - c)
        state = new
    return rolls


@lru_cache(maxsize=64)
def _other_rolls(rules: RuleSet, round_no: int) -> FloatArray:
    """Expected rolls of another table's positions 0-3 in a round: in play until the
    head table's bell, rolling on, and in a tie-break."""
    outcomes = roll_outcomes(rules, round_no)
    _, _, reach = round_chains(rules, round_no)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    moves = moves_of(outcomes)
    c = sum(move.p for move in moves if move.rolls_on)
    kept = np.array([float(p) for p in kept_points(outcomes, after_bell=True)[0]])
    ties = [_tie_rolls(rules, round_no, s) for s in range(4)]
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
        state = lead_roll(state, moves)
    return total


def _race_rolls(rules: RuleSet) -> float:
    """Expected rolls of a roll-off to ``roll_off_target`` points between two teams (the
    rolls for high that pick its first roller do not count)."""
    goal = rules.roll_off_target
    state = start(2, goal)
    rolls = 0.0
    for new, _ in score_chain(state, moves_of(rolloff_turn()), goal):
        rolls += float(state.sum())
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
    bunco, reached = own_target_table(outcomes, target, tie_odds(rules, round_no))
    rolled, short, any_bunco, before, after = stop_weights(bunco, reached, tables)
    steps = bunco.shape[1]
    state = start(4, target)
    lead = np.subtract.outer(np.arange(target), np.arange(target)) == 0
    alive = np.zeros((4, steps))  # P(still playing, no Bunco, position p to roll), n rolls
    tied = np.zeros(steps)
    chain = score_chain(state, moves_of(outcomes), target, rolls=steps - 1)
    for n in range(steps):
        if n:
            state, _ = next(chain)
        alive[:, n] = state.sum(axis=(1, 2))
        tied[n] = float(state[:, lead].sum())
    tie_rolls = _session_rolls() if rules.tie_break is TieBreak.SESSIONS else _race_rolls(rules) / 4
    out = np.zeros((tables, 4))
    for k in range(tables):
        lets = rolled ** (tables - 1 - k) * short**k  # the others let table k roll roll t
        out[k] = alive[:, :-1] @ lets
        out[k] += tie_rolls * float(
            (any_bunco * (tied[1:] * before[k] + tied[:-1] * after[k])).sum()
        )
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
    head = head_rolls(outcomes, rules.target(team=True, single_table=False), finish)
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
    """Each player's expected Buncos over a night, exactly (parties
    :func:`buncos_refusal` accepts), from ``seat_chances[r, i, s]`` (P(player ``i`` sits
    in seat ``s`` in the night's round ``r + 1``, the rounds of a set numbered 1-6:
    :func:`bunco.analysis.set_seats.seat_odds`)."""
    tables = seat_chances.shape[2] // 4
    total = np.zeros(seat_chances.shape[1])
    for r, where in enumerate(seat_chances):
        total += where @ seat_buncos(rules, r % 6 + 1, tables).reshape(-1)
    return total
