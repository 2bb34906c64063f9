"""The fast whole-night kernel: every party the night engine seats, compiled with Numba.

It plays what :class:`bunco.core.night.Night` plays for 2 to 2,000 players — one table
of two, three or four (in teams or as individuals), tables of four with the tables of
two or three of the party's layout (:func:`bunco.core.seating.first_seating`: the
``winning-moves`` layouts for 5 to 11 players and the same for larger counts), or
tables of four with ``scil``'s ghosts — 1 to 4 sets, under any rule set: scoring from the
rule set's fields (:func:`bunco.analysis.dice_codes.code_table`), targets, the bell at the
head table or at every table, a Bunco that ends the round, after-bell turns, wipeouts,
first rollers (scorekeeper, rolling for high with re-rolls, left of the last winner),
either direction, the three tie-breaks, W/L and every card count, movement (a lookup per
table built from :func:`bunco.core.seating.next_seating` itself), set winners with their
roll-off, prizes with ties and their roll-offs, traveling and the last Bunco.

**The schedule.** Dice are used in one order, the same as
:func:`bunco.analysis.simulate.play_night`: in each *tick* every table that has not
finished its round rolls once, the last table first and the head table last (so when the
head table's bell roll is its roll *t*, the other tables have made *t* rolls, as the
exact odds of :mod:`bunco.analysis.table_odds` assume); a tick stops as soon as the round
is over. Roll-offs at no table (a set winner, a prize) take the next dice one roll at a
time. Given the same dice, the kernel and the engine play the same night: a test
compares every roll, every table's result, every card, set winner and prize.

**Dice.** A roll is a code 0-215 (:func:`bunco.analysis.dice_codes.dice_to_codes`). Either a
given stream of codes (nights one after another), or for night ``i`` of a run seeded
with ``seed``, a xoshiro256** generator seeded with ``night_seeds(seed)[i]``;
:class:`DiceStream` gives the engine the very same dice.

Nobody checks cards in the kernel: with ``verify_for_prizes`` no Bunco, Mini or win
counts for prizes, as in the engine when no ``verify`` event comes (the simulation turns
the rule off). :func:`kernel_refusal` names what the kernel refuses: fewer than 2 or
more than 2,000 players, more than four sets, and rolls worth more than
:data:`MAX_POINTS` points; a movement rule whose seating is not a local lookup (none of
the rule set's) would be refused by :func:`movement_table`.

>>> from bunco.core.presets import get_rules
>>> inputs = kernel_inputs(get_rules("classic"), 12, 1)
>>> figures, ties = figures_of(inputs, night_seeds(7, 2))
>>> figures.shape, ties.shape, float(figures[0, FIGURES.index("rounds")])
((2, 10), (2, 5), 6.0)
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, get_args

import numpy as np
from numpy.typing import NDArray

from bunco.analysis import movement_cache
from bunco.analysis.dice_codes import code_table
from bunco.analysis.kernel import layout as lay
from bunco.analysis.kernel import loaded
from bunco.analysis.summary import FigureName
from bunco.core.dice import Dice, score_roll, score_rolloff
from bunco.core.errors import BuncoError
from bunco.core.rules import (
    AfterBell,
    Direction,
    FirstRoller,
    Prize,
    PrizeTies,
    RollKind,
    RoundEnd,
    RuleSet,
    SetWinner,
    TieBreak,
)
from bunco.core.seating import first_seating, next_seating
from bunco.core.seating_layout import is_team_table
from bunco.core.table import Phase, RollRecord

FIGURES: tuple[FigureName, ...] = get_args(FigureName)
"""The figures of one night, in the columns of :func:`figures_of` (the keys of
:func:`bunco.analysis.simulate.night_stats`): ``play_points`` and ``play_rolls`` are
the night's totals of points scored and rolls made in play, whose ratio over many
nights is the points per roll."""

MIN_PLAYERS, MAX_PLAYERS = 2, 2000
MAX_POINTS = 100_000
PHASES = tuple(Phase)
# The compiled core numbers the engine's enums by their order; check that it still holds.
assert (
    tuple(TieBreak).index(TieBreak.SUDDEN_DEATH),
    tuple(Prize).index(Prize.TRAVELING),
    tuple(FirstRoller).index(FirstRoller.LEFT_OF_LAST_WINNER),
    tuple(RollKind).index(RollKind.WIPEOUT),
    PHASES.index(Phase.TIE_BREAK),
) == (lay.TB_SUDDEN, lay.PZ_TRAVEL, lay.FR_LEFT_OF_WINNER, lay.K_WIPEOUT, lay.P_TIE)


TIMED_REFUSAL = (
    "a timed round ends on the clock, and simulated dice take no time: "
    "the odds of a timed night depend on how fast the room rolls"
)
"""Why timed rounds (house rule ``round_minutes``) are neither simulated nor given odds."""


class KernelUnsupported(BuncoError):
    """A party the night kernel cannot play exactly as the engine does."""

    code = "kernel_unsupported"


RULE_FIELDS: dict[str, str] = {
    # how a roll scores, whether it goes on, ends the round or passes the traveler: the
    # score tables are built by the engine's own score_roll, score_rolloff and _travels
    **{
        name: "score tables"
        for name in (
            "target_die_points",
            "bunco_points",
            "bunco_continues",
            "bunco_ends_round",
            "low_trips_points",
            "low_trips_kind",
            "low_trips_continues",
            "high_trips_points",
            "high_trips_kind",
            "high_trips_continues",
            "wipeout",
            "traveling",
            "traveling_excluded_round",
        )
    },
    "team_target": "table target",
    "individual_target": "table target",
    "single_table_target": "table target",
    "quick_game": "table target",
    "single_table_teams": "table layout (team or individuals)",
    "fill": "table layout (tables of two or three, or ghosts)",
    "direction": "table layout (the seat the dice pass to)",
    "first_roller": "cfg first roller",
    "first_roller_single_table": "cfg first roller",
    "round_end": "cfg bell",
    "after_bell": "cfg after-bell turns",
    "tie_break": "cfg tie-break",
    "roll_off_target": "cfg roll-off goal",
    "set_winner": "cfg set winner",
    "prizes": "prize list",
    "prize_ties": "cfg shared",
    "verify_for_prizes": "cfg verify",
    "movement": "movement table",
    "no_repeat_partners": "movement table, cfg (ghosts)",
    # what does not change a simulated night
    "name": "a label",
    "mini_label": "a label on the cards",
    "breaks_after_rounds": "breaks take no dice",
    "prize_groups": "a simulated party registers no groups",
    "must_be_present": "nobody goes home in a simulated night",
    # refused
    "round_minutes": "refused (TIMED_REFUSAL): a simulated night has no clock",
}
"""Every :class:`RuleSet` field, and how the kernel plays it or why it never needs to
(parties it refuses). A test fails when a field is added that is not listed here."""


def kernel_refusal(rules: RuleSet, players: int, sets: int = 1) -> str | None:
    """Why the kernel cannot play this party, or None when it can.

    >>> from bunco.core.presets import get_rules
    >>> kernel_refusal(get_rules("scil"), 13) is None, kernel_refusal(get_rules("scil"), 1)
    (True, '1 players: the kernel seats 2 to 2000')
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return f"{players} players: the kernel seats {MIN_PLAYERS} to {MAX_PLAYERS}"
    if not 1 <= sets <= 4:
        return f"{sets} sets: a night has 1 to 4"
    points = max(
        rules.bunco_points,
        rules.low_trips_points,
        rules.high_trips_points,
        3 * rules.target_die_points,
    )
    if points > MAX_POINTS:
        return f"a roll worth {points} points: the kernel counts up to {MAX_POINTS:,} a roll"
    if rules.round_minutes:
        return f"round_minutes {rules.round_minutes}: {TIMED_REFUSAL}"
    return None


def check_kernel(rules: RuleSet, players: int, sets: int = 1) -> None:
    """Raise :class:`KernelUnsupported` if :func:`kernel_refusal` has a reason."""
    reason = kernel_refusal(rules, players, sets)
    if reason is not None:
        raise KernelUnsupported(
            f"the night kernel cannot play this party: {reason}",
            expected=f"{MIN_PLAYERS} to {MAX_PLAYERS} players, 1 to 4 sets and rolls worth "
            f"up to {MAX_POINTS:,} points (or the night engine)",
        )


# -- inputs -----------------------------------------------------------------------------------
def score_tables(rules: RuleSet) -> NDArray[np.int32]:
    """``tab[field, round - 1, code]``: what every roll scores in play and in a tie-break,
    whether it passes the traveler, its faces' total (fields ``lay.T_*``)."""
    from bunco.core.night import Night  # the engine: only to build the tables, kept on disk

    tab = np.zeros((lay.T_SIZE, 6, 216), dtype=np.int32)
    faces: list[Dice] = [(a, b, c) for a, b, c in itertools.product(range(1, 7), repeat=3)]
    for r in range(1, 7):
        table = code_table(rules, r)
        tab[lay.T_POINTS, r - 1] = table.points
        tab[lay.T_KIND, r - 1] = table.kind
        tab[lay.T_CONT, r - 1] = table.continues
        tab[lay.T_ENDS, r - 1] = table.ends_round
        night = SimpleNamespace(rules=rules, round_no=r)
        for code, dice in enumerate(faces):
            play = score_roll(dice, r, rules)
            tie = score_rolloff(dice, r, rules)
            tab[lay.T_RO_POINTS, r - 1, code] = tie.points
            tab[lay.T_RO_CONT, r - 1, code] = tie.turn_continues
            tab[lay.T_RO_BUNCO, r - 1, code] = tie.kind is RollKind.BUNCO
            tab[lay.T_HIT, r - 1, code] = r in dice
            tab[lay.T_SUM, r - 1, code] = sum(dice)
            for field, kind, phase in (
                (lay.T_TRAVEL, play.kind, Phase.PLAY),
                (lay.T_RO_TRAVEL, tie.kind, Phase.TIE_BREAK),
            ):
                record = RollRecord(0, "x", "x", (dice[0], dice[1], dice[2]), 0, kind, phase, 0)
                tab[field, r - 1, code] = Night._travels(night, record)  # type: ignore[arg-type]
    tab[lay.T_PACKED] = (
        tab[lay.T_KIND]
        | tab[lay.T_CONT] << lay.PK_CONT
        | tab[lay.T_ENDS] << lay.PK_ENDS
        | tab[lay.T_TRAVEL] << lay.PK_TRAVEL
        | tab[lay.T_POINTS] << lay.PK_POINTS
    )
    tab[lay.T_RO_PACKED] = (
        tab[lay.T_RO_CONT] << lay.RO_CONT
        | tab[lay.T_RO_BUNCO] << lay.RO_BUNCO
        | tab[lay.T_RO_TRAVEL] << lay.RO_TRAVEL
        | tab[lay.T_HIT] << lay.RO_HIT
        | tab[lay.T_SUM] << lay.RO_SUM
        | tab[lay.T_RO_POINTS] << lay.RO_POINTS
    )
    return tab


SCORE_SOURCES = (
    "core/dice.py",
    "core/night.py",
    "core/night_rolls.py",
    "core/rules.py",
    "core/table.py",
    "analysis/dice_codes.py",
    "analysis/night_kernel.py",
)
"""The modules :func:`score_tables` reads the scoring off (under ``bunco/``)."""


@lru_cache(maxsize=32)
def kept_score_tables(rules: RuleSet) -> NDArray[np.int32]:
    """:func:`score_tables`, kept on disk between runs (:mod:`bunco.analysis.movement_cache`):
    a run's serial part, before its workers start, is then a few milliseconds."""
    package = Path(__file__).parent.parent
    return movement_cache.kept_for(
        "scores", rules, [package / f for f in SCORE_SOURCES], lambda: score_tables(rules)
    )


MAX_COMBOS = 64
"""The most winner patterns of a new table's source tables :func:`movement_table` keeps."""


def table_rows(rules: RuleSet, players: int) -> NDArray[np.int32]:
    """The layout of the party's tables (fields ``lay.L_*``): seats, teams or individuals,
    target, the seat the dice pass to, each seat's side, and who sits there first
    (:func:`bunco.core.seating.first_seating` of :func:`player_names`; -1 a ghost)."""
    names = player_names(players)
    number = {name: p for p, name in enumerate(names)}
    seating = first_seating(names, rules)
    step = 1 if rules.direction is Direction.LEFT else -1
    rows = np.zeros((len(seating), lay.L_SIZE), dtype=np.int32)
    for k, seats in enumerate(seating):
        size = len(seats)
        team = is_team_table(size, len(seating), rules)
        rows[k, lay.L_N] = size
        rows[k, lay.L_TEAM] = team
        rows[k, lay.L_TARGET] = rules.target(team=team, single_table=len(seating) == 1)
        rows[k, lay.L_NSIDES] = 2 if team else size
        for s in range(4):
            rows[k, lay.L_NEXT + s] = (s + step) % size if s < size else 0
            rows[k, lay.L_SIDEOF + s] = (s % 2 if team else s) if s < size else 0
            seat = seats[s] if s < size else None
            rows[k, lay.L_SEAT + s] = -1 if seat is None else number[seat]
    return rows


@lru_cache(maxsize=32)
def movement_table(rules: RuleSet, sizes: tuple[int, ...]) -> NDArray[np.int32]:
    """:func:`build_movement_table`, kept on disk for big parties
    (:mod:`bunco.analysis.movement_cache`)."""
    return movement_cache.cached(rules, sizes, __file__, lambda: build_movement_table(rules, sizes))


def build_movement_table(rules: RuleSet, sizes: tuple[int, ...]) -> NDArray[np.int32]:
    """Movement as a lookup per table, read off :func:`next_seating` on labelled seats.

    A new table's occupants come from a few *source* tables (at most
    ``lay.MV_SOURCES``: two at tables of four, a few more around tables of two or
    three), and where they sit depends only on who won at those tables.
    ``move[k, 0]`` holds table ``k + 1``'s sources and their radixes; with the winning
    sides (or seats, at an individual table) of its sources as the digits of ``combo``,
    ``move[k, 1 + combo, s]`` is the place (``4 table + seat``) whose occupant sits at
    table ``k + 1`` seat ``s + 1`` next round.

    Built from :func:`next_seating` calls on winner patterns that show every table every
    digit pattern of its sources (bit patterns, then one call per pattern still
    missing), then checked against more random patterns; a movement rule that is not
    local this way is refused (:class:`KernelUnsupported`). With ghosts, who comes to a
    table is the same, and where they sit is weighed in the kernel (:func:`bunco.analysis.kernel.moves._arrange`).
    """
    n = len(sizes)
    teams = [is_team_table(size, n, rules) for size in sizes]
    outcomes = [2 if team else size for team, size in zip(teams, sizes, strict=True)]
    labels = tuple(tuple(f"{k}:{s}" for s in range(size)) for k, size in enumerate(sizes))
    index = {label: 4 * k + s for k, table in enumerate(labels) for s, label in enumerate(table)}

    def after(pattern: Sequence[int]) -> list[list[int]]:
        won = [
            (frozenset({1, 3}) if o else frozenset({0, 2})) if team else frozenset({o})
            for o, team in zip(pattern, teams, strict=True)
        ]
        seated = next_seating(labels, won, rules)
        return [[index[str(label)] for label in table] for table in seated]

    patterns = [[0] * n, [o - 1 for o in outcomes]]
    for t in range(max(1, (n - 1).bit_length())):
        patterns.append([(j >> t) & 1 for j in range(n)])
        patterns.append([1 - ((j >> t) & 1) for j in range(n)])
    draw = random.Random(n)
    patterns += [[draw.randrange(o) for o in outcomes] for _ in range(4)]
    results = [after(pattern) for pattern in patterns]
    sources = [sorted({q >> 2 for seated in results for q in seated[k]}) for k in range(n)]
    radixes = [
        list(itertools.accumulate([outcomes[j] for j in src], operator.mul, initial=1))
        for src in sources
    ]
    for k, src in enumerate(sources):
        if len(src) > lay.MV_SOURCES or radixes[k][-1] > MAX_COMBOS:
            raise KernelUnsupported(
                f"table {k + 1} gets players from {len(src)} tables "
                f"({radixes[k][-1]} winner patterns)",
                expected=f"a movement rule that fills each table from at most "
                f"{lay.MV_SOURCES} tables",
            )
    move = np.zeros((n, 1 + max(r[-1] for r in radixes), 8), dtype=np.int32)
    seen = np.zeros(move.shape[:2], dtype=np.bool_)
    for k, src in enumerate(sources):
        move[k, 0, 0] = len(src)
        move[k, 0, 1 : 1 + len(src)] = src
        move[k, 0, lay.MV_SOURCES + 1 : lay.MV_SOURCES + len(src)] = radixes[k][1:-1]
        seen[k, 1 + radixes[k][-1] :] = True  # no such pattern

    def record(pattern: Sequence[int], seated: list[list[int]]) -> None:
        for k, table in enumerate(seated):
            combo = sum(pattern[j] * r for j, r in zip(sources[k], radixes[k], strict=False))
            if seen[k, 1 + combo] and move[k, 1 + combo, : len(table)].tolist() != table:
                raise KernelUnsupported(
                    f"where table {k + 1}'s players sit depends on other tables' results",
                    expected="a movement rule where it depends on the tables they come from",
                )
            move[k, 1 + combo, : len(table)] = table
            seen[k, 1 + combo] = True

    for pattern, seated in zip(patterns, results, strict=True):
        record(pattern, seated)
    for k, src in enumerate(sources):  # a call for each digit pattern still missing
        for combo in range(radixes[k][-1]):
            if not seen[k, 1 + combo]:
                pattern = [draw.randrange(o) for o in outcomes]
                for j, r, o in zip(src, radixes[k], (outcomes[j] for j in src), strict=False):
                    pattern[j] = combo // r % o
                record(pattern, after(pattern))
    for _ in range(4):  # and a check with other patterns
        pattern = [draw.randrange(o) for o in outcomes]
        record(pattern, after(pattern))
    seen[:, 0] = True
    assert seen.all()
    return move


def seat_places(move: NDArray[np.int32], winners: Sequence[int]) -> list[list[int]]:
    """Read a :func:`movement_table`: for each table and seat next round, the place
    (``4 table + seat``) its occupant has this round, ``winners[k]`` the winning side
    (or seat, at an individual table) at table ``k + 1``; four seats a table (the unused
    ones of a smaller table read 0)."""
    out = []
    for head in move[:, 0]:
        combo = sum(
            winners[head[1 + j]] * (head[lay.MV_SOURCES + j] if j else 1) for j in range(head[0])
        )
        out.append(combo)
    return [[int(q) for q in move[k, 1 + combo, :4]] for k, combo in enumerate(out)]


@dataclass(frozen=True)
class KernelInputs:
    """The arrays the compiled core reads."""

    cfg: NDArray[np.int64]
    tab: NDArray[np.int32]
    layout: NDArray[np.int32]
    move: NDArray[np.int32]
    prizes: NDArray[np.int64]
    players: int
    sets: int


@lru_cache(maxsize=32)
def kernel_inputs(
    rules: RuleSet, players: int, sets: int, detail: bool = False, cards: bool = False
) -> KernelInputs:
    """Check the party (:func:`check_kernel`) and build the core's inputs."""
    check_kernel(rules, players, sets)
    layout = table_rows(rules, players)
    tables = len(layout)
    cfg = np.zeros(lay.C_SIZE, dtype=np.int64)
    cfg[lay.C_TABLES] = tables
    cfg[lay.C_PLAYERS] = players
    cfg[lay.C_SETS] = sets
    cfg[lay.C_FINISH] = rules.after_bell is AfterBell.FINISH_TURN
    cfg[lay.C_EVERY] = rules.round_end is RoundEnd.EVERY_TABLE and tables > 1
    cfg[lay.C_TIE] = tuple(TieBreak).index(rules.tie_break)
    cfg[lay.C_GOAL] = rules.roll_off_target
    first = rules.first_roller_single_table if tables == 1 else rules.first_roller
    cfg[lay.C_FIRST] = tuple(FirstRoller).index(first)
    cfg[lay.C_SET_WINNER] = rules.set_winner is SetWinner.MOST_WINS
    cfg[lay.C_SHARED] = rules.prize_ties is PrizeTies.SHARED
    cfg[lay.C_DETAIL] = detail
    cfg[lay.C_CARDS] = cards
    cfg[lay.C_VERIFY] = rules.verify_for_prizes
    cfg[lay.C_GHOSTS] = any(row[lay.L_SEAT + s] < 0 for row in layout for s in range(row[lay.L_N]))
    cfg[lay.C_NO_REPEAT] = rules.no_repeat_partners
    prizes = np.array([tuple(Prize).index(p) for p in rules.prizes], dtype=np.int64)
    move = movement_table(rules, tuple(int(n) for n in layout[:, lay.L_N]))
    return KernelInputs(cfg, kept_score_tables(rules), layout, move, prizes, players, sets)


# -- dice ---------------------------------------------------------------------------------------
def night_seeds(seed: int, count: int, start: int = 0) -> NDArray[np.uint64]:
    """The dice seeds of nights ``start`` to ``start + count - 1`` of a run seeded with
    ``seed``: each night's dice are independent of how the run is split up.

    >>> night_seeds(1, 3)[1:].tolist() == night_seeds(1, 2, start=1).tolist()
    True
    >>> from bunco.analysis.kernel.dice import night_seeds as compiled
    >>> night_seeds(2**64 - 1, 5, 7).tolist() == compiled(np.uint64(2**64 - 1), 7, 5).tolist()
    True
    """
    with np.errstate(over="ignore"):  # arithmetic modulo 2**64, as the kernel's
        base = _splitmix(np.array([seed % 2**64], dtype=np.uint64))
        index = np.arange(start, start + count, dtype=np.uint64)
        out: NDArray[np.uint64] = _splitmix(base ^ _splitmix(index))
    return out


def _splitmix(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """SplitMix64's output for each value (:func:`bunco.analysis.kernel.dice.night_seeds`
    in NumPy: a run's seeds need no compiled code, so a run loads only what plays)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return out


class DiceStream:
    """The kernel's dice for one night's seed, as faces for the engine (a callable).

    ``DiceStream(seed)`` draws what the kernel draws from ``seed``;
    ``DiceStream(codes=...)`` replays a given stream and raises :class:`IndexError`
    when it runs out. ``used`` counts the rolls handed out.

    >>> dice = DiceStream(codes=[0, 215])
    >>> dice(), dice(), dice.used
    ((1, 1, 1), (6, 6, 6), 2)
    """

    BLOCK = 4096

    def __init__(self, seed: int | None = None, *, codes: Sequence[int] | None = None) -> None:
        self._state = loaded.seed_state(np.uint64((seed or 0) % 2**64))
        self._fixed = codes is not None
        self._codes = np.asarray(codes if codes is not None else [], dtype=np.uint8)
        self._pos = 0
        self.used = 0

    def __call__(self) -> tuple[int, int, int]:
        if self._pos >= len(self._codes):
            if self._fixed:
                raise IndexError("the dice stream ran out")
            self._codes = np.empty(self.BLOCK, dtype=np.uint8)
            loaded.fill_codes(self._state, self._codes)
            self._pos = 0
        code = int(self._codes[self._pos])
        self._pos += 1
        self.used += 1
        return (code // 36 + 1, code // 6 % 6 + 1, code % 6 + 1)


# -- running --------------------------------------------------------------------------------------
def run_kernel(
    inputs: KernelInputs,
    nights: int,
    seeds: NDArray[np.uint64] | None,
    codes: NDArray[np.uint8] | None,
    log_rows: int,
) -> tuple[int, dict[str, NDArray[Any]]]:
    """Play ``nights`` (one per seed of ``seeds``, or in a row from the dice ``codes``) in
    the compiled kernel; how many finished and the kernel's output arrays (``log_rows``
    rows for the roll log of the detail mode)."""
    detail = bool(inputs.cfg[lay.C_DETAIL])
    n_players = inputs.players
    n_rounds = 6 * inputs.sets
    tables = len(inputs.layout)
    size = nights if detail or inputs.cfg[lay.C_CARDS] else 1
    out: dict[str, NDArray[Any]] = {
        "figures": np.zeros((nights, lay.NIGHT_FIELDS), dtype=np.float64),
        "ties": np.zeros((nights, len(inputs.prizes)), dtype=np.uint8),
        "rounds": np.zeros((size, n_rounds if detail else 1, tables, lay.R_SIZE), dtype=np.int32),
        "cards": np.zeros((size, n_players, 8), dtype=np.int32),
        "set_buncos": np.zeros((size, inputs.sets, n_players), dtype=np.int32),
        "sets": np.zeros((size, inputs.sets, 2 + 2 * n_players), dtype=np.int64),
        "prizes": np.zeros((size, len(inputs.prizes), 2 + 2 * n_players), dtype=np.int64),
        "misc": np.zeros((nights, 4), dtype=np.int64),
        "log": np.zeros((log_rows if detail else 1, 7), dtype=np.int32),
    }
    seed_arr = seeds if seeds is not None else np.zeros(nights, dtype=np.uint64)
    code_arr = np.ascontiguousarray(codes if codes is not None else np.zeros(0), dtype=np.uint8)
    work = [
        lay.aligned_zeros(shape, dtype)
        for shape, dtype in lay.state_shapes(
            tables, n_players, len(inputs.prizes), inputs.move.shape[1]
        ).values()
    ]
    played = loaded.run_nights(
        inputs.cfg,
        inputs.tab,
        inputs.layout,
        inputs.move,
        inputs.prizes,
        seed_arr,
        code_arr,
        out["figures"],
        out["ties"],
        out["rounds"],
        out["cards"],
        out["set_buncos"],
        out["sets"],
        out["prizes"],
        out["misc"],
        out["log"],
        *work,
    )
    return int(played), out


def figures_of(
    inputs: KernelInputs, seeds: NDArray[np.uint64]
) -> tuple[NDArray[np.float64], NDArray[np.uint8]]:
    """Play one night per seed of a party whose inputs are built (:func:`kernel_inputs`); per
    night the :data:`FIGURES` and, per prize, 1 when more than one player qualified for it."""
    _, out = run_kernel(inputs, len(seeds), np.asarray(seeds, dtype=np.uint64), None, 1)
    return out["figures"], out["ties"]


def night_cards(
    rules: RuleSet, players: int, sets: int, seeds: NDArray[np.uint64]
) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """Play one night per seed; per night every player's card (the fields of
    ``lay.CARD_FIELDS``: wins, losses, Buncos, ...) and, per table, how many rounds the
    team that rolled first there won."""
    inputs = kernel_inputs(rules, players, sets, cards=True)
    _, out = run_kernel(inputs, len(seeds), np.asarray(seeds, dtype=np.uint64), None, 1)
    return out["cards"], out["rounds"][:, 0, :, lay.R_FIRST_WON]


def player_names(count: int) -> list[str]:
    """``P01``, ``P02``, ... for a party of ``count`` (as :mod:`bunco.analysis.simulate`)."""
    width = max(2, len(str(count)))
    return [f"P{i:0{width}d}" for i in range(1, count + 1)]
