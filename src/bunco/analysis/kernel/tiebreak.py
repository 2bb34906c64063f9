"""Rolls for high and tie-breaks in the night kernel, and the roll-offs at no table.

:func:`_high_roll` is ``TableRound._first_roll`` and ``_roll_for_first`` (and a
roll-off's roll for high); :func:`_tie_roll` is ``TableRound._tie_break_roll`` and
``_tie_pass`` for the three tie-breaks (the hot loop of
:mod:`bunco.analysis.kernel.round` writes out the roll-off's roll itself);
:func:`_slow_roll` is ``Night._roll`` at a table after the bell or in a sessions or
sudden-death tie-break; :func:`_rolloff` is :class:`bunco.core.rolloff.RollOff`, which
settles set winners and prizes.
"""

from __future__ import annotations

import numpy as np

from bunco.analysis.kernel.dice import _draw
from bunco.analysis.kernel.layout import (
    C_GOAL,
    C_TIE,
    F_HBEST,
    F_HC,
    F_HK,
    F_HN,
    F_IN_TURN,
    F_NFIRST,
    F_NSIDES,
    F_NTIE,
    F_ROLLER,
    F_SCORER,
    F_SEAT,
    F_SIDEOF,
    F_STATUS,
    F_TBN,
    F_TBO,
    F_TBP,
    F_TBPOS,
    F_TBS,
    F_TBSIDES,
    F_TURN,
    F_WIN,
    G_OVER,
    G_TRAVELER,
    K_BUNCO,
    K_WIPEOUT,
    P_AFTER,
    P_TIE,
    S_DONE,
    S_FINISHING,
    S_FIRST,
    S_PLAYING,
    T_CONT,
    T_HIT,
    T_KIND,
    T_POINTS,
    T_RO_BUNCO,
    T_RO_CONT,
    T_RO_POINTS,
    T_RO_TRAVEL,
    T_SUM,
    T_TRAVEL,
    TB_ROLL_OFF,
    TB_SESSIONS,
    TB_SUDDEN,
    U_HC,
    U_HT,
    U_TBO,
    W_CONT,
    W_POINTS,
    W_TOT,
    Code,
    njit,
)
from bunco.analysis.kernel.table import _after_bell_roll, _cards_for, _seats_of, _turn_order


@njit(_nrt=False, inline="always")
def _high_roll(st: np.ndarray, k: int, total: int) -> None:  # pragma: no cover
    """A roll for high total (TableRound._first_roll, _roll_for_first, and a roll-off's
    roll for high): once every contender has rolled, the contenders are cut to the
    highest, whose turn it is; when one has it alone, the table starts to play
    (``S_FIRST``) or to roll off in that one's order."""
    row = st[np.uint64(k)]
    j = row[F_HK]
    ju = np.uint64(j)
    row[F_NFIRST] += 1
    row[U_HT + ju] = total
    best = total if j == 0 else max(total, row[F_HBEST])
    row[F_HBEST] = best
    n = row[F_HN]
    if j + 1 < n:
        row[F_HK] = j + 1
        row[F_TURN] = row[U_HC + ju + np.uint64(1)]
        return
    m = np.uint64(0)
    for i in range(n):
        iu = np.uint64(i)
        row[U_HC + m] = row[U_HC + iu]
        m += np.uint64(row[U_HT + iu] == best)
    row[F_HN] = m
    row[F_HK] = 0
    row[F_TURN] = row[F_HC]
    if m > 1:
        return
    row[F_HN] = 0
    if row[F_STATUS] == S_FIRST:
        row[F_STATUS] = S_PLAYING
        return
    seats = 0
    for j in range(row[F_TBN]):
        seats |= 1 << row[U_TBO + np.uint64(j)]
    _turn_order(st, k, row[F_HC], seats, F_TBO)
    row[F_TBPOS] = 0


@njit(_nrt=False, inline="always")
def _tie_roll(
    st: np.ndarray,
    k: int,
    c: Code,
    r: int,
    cfg: np.ndarray,
    tab: np.ndarray,
    card: np.ndarray,
    g: np.ndarray,
) -> int:  # pragma: no cover
    """A tie-break roll at table ``k``; returns the points it records."""
    t = st[k, F_TURN]
    side = st[k, F_SIDEOF + t]
    roller = st[k, F_ROLLER + t]
    st[k, F_NTIE] += 1
    if tab[T_RO_BUNCO, r, c] != 0:
        _cards_for(card, g, st[k, F_SEAT + t], K_BUNCO)
    if tab[T_RO_TRAVEL, r, c] != 0:
        g[G_TRAVELER] = roller
    rule = cfg[C_TIE]
    if rule == TB_SUDDEN:
        if tab[T_HIT, r, c] != 0:
            st[k, F_SCORER + side] = roller
            st[k, F_TBP + side] += 1
            st[k, F_STATUS] = S_DONE
            st[k, F_WIN] = side
            return 1
        recorded: int = 0
        kind = tab[T_KIND, r, c]
        if kind >= 3 and kind != K_WIPEOUT:  # another three of a kind: as in play (004)
            _cards_for(card, g, st[k, F_SEAT + t], kind)
            if tab[T_TRAVEL, r, c] != 0:
                g[G_TRAVELER] = roller
            if tab[T_CONT, r, c] != 0:
                st[k, F_IN_TURN] = 1
                return recorded
    else:
        recorded = tab[T_RO_POINTS, r, c]
        if recorded > 0:
            st[k, F_SCORER + side] = roller
        st[k, F_TBP + side] += recorded
        if rule == TB_ROLL_OFF and st[k, F_TBP + side] >= cfg[C_GOAL]:
            st[k, F_STATUS] = S_DONE
            st[k, F_WIN] = side
            return recorded
        if tab[T_RO_CONT, r, c] != 0:
            st[k, F_IN_TURN] = 1
            return recorded
    # TableRound._tie_pass
    st[k, F_IN_TURN] = 0
    pos = st[k, F_TBPOS] + 1
    if pos < st[k, F_TBN]:
        st[k, F_TBPOS] = pos
        st[k, F_TURN] = st[k, F_TBO + pos]
        return recorded
    if rule == TB_SESSIONS:  # the sides still level play another session
        sides = st[k, F_TBSIDES]
        best = -1
        for s in range(st[k, F_NSIDES]):
            if (sides >> s) & 1:
                best = max(best, st[k, F_TBP + s])
        still = 0
        count = 0
        only = 0
        for s in range(st[k, F_NSIDES]):
            if (sides >> s) & 1 and st[k, F_TBP + s] == best:
                still |= 1 << s
                count += 1
                only = s
        if count == 1:
            st[k, F_STATUS] = S_DONE
            st[k, F_WIN] = only
            return recorded
        if still != sides:
            st[k, F_TBN] = _turn_order(st, k, 0, _seats_of(st, k, still), F_TBO)
            st[k, F_TBSIDES] = still
    st[k, F_TBPOS] = 0
    st[k, F_TBS] += 1
    st[k, F_TURN] = st[k, F_TBO]
    return recorded


@njit(_nrt=False, inline="always")
def _slow_roll(
    st: np.ndarray,
    k: int,
    c: Code,
    r: int,
    cfg: np.ndarray,
    tab: np.ndarray,
    card: np.ndarray,
    g: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Night._roll at a table that is not in play: after the bell, or in a tie-break
    (sessions or sudden death); returns the roll's phase and recorded points."""
    if st[k, F_STATUS] == S_FINISHING:
        _after_bell_roll(st, k, c, r, cfg, tab, card, g)
        return P_AFTER, tab[T_POINTS, r, c]
    return P_TIE, _tie_roll(st, k, c, r, cfg, tab, card, g)


@njit(_nrt=False)
def _rolloff(
    players: np.ndarray,
    n: int,
    cfg: np.ndarray,
    tab: np.ndarray,
    rs: np.ndarray,
    codes: np.ndarray,
    g: np.ndarray,
    wk: np.ndarray,
) -> int:  # pragma: no cover
    """RollOff: high total orders the players (ties re-roll), then the round-6 roll-off to
    ``roll_off_target``; returns the winner (-1 if a stream ran out)."""
    cont = wk[W_CONT]
    tot = wk[W_TOT]
    points = wk[W_POINTS]
    for i in range(n):
        cont[i] = players[i]
        points[i] = 0
    m = n
    while True:
        best = -1
        for i in range(m):
            tot[i] = tab[T_SUM, 5, _draw(rs, codes, g)]
            best = max(best, tot[i])
        if g[G_OVER] != 0:
            return -1
        top = 0
        for i in range(m):
            if tot[i] == best:
                cont[top] = cont[i]
                top += 1
        m = top
        if m == 1:
            break
    first = 0
    for i in range(n):
        if players[i] == cont[0]:
            first = i
    pos = 0
    while True:
        c = _draw(rs, codes, g)
        if g[G_OVER] != 0:
            return -1
        points[pos] += tab[T_RO_POINTS, 5, c]
        if points[pos] >= cfg[C_GOAL]:
            winner: int = players[(first + pos) % n]
            return winner
        if tab[T_RO_CONT, 5, c] == 0:
            pos = (pos + 1) % n
