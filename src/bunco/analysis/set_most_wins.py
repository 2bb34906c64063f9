"""Each player's exact chance of ending a set with the most wins, at 8 or 12 players.

Who has the most wins depends on every player's wins at once, so (unlike the figures of
:mod:`bunco.analysis.set_seats`, which follow one player at a time) it needs the ways the
whole set can go: one round at ``T`` tables goes one of ``2^T`` ways
(:func:`bunco.analysis.set_exact.round_patterns`), a set one of ``2^(6 T)`` (4,096 at
two tables, 262,144 at three). They are enumerated with NumPy, each with its chance,
carrying every player's seat (:func:`bunco.analysis.set_seats.seat_moves`) and wins.
At four tables a set goes one of 16.8 million ways and a night of two sets at two tables
as many: that is past what a command answers in a second or two, so those figures come
from the night kernel (:func:`most_wins_refusal` says so).

>>> from bunco.core.presets import get_rules
>>> odds = set_wins(get_rules("classic"), 8)
>>> round(float(odds["expected_wins"].sum()), 9)  # two winners a table, six rounds
24.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.set_exact import round_patterns
from bunco.analysis.set_seats import seat_moves, seats_refusal, won_seats
from bunco.core.rules import RuleSet

FloatArray = NDArray[np.float64]

#: Tables of four whose set is enumerated (``2^(6 T)`` ways for ``T`` tables).
EXACT_TABLES = (2, 3)


def most_wins_refusal(rules: RuleSet, players: int, sets: int) -> str | None:
    """Why the chance of the most wins of this party's night is not composed exactly
    (None: it is)."""
    reason = seats_refusal(rules, players)
    if reason is not None:
        return reason
    if players // 4 not in EXACT_TABLES:
        return ("P(most wins) is exact for 8 or 12 players (it enumerates the 2^(6T) ways "
                "a set at T tables can go: 16.8 million at 16 players)")
    if sets != 1:
        return ("P(most wins) is exact for one set (the ways a night of several sets can "
                "go are too many to enumerate)")
    return None


def set_wins(rules: RuleSet, players: int) -> dict[str, FloatArray]:
    """Exactly, per player (in the night kernel's first seating), over one set:
    ``expected_wins``, ``most_wins`` (P(no one has more wins)) and ``most_wins_alone``.
    Only for parties :func:`most_wins_refusal` accepts."""
    tables = players // 4
    dest = seat_moves(rules, tables)
    won = won_seats(tables)
    seat = np.arange(players, dtype=np.int8)[None, :]  # seat[path, player]
    wins = np.zeros((1, players), dtype=np.int8)
    chance = np.ones(1)
    for r in range(6):
        q = round_patterns(rules, r + 1, tables)
        way = np.arange(len(q))[None, :, None]
        wins = (wins[:, None, :] + won[way, seat[:, None, :]]).reshape(-1, players)
        seat = dest[way, seat[:, None, :]].astype(np.int8).reshape(-1, players)
        chance = (chance[:, None] * q[None, :]).reshape(-1)
    best = wins.max(axis=1, keepdims=True)
    top = wins == best
    alone = top & (top.sum(axis=1, keepdims=True) == 1)
    return {
        "expected_wins": chance @ wins.astype(np.float64),
        "most_wins": chance @ top.astype(np.float64),
        "most_wins_alone": chance @ alone.astype(np.float64),
    }
