"""Dice: validating three faces, scoring a roll, and the scorekeeper's quick tally.

>>> from bunco.core.presets import get_rules
>>> score_roll((4, 4, 1), 4, get_rules("classic"))
RollScore(points=2, kind=<RollKind.POINTS: 'points'>, turn_continues=True, ends_round=False)
>>> score_roll((3, 3, 3), 3, get_rules("winning-moves")).ends_round
True
>>> tally_dice("+2", 5, get_rules("classic"))
(5, 5, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from typing_extensions import TypedDict

from bunco.core.errors import InvalidDice, InvalidTally
from bunco.core.rules import RollKind, RuleSet

Dice = tuple[int, int, int]


def validate_dice(faces: Any) -> Dice:
    """Exactly three whole numbers, each from 1 to 6, else :class:`InvalidDice`.

    >>> validate_dice([6, 1, "2"])
    (6, 1, 2)
    """
    expected = "exactly three dice, each a whole number from 1 to 6 (for example 4 4 1)"
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
        raise InvalidDice(f"dice must be a list of three faces, got {faces!r}", expected=expected)
    if len(faces) != 3:
        raise InvalidDice(f"got {len(faces)} dice", expected=expected)
    out: list[int] = []
    for face in faces:
        if isinstance(face, bool):
            raise InvalidDice(f"die face {face!r} is not a number", expected=expected)
        try:
            value = int(face)
        except (TypeError, ValueError):
            raise InvalidDice(f"die face {face!r} is not a number", expected=expected) from None
        if isinstance(face, float) and face != value:
            raise InvalidDice(f"die face {face!r} is not a whole number", expected=expected)
        if not 1 <= value <= 6:
            raise InvalidDice(f"a die cannot show {value}", expected=expected)
        out.append(value)
    return (out[0], out[1], out[2])


def validate_round(round_no: Any) -> int:
    """A round number from 1 to 6."""
    if isinstance(round_no, bool) or not isinstance(round_no, int) or not 1 <= round_no <= 6:
        raise InvalidDice(
            f"round {round_no!r} does not exist", expected="a round number from 1 to 6"
        )
    return round_no


class RollScoreView(TypedDict):
    """What one roll scores, as JSON (:meth:`RollScore.as_dict`)."""

    points: int
    kind: str
    turn_continues: bool
    ends_round: bool


@dataclass(frozen=True, slots=True)
class RollScore:
    """What one roll scores under a rule set in a round.

    ``ends_round`` is true when the roll by itself ends the round (a ``winning-moves``
    Bunco); reaching a target is the table's business, not the roll's.
    """

    points: int
    kind: RollKind
    turn_continues: bool
    ends_round: bool

    def as_dict(self) -> RollScoreView:
        return {
            "points": self.points,
            "kind": self.kind.value,
            "turn_continues": self.turn_continues,
            "ends_round": self.ends_round,
        }


def score_roll(dice: Sequence[int], round_no: int, rules: RuleSet) -> RollScore:
    """Score three faces in round ``round_no`` (1–6) under ``rules``."""
    return score_checked(validate_dice(dice), validate_round(round_no), rules)


def score_checked(dice: Dice, target: int, rules: RuleSet) -> RollScore:
    """:func:`score_roll` for faces and a round already validated (the engine's hot path)."""
    a, b, c = dice
    if a == b == c:
        if a == target:
            return RollScore(
                rules.bunco_points, RollKind.BUNCO, rules.bunco_continues, rules.bunco_ends_round
            )
        if rules.wipeout and a == 1 and target != 1:
            return RollScore(0, RollKind.WIPEOUT, False, False)
        if a < target:
            return RollScore(
                rules.low_trips_points, rules.low_trips_kind, rules.low_trips_continues, False
            )
        return RollScore(
            rules.high_trips_points, rules.high_trips_kind, rules.high_trips_continues, False
        )
    hits = (a == target) + (b == target) + (c == target)
    if hits:
        return RollScore(hits * rules.target_die_points, RollKind.POINTS, True, False)
    return RollScore(0, RollKind.MISS, False, False)


def score_rolloff(dice: Sequence[int], round_no: int, rules: RuleSet) -> RollScore:
    """Score a roll in a tie-break or roll-off: only the round's number and Buncos count.

    000: "points are scored for rolling the number of the round just completed, as well as
    for Buncos"; 001: a roller goes on "as long as they are successfully rolling the number
    of that round". Another three of a kind scores nothing there and ends the turn.

    >>> from bunco.core.presets import get_rules
    >>> score_rolloff((2, 2, 2), 4, get_rules("wm")).points, score_rolloff((4, 4, 4), 4, get_rules("wm")).points
    (0, 21)
    """
    a, b, c = validate_dice(dice)
    target = validate_round(round_no)
    if a == b == c == target:
        return RollScore(rules.bunco_points, RollKind.BUNCO, True, False)
    hits = (a == target) + (b == target) + (c == target)
    if hits:
        return RollScore(hits * rules.target_die_points, RollKind.POINTS, True, False)
    return RollScore(0, RollKind.MISS, False, False)


class Tally(enum.StrEnum):
    """What a scorekeeper taps for a roll of physical dice."""

    MISS = "miss"
    ONE = "+1"
    TWO = "+2"
    BUNCO = "bunco"
    MINI = "mini"
    LOW = "low"
    HIGH = "high"
    WIPEOUT = "wipeout"


TALLY_ALIASES: dict[str, Tally] = {
    "m": Tally.MISS, "0": Tally.MISS, "miss": Tally.MISS, "none": Tally.MISS,
    "1": Tally.ONE, "+1": Tally.ONE, "one": Tally.ONE,
    "2": Tally.TWO, "+2": Tally.TWO, "two": Tally.TWO,
    "b": Tally.BUNCO, "bunco": Tally.BUNCO,
    "x": Tally.MINI, "mini": Tally.MINI, "mini_bunco": Tally.MINI,
    "baby": Tally.MINI, "baby_bunco": Tally.MINI,
    "l": Tally.LOW, "low": Tally.LOW, "low_bunco": Tally.LOW,
    "h": Tally.HIGH, "high": Tally.HIGH, "high_bunco": Tally.HIGH,
    "w": Tally.WIPEOUT, "wipeout": Tally.WIPEOUT,
}  # fmt: skip


def parse_tally(text: str) -> Tally:
    """A tally from what a scorekeeper typed or tapped; raises :class:`InvalidTally`."""
    key = str(text).strip().lower()
    if key in TALLY_ALIASES:
        return TALLY_ALIASES[key]
    raise InvalidTally(
        f"unknown tally {text!r}",
        expected="miss (m), +1 (1), +2 (2), bunco (b), mini (x), low (l), high (h) or wipeout (w)",
    )


def total_dice(total: int) -> Dice:
    """Faces that stand for a roll for high of ``total`` (3 to 18), where only the total
    counts: the highest first die, then the highest second, and no three of a kind but
    where the total allows nothing else (3 and 18).

    >>> total_dice(14), total_dice(4), total_dice(3), total_dice(18)
    ((6, 6, 2), (2, 1, 1), (1, 1, 1), (6, 6, 6))
    """
    if not 3 <= total <= 18:
        raise InvalidDice(f"no three dice total {total}", expected="a total from 3 to 18")
    for a in range(6, 0, -1):
        for b in range(a, 0, -1):
            c = total - a - b
            if 1 <= c <= b and not a == b == c:
                return (a, b, c)
    face = total // 3
    return (face, face, face)


def tally_dice(outcome: Tally | str, round_no: int, rules: RuleSet) -> Dice:
    """Faces that stand for a tally outcome, so that it goes through :func:`score_roll`.

    A three of a kind is ``mini`` when the rule set names both kinds alike, else it must
    be tapped as ``low`` or ``high``; impossible outcomes (a low Bunco in round 1) are
    refused with :class:`InvalidTally`.
    """
    tally = outcome if isinstance(outcome, Tally) else parse_tally(outcome)
    r = validate_round(round_no)
    others = [f for f in range(1, 7) if f != r and not (rules.wipeout and r != 1 and f == 1)]
    if tally is Tally.MISS:
        return (others[0], others[0], others[1])
    if tally is Tally.ONE:
        return (r, others[0], others[1])
    if tally is Tally.TWO:
        return (r, r, others[0])
    if tally is Tally.BUNCO:
        return (r, r, r)
    if tally is Tally.WIPEOUT:
        if not rules.wipeout or r == 1:
            raise InvalidTally(
                "a wipeout needs the wipeout house rule and a round after round 1",
                expected="miss, +1, +2, bunco or a three of a kind",
            )
        return (1, 1, 1)
    low = [f for f in others if f < r]
    high = [f for f in others if f > r]
    if tally is Tally.MINI:
        if (
            rules.low_trips_kind != rules.high_trips_kind
            or rules.low_trips_points != rules.high_trips_points
        ):
            raise InvalidTally(
                f"under these rules a three of a kind is a {rules.low_trips_kind.value} "
                f"({rules.low_trips_points}) or a {rules.high_trips_kind.value} ({rules.high_trips_points})",
                expected="low or high",
            )
        face = (high or low)[0]
        return (face, face, face)
    pool = low if tally is Tally.LOW else high
    if not pool:
        side = "below" if tally is Tally.LOW else "above"
        raise InvalidTally(
            f"no three of a kind is {side} {r} in round {r}", expected="another outcome"
        )
    return (pool[0], pool[0], pool[0])
