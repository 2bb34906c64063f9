"""One round of the night kernel at every table: the hot loop.

Dice are used in one order, the same as :func:`bunco.analysis.simulate.play_night`: in
each *tick* every table that has not finished its round rolls once, the last table first
and the head table last; a tick stops as soon as the round is over.

Speed notes: dice-driven choices are written as selects, not branches (they
mispredict); seat and side indices are unsigned (Numba checks a signed index for a
negative value); the generator's state is kept in local variables for the round; the
roll in play and the roll-off's roll are written out here, the other rolls go to
:func:`bunco.analysis.kernel.tiebreak._slow_roll`. A table alone rolls in a loop of its
own with its turn in a register.
"""

from __future__ import annotations

import numpy as np

from bunco.analysis.kernel.dice import _next_code
from bunco.analysis.kernel.layout import (
    C_DETAIL,
    C_EVERY,
    C_GOAL,
    C_TIE,
    F_FIRST_SEAT,
    F_HN,
    F_IN_TURN,
    F_LAST_BUNCO,
    F_NPLAY,
    F_NTIE,
    F_SEAT,
    F_SIDE_MASK,
    F_STATUS,
    F_TARGET,
    F_TBN,
    F_TBPOS,
    F_TBS,
    F_TEAM,
    F_TURN,
    F_WIN,
    G_ALL_ROLLS,
    G_OVER,
    G_PLAY_POINTS,
    G_PLAY_ROLLS,
    G_POS,
    G_STREAM,
    G_TRAVELER,
    K_BUNCO,
    K_WIPEOUT,
    P_FIRST,
    P_PLAY,
    P_TIE,
    PK_CONT,
    PK_ENDS,
    PK_POINTS,
    PK_TRAVEL,
    RO_BUNCO,
    RO_POINTS,
    RO_SUM,
    RO_TRAVEL,
    S_DONE,
    S_FIRST,
    S_PLAYING,
    S_TIE,
    T_PACKED,
    T_RO_PACKED,
    TB_ROLL_OFF,
    U_NEXT,
    U_NOBODY,
    U_PTS,
    U_ROLLER,
    U_SCORER,
    U_SEAT,
    U_SIDEOF,
    U_TBO,
    U_TBP,
    njit,
)
from bunco.analysis.kernel.table import _bell, _cards_for, _log_roll, _not_done, _ring_all, _wipe
from bunco.analysis.kernel.tiebreak import _high_roll, _slow_roll


@njit(_nrt=False, inline="always")
def _play_round(
    rn: int,
    ri: int,
    cfg: np.ndarray,
    tab: np.ndarray,
    rs: np.ndarray,
    codes: np.ndarray,
    g: np.ndarray,
    st: np.ndarray,
    card: np.ndarray,
    log: np.ndarray,
    active: np.ndarray,
) -> None:  # pragma: no cover
    """Every roll of one round at every table, in ticks: each table still in its round
    rolls once, the last table first; a tick stops once every table is done. ``active``
    (scratch, one entry per table) lists the tables still in the round, so that the last
    ticks of a big party (a few tie-breaks) do not visit every table.

    The roll in play (Night._roll with TableRound.roll and Night._maybe_ring) and the
    roll-off's roll (TableRound._tie_break_roll, _tie_pass) are written out here, the hot
    loop; the other rolls go to :func:`_slow_roll`. A table alone (a one-table game) plays
    its rolls in play in a loop of its own, the turn in a register. The generator's state
    is kept in local variables for the round."""
    n_tables = st.shape[0]
    stream = g[G_STREAM] != 0
    detail = cfg[C_DETAIL] != 0
    every = cfg[C_EVERY] != 0
    roll_off = cfg[C_TIE] == TB_ROLL_OFF
    goal = cfg[C_GOAL]
    packed_t = tab[T_PACKED, rn]
    ro_t = tab[T_RO_PACKED, rn]
    s0, s1, s2, s3, cache = rs[0], rs[1], rs[2], rs[3], rs[4]
    have = rs[5] != 0
    c = np.int64(0)
    all_rolls = 0
    play_rolls = 0
    play_points = 0
    done = False
    left = _not_done(st)
    n_active = 0
    for k in range(n_tables - 1, -1, -1):
        if st[k, F_STATUS] != S_DONE:
            active[n_active] = k
            n_active += 1
    while not done:
        if n_tables == 1 and st[0, F_STATUS] == S_PLAYING:
            # one table: roll until the bell, the turn and the roll count in registers (the
            # roll is scored as in the loop below: one inlined helper for both measured
            # 3-7% slower)
            row = st[0]
            t = row[F_TURN]
            mask = row[F_SIDE_MASK]
            team = row[F_TEAM]
            target = row[F_TARGET]
            nplay = row[F_NPLAY]
            while True:
                c, s0, s1, s2, s3, cache, have = _next_code(
                    stream, rs, codes, g, s0, s1, s2, s3, cache, have
                )
                if stream and g[G_OVER] != 0:
                    return
                all_rolls += 1
                tu = np.uint64(t)
                side = t & mask
                packed = packed_t[np.uint64(c)]
                points = packed >> PK_POINTS
                kind = packed & 7
                roller = row[U_ROLLER + tu]
                if kind >= K_BUNCO:
                    _cards_for(card, g, row[U_SEAT + tu], kind)
                if kind == K_WIPEOUT:
                    _wipe(st, 0, side)
                else:
                    row[U_PTS + tu] += points
                row[U_NOBODY - (U_NOBODY - U_SCORER - np.uint64(side)) * np.uint64(points > 0)] = (
                    roller
                )
                if (packed >> PK_TRAVEL) & 1:
                    g[G_TRAVELER] = roller
                if nplay == 0:
                    row[F_FIRST_SEAT] = t
                nplay += 1
                play_points += points
                play_rolls += 1
                if detail:
                    _log_roll(log, g, ri, 0, t, c, P_PLAY, points)
                cont = (packed >> PK_CONT) & 1
                nxt = row[U_NEXT + tu]
                rang = ((packed >> PK_ENDS) & 1) != 0 or (
                    row[U_PTS + tu] + team * row[U_PTS + ((tu + np.uint64(2)) & np.uint64(3))]
                    >= target
                )
                t = nxt + (t - nxt) * cont
                if rang:
                    row[F_TURN] = t
                    row[F_IN_TURN] = cont
                    row[F_NPLAY] = nplay
                    row[F_LAST_BUNCO] = kind == K_BUNCO
                    _bell(st, 0, cfg)
                    break
            if st[0, F_STATUS] == S_DONE:
                break
            continue
        for a in range(n_active):
            k = active[a]
            row = st[np.uint64(k)]
            status = row[F_STATUS]
            if status == S_DONE:
                continue
            c, s0, s1, s2, s3, cache, have = _next_code(
                stream, rs, codes, g, s0, s1, s2, s3, cache, have
            )
            if stream and g[G_OVER] != 0:
                return
            all_rolls += 1
            t = row[F_TURN]
            tu = np.uint64(t)
            if status != S_PLAYING:
                if status == S_FIRST or row[F_HN] != 0:  # rolling for high
                    _high_roll(st, k, (ro_t[np.uint64(c)] >> RO_SUM) & 31)
                    if detail:
                        _log_roll(log, g, ri, k, t, c, P_FIRST, 0)
                    continue
                if roll_off and status == S_TIE:
                    # the roll-off to its goal (TableRound._tie_break_roll, _tie_pass)
                    v = ro_t[np.uint64(c)]
                    side = row[U_SIDEOF + tu]
                    su = np.uint64(side)
                    roller = row[U_ROLLER + tu]
                    row[F_NTIE] += 1
                    if (v >> RO_BUNCO) & 1:
                        _cards_for(card, g, st[k, F_SEAT + t], K_BUNCO)
                    if (v >> RO_TRAVEL) & 1:
                        g[G_TRAVELER] = roller
                    recorded = v >> RO_POINTS
                    row[U_NOBODY - (U_NOBODY - U_SCORER - su) * np.uint64(recorded > 0)] = roller
                    tbp = row[U_TBP + su] + recorded
                    row[U_TBP + su] = tbp
                    if detail:
                        _log_roll(log, g, ri, k, t, c, P_TIE, recorded)
                    if tbp >= goal:
                        row[F_STATUS] = S_DONE
                        row[F_WIN] = side
                        left -= 1
                        if left == 0:
                            done = True
                            break
                        continue
                    cont = v & 1
                    row[F_IN_TURN] = cont
                    pos = row[F_TBPOS] + 1 - cont
                    wrap = pos >= row[F_TBN]  # the order starts again
                    pos = pos * (1 - wrap)
                    row[F_TBS] += wrap
                    row[F_TBPOS] = pos
                    row[F_TURN] = row[U_TBO + np.uint64(pos)]
                    continue
                phase, logged = _slow_roll(st, k, c, rn, cfg, tab, card, g)
                if detail:
                    _log_roll(log, g, ri, k, t, c, phase, logged)
                if st[k, F_STATUS] == S_DONE:  # a roll at table k settles table k only
                    left -= 1
                    if left == 0:
                        done = True
                        break
                continue
            side = t & row[F_SIDE_MASK]
            packed = packed_t[np.uint64(c)]
            points = packed >> PK_POINTS
            kind = packed & 7
            roller = row[U_ROLLER + tu]
            if kind >= K_BUNCO:
                _cards_for(card, g, row[U_SEAT + tu], kind)
            if kind == K_WIPEOUT:
                _wipe(st, k, side)
            else:
                row[U_PTS + tu] += points
            # written without branches where the dice decide (they mispredict), and
            # without reading what the last roll wrote (a chain from roll to roll)
            row[U_NOBODY - (U_NOBODY - U_SCORER - np.uint64(side)) * np.uint64(points > 0)] = roller
            if (packed >> PK_TRAVEL) & 1:
                g[G_TRAVELER] = roller
            if row[F_NPLAY] == 0:
                row[F_FIRST_SEAT] = t
            row[F_NPLAY] += 1
            row[F_LAST_BUNCO] = kind == K_BUNCO
            play_points += points
            play_rolls += 1
            cont = (packed >> PK_CONT) & 1
            row[F_IN_TURN] = cont
            nxt = row[U_NEXT + tu]
            row[F_TURN] = nxt + (t - nxt) * cont
            if detail:
                _log_roll(log, g, ri, k, t, c, P_PLAY, points)
            if (packed >> PK_ENDS) & 1:
                _ring_all(st, cfg)  # the bell: once a round, so count again
                left = _not_done(st)
            elif (k == 0 or every) and (  # the roller's side reached its target
                row[U_PTS + tu] + row[F_TEAM] * row[U_PTS + ((tu + np.uint64(2)) & np.uint64(3))]
                >= row[F_TARGET]
            ):
                if every:
                    _bell(st, k, cfg)
                    if st[k, F_STATUS] == S_DONE:
                        left -= 1
                else:
                    _ring_all(st, cfg)
                    left = _not_done(st)
            if left == 0:
                done = True
                break
        if left < n_active:  # drop the tables that are done, keeping the order
            kept = 0
            for a in range(n_active):
                if st[np.uint64(active[a]), F_STATUS] != S_DONE:
                    active[kept] = active[a]
                    kept += 1
            n_active = kept
    rs[0], rs[1], rs[2], rs[3], rs[4] = s0, s1, s2, s3, cache
    rs[5] = 1 if have else 0
    if not stream:  # every roll drew one code
        g[G_POS] += all_rolls
    g[G_ALL_ROLLS] += all_rolls
    g[G_PLAY_ROLLS] += play_rolls
    g[G_PLAY_POINTS] += play_points
