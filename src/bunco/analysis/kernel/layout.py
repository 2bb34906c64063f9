"""The layout of the night kernel's arrays, and the typed ``njit`` its modules compile with.

The compiled kernel (:mod:`bunco.analysis.kernel`) works on small flat arrays, not
objects: the rule configuration ``cfg``, each table's fixed ``layout``, the score
tables ``tab``, every table's state ``st``, the players' cards, the night-wide values
``g``, the per-round detail ``rounds``, scratch rows ``wk`` and the movement table
``move``. This module names their fields (``C_*``, ``L_*``, ``T_*``, ``F_*``, ``D_*``,
``G_*``, ``R_*``, ``W_*``) and numbers the engine's enums the way the kernel does
(:mod:`bunco.analysis.night_kernel` checks that the order still holds).

A table has 2, 3 or 4 seats and plays in two teams (partners opposite, seats 1&3 and
2&4) or as individuals: its *sides* are the two teams or the seats. What differs
between tables is fixed for the night and read from each table's row (``F_N`` seats,
``F_NEXT`` the seat the dice pass to, ``F_SIDEOF`` each seat's side, ``F_TARGET``), so
one loop plays them all. A ghost seat (``-1``) is rolled for by its partner: its rolls
count for its team, credit nobody's card, and pass the traveler to the partner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def njit(**options: Any) -> Callable[[F], F]:
    """``numba.njit(**options)``, typed: to mypy a compiled function keeps the Python
    signature it is written with (Numba's own stubs do not know ``_nrt``). Numba is
    imported here, by the modules that compile, not by those that read these fields
    (the exact odds, a run that loads the kernel built ahead of time)."""
    from numba import njit as numba_njit

    return cast("Callable[[F], F]", numba_njit(**options))


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
# Ordered so that a roll touches few cache lines: a roll-off's roll reads and writes the
# first two and the fourth, a roll in play the first, second and fourth; fields 0 to
# F_ROUND - 1 start every round at 0; rows are 80 fields (five cache lines).
F_TURN, F_STATUS, F_IN_TURN, F_HN, F_NTIE, F_TBPOS, F_TBN, F_TBS = range(8)  # HN: contenders
F_TBP = 8  # 8-11: tie-break points per side
F_TBO = 12  # 12-15: tie-break order (seats); F_TBN of them, F_TBPOS the one whose turn it is
F_SCORER = 16  # 16-19: per side, who rolled its last roll that scored (the clincher)
F_NOBODY = 20  # where the hot loop writes a roll's scorer when it scored nothing
F_NPLAY, F_LAST_BUNCO, F_FIRST_SEAT = 21, 22, 23
F_PTS = 24  # 24-27: points per seat this round
F_HC = 28  # 28-31: rolling for high: contenders (seats)
F_HT = 32  # 32-35: their totals
F_HK, F_HBEST, F_NFIRST, F_NAFTER = 36, 37, 38, 39  # HK: contenders who rolled; HBEST: highest
F_SP = 40  # 40-43: points per side, added up when the table is settled
F_TIE, F_WIN, F_TBSIDES, F_ROUND = 44, 45, 46, 47  # TBSIDES: the sides still tied (bits)
F_CLINCHER = 47  # kept from one round to the next
F_SIDEOF = 48  # 48-51: each seat's side (0 or 1 at a team table, else the seat)
F_ROLLER = 52  # 52-55: who rolls for each seat (a ghost's partner rolls for it)
F_NEXT = 56  # 56-59: the seat the dice pass to
F_SIDE_MASK, F_TEAM, F_TARGET, F_N = 60, 61, 62, 63  # a seat's side is seat & mask
F_SEAT = 64  # 64-67: player per seat (-1: a ghost)
F_NSIDES, F_SIZE = 68, 80
# the fields indexed by a seat or side in the hot loop, as unsigned numbers: an unsigned
# index needs no check for a negative one (Numba's wraparound)
U_PTS, U_SEAT, U_SCORER, U_TBP, U_TBO = (
    np.uint64(f) for f in (F_PTS, F_SEAT, F_SCORER, F_TBP, F_TBO)
)
U_NEXT, U_SIDEOF, U_ROLLER, U_NOBODY = (
    np.uint64(f) for f in (F_NEXT, F_SIDEOF, F_ROLLER, F_NOBODY)
)
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
NIGHT_FIELDS = 10  # figures per night, in the order of night_kernel.FIGURES

Code = int | np.int64
"""A dice code 0-215 (a NumPy int64 where the kernel draws it)."""


def state_shapes(
    tables: int, players: int, prizes: int, combos: int
) -> dict[str, tuple[tuple[int, ...], Any]]:
    """The shapes and types of the working arrays :func:`run_nights` takes (allocated by
    the caller, so that the compiled loop needs no reference counting); ``combos`` is the
    movement table's rows per table (``move.shape[1]``)."""
    return {
        "st": ((tables, F_SIZE), np.int32),  # (the caller aligns its rows to 64 bytes)
        "card": ((players, D_SIZE), np.int32),
        "scratch": ((4 * tables + 4,), np.int32),
        "acc": ((8,), np.int64),
        "g": ((G_SIZE,), np.int64),
        "rs": ((6,), np.uint64),
        "wk": ((W_SAVED + prizes, max(players, prizes)), np.int64),
        "memo": ((tables, combos, 16), np.int8),
    }


def aligned_zeros(shape: tuple[int, ...], dtype: Any, align: int = 64) -> np.ndarray:
    """``np.zeros(shape, dtype)`` starting on an ``align``-byte boundary (a cache line), so
    that each table's row of ``st`` (:data:`F_SIZE` fields) starts one.

    >>> aligned_zeros((3, F_SIZE), np.int32).ctypes.data % 64
    0
    """
    size = int(np.prod(shape))
    item = np.dtype(dtype).itemsize
    raw = np.zeros(size + align // item, dtype=dtype)
    start = (-raw.ctypes.data % align) // item
    return raw[start : start + size].reshape(shape)
