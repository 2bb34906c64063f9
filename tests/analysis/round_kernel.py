"""The round kernel (a test and benchmark helper): many head-table rounds, and a
non-head table beside them, compiled with Numba, from streams of dice codes.

The model is that of :mod:`bunco.analysis.table_odds`: teams alternate, the first team
rolls first, the bell roll (target reached, or a roll that ends the round) ends the head
table's round; with ``finish_turn`` the bell roller and the non-head table's mid-turn
roller roll on while their rolls continue the turn; then the head table is settled on
points (``winner`` -1 marks a tie, whose tie-break is not played here). At each time step
the non-head table rolls first, then the head table. A roll that ends the round by itself
is only modelled at the head table. Tests feed the same streams to the slow reference
(``round_reference``) and to the night engine (``engine_feed``) and compare every result;
:func:`simulate_rounds` draws the streams from a seeded generator.

>>> import numpy as np
>>> from bunco.core.presets import get_rules
>>> sim = simulate_rounds(get_rules("classic"), 1, 1000, seed=7)
>>> sim.rounds, bool(np.all(sim.bell_roll <= sim.rolls))
(1000, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from bunco.analysis.dice_codes import BoolArray, Codes, CodeTable, IntArray, code_table
from bunco.core.rules import AfterBell, RuleSet


@dataclass(frozen=True)
class RoundResults:
    """One entry per round played: head table (``winner`` 0 = first team, 1 = second,
    -1 = tied on points), non-head table.

    ``other_scores`` is all zeros when no non-head table was played. ``head_used`` and
    ``other_used`` count the codes consumed from each stream.
    """

    winner: NDArray[np.int8]
    rolls: IntArray
    bell_roll: IntArray
    bunco_end: BoolArray
    scores: IntArray
    other_scores: IntArray
    other_rolls: IntArray
    head_used: int
    other_used: int

    @property
    def rounds(self) -> int:
        return len(self.winner)


@njit(cache=True, nogil=True)
def _play(  # pragma: no cover
    head: Codes,
    other: Codes,
    pair: bool,
    points: IntArray,
    cont: BoolArray,
    wipes: BoolArray,
    ends: BoolArray,
    bunco: BoolArray,
    target: int,
    finish: bool,
    n: int,
    winner: NDArray[np.int8],
    rolls: IntArray,
    bell_roll: IntArray,
    bunco_end: BoolArray,
    scores: IntArray,
    other_scores: IntArray,
    other_rolls: IntArray,
) -> tuple[int, int, int]:
    """Play up to ``n`` rounds; returns (rounds done, head codes used, other codes used).

    A round that would need more codes than are left is not started over: the counts
    returned stop before it.
    """
    hp = 0
    op = 0
    n_head = head.shape[0]
    n_other = other.shape[0]
    for i in range(n):
        h0 = hp
        o0 = op
        sa = 0
        sb = 0
        r = 0
        oa = 0
        ob = 0
        orr = 0
        ocont = False
        t = 0
        while True:
            if hp >= n_head or (pair and op >= n_other):
                return i, h0, o0
            if pair:
                d = other[op]
                op += 1
                if orr == 0:
                    oa = 0 if wipes[d] else oa + points[d]
                else:
                    ob = 0 if wipes[d] else ob + points[d]
                ocont = cont[d]
                if not ocont:
                    orr = 1 - orr
            c = head[hp]
            hp += 1
            t += 1
            if r == 0:
                sa = 0 if wipes[c] else sa + points[c]
                mine = sa
            else:
                sb = 0 if wipes[c] else sb + points[c]
                mine = sb
            if ends[c] or mine >= target:
                break
            if not cont[c]:
                r = 1 - r
        bell_roll[i] = t
        bunco_end[i] = bunco[c]
        k = t
        if finish and cont[c]:
            while True:
                if hp >= n_head:
                    return i, h0, o0
                c = head[hp]
                hp += 1
                k += 1
                if r == 0:
                    sa = 0 if wipes[c] else sa + points[c]
                else:
                    sb = 0 if wipes[c] else sb + points[c]
                if not cont[c]:
                    break
        rolls[i] = k
        winner[i] = 0 if sa > sb else (1 if sb > sa else -1)
        scores[i, 0] = sa
        scores[i, 1] = sb
        k = t
        if pair and finish and ocont:
            while True:
                if op >= n_other:
                    return i, h0, o0
                d = other[op]
                op += 1
                k += 1
                if orr == 0:
                    oa = 0 if wipes[d] else oa + points[d]
                else:
                    ob = 0 if wipes[d] else ob + points[d]
                if not cont[d]:
                    break
        other_scores[i, 0] = oa
        other_scores[i, 1] = ob
        other_rolls[i] = k if pair else 0
    return n, hp, op


def play_rounds(
    table: CodeTable,
    target: int,
    finish: bool,
    head: Codes,
    other: Codes | None = None,
    n: int | None = None,
) -> RoundResults:
    """Play rounds from the code streams ``head`` (and ``other``) until ``n`` are done or a
    stream runs out (a round cut short by the end of a stream is left out)."""
    pair = other is not None
    other_arr = np.ascontiguousarray(other if other is not None else np.zeros(0), dtype=np.uint8)
    head_arr = np.ascontiguousarray(head, dtype=np.uint8)
    size = len(head_arr) if n is None else n
    winner = np.zeros(size, dtype=np.int8)
    rolls = np.zeros(size, dtype=np.int32)
    bell = np.zeros(size, dtype=np.int32)
    bunco_end = np.zeros(size, dtype=np.bool_)
    scores = np.zeros((size, 2), dtype=np.int32)
    other_scores = np.zeros((size, 2), dtype=np.int32)
    other_rolls = np.zeros(size, dtype=np.int32)
    done, hp, op = _play(
        head_arr,
        other_arr,
        pair,
        table.points,
        table.continues,
        table.wipes,
        table.ends_round,
        table.bunco,
        target,
        finish,
        size,
        winner,
        rolls,
        bell,
        bunco_end,
        scores,
        other_scores,
        other_rolls,
    )
    return RoundResults(
        winner[:done],
        rolls[:done],
        bell[:done],
        bunco_end[:done],
        scores[:done],
        other_scores[:done],
        other_rolls[:done],
        int(hp),
        int(op),
    )


def _concat(parts: list[RoundResults], head_used: int, other_used: int) -> RoundResults:
    return RoundResults(
        winner=np.concatenate([p.winner for p in parts]),
        rolls=np.concatenate([p.rolls for p in parts]),
        bell_roll=np.concatenate([p.bell_roll for p in parts]),
        bunco_end=np.concatenate([p.bunco_end for p in parts]),
        scores=np.concatenate([p.scores for p in parts]),
        other_scores=np.concatenate([p.other_scores for p in parts]),
        other_rolls=np.concatenate([p.other_rolls for p in parts]),
        head_used=head_used,
        other_used=other_used,
    )


def _draw(gen: np.random.Generator, size: int) -> Codes:
    """``size`` dice codes, each of the 216 equally likely."""
    return gen.integers(0, 216, size=size, dtype=np.uint8)


def simulate_rounds(
    rules: RuleSet,
    round_no: int,
    n: int,
    *,
    seed: int | None = None,
    pair: bool = True,
    rng: np.random.Generator | None = None,
) -> RoundResults:
    """Play ``n`` independent rounds at a head table (and a non-head table when ``pair``)
    with dice drawn from ``rng`` (or a generator seeded with ``seed``)."""
    gen = rng if rng is not None else np.random.default_rng(seed)
    table = code_table(rules, round_no)
    target = rules.target(team=True, single_table=False)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    block = max(4096, n * 64)
    head = _draw(gen, block)
    other = _draw(gen, block) if pair else None
    parts: list[RoundResults] = []
    done = head_used = other_used = 0
    while done < n:
        part = play_rounds(table, target, finish, head, other, n - done)
        parts.append(part)
        done += part.rounds
        head_used += part.head_used
        other_used += part.other_used
        if done < n:
            head = np.concatenate([head[part.head_used :], _draw(gen, block)])
            if other is not None:
                other = np.concatenate([other[part.other_used :], _draw(gen, block)])
    return _concat(parts, head_used, other_used)


@njit(cache=True, nogil=True)
def _turns(  # pragma: no cover
    codes: Codes,
    points: IntArray,
    cont: BoolArray,
    ends: BoolArray,
    wipes: BoolArray,
    bunco: BoolArray,
    n: int,
    rolls: IntArray,
    total: IntArray,
    had_bunco: BoolArray,
) -> tuple[int, int]:
    """Play up to ``n`` free turns from a code stream; returns (turns done, codes used)."""
    p = 0
    size = codes.shape[0]
    for i in range(n):
        p0 = p
        k = 0
        s = 0
        b = False
        while True:
            if p >= size:
                return i, p0
            c = codes[p]
            p += 1
            k += 1
            s = 0 if wipes[c] else s + points[c]
            b = b or bunco[c]
            if not cont[c] or ends[c]:
                break
        rolls[i] = k
        total[i] = s
        had_bunco[i] = b
    return n, p


@dataclass(frozen=True)
class TurnResults:
    """One entry per free turn: rolls, points (0 after a wipeout), whether it had a Bunco."""

    rolls: IntArray
    points: IntArray
    had_bunco: BoolArray
    used: int


def play_turns(table: CodeTable, codes: Codes, n: int | None = None) -> TurnResults:
    """Play free turns (no target) from a code stream, one after another."""
    arr = np.ascontiguousarray(codes, dtype=np.uint8)
    size = len(arr) if n is None else n
    rolls = np.zeros(size, dtype=np.int32)
    total = np.zeros(size, dtype=np.int32)
    had = np.zeros(size, dtype=np.bool_)
    done, used = _turns(
        arr,
        table.points,
        table.continues,
        table.ends_round,
        table.wipes,
        table.bunco,
        size,
        rolls,
        total,
        had,
    )
    return TurnResults(rolls[:done], total[:done], had[:done], int(used))
