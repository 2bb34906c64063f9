"""The odds of a round as one JSON-ready document (``bunco odds --json``).

The keys promised in DESIGN.md are ``per_roll.expected_points``,
``per_turn.expected_points``, ``per_turn.expected_rolls``,
``table.first_team_win_probability`` and ``table.expected_rolls``.

>>> from bunco.core.presets import get_rules
>>> doc = round_report(get_rules("classic"), 2)
>>> doc["per_turn"]["expected_rolls"], doc["per_turn"]["expected_rolls_exact"]
(1.8, '9/5')
>>> round(doc["table"]["first_team_win_probability"], 4)
0.5177
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bunco.analysis.odds import TAIL_MASS, roll_odds, turn_odds
from bunco.analysis.odds_shapes import OddsReport, RoundReport
from bunco.analysis.table_odds import table_odds
from bunco.core.rules import HouseRuleValue, RuleSet


def round_report(rules: RuleSet, round_no: int) -> RoundReport:
    """Per roll, per turn and per round (head and non-head table) odds of one round."""
    return {
        "round": round_no,
        "per_roll": roll_odds(rules, round_no).as_dict(),
        "per_turn": turn_odds(rules, round_no).as_dict(),
        "table": table_odds(rules, round_no).as_dict(),
    }


def odds_report(
    rules: RuleSet,
    rounds: Iterable[int],
    house_rules: Mapping[str, HouseRuleValue] | None = None,
) -> OddsReport:
    """The report for several rounds, with the rule set and the truncation used."""
    return {
        "rules": rules.name,
        "house_rules": dict(house_rules or {}),
        "tail_mass": TAIL_MASS,
        "rounds": [round_report(rules, r) for r in rounds],
    }
