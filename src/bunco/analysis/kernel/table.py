"""One table of the night kernel: settling, the bell, rolls after it, the cards.

Each function mirrors a piece of the engine's ``TableRound`` or ``Night`` and names it:
:func:`_settle` and :func:`_bell` are ``TableRound.settle`` and ``TableRound.bell``,
:func:`_after_bell_roll` is ``TableRound.roll`` after the bell (status FINISHING),
:func:`_cards_for` what a scoring roll puts on its roller's card, :func:`_turn_order`
``TableRound.turn_order``. They work on one row of the tables' state ``st``
(:mod:`bunco.analysis.kernel.layout`).
"""

from __future__ import annotations

import numpy as np

from bunco.analysis.kernel.layout import (
    C_FINISH,
    C_TIE,
    D_BUNCOS,
    D_HIGHS,
    D_LOWS,
    D_MINIS,
    D_SET_BUNCOS,
    D_WIPEOUTS,
    F_HC,
    F_HK,
    F_HN,
    F_IN_TURN,
    F_N,
    F_NAFTER,
    F_NEXT,
    F_NSIDES,
    F_PTS,
    F_ROLLER,
    F_SCORER,
    F_SEAT,
    F_SIDEOF,
    F_SP,
    F_STATUS,
    F_TBN,
    F_TBO,
    F_TBP,
    F_TBPOS,
    F_TBS,
    F_TBSIDES,
    F_TEAM,
    F_TIE,
    F_TURN,
    F_WIN,
    G_LAST_BUNCO,
    G_LOG,
    G_LOG_OVER,
    G_NIGHT,
    G_TRAVELER,
    K_BUNCO,
    K_HIGH,
    K_LOW,
    K_WIPEOUT,
    S_DONE,
    S_FINISHING,
    S_FIRST,
    S_PLAYING,
    S_TIE,
    T_CONT,
    T_KIND,
    T_POINTS,
    T_TRAVEL,
    TB_ROLL_OFF,
    TB_SUDDEN,
    U_HC,
    U_NEXT,
    U_SEAT,
    U_SIDEOF,
    U_SP,
    U_TBO,
    Code,
    njit,
)


@njit(_nrt=False)
def _seat_rollers(st: np.ndarray) -> None:  # pragma: no cover
    """TableRound.roller_name for every seat, kept in ``F_ROLLER`` while nobody moves:
    the seat's player, or a ghost's partner."""
    for k in range(st.shape[0]):
        for s in range(st[k, F_N]):
            player = st[k, F_SEAT + s]
            st[k, F_ROLLER + s] = player if player >= 0 else st[k, F_SEAT + ((s + 2) & 3)]


@njit(_nrt=False, inline="always")
def _turn_order(
    st: np.ndarray, k: int, start: int, seats: int, out: int
) -> int:  # pragma: no cover
    """TableRound.turn_order: the seats of the bit mask ``seats`` in the order the dice
    travel from ``start``, written from ``st[k, out]``; returns how many."""
    row = st[k]
    m = np.uint64(0)
    seat = start
    base = np.uint64(out)
    for _ in range(row[F_N]):
        row[base + m] = seat
        m += np.uint64((seats >> seat) & 1)
        seat = row[U_NEXT + np.uint64(seat)]
    return int(m)


@njit(_nrt=False, inline="always")
def _seats_of(st: np.ndarray, k: int, sides: int) -> int:  # pragma: no cover
    """The seats (a bit mask) of the sides in the bit mask ``sides``."""
    row = st[k]
    mask = 0
    for j in range(row[F_N]):
        mask |= ((sides >> row[U_SIDEOF + np.uint64(j)]) & 1) << j
    return mask


@njit(_nrt=False, inline="always")
def _wipe(st: np.ndarray, k: int, side: int) -> None:  # pragma: no cover
    """A wipeout: the side's points for the round are gone."""
    for j in range(st[k, F_N]):
        if st[k, F_SIDEOF + j] == side:
            st[k, F_PTS + j] = 0


@njit(_nrt=False, inline="always")
def _settle(st: np.ndarray, k: int, cfg: np.ndarray) -> None:  # pragma: no cover
    """TableRound.settle: the winner on points, or the start of the tie-break."""
    row = st[k]
    n_sides = row[F_NSIDES]
    if row[F_TEAM] != 0:  # two teams, partners opposite
        row[F_SP] = row[F_PTS] + row[F_PTS + 2]
        row[F_SP + 1] = row[F_PTS + 1] + row[F_PTS + 3]
        row[F_SP + 2] = 0
        row[F_SP + 3] = 0
    else:
        for j in range(4):
            row[F_SP + j] = row[F_PTS + j]
    best = row[F_SP]
    for s in range(1, n_sides):
        best = max(best, row[U_SP + np.uint64(s)])
    tied = 0
    count = 0
    only = 0
    for s in range(n_sides):
        if row[U_SP + np.uint64(s)] == best:
            tied |= 1 << s
            count += 1
            only = s
    row[F_IN_TURN] = 0
    if count == 1:
        row[F_STATUS] = S_DONE
        row[F_WIN] = only
        return
    rule = cfg[C_TIE]
    start = row[F_TURN] if rule == TB_SUDDEN else 0
    n = _turn_order(st, k, start, _seats_of(st, k, tied), F_TBO)
    row[F_TBN] = n
    row[F_TIE] = 1
    for s in range(4):
        row[F_TBP + s] = 0
    row[F_TBPOS] = 0
    row[F_TBS] = 1
    row[F_TBSIDES] = tied
    row[F_HK] = 0
    m = np.uint64(0)
    if rule == TB_ROLL_OFF:  # everyone tied rolls for high total first (ghosts do not)
        for j in range(n):
            seat = row[U_TBO + np.uint64(j)]
            row[U_HC + m] = seat
            m += np.uint64(row[U_SEAT + np.uint64(seat)] >= 0)
    row[F_HN] = m
    row[F_TURN] = row[F_HC] if m > 0 else row[F_TBO]
    row[F_STATUS] = S_TIE


@njit(_nrt=False, inline="always")
def _bell(st: np.ndarray, k: int, cfg: np.ndarray) -> None:  # pragma: no cover
    """TableRound.bell: the round is over at table ``k``."""
    s = st[k, F_STATUS]
    if s == S_PLAYING and cfg[C_FINISH] != 0 and st[k, F_IN_TURN] != 0:
        st[k, F_STATUS] = S_FINISHING
    elif s in (S_PLAYING, S_FIRST):
        _settle(st, k, cfg)


@njit(_nrt=False)
def _ring_all(st: np.ndarray, cfg: np.ndarray) -> None:  # pragma: no cover
    for j in range(st.shape[0]):
        _bell(st, j, cfg)


@njit(_nrt=False)
def _cards_for(card: np.ndarray, g: np.ndarray, player: int, kind: int) -> None:  # pragma: no cover
    """What a scoring roll puts on its roller's card (Night._end_round's counts); a
    ghost's roll (``player`` -1) is nobody's."""
    if player < 0:
        return
    if kind == K_BUNCO:
        card[player, D_BUNCOS] += 1
        card[player, D_SET_BUNCOS] += 1
        g[G_LAST_BUNCO] = player
    elif kind == K_WIPEOUT:
        card[player, D_WIPEOUTS] += 1
    elif kind >= 3:
        card[player, D_MINIS] += 1
        if kind == K_LOW:
            card[player, D_LOWS] += 1
        elif kind == K_HIGH:
            card[player, D_HIGHS] += 1


@njit(_nrt=False)
def _after_bell_roll(
    st: np.ndarray,
    k: int,
    c: Code,
    r: int,
    cfg: np.ndarray,
    tab: np.ndarray,
    card: np.ndarray,
    g: np.ndarray,
) -> None:  # pragma: no cover
    """TableRound.roll after the bell (status FINISHING): the roller in mid-turn rolls
    on while the rolls continue the turn, then the table is settled."""
    t = st[k, F_TURN]
    side = st[k, F_SIDEOF + t]
    roller = st[k, F_ROLLER + t]
    points = tab[T_POINTS, r, c]
    kind = tab[T_KIND, r, c]
    if kind >= K_BUNCO:
        _cards_for(card, g, st[k, F_SEAT + t], kind)
    if kind == K_WIPEOUT:
        _wipe(st, k, side)
    else:
        st[k, F_PTS + t] += points
    if points > 0:
        st[k, F_SCORER + side] = roller
    if tab[T_TRAVEL, r, c] != 0:
        g[G_TRAVELER] = roller
    st[k, F_NAFTER] += 1
    if tab[T_CONT, r, c] == 0:
        st[k, F_TURN] = st[k, F_NEXT + t]
        _settle(st, k, cfg)


@njit(_nrt=False)
def _log_roll(
    log: np.ndarray, g: np.ndarray, ri: int, k: int, seat: int, c: Code, phase: int, points: int
) -> None:  # pragma: no cover
    n = g[G_LOG]
    if n >= log.shape[0]:
        g[G_LOG_OVER] = 1
        return
    log[n, 0] = g[G_NIGHT]
    log[n, 1] = ri
    log[n, 2] = k
    log[n, 3] = seat
    log[n, 4] = c
    log[n, 5] = phase
    log[n, 6] = points
    g[G_LOG] = n + 1


@njit(_nrt=False, inline="always")
def _not_done(st: np.ndarray) -> int:  # pragma: no cover
    """How many tables are still in their round."""
    left = 0
    for j in range(st.shape[0]):
        if st[j, F_STATUS] != S_DONE:
            left += 1
    return left
