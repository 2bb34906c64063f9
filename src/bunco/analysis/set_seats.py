"""Where each player sits, round by round, and the figures that follow from it exactly.

A round at ``T`` tables of four goes one of ``2^T`` ways
(:func:`bunco.analysis.set_exact.round_patterns`), with a chance that depends only on the
round's number, never on who sits where; who sits where next follows from where they sit
and the way the round went (:func:`seat_moves`). So one player's seat, round after
round, is a Markov chain over the ``4 T`` seats, whose step in round ``r`` is

    ``M_r[s, s'] = sum over ways w with dest[w, s] = s' of q_r[w]``

and the chance of each seat in each round follows by multiplying these (no need to
enumerate the ``2^(6 T)`` ways of a set, nor follow every player at once, as the chance
of the most wins needs: :mod:`bunco.analysis.set_most_wins`). From it,
exactly, at any number of tables of four and over any number of sets (the seating goes
on from set to set, the rounds numbered 1-6 again):

- each player's **expected wins**: the chance of each seat times the chance that the
  seat's team wins;
- each player's **expected Buncos** (:func:`bunco.analysis.set_buncos.seat_buncos`, the
  expected Buncos of a seat in a round, weighed by the chance of sitting there);
- each player's chance of **at least one Bunco**: the same chain, each step weighed by
  the chance of the way *and* no Bunco in the seat
  (:func:`bunco.analysis.set_no_bunco.no_bunco_patterns`), keeps the chance of being in
  each seat with no Bunco so far; what is left at the end is P(no Bunco in the night).

The players start as the night kernel seats them: player ``i`` in seat ``i`` (table 1
seats 1–4, then table 2, ...). The ``2^T`` ways are enumerated, so this stays exact and
quick up to :data:`MAX_TABLES` tables (40 players; 32 where every table plays to
its own target).

>>> from bunco.core.presets import get_rules
>>> odds = seat_odds(get_rules("classic"), 16, 1)
>>> round(float(odds["expected_wins"].sum()), 9)  # two winners a table, six rounds
48.0
>>> odds["seat_chances"].shape  # rounds, players, seats
(6, 16, 16)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.night_kernel import movement_table, seat_places
from bunco.analysis.set_exact import round_patterns, ways_refusal
from bunco.core.rules import RoundEnd, RuleSet

FloatArray = NDArray[np.float64]

#: The most tables of four whose seats are followed exactly (``2^T`` ways a round), where
#: the head table ends the round, and where every table plays to its own target (each
#: way a sum over which table rolls the first Bunco: slower).
MAX_TABLES = {RoundEnd.HEAD_TABLE: 10, RoundEnd.EVERY_TABLE: 8}


def tables_refusal(rules: RuleSet, players: int) -> str | None:
    """Why the seats of this many players are not followed exactly (None: they are)."""
    tables = players // 4
    most = MAX_TABLES[rules.round_end]
    if players % 4 or not 2 <= tables <= most:
        return (
            f"exact odds follow parties of 8 to {4 * most} players in tables of four here"
            f" (a round at T tables goes one of 2^T ways; {players} players "
            + ("do not sit in tables of four)" if players % 4 else f"are {tables} tables)")
        )
    return None


def seats_refusal(rules: RuleSet, players: int) -> str | None:
    """Why each player's seats and wins at this party are not followed exactly (None:
    they are; the Buncos need more: :func:`bunco.analysis.set_buncos.buncos_refusal`)."""
    return tables_refusal(rules, players) or ways_refusal(rules)


@lru_cache(maxsize=16)
def seat_moves(rules: RuleSet, tables: int) -> NDArray[np.int64]:
    """``dest[w, s]``: the seat (``4 table + seat``) where whoever sits in seat ``s``
    sits next round when the round went way ``w`` (bit ``k`` set: the team of seats 2
    and 4 won at table ``k + 1``), read off the night kernel's movement lookup."""
    move = movement_table(rules, (4,) * tables)
    dest = np.zeros((2**tables, 4 * tables), dtype=np.int64)
    for w in range(2**tables):
        places = seat_places(move, [(w >> k) & 1 for k in range(tables)])
        for k in range(tables):
            for s in range(4):
                dest[w, places[k][s]] = 4 * k + s
    return dest


def won_seats(tables: int) -> NDArray[np.int8]:
    """``won[w, s]``: 1 when seat ``s`` is on the winning team at its table when the
    round goes way ``w``."""
    seats = np.arange(4 * tables)
    return np.array(
        [(seats % 4) % 2 == ((w >> (seats // 4)) & 1) for w in range(2**tables)], dtype=np.int8
    )


def step_matrix(dest: NDArray[np.int64], weights: FloatArray) -> FloatArray:
    """``M[s, s']``: the sum of ``weights[w, s]`` over the ways ``w`` that send seat ``s``
    to seat ``s'`` (``weights`` one chance per way, or one per way and seat)."""
    ways, seats = dest.shape
    weights = np.broadcast_to(weights.reshape(ways, -1), (ways, seats))
    out = np.zeros((seats, seats))
    np.add.at(out, (np.broadcast_to(np.arange(seats), (ways, seats)), dest), weights)
    return out


def seat_odds(
    rules: RuleSet, players: int, sets: int, no_bunco: Callable[[int], FloatArray] | None = None
) -> dict[str, FloatArray]:
    """Exactly, per player (the night kernel's first seating), over a night of ``sets``
    sets: ``expected_wins`` and ``seat_chances[r, i, s]`` (P(player ``i`` sits in seat
    ``s`` in the night's round ``r + 1``); with ``no_bunco`` (round number 1-6 ->
    ``q[w, s]``: P(the round goes way ``w`` and whoever sits in seat ``s`` rolls no
    Bunco)), also ``at_least_one_bunco``. Only for parties :func:`seats_refusal`
    accepts."""
    tables = players // 4
    dest = seat_moves(rules, tables)
    won = won_seats(tables).astype(np.float64)
    where = np.eye(players)  # where[i, s] in the round under way
    clean = np.eye(players)  # P(in seat s, no Bunco by player i yet)
    chances = []
    wins = np.zeros(players)
    for r in range(6 * sets):
        round_no = r % 6 + 1
        q = round_patterns(rules, round_no, tables)
        chances.append(where)
        wins += where @ (q @ won)
        where = where @ step_matrix(dest, q)
        if no_bunco is not None:
            clean = clean @ step_matrix(dest, no_bunco(round_no))
    return {
        "expected_wins": wins,
        "seat_chances": np.array(chances),
        **({} if no_bunco is None else {"at_least_one_bunco": 1.0 - clean.sum(axis=1)}),
    }
