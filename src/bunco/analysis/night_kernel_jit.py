"""The compiled core of :mod:`bunco.analysis.night_kernel`: whole nights at any tables.

Import the public API from :mod:`bunco.analysis.night_kernel`; this module holds the
Numba functions and the layout of their small state arrays. Every function mirrors a
piece of the night engine and names it:

- :func:`_play_round` — one round's rolls at every table in the schedule's order: the
  roll in play (``TableRound.roll`` with ``Night._after_scoring`` for Buncos and the
  traveler, and ``Night._maybe_ring`` for the bell), written out in the hot loop;
- :func:`_after_bell_roll` — ``TableRound.roll`` after the bell (status FINISHING);
- :func:`_bell`, :func:`_settle` — ``TableRound.bell`` and ``TableRound.settle``;
- :func:`_high_roll` — ``TableRound._first_roll`` and ``TableRound._roll_for_first``;
- :func:`_tie_roll` — ``TableRound._tie_break_roll`` and ``TableRound._tie_pass``;
- :func:`_rolloff` — :class:`bunco.core.rolloff.RollOff` (set winners and prizes);
- :func:`_end_round`, :func:`_begin_round` — ``Night._end_round`` (cards, movement by
  a lookup table built from :func:`bunco.core.seating.next_seating` itself, or with
  ghosts :func:`_move_ghosts`, the compiled ``next_seating``) and ``Night._begin_round``
  (first rollers);
- :func:`_end_set`, :func:`_prizes` — ``Night._end_set`` and ``decide_prizes``.

A table has 2, 3 or 4 seats and plays in two teams (partners opposite, seats 1&3 and
2&4) or as individuals: its *sides* are the two teams or the seats. What differs
between tables is fixed for the night and read from each table's row (``F_N`` seats,
``F_NEXT`` the seat the dice pass to, ``F_SIDEOF`` each seat's side, ``F_TARGET``), so
one loop plays them all. A ghost seat (``-1``) is rolled for by its partner: its rolls
count for its team, credit nobody's card, and pass the traveler to the partner.

Dice come as codes 0-215 (``36 (d1-1) + 6 (d2-1) + (d3-1)``), either from a given stream
or from a xoshiro256** generator per night (:func:`fill_codes` gives the same codes to
Python, so the engine can play the very same nights).

Speed notes: every function but :func:`run_nights` (which allocates the state once) is
compiled without Numba's reference counting (``_nrt=False``): passing arrays to a
function otherwise costs two atomic operations per array per call, which made the kernel
several times slower. The pieces of a night and of a roll that is not in play are
inlined into :func:`_night` (``inline="always"``): a call copies every array argument
(seven words each), which cost a party of 1,000 a third of its time in tie-breaks and a
table of four a fifth of its night. :func:`_night` itself is not inlined into
:func:`run_nights`, which counts references. Dice-driven choices in the hot loop are written as selects, not
branches. Everything is in one module because Numba's cache only notices changes to the
file of the function it compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit as _numba_njit

F = TypeVar("F", bound=Callable[..., Any])


def njit(**options: Any) -> Callable[[F], F]:
    """``numba.njit(**options)``, typed: to mypy a compiled function keeps the Python
    signature it is written with (Numba's own stubs do not know ``_nrt``)."""
    return cast("Callable[[F], F]", _numba_njit(**options))

# -- rule configuration (cfg, int64) -------------------------------------------------------
C_TABLES, C_SETS, C_FINISH, C_EVERY, C_TIE, C_GOAL, C_FIRST, C_SET_WINNER = range(8)
C_SHARED, C_DETAIL, C_VERIFY, C_CARDS, C_PLAYERS, C_GHOSTS, C_NO_REPEAT, C_SIZE = range(8, 16)
# C_CARDS (without C_DETAIL): keep every night's cards, and per table the rounds its
# first team won (rounds[night, 0, table, R_FIRST_WON]). C_EVERY: every table plays to
# its own target (0 at a one-table game, whose bell rings for the room). C_GHOSTS: the
# party has ghost seats, so :func:`_arrange` seats each table (with C_NO_REPEAT).

# -- a table's layout (layout[table, field], int32): fixed for the night ----------------------
L_N, L_TEAM, L_TARGET, L_NSIDES = 0, 1, 2, 3
L_NEXT = 4  # 4-7: the seat after each seat, in the direction of play
L_SIDEOF = 8  # 8-11: each seat's side (team 0/1, or the seat at an individual table)
L_SEAT = 12  # 12-15: who sits there at the start (player number; -1 a ghost)
L_SIZE = 16

# -- score tables (tab[field, round - 1, code], int32) --------------------------------------
T_POINTS, T_KIND, T_CONT, T_ENDS, T_TRAVEL, T_RO_POINTS, T_RO_CONT = range(7)
T_RO_BUNCO, T_HIT, T_RO_TRAVEL, T_SUM, T_PACKED, T_RO_PACKED, T_SIZE = 7, 8, 9, 10, 11, 12, 13
# T_PACKED: a roll in play in one value: kind | continues << 3 | ends the round << 4 |
# passes the traveler << 5 | points << 8
PK_CONT, PK_ENDS, PK_TRAVEL, PK_POINTS = 3, 4, 5, 8
# T_RO_PACKED: a roll that is not in play in one value: continues a tie-break turn |
# a Bunco << 1 | passes the traveler << 2 | shows the round's number << 3 | the faces'
# total << 4 | tie-break points << 9
RO_CONT, RO_BUNCO, RO_TRAVEL, RO_HIT, RO_SUM, RO_POINTS = 0, 1, 2, 3, 4, 9

# -- enums, in the order of the engine's StrEnums -------------------------------------------
K_BUNCO, K_LOW, K_HIGH, K_WIPEOUT = 2, 4, 5, 6  # RollKind (MISS 0, POINTS 1, MINI 3)
S_FIRST, S_PLAYING, S_FINISHING, S_TIE, S_DONE = 0, 1, 2, 3, 4  # table.Status
P_FIRST, P_PLAY, P_AFTER, P_TIE = 0, 1, 2, 3  # table.Phase
TB_SESSIONS, TB_ROLL_OFF, TB_SUDDEN = 0, 1, 2  # rules.TieBreak
FR_SCOREKEEPER, FR_HIGH, FR_LEFT_OF_WINNER = 0, 1, 2  # rules.FirstRoller
PZ_BUNCOS, PZ_WINS, PZ_LOSSES, PZ_HALF, PZ_LAST, PZ_MINIS, PZ_TRAVEL = range(7)  # rules.Prize
SETTLED_OUTRIGHT, SETTLED_SHARED, SETTLED_ROLL_OFF, SETTLED_NOBODY = 0, 1, 2, 4
SETTLED_WINS, SETTLED_BUNCOS = 5, 6

# -- one table's state (st[table, field], int32) --------------------------------------------
F_PTS = 0  # 0-3: points per seat this round
F_SEAT = 4  # 4-7: player per seat (-1: a ghost)
F_SP = 8  # 8-11: points per side, added up when the table is settled
F_SCORER = 12  # 12-15: per side, who rolled its last roll that scored (the clincher)
F_HC = 16  # 16-19: rolling for high: contenders (seats)
F_HT = 20  # 20-23: their totals
F_TBP = 24  # 24-27: tie-break points per side
F_TBO = 28  # 28-31: tie-break order (seats)
F_TURN, F_IN_TURN, F_STATUS, F_TIE, F_WIN, F_HN, F_HK = range(32, 39)
F_TBN, F_TBPOS, F_TBS, F_TBSIDES = 39, 40, 41, 42  # order length, position, session, sides
F_NFIRST, F_NPLAY, F_NAFTER, F_NTIE, F_FIRST_SEAT, F_LAST_BUNCO = range(43, 49)
F_CLINCHER = 49  # kept from one round to the next
F_N, F_TEAM, F_TARGET, F_NSIDES = 50, 51, 52, 53  # the layout, fixed for the night
F_NEXT, F_SIDEOF, F_SIDE_MASK = 54, 58, 62  # 54-57, 58-61; a seat's side is seat & mask
F_ROLLER = 63  # 63-66: who rolls for each seat (a ghost's partner rolls for it)
F_NOBODY = 67  # where the hot loop writes a roll's scorer when it scored nothing
F_HBEST, F_SIZE = 68, 69  # rolling for high: the highest total so far
# the fields indexed by a seat or side in the hot loop, as unsigned numbers: an unsigned
# index needs no check for a negative one (Numba's wraparound)
U_PTS, U_SEAT, U_SCORER, U_TBP, U_TBO = (np.uint64(f) for f in (F_PTS, F_SEAT, F_SCORER, F_TBP, F_TBO))
U_NEXT, U_SIDEOF, U_ROLLER, U_NOBODY = (np.uint64(f) for f in (F_NEXT, F_SIDEOF, F_ROLLER, F_NOBODY))
U_SP, U_HC, U_HT = np.uint64(F_SP), np.uint64(F_HC), np.uint64(F_HT)

# -- a player's card (card[player, field], int32) ---------------------------------------------
D_WINS, D_LOSSES, D_BUNCOS, D_MINIS, D_LOWS, D_HIGHS, D_WIPEOUTS, D_POINTS = range(8)
D_SET_WINS, D_SET_BUNCOS, D_SIZE = 8, 9, 10
CARD_FIELDS = ("wins", "losses", "buncos", "minis", "lows", "highs", "wipeouts", "points")

# -- night-wide values (g, int64) ----------------------------------------------------------------
G_TRAVELER, G_LAST_BUNCO, G_POS, G_OVER, G_STREAM = 0, 1, 2, 3, 4
G_PLAY_POINTS, G_PLAY_ROLLS, G_ALL_ROLLS, G_LOG, G_LOG_OVER, G_NIGHT, G_SIZE = range(5, 12)

# -- per round and table in detail mode (rounds[night, round, table, field]) -------------------
R_SEATS = 0  # 0-3
R_PTS = 4  # 4-7 seat points
R_WIN, R_TIE, R_TBS = 8, 9, 10
R_TBP = 11  # 11-14 tie-break points per side
R_NFIRST, R_NPLAY, R_NAFTER, R_NTIE, R_CLINCHER, R_FIRST_WON, R_SIZE = range(15, 22)

# -- scratch rows (wk[row, player], int64) ------------------------------------------------------
W_ALL, W_TOP, W_STILL, W_CONT, W_TOT, W_POINTS, W_CANDS, W_COUNTS, W_SAVED = range(9)

# -- movement (move[table, row, column], int32) ---------------------------------------------------
# row 0: [sources, source 1, ..., source 4, radix of source 2, 3, 4]; row 1 + combo: the old
# place (4 table + seat) of whoever sits in each seat next round, where combo sums each
# source's winning side times its radix
MV_SOURCES = 4
NIGHT_FIELDS = 9  # figures per night, in the order of night_kernel.FIGURES

NIGHT_FIELDS = 9  # figures per night, in the order of night_kernel.FIGURES

M32 = np.uint64(0xFFFFFFFF)

Code = int | np.int64
"""A dice code 0-215 (a NumPy int64 where the kernel draws it)."""


@njit(cache=True)
def _splitmix(x: np.uint64) -> np.uint64:  # pragma: no cover
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def night_seeds(seed: np.uint64, start: int, count: int) -> np.ndarray:  # pragma: no cover
    """The seeds of nights ``start .. start + count - 1`` of a run seeded with ``seed``."""
    out = np.empty(count, dtype=np.uint64)
    base = _splitmix(seed)
    for i in range(count):
        out[i] = _splitmix(base ^ _splitmix(np.uint64(start + i)))
    return out


@njit(cache=True, _nrt=False)
def _seed(rs: np.ndarray, seed: np.uint64) -> None:  # pragma: no cover
    x = seed
    for j in range(4):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        rs[j] = z ^ (z >> np.uint64(31))
    rs[4] = 0
    rs[5] = 0


@njit(cache=True, _nrt=False, inline="always")
def _next64(rs: np.ndarray) -> np.uint64:  # pragma: no cover
    """xoshiro256**."""
    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
    return np.uint64(result)


@njit(cache=True, _nrt=False, inline="always")
def _code(rs: np.ndarray) -> np.int64:  # pragma: no cover
    """One code 0-215, exactly uniform: each 32-bit half of a 64-bit output, Lemire's
    multiply-shift with rejection of the 184 biased low values."""
    while True:
        if rs[5] != 0:
            rs[5] = 0
            h = rs[4] >> np.uint64(32)
        else:
            z = _next64(rs)
            rs[4] = z
            rs[5] = 1
            h = z & M32
        m = h * np.uint64(216)
        if (m & M32) >= np.uint64(184):
            return np.int64(m >> np.uint64(32))


@njit(cache=True, _nrt=False)
def fill_codes(rs: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """Fill ``out`` with the next codes of the generator state ``rs`` (see :func:`_seed`)."""
    for i in range(out.shape[0]):
        out[i] = _code(rs)


@njit(cache=True)
def seed_state(seed: np.uint64) -> np.ndarray:  # pragma: no cover
    """A generator state for one night's seed."""
    rs = np.zeros(6, dtype=np.uint64)
    _seed(rs, seed)
    return rs


@njit(cache=True, _nrt=False, inline="always")
def _draw(rs: np.ndarray, codes: np.ndarray, g: np.ndarray) -> np.int64:  # pragma: no cover
    """The next code: from the stream ``codes`` or from the generator."""
    p = g[G_POS]
    g[G_POS] = p + 1
    if g[G_STREAM] != 0:
        if p >= codes.shape[0]:
            g[G_OVER] = 1
            return np.int64(0)
        return np.int64(codes[p])
    return _code(rs)


# -- a table ------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _seat_rollers(st: np.ndarray) -> None:  # pragma: no cover
    """TableRound.roller_name for every seat, kept in ``F_ROLLER`` while nobody moves:
    the seat's player, or a ghost's partner."""
    for k in range(st.shape[0]):
        for s in range(st[k, F_N]):
            player = st[k, F_SEAT + s]
            st[k, F_ROLLER + s] = player if player >= 0 else st[k, F_SEAT + ((s + 2) & 3)]


@njit(cache=True, _nrt=False, inline="always")
def _turn_order(st: np.ndarray, k: int, start: int, seats: int, out: int) -> int:  # pragma: no cover
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


@njit(cache=True, _nrt=False, inline="always")
def _seats_of(st: np.ndarray, k: int, sides: int) -> int:  # pragma: no cover
    """The seats (a bit mask) of the sides in the bit mask ``sides``."""
    row = st[k]
    mask = 0
    for j in range(row[F_N]):
        mask |= ((sides >> row[U_SIDEOF + np.uint64(j)]) & 1) << j
    return mask


@njit(cache=True, _nrt=False, inline="always")
def _wipe(st: np.ndarray, k: int, side: int) -> None:  # pragma: no cover
    """A wipeout: the side's points for the round are gone."""
    for j in range(st[k, F_N]):
        if st[k, F_SIDEOF + j] == side:
            st[k, F_PTS + j] = 0


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def _bell(st: np.ndarray, k: int, cfg: np.ndarray) -> None:  # pragma: no cover
    """TableRound.bell: the round is over at table ``k``."""
    s = st[k, F_STATUS]
    if s == S_PLAYING and cfg[C_FINISH] != 0 and st[k, F_IN_TURN] != 0:
        st[k, F_STATUS] = S_FINISHING
    elif s in (S_PLAYING, S_FIRST):
        _settle(st, k, cfg)


@njit(cache=True, _nrt=False)
def _ring_all(st: np.ndarray, cfg: np.ndarray) -> None:  # pragma: no cover
    for j in range(st.shape[0]):
        _bell(st, j, cfg)


@njit(cache=True, _nrt=False, inline="always")
def _high_roll(st: np.ndarray, k: int, total: int) -> None:  # pragma: no cover
    """A roll for high total (TableRound._first_roll, _roll_for_first, and a roll-off's
    roll for high): once every contender has rolled, the contenders are cut to the
    highest, whose turn it is; when one has it alone, the table starts to play
    (``S_FIRST``) or to roll off in that one's order."""
    j = st[k, F_HK]
    st[k, F_NFIRST] += 1
    st[k, F_HT + j] = total
    best = total if j == 0 else max(total, st[k, F_HBEST])
    st[k, F_HBEST] = best
    n = st[k, F_HN]
    if j + 1 < n:
        st[k, F_HK] = j + 1
        st[k, F_TURN] = st[k, F_HC + j + 1]
        return
    m = 0
    for i in range(n):
        if st[k, F_HT + i] == best:
            st[k, F_HC + m] = st[k, F_HC + i]
            m += 1
    st[k, F_HN] = m
    st[k, F_HK] = 0
    st[k, F_TURN] = st[k, F_HC]
    if m > 1:
        return
    st[k, F_HN] = 0
    if st[k, F_STATUS] == S_FIRST:
        st[k, F_STATUS] = S_PLAYING
        return
    seats = 0
    for j in range(st[k, F_TBN]):
        seats |= 1 << st[k, F_TBO + j]
    _turn_order(st, k, st[k, F_HC], seats, F_TBO)
    st[k, F_TBPOS] = 0


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _after_bell_roll(
    st: np.ndarray, k: int, c: Code, r: int, cfg: np.ndarray, tab: np.ndarray,
    card: np.ndarray, g: np.ndarray,
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


@njit(cache=True, _nrt=False, inline="always")
def _tie_roll(
    st: np.ndarray, k: int, c: Code, r: int, cfg: np.ndarray, tab: np.ndarray,
    card: np.ndarray, g: np.ndarray,
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


@njit(cache=True, _nrt=False, inline="always")
def _slow_roll(
    st: np.ndarray, k: int, c: Code, r: int, cfg: np.ndarray, tab: np.ndarray,
    card: np.ndarray, g: np.ndarray,
) -> tuple[int, int]:  # pragma: no cover
    """Night._roll at a table that is not in play: after the bell, or in a tie-break
    (sessions or sudden death); returns the roll's phase and recorded points."""
    if st[k, F_STATUS] == S_FINISHING:
        _after_bell_roll(st, k, c, r, cfg, tab, card, g)
        return P_AFTER, tab[T_POINTS, r, c]
    return P_TIE, _tie_roll(st, k, c, r, cfg, tab, card, g)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False, inline="always")
def _not_done(st: np.ndarray) -> int:  # pragma: no cover
    """How many tables are still in their round."""
    left = 0
    for j in range(st.shape[0]):
        if st[j, F_STATUS] != S_DONE:
            left += 1
    return left


@njit(cache=True, _nrt=False, inline="always")
def _xoshiro_code(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64, cache: np.uint64, have: bool,
) -> tuple[np.int64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, bool]:  # pragma: no cover
    """:func:`_code` on a generator state held in local variables: the next code and the
    new state (``cache`` the last 64-bit output, ``have`` whether its high half is unused)."""
    c = np.int64(0)
    while True:
        if have:
            have = False
            h = cache >> np.uint64(32)
        else:
            x = s1 * np.uint64(5)
            z = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
            u = s1 << np.uint64(17)
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= u
            s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
            cache = z
            have = True
            h = z & M32
        m = h * np.uint64(216)
        if (m & M32) >= np.uint64(184):
            c = np.int64(m >> np.uint64(32))
            break
    return c, s0, s1, s2, s3, cache, have


@njit(cache=True, _nrt=False, inline="always")
def _play_round(
    rn: int, ri: int, cfg: np.ndarray, tab: np.ndarray, rs: np.ndarray, codes: np.ndarray,
    g: np.ndarray, st: np.ndarray, card: np.ndarray, log: np.ndarray, active: np.ndarray,
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
    drawn = 0
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
            # one table: roll until the bell, the turn and the roll count in registers
            row = st[0]
            t = row[F_TURN]
            mask = row[F_SIDE_MASK]
            team = row[F_TEAM]
            target = row[F_TARGET]
            nplay = row[F_NPLAY]
            while True:
                if stream:
                    c = _draw(rs, codes, g)
                    if g[G_OVER] != 0:
                        return
                else:
                    c, s0, s1, s2, s3, cache, have = _xoshiro_code(s0, s1, s2, s3, cache, have)
                    drawn += 1
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
                row[U_NOBODY - (U_NOBODY - U_SCORER - np.uint64(side)) * np.uint64(points > 0)] = roller
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
                    >= target)
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
            row = st[k]
            status = row[F_STATUS]
            if status == S_DONE:
                continue
            # the next code: from the stream, or xoshiro256** with Lemire's rejection
            if stream:
                c = _draw(rs, codes, g)
                if g[G_OVER] != 0:
                    return
            else:
                c, s0, s1, s2, s3, cache, have = _xoshiro_code(s0, s1, s2, s3, cache, have)
                drawn += 1
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
                    >= row[F_TARGET]):
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
        if left < n_active:
            kept = 0
            for a in range(n_active):
                if st[active[a], F_STATUS] != S_DONE:
                    active[kept] = active[a]
                    kept += 1
            n_active = kept
    rs[0], rs[1], rs[2], rs[3], rs[4] = s0, s1, s2, s3, cache
    rs[5] = 1 if have else 0
    if not stream:
        g[G_POS] += drawn
    g[G_ALL_ROLLS] += all_rolls
    g[G_PLAY_ROLLS] += play_rolls
    g[G_PLAY_POINTS] += play_points


# -- rounds, sets and the night -------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _begin_round(st: np.ndarray, cfg: np.ndarray, first: bool) -> None:  # pragma: no cover
    """Night._begin_round: fresh tables and their first rollers."""
    rule = cfg[C_FIRST]
    for k in range(st.shape[0]):
        row = st[k]
        for j in range(4):
            row[F_PTS + j] = 0
        for f in range(F_SP, F_CLINCHER):
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


@njit(cache=True, _nrt=False)
def _rolloff(
    players: np.ndarray, n: int, cfg: np.ndarray, tab: np.ndarray, rs: np.ndarray,
    codes: np.ndarray, g: np.ndarray, wk: np.ndarray,
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



PERMUTATIONS = np.array([[a, b, c, 6 - a - b - c] for a in range(4) for b in range(4)
                         for c in range(4) if len({a, b, c}) == 3], dtype=np.int64)
"""The 24 orders of four seats, in the order of ``itertools.permutations(range(4))``."""


@njit(cache=True, _nrt=False)
def _arrange(st: np.ndarray, k: int, combo: int, row: np.ndarray, no_repeat: bool,
             scratch: np.ndarray, memo: np.ndarray) -> None:  # pragma: no cover
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
    order = scratch[scratch.shape[0] - 4:]  # stayers by seat, then arrivals by table and seat
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


@njit(cache=True, _nrt=False, inline="always")
def _end_round(
    st: np.ndarray, card: np.ndarray, move: np.ndarray, scratch: np.ndarray, acc: np.ndarray,
    rounds: np.ndarray, i: int, ri: int, cfg: np.ndarray, memo: np.ndarray,
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
            first_won = 1 if row[F_NPLAY] > 0 and w == row[
                U_SIDEOF + np.uint64(row[F_FIRST_SEAT])] else 0
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
    if st[0, F_NPLAY] > 0:
        if st[0, F_TEAM] != 0:
            acc[1] += 1
            if st[0, F_TIE] == 0 and st[0, F_WIN] == (st[0, F_FIRST_SEAT] & 1):
                acc[2] += 1
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _flag(
    out: np.ndarray, i: int, q: int, at: int, players: np.ndarray, n: int
) -> None:  # pragma: no cover
    """Mark ``players[:n]`` in the per-player flags that start at ``out[i, q, at]``."""
    for j in range(n):
        out[i, q, at + players[j]] = 1


@njit(cache=True, _nrt=False, inline="always")
def _end_set(
    card: np.ndarray, cfg: np.ndarray, tab: np.ndarray, rs: np.ndarray, codes: np.ndarray,
    g: np.ndarray, wk: np.ndarray, sets_out: np.ndarray, i: int, s: int,
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


@njit(cache=True, _nrt=False, inline="always")
def _prizes(
    card: np.ndarray, cfg: np.ndarray, tab: np.ndarray, prizes: np.ndarray, rs: np.ndarray,
    codes: np.ndarray, g: np.ndarray, wk: np.ndarray, prize_out: np.ndarray, ties: np.ndarray,
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




@njit(cache=True, _nrt=False, inline="always")
def _night(
    i: int, cfg: np.ndarray, tab: np.ndarray, layout: np.ndarray, move: np.ndarray,
    prizes: np.ndarray, rs: np.ndarray, codes: np.ndarray, g: np.ndarray, st: np.ndarray,
    card: np.ndarray, scratch: np.ndarray, acc: np.ndarray, wk: np.ndarray, figures: np.ndarray,
    ties: np.ndarray, rounds: np.ndarray, players_out: np.ndarray, set_buncos: np.ndarray,
    sets_out: np.ndarray, prize_out: np.ndarray, log: np.ndarray, memo: np.ndarray,
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
    figures[i, 8] = g[G_PLAY_POINTS] / g[G_PLAY_ROLLS] if g[G_PLAY_ROLLS] > 0 else np.nan


def state_shapes(tables: int, players: int, prizes: int, combos: int
                 ) -> dict[str, tuple[tuple[int, ...], Any]]:
    """The shapes and types of the working arrays :func:`run_nights` takes (allocated by
    the caller, so that the compiled loop needs no reference counting); ``combos`` is the
    movement table's rows per table (``move.shape[1]``)."""
    return {
        "st": ((tables, F_SIZE), np.int32),
        "card": ((players, D_SIZE), np.int32),
        "scratch": ((4 * tables + 4,), np.int32),
        "acc": ((8,), np.int64),
        "g": ((G_SIZE,), np.int64),
        "rs": ((6,), np.uint64),
        "wk": ((W_SAVED + prizes, max(players, prizes)), np.int64),
        "memo": ((tables, combos, 16), np.int8),
    }


@njit(cache=True, _nrt=False)
def run_nights(
    cfg: np.ndarray, tab: np.ndarray, layout: np.ndarray, move: np.ndarray, prizes: np.ndarray,
    seeds: np.ndarray, codes: np.ndarray, figures: np.ndarray, ties: np.ndarray,
    rounds: np.ndarray, players_out: np.ndarray, set_buncos: np.ndarray, sets_out: np.ndarray,
    prize_out: np.ndarray, misc: np.ndarray, log: np.ndarray, st: np.ndarray, card: np.ndarray,
    scratch: np.ndarray, acc: np.ndarray, g: np.ndarray, rs: np.ndarray, wk: np.ndarray,
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
        _night(i, cfg, tab, layout, move, prizes, rs, codes, g, st, card, scratch, acc, wk,
               figures, ties, rounds, players_out, set_buncos, sets_out, prize_out, log, memo)
        if g[G_OVER] != 0:
            return i
        misc[i, 0] = g[G_TRAVELER]
        misc[i, 1] = g[G_LAST_BUNCO]
        misc[i, 2] = g[G_POS] - start
        misc[i, 3] = g[G_LOG] - log_start
    played: int = figures.shape[0]
    return played
