"""Odds of a whole set (or night) for each player and each table (``bunco odds --set``).

For every player: the chance of ending with the most wins (alone, or shared), of rolling
at least one Bunco, and the expected Buncos and wins. For every table: the chance that
its six rounds split a given way, counted as the rounds won by the team that rolled
first there (6-0, 5-1, ... 0-6).

Two sources, and the output says which gave each figure (and, for every estimated one,
why it is not exact: ``why_simulated``):

- **exact**, composed from the per-round Markov chains of :mod:`bunco.analysis.table_odds`
  and :mod:`bunco.analysis.set_exact` (rolled by :mod:`bunco.analysis.chain_steps`),
  under every preset and the house rules that keep the rounds composable
  (:func:`bunco.analysis.set_exact.rules_refusal`, :func:`~bunco.analysis.set_exact.ways_refusal`):

  - every table's split at tables of four: a table's rounds are independent, each
    round's chance of a first-team win comes from the round chains; at one table of four
    (any preset whose table cannot tie), the head table's split;
  - every player's expected wins, expected Buncos and chance of at least one Bunco at 8
    to 40 players in tables of four (32 under ``winning-moves``), over any number of sets:
    each player's seat, round after round, is a Markov chain
    (:mod:`bunco.analysis.set_seats`; the Buncos per seat from
    :mod:`bunco.analysis.set_buncos` and :mod:`bunco.analysis.set_no_bunco`);
  - every player's chance of the most wins (alone or shared) where the seats' wins
    stand few enough ways (one set of 8 or 12 players, 16 under ``classic``, two sets
    at 8 under ``classic`` and ``scil``: :mod:`bunco.analysis.set_most_wins`);
  - in a one-table game of four in teams (:mod:`bunco.analysis.set_one_table`), every
    figure over any number of sets, where who rolls first is known each round (the
    Buncos where a wipeout after the bell cannot tie the table);
- **simulated**, from the night kernel (:func:`bunco.analysis.night_kernel.night_cards`),
  as the mean over the nights with its standard error, for everything else: the chance
  of the most wins in longer nights and larger parties; every figure past 40 players,
  with tables of two or three (but the head table's split), at a one-table game of
  individuals; the Buncos with a wipeout at a head-table party
  (:mod:`bunco.analysis.set_wipeout` composes the wins and splits), and at a one-table
  game that a wipeout after the bell can tie.

Every exact figure also carries the kernel's estimate (``simulated``, ``simulated_se``),
so a reader can see them agree.

>>> from bunco.core.presets import get_rules
>>> odds = set_odds(get_rules("classic"), players=4, sets=1, nights=2000, seed=1)
>>> odds["per_player"][0]["expected_wins"]["source"], odds["per_table"][0]["split"]["source"]
('exact', 'exact')
>>> round(sum(odds["per_table"][0]["split"]["probabilities"]), 9)
1.0
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal, TypeAlias

import numpy as np
from numpy.typing import NDArray

from bunco.analysis import exact_kept
from bunco.analysis.background import in_background
from bunco.analysis.kernel.loaded import ensure_ready
from bunco.analysis.night_kernel import (
    check_kernel,
    kernel_inputs,
    night_cards,
    night_seeds,
    player_names,
)
from bunco.analysis.odds import roll_outcomes
from bunco.analysis.odds_shapes import (
    ExactPart,
    Figure,
    PlayerOdds,
    SetOddsReport,
    Split,
    TableSplit,
)
from bunco.analysis.set_buncos import buncos_refusal, expected_buncos
from bunco.analysis.set_exact import first_team_chances, head_bells, rules_refusal
from bunco.analysis.set_most_wins import most_wins_refusal, set_wins
from bunco.analysis.set_no_bunco import no_bunco_patterns, no_bunco_refusal
from bunco.analysis.set_one_table import (
    at_target,
    one_table_buncos,
    one_table_buncos_refusal,
    one_table_wins,
)
from bunco.analysis.set_seats import seat_odds, seats_refusal
from bunco.analysis.table_odds import table_odds
from bunco.core.rules import RuleSet
from bunco.core.seating_layout import is_team_table, table_sizes

FloatArray = NDArray[np.float64]

WINS, BUNCOS = 0, 2  # columns of the kernel's cards

PlayerFigure: TypeAlias = Literal[
    "expected_wins", "most_wins", "most_wins_alone", "at_least_one_bunco", "expected_buncos"
]

#: The figures given for each player, in the order of the output.
PLAYER_FIGURES: tuple[PlayerFigure, ...] = (
    "expected_wins",
    "most_wins",
    "most_wins_alone",
    "at_least_one_bunco",
    "expected_buncos",
)


def _figure_name(key: str) -> PlayerFigure:
    """The player's figure named ``key`` (a key of the exact part's ``composed``)."""
    for name in PLAYER_FIGURES:
        if name == key:
            return name
    raise KeyError(key)


def _estimate(values: NDArray[np.float64]) -> Figure:
    n = len(values)
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"value": float(values.mean()), "se": se, "source": "simulated"}


def _exact(value: float) -> Figure:
    return {"value": value, "se": 0.0, "source": "exact"}


def first_team_wins(rules: RuleSet, tables: int) -> list[float] | None:
    """P(the team that rolls first at the head table wins round r), r = 1..6, exact; None
    where the head table's rounds are not that simple (a Bunco elsewhere may end them,
    or the head table can tie other than by a wipeout after its bell). A tie after a
    wipeout goes to the tie-break (:func:`bunco.analysis.set_exact.head_bells`)."""
    if tables > 1 and rules.bunco_ends_round:
        return None
    plain = at_target(rules, single_table=tables == 1)
    out = []
    for r in range(1, 7):
        odds = table_odds(plain, r, non_head=False)
        if odds.tie_probability > 0:
            if any(o.ends_round for o in roll_outcomes(plain, r)):
                return None
            out.append(float(head_bells(plain, r)[0].sum()))
        else:
            out.append(odds.first_team_win_probability)
    return out


def split_distribution(p: list[float]) -> list[float]:
    """P(the first team wins k of the rounds), k = 0..len(p): independent rounds.

    >>> split_distribution([0.5, 0.5])
    [0.25, 0.5, 0.25]
    """
    dist = [1.0]
    for q in p:
        dist = [a * (1 - q) + b * q for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    return dist


def _one_table(
    rules: RuleSet, sets: int, p: list[float] | None
) -> tuple[dict[str, FloatArray], dict[str, str]]:
    """A one-table game's figures composed exactly (by key, one value per player), and
    for each figure that is not, why."""
    if not is_team_table(4, 1, rules):
        return {}, dict.fromkeys(
            PLAYER_FIGURES, "the one table plays as individuals: composed only for teams"
        )
    composed: dict[str, FloatArray] = {}
    why: dict[str, str] = {}
    wins = None if p is None else one_table_wins(rules, p, sets)
    if wins is None:
        why.update(
            dict.fromkeys(
                ("expected_wins", "most_wins", "most_wins_alone"),
                "a Bunco ends the one table's round by itself, or who rolls "
                "first depends on the last winner: its wins are not composed",
            )
        )
    else:
        composed.update(wins)
    reason = one_table_buncos_refusal(rules)
    if reason is None:
        composed["expected_buncos"], composed["at_least_one_bunco"] = one_table_buncos(rules, sets)
    else:
        why["expected_buncos"] = why["at_least_one_bunco"] = reason
    return {key: composed[key] for key in PLAYER_FIGURES if key in composed}, why


def _composed(
    rules: RuleSet, players: int, sets: int
) -> tuple[dict[str, FloatArray], dict[str, str]]:
    """The players' figures composed exactly at tables of four (by key, one value per
    player), and for each figure that is not, why."""
    why: dict[str, str] = {}
    reason = seats_refusal(rules, players)
    if reason is not None:
        return {}, dict.fromkeys(PLAYER_FIGURES, reason)
    tables = players // 4
    clean = no_bunco_refusal(rules, players, sets)
    composed = seat_odds(
        rules,
        players,
        sets,
        None if clean is not None else (lambda r: no_bunco_patterns(rules, r, tables)),
    )
    if clean is not None:
        why["at_least_one_bunco"] = clean
    reason = buncos_refusal(rules, players, sets)
    if reason is None:
        composed["expected_buncos"] = expected_buncos(rules, composed["seat_chances"])
    else:
        why["expected_buncos"] = reason
    reason = most_wins_refusal(rules, players, sets)
    if reason is None:
        most = set_wins(rules, players, sets)
        composed["most_wins"], composed["most_wins_alone"] = (
            most["most_wins"],
            most["most_wins_alone"],
        )
    else:
        why["most_wins"] = why["most_wins_alone"] = reason
    return {key: composed[key] for key in PLAYER_FIGURES if key in composed}, why


def _split_refusal(rules: RuleSet, players: int, tables: int) -> str | None:
    """Why the tables' splits of this party are not exact (None: they are)."""
    if tables == 1:
        if not is_team_table(4, 1, rules):
            return "the one table plays as individuals: there is no first team"
        return (
            "a roll that ends the round by itself can tie the one table: its split is not composed"
        )
    if players % 4:
        return "the splits are composed at tables of four (this party has tables of two or three)"
    return rules_refusal(rules)


def _wins_and_buncos(
    rules: RuleSet, players: int, sets: int, seeds: NDArray[np.uint64]
) -> tuple[FloatArray, FloatArray, NDArray[np.int32]]:
    """The kernel's nights: every player's wins and Buncos per night, and per table the
    rounds its first team won."""
    cards, first_won = night_cards(rules, players, sets, seeds)
    return (cards[:, :, WINS].astype(np.float64), cards[:, :, BUNCOS].astype(np.float64), first_won)


def _kernel_nights(
    ready: Callable[[], object], rules: RuleSet, players: int, sets: int, seeds: NDArray[np.uint64]
) -> tuple[FloatArray, FloatArray, NDArray[np.int32]]:
    """:func:`_wins_and_buncos` once ``ready()`` has readied the kernel (loaded, or
    compiled, saying so)."""
    ready()
    return _wins_and_buncos(rules, players, sets, seeds)


def exact_part(rules: RuleSet, players: int, sets: int) -> ExactPart:
    """What is exact of a party's set odds, as JSON: ``composed`` (each player's figures
    composed exactly, by key, a value per player), ``why`` (for each player's figure that
    is not, why), ``per_table`` (each table's chance of a first-team win in each round,
    or None) and ``split_why`` (why the splits are not exact, or None). Kept on disk
    between runs by :mod:`bunco.analysis.exact_kept`."""
    sizes = table_sizes(players, rules)
    tables = len(sizes)
    head_team = is_team_table(sizes[0], tables, rules)
    p = first_team_wins(rules, tables) if head_team else None
    composed, why = _one_table(rules, sets, p) if players == 4 else _composed(rules, players, sets)
    per_table: list[list[float] | None] = [p] + [None] * (tables - 1)
    if tables > 1 and players % 4 == 0 and rules_refusal(rules) is None:  # tables of four
        odds = [first_team_chances(rules, r, tables) for r in range(1, 7)]
        per_table = [[float(o[k]) for o in odds] for k in range(tables)]
    return {
        "composed": {key: [float(v) for v in values] for key, values in composed.items()},
        "why": why,
        "per_table": per_table,
        "split_why": _split_refusal(rules, players, tables),
    }


def set_odds(
    rules: RuleSet,
    *,
    players: int,
    sets: int = 1,
    nights: int = 20_000,
    seed: int = 1,
    ready: Callable[[], object] = ensure_ready,
) -> SetOddsReport:
    """Per player and per table odds of one night of ``sets`` sets (one set: the odds of
    a set). Raises :class:`bunco.analysis.night_kernel.KernelUnsupported` for parties the
    kernel does not play.

    The kernel's nights go to a forked process at once (:mod:`bunco.analysis.background`),
    which readies the kernel with ``ready`` (the command line's says so while it
    compiles) — so that loading it, and importing Numba where the kernel is not built
    ahead of time, overlap the exact part composed here."""
    check_kernel(rules, players, sets)
    sizes = table_sizes(players, rules)  # the kernel seats tables of two and three too
    tables = len(sizes)
    kernel_inputs(rules, players, sets, cards=True)  # here, for the process that inherits it
    seeds = night_seeds(seed, nights)
    played = in_background(_kernel_nights, ready, rules, players, sets, seeds)
    part = exact_kept.kept(rules, players, sets, lambda: exact_part(rules, players, sets))
    composed = {key: np.array(values, dtype=np.float64) for key, values in part["composed"].items()}
    why: dict[str, str] = part["why"]
    per_table: list[list[float] | None] = part["per_table"]
    split_why: str | None = part["split_why"]
    wins, buncos, first_won = played()
    best = wins.max(axis=1, keepdims=True)
    is_best = wins == best
    alone = is_best & (is_best.sum(axis=1, keepdims=True) == 1)
    names = player_names(players)
    people: list[PlayerOdds] = []
    for i, name in enumerate(names):
        people.append(
            {
                "player": name,
                "expected_wins": _estimate(wins[:, i]),
                "most_wins": _estimate(is_best[:, i].astype(np.float64)),
                "most_wins_alone": _estimate(alone[:, i].astype(np.float64)),
                "at_least_one_bunco": _estimate((buncos[:, i] > 0).astype(np.float64)),
                "expected_buncos": _estimate(buncos[:, i]),
            }
        )
    exact = (
        [
            {key: _exact(float(values[i])) for key, values in composed.items()}
            for i in range(players)
        ]
        if composed
        else None
    )
    for person, figures in zip(people, exact or [], strict=False):
        for key, value in figures.items():
            figure = _figure_name(key)
            played_figure = person[figure]
            person[figure] = {
                **value,
                "simulated": played_figure["value"],
                "simulated_se": played_figure["se"],
            }
    rounds = 6 * sets
    table_docs: list[TableSplit] = []
    for k in range(tables):
        counts = np.stack([(first_won[:, k] == j).astype(np.float64) for j in range(rounds + 1)])
        simulated = [_estimate(row) for row in counts]
        split: Split = {
            "probabilities": [s["value"] for s in simulated],
            "se": [s["se"] for s in simulated],
            "source": "simulated",
        }
        chances = per_table[k]
        if chances is not None:
            split = {
                "probabilities": split_distribution(chances * sets),
                "se": [0.0] * (rounds + 1),
                "source": "exact",
                "simulated": [s["value"] for s in simulated],
                "simulated_se": [s["se"] for s in simulated],
            }
        table_docs.append({"table": k + 1, "split": split})
    sources: dict[str, list[str]] = {"exact": [], "simulated": []}
    for key in PLAYER_FIGURES:
        found = {person[_figure_name(key)]["source"] for person in people}
        for source in sorted(found):
            sources[source].append(key)
    for k, table in enumerate(table_docs):
        sources[table["split"]["source"]].append(f"split at table {k + 1}")
    return {
        "rules": rules.name,
        "players": players,
        "sets": sets,
        "nights": nights,
        "seed": seed,
        "note": "exact where 'source' is 'exact'; else 'simulated': the mean over the "
        "nights played by the night kernel, with its standard error",
        "exact": sources["exact"],
        "simulated": sources["simulated"],
        "why_simulated": {
            **{key: why[key] for key in sources["simulated"] if key in why},
            **(
                {"split": split_why}
                if split_why and any(t["split"]["source"] == "simulated" for t in table_docs)
                else {}
            ),
        },
        "split_counts": "rounds won by the team that rolled first at the table",
        "per_player": people,
        "per_table": table_docs,
    }
