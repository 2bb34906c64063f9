"""One roll of the round chains that the odds of a whole set compose.

The exact set odds (:mod:`bunco.analysis.set_exact`, :mod:`bunco.analysis.set_buncos`,
:mod:`bunco.analysis.set_no_bunco`) follow a table of four through a round as a Markov
chain, held in one of two ways:

- **by both team scores** (:func:`score_roll`, :func:`score_chain`):
  ``state[q, a, b]``, the chance that position ``q`` is to roll, the first team (seats 1
  and 3) has ``a`` points and the second ``b``, both below the target; a roll that brings
  its team to the target, or ends the round by itself, leaves the chain (it is
  *absorbed*, reported per position and move);
- **by both team scores, with no target** (:func:`pair_roll`), where a wipeout can
  strike at a table that no target stops: ``state[r, m, a, b]``;
- **by the lead** (:func:`lead_roll`), where no target stops the table (another table
  at a head-table party, stopped by the head table's bell): ``state[q, m, d]``, the
  chance that position ``q`` is to roll, in the middle of a turn (``m = 1``) or at its
  start, with the first team ``d - span`` points ahead.

Positions alternate teams in the rolling order (position ``q`` is on team ``q % 2``) and
the dice pass from ``q`` to ``q + 1`` (mod the number of positions): two positions follow
only the team to roll, four follow each player. Any position's Buncos may be left out
(``drop``), for the chance that a given player rolls none.

>>> from bunco.analysis.odds import roll_outcomes
>>> from bunco.core.presets import get_rules
>>> moves = moves_of(roll_outcomes(get_rules("classic"), 1))
>>> state = np.zeros((2, 21, 21)); state[0, 0, 0] = 1.0
>>> after, absorbed = score_roll(state, moves, 21)
>>> round(float(after.sum() + absorbed.sum()), 12)  # one roll moves or absorbs it all
1.0
>>> round(float(absorbed.sum()) * 216)  # only a Bunco (21) reaches 21 at once
1
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.non_head import oriented
from bunco.analysis.odds import TAIL_MASS, Outcome
from bunco.analysis.table_odds import MAX_STEPS
from bunco.core.errors import InvalidRuleValue

FloatArray = NDArray[np.float64]


class Move(NamedTuple):
    """One class of roll as the chains use it (from :class:`bunco.analysis.odds.Outcome`)."""

    p: float
    """Its chance."""
    points: int
    goes_on: bool
    """The roller rolls again in play (``Outcome.continues``)."""
    ends: bool
    """It ends the round by itself (``Outcome.ends_round``)."""
    is_bunco: bool
    rolls_on: bool
    """After the bell the roller rolls on (``Outcome.turn_continues``)."""
    wipes: bool = False
    """It wipes the roller's team's points for the round and ends the turn."""


def moves_of(outcomes: tuple[Outcome, ...]) -> tuple[Move, ...]:
    """The moves of a round's classes of roll."""
    return tuple(
        Move(
            float(o.probability),
            o.points,
            o.continues,
            o.ends_round,
            o.is_bunco,
            o.turn_continues,
            o.wipes,
        )
        for o in outcomes
    )


def shifted(values: FloatArray, by: int) -> FloatArray:
    """``values`` moved ``by`` places up (down when negative), zeros coming in."""
    out = np.zeros_like(values)
    if by >= 0:
        out[by:] = values[: len(values) - by]
    else:
        out[:by] = values[-by:]
    return out


def check_steps(steps: int) -> None:
    """Refuse a round that has not ended after :data:`MAX_STEPS` rolls."""
    if steps > MAX_STEPS:
        raise InvalidRuleValue(
            f"a round at a table does not end within {MAX_STEPS} rolls under these rules",
            expected="rules under which a team can reach its target",
        )


def score_roll(
    state: FloatArray, moves: tuple[Move, ...], target: int, drop: int | None = None
) -> tuple[FloatArray, FloatArray]:
    """One roll of the chain over both team scores (``state[q, a, b]``, module doc).

    Returns ``(new, absorbed)``: ``absorbed[q, i]`` is the chance that position ``q``
    rolled move ``i`` and it left the chain (its team reached ``target``, or the move
    ends the round). A wipeout puts the roller's team back to 0 and passes the dice.
    Position ``drop``'s Buncos are left out altogether."""
    positions = state.shape[0]
    new = np.zeros_like(state)
    absorbed = np.zeros((positions, len(moves)))
    for q in range(positions):
        src = oriented(state[q], q % 2)  # the roller's team's score on axis 0
        rows = src.sum(axis=1)
        # at_least[a]: P(the roller's team has a points or more)
        at_least = np.append(np.cumsum(rows[::-1])[::-1], 0.0)
        if not at_least[0]:
            continue
        for i, move in enumerate(moves):
            if move.is_bunco and q == drop:
                continue
            k = move.points
            if move.ends or k >= target:
                absorbed[q, i] = move.p * float(at_least[0])
                if move.ends:
                    continue
            dest = oriented(new[q if move.goes_on else (q + 1) % positions], q % 2)
            if move.wipes:
                dest[0, :] += move.p * src.sum(axis=0)
            elif k < target:
                dest[k:, :] += move.p * src[: target - k, :]
                absorbed[q, i] = move.p * float(at_least[target - k])
    return new, absorbed


def score_chain(
    state: FloatArray,
    moves: tuple[Move, ...],
    target: int,
    *,
    drop: int | None = None,
    rolls: int | None = None,
) -> Iterator[tuple[FloatArray, FloatArray]]:
    """Roll the chain on from ``state``: yields :func:`score_roll`'s ``(new, absorbed)``
    for roll 1, 2, ...: ``rolls`` of them, or (``None``) until less than ``TAIL_MASS /
    10`` is still playing (refused after :data:`MAX_STEPS` rolls)."""
    done = 0
    while (float(state.sum()) >= TAIL_MASS / 10) if rolls is None else done < rolls:
        done += 1
        if rolls is None:
            check_steps(done)
        state, absorbed = score_roll(state, moves, target, drop)
        yield state, absorbed


def start(positions: int, target: int, first: int = 0, chance: float = 1.0) -> FloatArray:
    """A chain over both team scores before its first roll: position ``first`` to roll,
    both teams at 0."""
    state = np.zeros((positions, target, target))
    state[first, 0, 0] = chance
    return state


@lru_cache(maxsize=16)
def _leads(target: int) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """Masks of the scores ``[a, b]`` below ``target`` where the first team leads, ties
    or trails."""
    lead = np.subtract.outer(np.arange(target), np.arange(target))
    return lead > 0, lead == 0, lead < 0


def standing(
    state: FloatArray, done: tuple[float, float], tie_won: list[float], tie_lost: list[float]
) -> tuple[float, float]:
    """If the round stopped now: (P(the first team has won or would win), the same for
    the second team), given ``done[w]`` (team ``w`` has reached the target), the team
    ahead on points winning, and a tie when position ``q`` is to roll going to the
    first team with chance ``tie_won[q]``, to the second with ``tie_lost[q]``."""
    ahead, level, behind = _leads(state.shape[1])
    tie = state[:, level].sum(axis=1)
    return (
        done[0] + float(state[:, ahead].sum()) + float(tie @ np.array(tie_won)),
        done[1] + float(state[:, behind].sum()) + float(tie @ np.array(tie_lost)),
    )


def lead_roll(state: FloatArray, moves: tuple[Move, ...], drop: int | None = None) -> FloatArray:
    """One roll of the chain over the first team's lead (``state[q, m, d]``, module
    doc); position ``drop``'s Buncos left out. A lead pushed past either end of the
    array is lost (the caller sizes it). A wipeout cannot be followed by the lead alone
    (it takes away the roller's team's own points): refused."""
    if any(move.wipes for move in moves):
        raise ValueError("a wipeout changes the lead by the team's own points: not a lead chain")
    positions = state.shape[0]
    new = np.zeros_like(state)
    size = state.shape[2]
    for q in range(positions):
        src = state[q, 0] + state[q, 1]
        sign = 1 if q % 2 == 0 else -1
        for move in moves:
            if move.is_bunco and q == drop:
                continue
            by = sign * move.points
            if abs(by) >= size:
                continue  # pushed past the end: lost
            dest = new[q, 1] if move.goes_on else new[(q + 1) % positions, 0]
            # what shifted(src, by) would add, added in place (no array per move)
            if by >= 0:
                dest[by:] += move.p * src[: size - by]
            else:
                dest[:by] += move.p * src[-by:]
    return new


def pair_roll(state: FloatArray, moves: tuple[Move, ...]) -> FloatArray:
    """One roll at a table that no target stops, followed by both team scores:
    ``state[r, m, a, b]``, team ``r`` to roll, in the middle of a turn (``m = 1``) or at
    its start, the first team at ``a`` points and the second at ``b``, both below the
    array's size (what is pushed past it is lost: the caller sizes it). A wipeout puts
    the roller's team back to 0."""
    cap = state.shape[2]
    new = np.zeros_like(state)
    for r in (0, 1):
        src = oriented(state[r, 0] + state[r, 1], r)  # the roller's team's score on axis 0
        for move in moves:
            dest = oriented(new[r, 1] if move.goes_on else new[1 - r, 0], r)
            if move.wipes:
                dest[0, :] += move.p * src.sum(axis=0)
            elif move.points < cap:
                dest[move.points :, :] += move.p * src[: cap - move.points, :]
    return new
