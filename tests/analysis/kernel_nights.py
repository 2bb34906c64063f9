"""The night kernel's detail mode read back as plain data, for the tests that hold the
kernel to the night engine: :func:`play_nights` plays nights keeping every round, roll,
card, set and prize, and :meth:`KernelNights.view` gives one night as the engine would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.kernel import layout as lay
from bunco.analysis.night_kernel import PHASES, figures_of, kernel_inputs, player_names, run_kernel
from bunco.core.rules import RuleSet, SetWinner

SET_SETTLED = {
    lay.SETTLED_WINS: "wins",
    lay.SETTLED_BUNCOS: "buncos",
    lay.SETTLED_ROLL_OFF: "roll_off",
}
PRIZE_SETTLED = {
    lay.SETTLED_OUTRIGHT: "outright",
    lay.SETTLED_SHARED: "shared",
    lay.SETTLED_ROLL_OFF: "roll_off",
    lay.SETTLED_NOBODY: "nobody",
}


def night_figures(
    rules: RuleSet, players: int, sets: int, seeds: NDArray[np.uint64]
) -> tuple[NDArray[np.float64], NDArray[np.uint8]]:
    """Play one night per seed; per night the :data:`~bunco.analysis.night_kernel.FIGURES` and, per prize of
    ``rules.prizes``, 1 when more than one player qualified for it."""
    return figures_of(kernel_inputs(rules, players, sets), seeds)


@dataclass(frozen=True)
class KernelNights:
    """Nights played with every detail kept; :meth:`view` gives one as plain data."""

    rules: RuleSet
    players: tuple[str, ...]
    sets: int
    played: int
    data: dict[str, Any]
    layout: NDArray[np.int32]

    def view(self, i: int) -> dict[str, Any]:
        """Night ``i``: every round's tables (seats, points, winners, tie-break, clincher,
        rolls as ``[seat, code, phase, points]``), the cards, set results and prizes."""
        if not 0 <= i < self.played:
            raise IndexError(f"night {i} was not played")
        d = self.data
        names = self.players
        misc = d["misc"]
        start = int(misc[:i, 3].sum())
        log = d["log"][start : start + int(misc[i, 3])]
        rounds = []
        for ri in range(6 * self.sets):
            tables = []
            for k, row in enumerate(self.layout):
                rec = d["rounds"][i, ri, k]
                rolls = log[(log[:, 1] == ri) & (log[:, 2] == k)][:, 3:].tolist()
                tables.append(_table_view(rec, row, names, rolls))
            rounds.append({"set": ri // 6 + 1, "round": ri % 6 + 1, "tables": tables})
        cards = {}
        for p, name in enumerate(names):
            card = dict(zip(lay.CARD_FIELDS, d["cards"][i, p].tolist(), strict=True))
            card["set_buncos"] = {
                s + 1: int(d["set_buncos"][i, s, p])
                for s in range(self.sets)
                if d["set_buncos"][i, s, p]
            }
            cards[name] = card
        sets = []
        n = len(names)
        if self.rules.set_winner is SetWinner.MOST_WINS:
            for row in d["sets"][i]:
                sets.append(
                    {
                        "winner": names[row[0]],
                        "tied_on_wins": _names(row[2 : 2 + n], names),
                        "tied_on_buncos": _names(row[2 + n :], names),
                        "settled_by": SET_SETTLED[int(row[1])],
                    }
                )
        prizes = []
        for prize, row in zip(self.rules.prizes, d["prizes"][i], strict=True):
            prizes.append(
                {
                    "category": prize.value,
                    "value": None if row[1] < 0 else int(row[1]),
                    "candidates": _names(row[2 : 2 + n], names),
                    "winners": _names(row[2 + n :], names),
                    "settled_by": PRIZE_SETTLED[int(row[0])],
                }
            )
        return {
            "rounds": rounds,
            "cards": cards,
            "sets": sets,
            "prizes": prizes,
            "traveler": names[misc[i, 0]] if misc[i, 0] >= 0 else None,
            "last_bunco": names[misc[i, 1]] if misc[i, 1] >= 0 else None,
            "dice_used": int(misc[i, 2]),
        }


def _names(flags: NDArray[np.int64], names: Sequence[str]) -> list[str]:
    return [name for p, name in enumerate(names) if flags[p]]


def _table_view(
    rec: NDArray[np.int32], row: NDArray[np.int32], names: Sequence[str], rolls: list[list[int]]
) -> dict[str, Any]:
    size = int(row[lay.L_N])
    seats = [names[p] if p >= 0 else None for p in rec[lay.R_SEATS : lay.R_SEATS + size]]
    win = int(rec[lay.R_WIN])
    tie = None
    if rec[lay.R_TIE]:
        tie = {
            "sessions": int(rec[lay.R_TBS]),
            "points": rec[lay.R_TBP : lay.R_TBP + row[lay.L_NSIDES]].tolist(),
        }
    return {
        "seats": seats,
        "points": rec[lay.R_PTS : lay.R_PTS + size].tolist(),
        "winners": [seats[s] for s in range(size) if row[lay.L_SIDEOF + s] == win],
        "tie_break": tie,
        "clincher": names[rec[lay.R_CLINCHER]],
        "rolls": [[seat, code, PHASES[phase].value, points] for seat, code, phase, points in rolls],
    }


def play_nights(
    rules: RuleSet,
    players: int,
    sets: int,
    *,
    seeds: Sequence[int] | None = None,
    codes: Sequence[int] | NDArray[np.uint8] | None = None,
    nights: int = 1,
) -> KernelNights:
    """Play nights keeping every detail: one per seed of ``seeds`` (their dice as
    :class:`DiceStream` draws them), or ``nights`` in a row from the stream ``codes``
    (``played`` says how many finished before it ran out)."""
    inputs = kernel_inputs(rules, players, sets, detail=True)
    names = tuple(player_names(players))
    if seeds is not None:
        seed_arr = np.array([int(s) % 2**64 for s in seeds], dtype=np.uint64)
        rows = len(seed_arr) * sets * 4000  # a set takes about 1000 rolls
        while True:
            played, data = run_kernel(inputs, len(seed_arr), seed_arr, None, rows)
            if data["misc"][:, 3].sum() < rows:
                break
            rows *= 4  # the roll log was full: play again with room for more
    elif codes is not None:
        arr = np.asarray(codes, dtype=np.uint8)
        if len(arr) == 0:
            raise ValueError("the dice stream is empty")
        played, data = run_kernel(inputs, nights, None, arr, len(arr))
    else:
        raise ValueError("give seeds or a stream of codes")
    return KernelNights(rules, names, sets, played, data, inputs.layout)
