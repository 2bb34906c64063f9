"""Each player's exact chance of ending a set (or night) with the most wins.

Who has the most wins depends on every player's wins at once, so (unlike the figures of
:mod:`bunco.analysis.set_seats`, which follow one player at a time) it needs the ways the
whole night can go: one round at ``T`` tables goes one of ``2^T`` ways
(:func:`bunco.analysis.set_exact.round_patterns`), a set one of ``2^(6 T)``. Many of them
leave the seats holding the same wins, though: what matters for the rest of the night is
only *how many wins whoever sits in each seat has* (the chance of a round's ways does not
depend on who sits where, and the movement goes by seats). So:

1. **Forward**, round by round, the distinct vectors of wins by seat are kept (each
   vector packed into integer keys and merged), with, for each vector and way, the
   vector it leads to (:func:`bunco.analysis.set_seats.seat_moves` moves the wins with
   the players).
2. **Backward** from the last round, ``V[k, s]``: the chance that whoever sits in seat
   ``s`` when the seats hold vector ``k`` ends with the most wins (or alone with them):
   at the end 1 or 0; a round earlier, the sum over the ways of their chance times
   ``V`` of the vector and seat they lead to. Player ``i`` starts in seat ``i`` with no
   wins, so ``V`` at the start is the answer.

`classic`'s movement leaves 4,137 vectors after a 12-player set (of 262,144 ways) and
57,177 after a 16-player one (of 16.8 million); `winning-moves`' 164,763 at 12 players.
Where the vectors times the ways would pass :data:`MAX_ROWS` in a round (20 players,
or 16 under `scil`, `tournament` and `winning-moves`; two sets at 12 players, or at 8
under `tournament` and `winning-moves`; three sets at 8), the chance is not composed
(:func:`most_wins_refusal` says so, and the night kernel gives it).

>>> from bunco.core.presets import get_rules
>>> odds = set_wins(get_rules("classic"), 8)
>>> round(float(odds["most_wins"].sum()), 4)  # ties share: more than one
1.631
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.set_exact import round_patterns
from bunco.analysis.set_seats import seat_moves, seats_refusal, won_seats
from bunco.core.rules import RuleSet

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: The most vectors times ways followed in one round (the work and memory of a round).
MAX_ROWS = 1_000_000


class TooManyStates(Exception):
    """The wins by seat stand too many ways to follow (more than :data:`MAX_ROWS`)."""


def _keys(wins: NDArray[np.int8], bits: int) -> list[IntArray]:
    """Pack each row of ``wins`` (values below ``2^bits``) into int64 keys."""
    per_key = 63 // bits
    keys = []
    for first in range(0, wins.shape[1], per_key):
        key = np.zeros(len(wins), dtype=np.int64)
        for j in range(first, min(first + per_key, wins.shape[1])):
            key |= wins[:, j].astype(np.int64) << (bits * (j - first))
        keys.append(key)
    return keys


def _forward(rules: RuleSet, tables: int, rounds: int) -> tuple[list[IntArray], NDArray[np.int8]]:
    """The vectors of wins by seat: for each round, ``child[k, w]`` (the vector that
    vector ``k`` leads to when the round goes way ``w``), and the last round's vectors."""
    seats = 4 * tables
    dest = seat_moves(rules, tables)
    came = np.zeros_like(dest)  # came[w, s']: the seat whose occupant sits in s' next
    for w in range(len(dest)):
        came[w, dest[w]] = np.arange(seats)
    won = won_seats(tables)
    bits = int(rounds).bit_length()
    wins = np.zeros((1, seats), dtype=np.int8)
    children = []
    for _ in range(rounds):
        if len(wins) * len(dest) > MAX_ROWS:
            raise TooManyStates
        after = np.take_along_axis(
            (wins[:, None, :] + won[None]).reshape(len(wins), -1, seats),
            np.broadcast_to(came, (len(wins), *came.shape)),
            axis=2,
        )
        after = after.reshape(-1, seats)
        keys = _keys(after, bits)
        order = np.lexsort(keys[::-1])
        changed = np.zeros(len(order), dtype=bool)
        changed[0] = True
        for key in keys:
            changed[1:] |= key[order][1:] != key[order][:-1]
        group = np.cumsum(changed) - 1
        child = np.empty(len(order), dtype=np.int64)
        child[order] = group
        children.append(child.reshape(len(wins), len(dest)))
        wins = after[order[changed]]
    return children, wins


@lru_cache(maxsize=16)
def _night(rules: RuleSet, players: int, sets: int) -> tuple[FloatArray, FloatArray]:
    tables = players // 4
    dest = seat_moves(rules, tables)
    children, wins = _forward(rules, tables, 6 * sets)
    top = wins == wins.max(axis=1, keepdims=True)
    value = np.stack([top, top & (top.sum(axis=1, keepdims=True) == 1)]).astype(np.float64)
    for r in reversed(range(6 * sets)):
        q = round_patterns(rules, r % 6 + 1, tables)
        earlier = np.zeros((2, len(children[r]), 4 * tables))
        for w, chance in enumerate(q):  # whoever sits in s goes to dest[w, s]
            earlier += chance * value[:, children[r][:, w]][:, :, dest[w]]
        value = earlier
    return value[0, 0], value[1, 0]


def most_wins_refusal(rules: RuleSet, players: int, sets: int) -> str | None:
    """Why the chance of the most wins of this party's night is not composed exactly
    (None: it is)."""
    reason = seats_refusal(rules, players)
    if reason is not None:
        return reason
    try:
        _night(rules, players, sets)
    except TooManyStates:
        return (
            f"P(most wins) follows every player's wins at once: at {players} players "
            f"and {sets} set{'s' if sets > 1 else ''} the seats' wins stand more than "
            f"{MAX_ROWS:,} ways in a round, too many to follow in a second or two"
        )
    return None


def set_wins(rules: RuleSet, players: int, sets: int = 1) -> dict[str, FloatArray]:
    """Exactly, per player (in the night kernel's first seating), over a night of
    ``sets`` sets: ``most_wins`` (P(no one has more wins)) and ``most_wins_alone``. Only
    for parties :func:`most_wins_refusal` accepts."""
    most, alone = _night(rules, players, sets)
    return {"most_wins": most, "most_wins_alone": alone}
