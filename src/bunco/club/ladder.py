"""A fair ladder: the standings rules a club chooses, applied to each player's nights.

The rules (a ``ladder`` event of the club's log; by default the season's wins):

- ``measure``: what a night is worth to a player: ``wins``, ``points``, ``buncos``, or
  ``place_points`` (the points of their place that night: ``place_points[0]`` for 1st,
  ``[1]`` for 2nd, ...; nothing past the list; players level share the better place).
  A night's places rank by wins, then Buncos, then points.
- ``best``: count only each player's best N nights; or ``drop``: leave out their worst N
  (a player always keeps at least one night).
- ``average``: rank by the average per counted night instead of the total.
- ``min_nights``: a player with fewer nights is listed, unranked, below those who qualify.

Ties on the score are broken by the season's wins, then Buncos, then points; players
level on all of them share a rank.

>>> rules = {"measure": "wins", "best": 2, "min_nights": 2}
>>> scores = ladder_scores(rules, {"Ann": [("n1", 3), ("n2", 5), ("n3", 1)], "Bea": [("n1", 9)]})
>>> scores["Ann"].score, scores["Ann"].dropped, scores["Bea"].qualified
(Fraction(8, 1), ('n3',), False)
>>> rule_text(rules)
'wins, best 2 nights counted, at least 2 nights to qualify'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from bunco.core.club_events import LadderRules
from bunco.core.night import Night

MEASURE_TEXT = {
    "wins": "wins",
    "points": "points",
    "buncos": "Buncos",
    "place_points": "points for places",
}


@dataclass(frozen=True, slots=True)
class LadderScore:
    player: str
    score: Fraction
    counted: int  # nights counted
    dropped: tuple[str, ...]  # the labels of the nights left out
    qualified: bool

    def score_text(self, average: bool) -> str:
        if not average:
            return str(int(self.score))
        exact = Decimal(self.score.numerator) / Decimal(self.score.denominator)
        return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def night_places(night: Night, players: Sequence[str]) -> dict[str, int]:
    """Each player's place that night by wins, then Buncos, then points (1, 2, 2, 4, ...)."""

    def key(name: str) -> tuple[int, int, int]:
        card = night.cards[name]
        return (-card.wins, -card.buncos, -card.points)

    ranked = sorted(players, key=key)
    places: dict[str, int] = {}
    for i, name in enumerate(ranked):
        same = i and key(ranked[i - 1]) == key(name)
        places[name] = places[ranked[i - 1]] if same else i + 1
    return places


def night_value(rules: LadderRules, night: Night, player: str, place: int) -> int:
    """What ``night`` is worth to ``player`` under the rules."""
    measure = rules.get("measure", "wins")
    card = night.cards[player]
    if measure == "place_points":
        points = rules.get("place_points", [])
        return int(points[place - 1]) if place <= len(points) else 0
    return int({"wins": card.wins, "points": card.points, "buncos": card.buncos}[measure])


def ladder_scores(
    rules: LadderRules, per_night: Mapping[str, Sequence[tuple[str, int]]]
) -> dict[str, LadderScore]:
    """Each player's score from their nights' values (label, value), under the rules."""
    out: dict[str, LadderScore] = {}
    for player, values in per_night.items():
        ordered = sorted(values, key=lambda lv: -lv[1])  # best first; equal keep night order
        keep = len(ordered)
        if rules.get("best") is not None:
            keep = min(keep, rules["best"])
        elif rules.get("drop"):
            keep = max(min(1, keep), keep - rules["drop"])
        counted, dropped = ordered[:keep], ordered[keep:]
        total = Fraction(sum(v for _, v in counted))
        score = total / len(counted) if rules.get("average") and counted else total
        out[player] = LadderScore(
            player,
            score,
            len(counted),
            tuple(label for label, _ in dropped),
            len(values) >= int(rules.get("min_nights", 0)),
        )
    return out


def rule_text(rules: LadderRules) -> str:
    """The rules in words, as the standings show them."""
    measure = rules.get("measure", "wins")
    parts = [
        ("average " if rules.get("average") else "")
        + MEASURE_TEXT[measure]
        + (" per night" if rules.get("average") else "")
    ]
    if measure == "place_points":
        parts[0] += " (" + ", ".join(str(p) for p in rules.get("place_points", [])) + ")"
    if rules.get("best") is not None:
        parts.append(f"best {rules['best']} nights counted")
    elif rules.get("drop"):
        parts.append(f"worst {rules['drop']} nights dropped")
    if rules.get("min_nights"):
        parts.append(f"at least {rules['min_nights']} nights to qualify")
    return ", ".join(parts)
