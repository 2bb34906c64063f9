"""The typed shapes of ``bunco odds --json``: a round's odds (per roll, per turn, per
table) and a party's set odds (per player, per table).

Floats are probabilities or expectations; an ``_exact`` text is the same value as a
fraction ("9/5"). Distributions map a number of points or rolls, as text, to its
probability. Like :mod:`bunco.core.events`, there is no ``from __future__ import
annotations`` here: TypedDict reads ``NotRequired[...]`` at class creation.
"""

from typing import NotRequired, TypedDict

from bunco.core.rules import HouseRuleValue


class OutcomeView(TypedDict):
    """One class of rolls: what it scores, whether the turn goes on, how likely it is."""

    kind: str
    points: int
    continues: bool
    turn_continues: bool
    ends_round: bool
    ways: int  # of the 216 rolls of three dice
    probability: float
    probability_exact: str


class RollOddsView(TypedDict):
    """Exact odds of one roll in a round."""

    expected_points: float
    expected_points_exact: str
    continue_probability: float
    bunco_probability: float
    other_trips_probability: float
    any_target_die_probability: float
    outcomes: list[OutcomeView]
    by_kind: dict[str, float]  # kind of roll → probability
    points_distribution: dict[str, float]  # points → probability


class TurnOddsView(TypedDict):
    """Exact odds of one free turn in a round."""

    expected_points: float
    expected_points_exact: str
    expected_rolls: float
    expected_rolls_exact: str
    bunco_probability: float
    bunco_probability_exact: str
    wipeout_probability: float
    continue_probability: float
    rolls_distribution: dict[str, float]  # rolls → probability
    rolls_tail: float
    points_distribution: dict[str, float]  # points → probability
    points_tail: float


class NonHeadView(TypedDict):
    """A non-head table's round, which ends when the head table's bell rings."""

    tie_probability: float
    expected_first_team_score: float
    expected_second_team_score: float
    first_team_scores: dict[str, float]  # points → probability
    second_team_scores: dict[str, float]
    overflow: float


class TableOddsView(TypedDict):
    """A head table's round: who wins, how many rolls, whether a Bunco ends it."""

    target: int
    first_team_win_probability: float
    tie_probability: float
    expected_rolls: float
    expected_bell_roll: float
    expected_after_bell_rolls: float
    bunco_end_probability: float
    rolls_distribution: dict[str, float]  # rolls → probability
    tail_mass: float
    non_head: NonHeadView | None
    non_head_note: str | None


class RoundReport(TypedDict):
    """The odds of one round."""

    round: int
    per_roll: RollOddsView
    per_turn: TurnOddsView
    table: TableOddsView


class OddsReport(TypedDict):
    """``bunco odds --json``: the odds of several rounds under one rule set."""

    rules: str
    house_rules: dict[str, HouseRuleValue]
    tail_mass: float
    rounds: list[RoundReport]


class Figure(TypedDict):
    """A player's figure: exact, or the mean over simulated nights with its standard error
    (an exact figure carries the simulation's beside it, as a check)."""

    value: float
    se: float
    source: str  # "exact" or "simulated"
    simulated: NotRequired[float]
    simulated_se: NotRequired[float]


class PlayerOdds(TypedDict):
    """One player's odds of a night."""

    player: str
    expected_wins: Figure
    most_wins: Figure
    most_wins_alone: Figure
    at_least_one_bunco: Figure
    expected_buncos: Figure


class Split(TypedDict):
    """How many rounds the team that rolls first at a table wins: the probability of each
    count from 0, exact or simulated."""

    probabilities: list[float]
    se: list[float]
    source: str
    simulated: NotRequired[list[float]]
    simulated_se: NotRequired[list[float]]


class TableSplit(TypedDict):
    table: int
    split: Split


class ExactPart(TypedDict):
    """What is exact of a party's set odds (kept on disk, :mod:`bunco.analysis.exact_kept`)."""

    composed: dict[str, list[float]]  # figure → a value per player
    why: dict[str, str]  # figure → why it is not exact
    per_table: list[list[float] | None]  # each table's P(first team wins) per round
    split_why: str | None


class SetOddsReport(TypedDict):
    """``bunco odds --set --json``: per player and per table odds of a night (the command
    adds the house rules it played)."""

    rules: str
    players: int
    sets: int
    nights: int
    seed: int
    note: str
    exact: list[str]
    simulated: list[str]
    why_simulated: dict[str, str]
    split_counts: str
    per_player: list[PlayerOdds]
    per_table: list[TableSplit]
    house_rules: NotRequired[dict[str, HouseRuleValue]]
