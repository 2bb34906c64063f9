"""The night kernel's whole nights: rounds, sets, prizes, and the loop over nights.

:func:`run_nights` is the one entry point :mod:`bunco.analysis.night_kernel` calls.
:func:`_end_set` is ``Night._end_set`` (most W's, then most B's, then a roll-off) and
:func:`_prizes` ``decide_prizes`` with ``Night._next_prize_rolloff``.

Speed notes: every function but :func:`run_nights` (which is handed its state arrays
allocated once) is compiled without Numba's reference counting (``_nrt=False``):
passing arrays to a function otherwise costs two atomic operations per array per call.
The pieces of a night are inlined into :func:`_night` (``inline="always"``): a call
copies every array argument (seven words each).

Numba's cache notices changes to the file of the function it compiled, not to the
files of the functions it calls: :data:`KERNEL_SOURCES` is a digest of the kernel's
other modules, so that a change to any of them changes this file too (a test says when
it is stale) and :func:`run_nights` is compiled again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from bunco.analysis.kernel.dice import _seed
from bunco.analysis.kernel.layout import (
    C_CARDS,
    C_DETAIL,
    C_GHOSTS,
    C_SET_WINNER,
    C_SETS,
    C_SHARED,
    C_VERIFY,
    D_BUNCOS,
    D_LOSSES,
    D_MINIS,
    D_SET_BUNCOS,
    D_SET_WINS,
    D_SIZE,
    D_WINS,
    F_CLINCHER,
    F_N,
    F_NEXT,
    F_NSIDES,
    F_SEAT,
    F_SIDE_MASK,
    F_SIDEOF,
    F_TARGET,
    F_TEAM,
    G_ALL_ROLLS,
    G_LAST_BUNCO,
    G_LOG,
    G_NIGHT,
    G_OVER,
    G_PLAY_POINTS,
    G_PLAY_ROLLS,
    G_POS,
    G_STREAM,
    G_TRAVELER,
    L_N,
    L_NEXT,
    L_NSIDES,
    L_SEAT,
    L_SIDEOF,
    L_TARGET,
    L_TEAM,
    PZ_HALF,
    PZ_LAST,
    PZ_LOSSES,
    PZ_MINIS,
    PZ_TRAVEL,
    PZ_WINS,
    SETTLED_BUNCOS,
    SETTLED_NOBODY,
    SETTLED_OUTRIGHT,
    SETTLED_ROLL_OFF,
    SETTLED_SHARED,
    SETTLED_WINS,
    W_ALL,
    W_CANDS,
    W_COUNTS,
    W_SAVED,
    W_STILL,
    W_TOP,
    njit,
)
from bunco.analysis.kernel.moves import _begin_round, _end_round
from bunco.analysis.kernel.round import _play_round
from bunco.analysis.kernel.table import _seat_rollers
from bunco.analysis.kernel.tiebreak import _rolloff

CALLEES = ("dice", "layout", "moves", "round", "table", "tiebreak")
"""The kernel's modules that :func:`run_nights` compiles in (all but this one)."""

KERNEL_SOURCES = "24cc17f2e80e7482"
""":func:`sources_digest` of the sources :func:`run_nights` was last compiled from."""


def sources_digest() -> str:
    """A digest of the sources of the modules of :data:`CALLEES`: when it is not
    :data:`KERNEL_SOURCES`, set that to it (which changes this file, so that Numba
    compiles :func:`run_nights` again instead of loading what it cached).

    >>> len(sources_digest())
    16
    """
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in CALLEES:
        digest.update((here / f"{name}.py").read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()[:16]


@njit(_nrt=False)
def _best_of(
    card: np.ndarray, field: int, among: np.ndarray, n: int, out: np.ndarray
) -> int:  # pragma: no cover
    """The players of ``among[:n]`` with the most ``field``, in roster order, into ``out``."""
    best = -(2**31)
    for j in range(n):
        best = max(best, card[among[j], field])
    m = 0
    for j in range(n):
        if card[among[j], field] == best:
            out[m] = among[j]
            m += 1
    return m


@njit(_nrt=False)
def _flag(
    out: np.ndarray, i: int, q: int, at: int, players: np.ndarray, n: int
) -> None:  # pragma: no cover
    """Mark ``players[:n]`` in the per-player flags that start at ``out[i, q, at]``."""
    for j in range(n):
        out[i, q, at + players[j]] = 1


@njit(_nrt=False, inline="always")
def _end_set(
    card: np.ndarray,
    cfg: np.ndarray,
    tab: np.ndarray,
    rs: np.ndarray,
    codes: np.ndarray,
    g: np.ndarray,
    wk: np.ndarray,
    sets_out: np.ndarray,
    i: int,
    s: int,
) -> None:  # pragma: no cover
    """Night._end_set: most W's, then most B's, then a roll-off; then fresh set columns."""
    n = card.shape[0]
    if cfg[C_SET_WINNER] != 0:
        top = wk[W_TOP]
        still = wk[W_STILL]
        m = _best_of(card, D_SET_WINS, wk[W_ALL], n, top)
        if m == 1:
            winner, how, m2 = top[0], SETTLED_WINS, 1
            still[0] = top[0]
        else:
            m2 = _best_of(card, D_SET_BUNCOS, top, m, still)
            if m2 == 1:
                winner, how = still[0], SETTLED_BUNCOS
            else:
                winner, how = _rolloff(still, m2, cfg, tab, rs, codes, g, wk), SETTLED_ROLL_OFF
        if cfg[C_DETAIL] != 0:
            sets_out[i, s, 0] = winner
            sets_out[i, s, 1] = how
            _flag(sets_out, i, s, 2, top, m)
            _flag(sets_out, i, s, 2 + n, still, m2)
    for p in range(n):
        card[p, D_SET_WINS] = 0
        card[p, D_SET_BUNCOS] = 0


@njit(_nrt=False, inline="always")
def _prizes(
    card: np.ndarray,
    cfg: np.ndarray,
    tab: np.ndarray,
    prizes: np.ndarray,
    rs: np.ndarray,
    codes: np.ndarray,
    g: np.ndarray,
    wk: np.ndarray,
    prize_out: np.ndarray,
    ties: np.ndarray,
    i: int,
) -> None:  # pragma: no cover
    """decide_prizes, then Night._next_prize_rolloff for each tie left to a roll-off."""
    n = card.shape[0]
    verify = cfg[C_VERIFY] != 0
    cands = wk[W_CANDS]
    counts = wk[W_COUNTS]
    for q in range(prizes.shape[0]):
        cat = prizes[q]
        value = -1
        m = 0
        if cat in (PZ_TRAVEL, PZ_LAST):
            holder = g[G_TRAVELER] if cat == PZ_TRAVEL else g[G_LAST_BUNCO]
            if holder >= 0:
                cands[0] = holder
                m = 1
        elif cat == PZ_HALF:
            for p in range(n):
                if card[p, D_WINS] == card[p, D_LOSSES] and card[p, D_WINS] > 0 and not verify:
                    cands[m] = p
                    m += 1
        elif verify and cat != PZ_LOSSES:  # nothing verified: Buncos, Minis, Wins count 0
            value = 0
        else:
            field = D_BUNCOS
            if cat == PZ_WINS:
                field = D_WINS
            elif cat == PZ_LOSSES:
                field = D_LOSSES
            elif cat == PZ_MINIS:
                field = D_MINIS
            m = _best_of(card, field, wk[W_ALL], n, cands)
            value = card[cands[0], field]
            if value <= 0:
                value = 0
                m = 0
        if m == 0:
            how = SETTLED_NOBODY
        elif m == 1:
            how = SETTLED_OUTRIGHT
        elif cfg[C_SHARED] != 0:
            how = SETTLED_SHARED
        else:
            how = SETTLED_ROLL_OFF
        ties[i, q] = 1 if m > 1 else 0
        counts[q] = m if how == SETTLED_ROLL_OFF else 0
        for j in range(m):
            wk[W_SAVED + q, j] = cands[j]
        if cfg[C_DETAIL] != 0:
            prize_out[i, q, 0] = how
            prize_out[i, q, 1] = value
            _flag(prize_out, i, q, 2, cands, m)
            if how != SETTLED_ROLL_OFF:
                _flag(prize_out, i, q, 2 + n, cands, m)
    for q in range(prizes.shape[0]):
        if counts[q] != 0:
            winner = _rolloff(wk[W_SAVED + q], counts[q], cfg, tab, rs, codes, g, wk)
            if cfg[C_DETAIL] != 0 and winner >= 0:
                prize_out[i, q, 2 + n + winner] = 1


@njit(_nrt=False, inline="always")
def _night(
    i: int,
    cfg: np.ndarray,
    tab: np.ndarray,
    layout: np.ndarray,
    move: np.ndarray,
    prizes: np.ndarray,
    rs: np.ndarray,
    codes: np.ndarray,
    g: np.ndarray,
    st: np.ndarray,
    card: np.ndarray,
    scratch: np.ndarray,
    acc: np.ndarray,
    wk: np.ndarray,
    figures: np.ndarray,
    ties: np.ndarray,
    rounds: np.ndarray,
    players_out: np.ndarray,
    set_buncos: np.ndarray,
    sets_out: np.ndarray,
    prize_out: np.ndarray,
    log: np.ndarray,
    memo: np.ndarray,
) -> None:  # pragma: no cover
    """One whole night; the tables start seated as ``layout`` says."""
    n_tables = st.shape[0]
    n_sets = cfg[C_SETS]
    for p in range(card.shape[0]):
        for f in range(D_SIZE):
            card[p, f] = 0
    for j in range(acc.shape[0]):
        acc[j] = 0
    g[G_TRAVELER] = -1
    g[G_LAST_BUNCO] = -1
    g[G_PLAY_POINTS] = 0
    g[G_PLAY_ROLLS] = 0
    g[G_ALL_ROLLS] = 0
    g[G_NIGHT] = i
    other_teams = 0  # team tables other than the head table
    for k in range(n_tables):
        st[k, F_N] = layout[k, L_N]
        st[k, F_TEAM] = layout[k, L_TEAM]
        st[k, F_TARGET] = layout[k, L_TARGET]
        st[k, F_NSIDES] = layout[k, L_NSIDES]
        for j in range(4):
            st[k, F_NEXT + j] = layout[k, L_NEXT + j]
            st[k, F_SIDEOF + j] = layout[k, L_SIDEOF + j]
            st[k, F_SEAT + j] = layout[k, L_SEAT + j]
        st[k, F_SIDE_MASK] = 1 if layout[k, L_TEAM] != 0 else 3
        st[k, F_CLINCHER] = -1
        if k > 0 and layout[k, L_TEAM] != 0:
            other_teams += 1
    _seat_rollers(st)
    for s in range(n_sets):
        for rn in range(6):
            ri = 6 * s + rn
            _begin_round(st, cfg, ri == 0)
            _play_round(rn, ri, cfg, tab, rs, codes, g, st, card, log, scratch)
            if g[G_OVER] != 0:
                return
            _end_round(st, card, move, scratch, acc, rounds, i, ri, cfg, memo)
        if cfg[C_DETAIL] != 0:
            for p in range(card.shape[0]):
                set_buncos[i, s, p] = card[p, D_SET_BUNCOS]
        _end_set(card, cfg, tab, rs, codes, g, wk, sets_out, i, s)
        if g[G_OVER] != 0:
            return
    _prizes(card, cfg, tab, prizes, rs, codes, g, wk, prize_out, ties, i)
    n_rounds = 6 * n_sets
    buncos = 0
    for p in range(card.shape[0]):
        buncos += card[p, D_BUNCOS]
        if cfg[C_DETAIL] != 0 or cfg[C_CARDS] != 0:
            for f in range(8):
                players_out[i, p, f] = card[p, f]
    figures[i, 0] = buncos
    figures[i, 1] = n_rounds
    figures[i, 2] = g[G_ALL_ROLLS] / n_sets
    figures[i, 3] = acc[0] / n_rounds
    figures[i, 4] = acc[2] / acc[1] if acc[1] > 0 else np.nan
    figures[i, 5] = acc[5] / n_rounds
    figures[i, 6] = acc[3] / (n_rounds * n_tables)
    figures[i, 7] = acc[4] / (n_rounds * other_teams) if other_teams > 0 else np.nan
    figures[i, 8] = g[G_PLAY_POINTS]
    figures[i, 9] = g[G_PLAY_ROLLS]


@njit(cache=True, _nrt=False)
def run_nights(
    cfg: np.ndarray,
    tab: np.ndarray,
    layout: np.ndarray,
    move: np.ndarray,
    prizes: np.ndarray,
    seeds: np.ndarray,
    codes: np.ndarray,
    figures: np.ndarray,
    ties: np.ndarray,
    rounds: np.ndarray,
    players_out: np.ndarray,
    set_buncos: np.ndarray,
    sets_out: np.ndarray,
    prize_out: np.ndarray,
    misc: np.ndarray,
    log: np.ndarray,
    st: np.ndarray,
    card: np.ndarray,
    scratch: np.ndarray,
    acc: np.ndarray,
    g: np.ndarray,
    rs: np.ndarray,
    wk: np.ndarray,
    memo: np.ndarray,
) -> int:  # pragma: no cover
    """Play ``figures.shape[0]`` nights; returns how many were played to the end.

    With an empty ``codes`` every night ``i`` draws its own dice from ``seeds[i]``; else
    the nights play one after another from the stream ``codes``, and stop if it runs out.
    ``misc[i]`` = (traveler, last Bunco, codes used, log rows). The working arrays from
    ``st`` on are zeroed arrays of :func:`state_shapes`.
    """
    for p in range(card.shape[0]):
        wk[W_ALL, p] = p
    if cfg[C_GHOSTS] != 0:
        for k in range(memo.shape[0]):
            for j in range(memo.shape[1]):
                for q in range(16):
                    memo[k, j, q] = -1
    g[G_STREAM] = 1 if codes.shape[0] > 0 else 0
    for i in range(figures.shape[0]):
        if g[G_STREAM] == 0:
            _seed(rs, seeds[i])
            g[G_POS] = 0
        start = g[G_POS]
        log_start = g[G_LOG]
        _night(
            i,
            cfg,
            tab,
            layout,
            move,
            prizes,
            rs,
            codes,
            g,
            st,
            card,
            scratch,
            acc,
            wk,
            figures,
            ties,
            rounds,
            players_out,
            set_buncos,
            sets_out,
            prize_out,
            log,
            memo,
        )
        if g[G_OVER] != 0:
            return i
        misc[i, 0] = g[G_TRAVELER]
        misc[i, 1] = g[G_LAST_BUNCO]
        misc[i, 2] = g[G_POS] - start
        misc[i, 3] = g[G_LOG] - log_start
    played: int = figures.shape[0]
    return played
