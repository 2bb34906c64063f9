"""The start and end of a round in the night kernel: first rollers, cards, movement.

:func:`_begin_round` is ``Night._begin_round`` (fresh tables, their first rollers);
:func:`_end_round` is ``Night._end_round``: the cards, the round's figures, then
everyone moves by a lookup per table built from :func:`bunco.core.seating.next_seating`
itself (:func:`bunco.analysis.night_kernel.movement_table`), or, when the party has
ghosts, seated by :func:`_arrange`, the compiled ``seating_moves.arrange_table``.
"""

from __future__ import annotations

import numpy as np

from bunco.analysis.kernel.layout import (
    C_CARDS,
    C_DETAIL,
    C_FIRST,
    C_GHOSTS,
    C_NO_REPEAT,
    D_LOSSES,
    D_POINTS,
    D_SET_WINS,
    D_WINS,
    F_CLINCHER,
    F_FIRST_SEAT,
    F_HC,
    F_HN,
    F_LAST_BUNCO,
    F_N,
    F_NAFTER,
    F_NEXT,
    F_NFIRST,
    F_NPLAY,
    F_NTIE,
    F_PTS,
    F_ROUND,
    F_SCORER,
    F_SEAT,
    F_STATUS,
    F_TBP,
    F_TBS,
    F_TEAM,
    F_TIE,
    F_TURN,
    F_WIN,
    FR_HIGH,
    FR_LEFT_OF_WINNER,
    MV_SOURCES,
    R_CLINCHER,
    R_FIRST_WON,
    R_NAFTER,
    R_NFIRST,
    R_NPLAY,
    R_NTIE,
    R_PTS,
    R_SEATS,
    R_TBP,
    R_TBS,
    R_TIE,
    R_WIN,
    S_FIRST,
    S_PLAYING,
    U_PTS,
    U_ROLLER,
    U_SCORER,
    U_SEAT,
    U_SIDEOF,
    njit,
)
from bunco.analysis.kernel.table import _seat_rollers, _turn_order

PERMUTATIONS = np.array(
    [
        [a, b, c, 6 - a - b - c]
        for a in range(4)
        for b in range(4)
        for c in range(4)
        if len({a, b, c}) == 3
    ],
    dtype=np.int64,
)
"""The 24 orders of four seats, in the order of ``itertools.permutations(range(4))``."""


@njit(_nrt=False, inline="always")
def _begin_round(st: np.ndarray, cfg: np.ndarray, first: bool) -> None:  # pragma: no cover
    """Night._begin_round: fresh tables and their first rollers."""
    rule = cfg[C_FIRST]
    for k in range(st.shape[0]):
        row = st[k]
        for f in range(F_ROUND):
            row[f] = 0
        row[F_WIN] = -1
        for j in range(4):
            row[F_SCORER + j] = -1
        row[F_FIRST_SEAT] = -1
        row[F_STATUS] = S_PLAYING
        if rule == FR_HIGH:  # everyone but a ghost rolls for high, from the scorekeeper
            st[k, F_STATUS] = S_FIRST
            seats = 0
            for j in range(st[k, F_N]):
                if st[k, F_SEAT + j] >= 0:
                    seats |= 1 << j
            st[k, F_HN] = _turn_order(st, k, 0, seats, F_HC)
            st[k, F_TURN] = st[k, F_HC]
        elif rule == FR_LEFT_OF_WINNER and not first:
            clincher = st[k, F_CLINCHER]
            for j in range(st[k, F_N]):
                if st[k, F_SEAT + j] == clincher:
                    st[k, F_TURN] = st[k, F_NEXT + j]


@njit(_nrt=False)
def _arrange(
    st: np.ndarray,
    k: int,
    combo: int,
    row: np.ndarray,
    no_repeat: bool,
    scratch: np.ndarray,
    memo: np.ndarray,
) -> None:  # pragma: no cover
    """seating_moves.arrange_table at a team table of four when the party has ghosts:
    who comes to table ``k`` is ``row`` (old places, ``4 table + seat``), as without
    ghosts; where they sit weighs the 24 seatings for partners (never two ghosts, a new
    partner for whoever stays, with ``no_repeat`` for everyone), no ghost keeping score,
    the most stayers in their seats. Writes the new seats to ``scratch[4 k:4 k + 4]``
    (``scratch`` ends with four spare entries).

    The seating chosen depends only on the table, the winners' pattern ``combo`` that
    says who comes, and which of them are ghosts: it is weighed once and kept in
    ``memo[k, combo, ghosts]`` (-1 until then)."""
    ghosts = 0
    for s in range(4):
        q = row[s]
        if st[q >> 2, F_SEAT + (q & 3)] < 0:
            ghosts |= 1 << s
    order = scratch[scratch.shape[0] - 4 :]  # stayers by seat, then arrivals by table and seat
    for s in range(4):
        q = row[s]
        key = q + (0 if q >> 2 == k else 4096)
        j = s
        while j > 0 and (order[j - 1] + (0 if order[j - 1] >> 2 == k else 4096)) > key:
            order[j] = order[j - 1]
            j -= 1
        order[j] = q
    best = memo[k, combo, ghosts]
    best_key = -1 if best >= 0 else 1 << 30
    for p in range(24 if best < 0 else 0):
        broken = 0
        for pair in range(2):
            a = order[PERMUTATIONS[p, pair]]
            b = order[PERMUTATIONS[p, pair + 2]]
            ghost_a = st[a >> 2, F_SEAT + (a & 3)] < 0
            ghost_b = st[b >> 2, F_SEAT + (b & 3)] < 0
            partners = a >> 2 == b >> 2 and (a & 1) == (b & 1)  # this round (seats 1&3, 2&4)
            if (ghost_a and ghost_b) or (partners and (no_repeat or a >> 2 == k)):
                broken += 1
        kept = 0
        for s in range(4):
            kept += order[PERMUTATIONS[p, s]] == 4 * k + s
        first = order[PERMUTATIONS[p, 0]]
        ghost_first = 1 if st[first >> 2, F_SEAT + (first & 3)] < 0 else 0
        key = broken * 64 + ghost_first * 8 + (4 - kept)
        if key < best_key:
            best_key = key
            best = p
    memo[k, combo, ghosts] = best
    for s in range(4):
        q = order[PERMUTATIONS[best, s]]
        scratch[4 * k + s] = st[q >> 2, F_SEAT + (q & 3)]


@njit(_nrt=False, inline="always")
def _end_round(
    st: np.ndarray,
    card: np.ndarray,
    move: np.ndarray,
    scratch: np.ndarray,
    acc: np.ndarray,
    rounds: np.ndarray,
    i: int,
    ri: int,
    cfg: np.ndarray,
    memo: np.ndarray,
) -> None:  # pragma: no cover
    """Night._end_round: cards, the round's figures, then everyone moves."""
    n_tables = st.shape[0]
    detail = cfg[C_DETAIL] != 0
    cards = cfg[C_CARDS] != 0
    ties = 0
    other_ties = 0
    for k in range(n_tables):
        row = st[k]
        w = row[F_WIN]
        wu = np.uint64(w)
        for s in range(row[F_N]):
            su = np.uint64(s)
            player = row[U_SEAT + su]
            if player < 0:
                continue
            won = 1 if row[U_SIDEOF + su] == w else 0
            mine = card[player]
            mine[D_WINS] += won
            mine[D_SET_WINS] += won
            mine[D_LOSSES] += 1 - won
            mine[D_POINTS] += row[U_PTS + su]
        scorer = row[U_SCORER + wu]
        row[F_CLINCHER] = scorer if scorer >= 0 else row[U_ROLLER + wu]
        tie = row[F_TIE]
        ties += tie
        if k > 0:
            other_ties += tie * row[F_TEAM]
        if detail or cards:
            first_won = (
                1 if row[F_NPLAY] > 0 and w == row[U_SIDEOF + np.uint64(row[F_FIRST_SEAT])] else 0
            )
            if detail:
                rounds[i, ri, k, R_FIRST_WON] = first_won
            else:
                rounds[i, 0, k, R_FIRST_WON] += first_won
        if detail:
            for j in range(4):
                rounds[i, ri, k, R_SEATS + j] = st[k, F_SEAT + j]
                rounds[i, ri, k, R_PTS + j] = st[k, F_PTS + j]
                rounds[i, ri, k, R_TBP + j] = st[k, F_TBP + j]
            rounds[i, ri, k, R_WIN] = w
            rounds[i, ri, k, R_TIE] = st[k, F_TIE]
            rounds[i, ri, k, R_TBS] = st[k, F_TBS]
            rounds[i, ri, k, R_NFIRST] = st[k, F_NFIRST]
            rounds[i, ri, k, R_NPLAY] = st[k, F_NPLAY]
            rounds[i, ri, k, R_NAFTER] = st[k, F_NAFTER]
            rounds[i, ri, k, R_NTIE] = st[k, F_NTIE]
            rounds[i, ri, k, R_CLINCHER] = st[k, F_CLINCHER]
    acc[3] += ties
    acc[4] += other_ties
    acc[0] += st[0, F_NPLAY] + st[0, F_NAFTER]
    # the head table's first team: every round of a team head table counts, a win after a
    # tie-break too (a Bunco at another table can stop the head table level), and a round
    # stopped before the head table's first roll counts as not won by it (as the exact
    # odds of bunco.analysis.set_exact count it)
    if st[0, F_TEAM] != 0:
        acc[1] += 1
        if st[0, F_NPLAY] > 0 and st[0, F_WIN] == (st[0, F_FIRST_SEAT] & 1):
            acc[2] += 1
    if st[0, F_NPLAY] > 0:
        acc[5] += st[0, F_LAST_BUNCO]
    # next_seating, as a lookup per table: the new table k's occupants come from the
    # tables move[k, 0, 1:1 + sources]; with their winning sides as digits of ``combo``,
    # seat s takes whoever sat in the place move[k, 1 + combo, s] (4 table + seat)
    ghosts = cfg[C_GHOSTS] != 0
    for k in range(n_tables):
        head = move[k, 0]
        combo = st[head[1], F_WIN]
        for j in range(1, head[0]):
            combo += st[head[1 + j], F_WIN] * head[MV_SOURCES + j]
        row = move[k, 1 + combo]
        if ghosts:
            _arrange(st, k, combo, row, cfg[C_NO_REPEAT] != 0, scratch, memo)
        else:
            for s in range(st[k, F_N]):
                q = row[s]
                scratch[4 * k + s] = st[q >> 2, F_SEAT + (q & 3)]
    for k in range(n_tables):
        for s in range(st[k, F_N]):
            st[k, F_SEAT + s] = scratch[4 * k + s]
    _seat_rollers(st)
