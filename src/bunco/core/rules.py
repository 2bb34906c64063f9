"""The rule set: every rule of RULES.md §1–§7 as one frozen value.

A preset (see :mod:`bunco.core.presets`) is a named ``RuleSet``; a house rule is one
changed field. The engine asks the rule set questions and never tests a preset name.

>>> from bunco.core.presets import get_rules
>>> rules = get_rules("classic")
>>> rules.team_target, rules.after_bell
(21, <AfterBell.FINISH_TURN: 'finish_turn'>)
>>> rules.with_house_rules({"wipeout": True}).wipeout
True
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from bunco.core.errors import InvalidRuleValue, UnknownRule, did_you_mean, shown
from bunco.core.names import clean_text

HouseRuleValue: TypeAlias = bool | int | float | str | Sequence[str | int] | None
"""A house rule's value as given: typed (``true``, ``21``, ``[2, 4]``) or as text from a
command line (``"true"``, ``"2,4"``); :meth:`RuleSet.with_house_rules` reads it."""

RuleValue: TypeAlias = bool | int | str | list[str] | list[int]
"""A rule's value as plain JSON data (:meth:`RuleSet.as_dict`)."""


class RollKind(enum.StrEnum):
    """What a roll was, as the score sheets name it."""

    MISS = "miss"
    POINTS = "points"
    BUNCO = "bunco"
    MINI_BUNCO = "mini_bunco"
    LOW_BUNCO = "low_bunco"
    HIGH_BUNCO = "high_bunco"
    WIPEOUT = "wipeout"


class Direction(enum.StrEnum):
    """Which way the dice pass. ``left`` is clockwise (seat 1 → 2 → 3 → 4)."""

    LEFT = "left"
    RIGHT = "right"


class FirstRoller(enum.StrEnum):
    """Who rolls first at a table in a round."""

    SCOREKEEPER = "scorekeeper"
    ROLL_FOR_HIGH = "roll_for_high"
    LEFT_OF_LAST_WINNER = "left_of_last_winner"


class RoundEnd(enum.StrEnum):
    """What ends a round when several tables play."""

    HEAD_TABLE = "head_table"
    EVERY_TABLE = "every_table"


class AfterBell(enum.StrEnum):
    """Whether a player in the middle of a turn rolls on after the round ends."""

    FINISH_TURN = "finish_turn"
    STOP = "stop"


class TieBreak(enum.StrEnum):
    """How a tie at a table is settled."""

    SESSIONS = "sessions"
    ROLL_OFF_TO_FIVE = "roll_off_to_five"
    SUDDEN_DEATH = "sudden_death"


class SetWinner(enum.StrEnum):
    """Whether a set has a single winner, and how."""

    MOST_WINS = "most_wins"
    NONE = "none"


class Movement(enum.StrEnum):
    """Who moves where between rounds (RULES.md §6)."""

    UP_DOWN = "up_down"
    HEAD_LOSERS_TO_LAST = "head_losers_to_last"
    LOSERS_ROTATE = "losers_rotate"


class Fill(enum.StrEnum):
    """How a player count that is not a multiple of four is seated."""

    INDIVIDUALS = "individuals"
    GHOSTS = "ghosts"


class PrizeTies(enum.StrEnum):
    """How a tie for a prize is settled."""

    ROLL_OFF = "roll_off"
    SHARED = "shared"


class Prize(enum.StrEnum):
    """The prize categories of RULES.md §4 and §7."""

    MOST_BUNCOS = "most_buncos"
    MOST_WINS = "most_wins"
    MOST_LOSSES = "most_losses"
    HALF_AND_HALF = "half_and_half"
    LAST_BUNCO = "last_bunco"
    MOST_MINI_BUNCOS = "most_mini_buncos"
    TRAVELING = "traveling"


TRAVELING_NAMED = ("off", "bunco", "mini_bunco", "any_trips")


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule of a Bunco game. Build one with :func:`bunco.core.presets.get_rules`."""

    name: str = field(default="custom", metadata=_doc("Preset this rule set started from."))
    # §1 a roll
    target_die_points: int = field(
        default=1, metadata=_doc("Points per die showing the round's number.")
    )
    bunco_points: int = field(default=21, metadata=_doc("Points for three of the round's number."))
    bunco_continues: bool = field(
        default=True, metadata=_doc("A Bunco lets the roller roll again.")
    )
    bunco_ends_round: bool = field(
        default=False, metadata=_doc("A Bunco ends the round at once, at every table.")
    )
    low_trips_points: int = field(
        default=5, metadata=_doc("Points for three of a kind below the round's number.")
    )
    low_trips_kind: RollKind = field(
        default=RollKind.MINI_BUNCO,
        metadata=_doc("Name of three of a kind below the round's number."),
    )
    low_trips_continues: bool = field(
        default=True, metadata=_doc("Three of a kind below the number lets the roller roll again.")
    )
    high_trips_points: int = field(
        default=5, metadata=_doc("Points for three of a kind above the round's number.")
    )
    high_trips_kind: RollKind = field(
        default=RollKind.MINI_BUNCO,
        metadata=_doc("Name of three of a kind above the round's number."),
    )
    high_trips_continues: bool = field(
        default=True, metadata=_doc("Three of a kind above the number lets the roller roll again.")
    )
    mini_label: str = field(
        default="Mini Bunco",
        metadata=_doc("What the sheets call a three of a kind that is not a Bunco."),
    )
    wipeout: bool = field(
        default=False,
        metadata=_doc(
            "Three 1's outside round 1 wipe the roller's team's points for the round and end the turn."
        ),
    )
    # §2 a turn and a table
    direction: Direction = field(
        default=Direction.LEFT, metadata=_doc("Dice pass to the left (clockwise) or right.")
    )
    first_roller: FirstRoller = field(
        default=FirstRoller.SCOREKEEPER, metadata=_doc("Who rolls first at each table of a party.")
    )
    first_roller_single_table: FirstRoller = field(
        default=FirstRoller.SCOREKEEPER,
        metadata=_doc("Who rolls first when the whole game is one table."),
    )
    single_table_teams: bool = field(
        default=True,
        metadata=_doc("Four players at a one-table game play as two teams of partners."),
    )
    team_target: int = field(default=21, metadata=_doc("Points a team needs at a table of four."))
    individual_target: int = field(
        default=21,
        metadata=_doc("Points a player needs at a party table of two or three individuals."),
    )
    single_table_target: int = field(
        default=21, metadata=_doc("Points needed when the whole game is one table.")
    )
    quick_game: bool = field(default=False, metadata=_doc("Quick game: every target becomes 11."))
    # §3 when a round ends
    round_end: RoundEnd = field(
        default=RoundEnd.HEAD_TABLE,
        metadata=_doc(
            "The head table's target ends the round for all, or every table plays to its own target."
        ),
    )
    after_bell: AfterBell = field(
        default=AfterBell.FINISH_TURN,
        metadata=_doc("Players in the middle of a turn roll on after the bell."),
    )
    tie_break: TieBreak = field(
        default=TieBreak.SESSIONS, metadata=_doc("How a tie at a table is settled.")
    )
    roll_off_target: int = field(default=5, metadata=_doc("Points that win a roll-off to a score."))
    round_minutes: int = field(
        default=0,
        metadata=_doc(
            "Timed rounds: minutes on the round's clock, whose bell at zero ends the round"
            " for all; 0 (off) for none."
        ),
    )
    # §4 sheets and results
    set_winner: SetWinner = field(
        default=SetWinner.NONE,
        metadata=_doc("Most W's (then B's, then a roll-off) wins the set, or no single winner."),
    )
    prizes: tuple[Prize, ...] = field(
        default=(), metadata=_doc("Prize categories awarded at the end of the night.")
    )
    prize_ties: PrizeTies = field(
        default=PrizeTies.ROLL_OFF, metadata=_doc("A tie for a prize is rolled off or shared.")
    )
    prize_groups: bool = field(
        default=False,
        metadata=_doc("Players register in groups with per-group and overall prizes."),
    )
    verify_for_prizes: bool = field(
        default=False,
        metadata=_doc("Buncos, Minis and Wins count for prizes only once a checker verifies them."),
    )
    must_be_present: bool = field(
        default=False,
        metadata=_doc(
            "Prizes go only to players present at the end: one whose winner has gone home "
            "passes to the next in line."
        ),
    )
    # §5 sets and the night
    breaks_after_rounds: tuple[int, ...] = field(
        default=(), metadata=_doc("Rounds after which the night breaks.")
    )
    # §6 moving
    movement: Movement = field(
        default=Movement.UP_DOWN, metadata=_doc("Who moves where between rounds.")
    )
    fill: Fill = field(
        default=Fill.INDIVIDUALS,
        metadata=_doc(
            "Seat counts that are not a multiple of four with individual tables or ghosts."
        ),
    )
    no_repeat_partners: bool = field(
        default=False,
        metadata=_doc("Nobody partners the same person two rounds running, movers included."),
    )
    # §7 optional rules
    traveling: str = field(
        default="off",
        metadata=_doc(
            "Traveling trigger: off, bunco, mini_bunco, any_trips, or three faces such as 123."
        ),
    )
    traveling_excluded_round: int = field(
        default=0,
        metadata=_doc("A round (1-6) in which the traveling trigger does not count; 0 for none."),
    )

    def __post_init__(self) -> None:
        _validate(self)

    # -- questions the engine asks -------------------------------------------------
    def target(self, *, team: bool, single_table: bool) -> int:
        """Points a side needs to win a round at a table.

        >>> from bunco.core.presets import get_rules
        >>> get_rules("winning-moves").target(team=False, single_table=False)
        11
        """
        if self.quick_game:
            return 11
        if single_table:
            return self.single_table_target
        return self.team_target if team else self.individual_target

    def with_house_rules(self, changes: Mapping[str, HouseRuleValue]) -> RuleSet:
        """A copy with some fields changed; values may be given as text (from a CLI).

        Raises :class:`UnknownRule` naming the valid fields for an unknown name, and
        :class:`InvalidRuleValue` for a value of the wrong type.
        """
        if not changes:
            return self
        known = {f.name: f for f in dataclasses.fields(self)}
        # keyword arguments of replace: each value has its field's type (coerce_rule_value)
        converted: dict[str, Any] = {}
        for key, value in changes.items():
            name = key.replace("-", "_")
            if name not in known or name == "name":
                raise UnknownRule(
                    f"unknown house rule {key!r}"
                    + did_you_mean(name, (n for n in known if n != "name")),
                    expected="one of " + ", ".join(sorted(n for n in known if n != "name")),
                )
            converted[name] = coerce_rule_value(name, known[name].type, value)
        return dataclasses.replace(self, **converted)

    def as_dict(self) -> dict[str, RuleValue]:
        """Every rule value as plain JSON data, by the rule's name."""
        out: dict[str, RuleValue] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                out[f.name] = [str(v) if isinstance(v, enum.Enum) else v for v in value]
            elif isinstance(value, enum.Enum):
                out[f.name] = value.value
            else:
                out[f.name] = value
        return out


def rule_docs() -> dict[str, str]:
    """One line of documentation per rule field, in field order."""
    return {f.name: str(f.metadata.get("doc", "")) for f in dataclasses.fields(RuleSet)}


_ENUMS: dict[str, type[enum.StrEnum]] = {
    "RollKind": RollKind,
    "Direction": Direction,
    "FirstRoller": FirstRoller,
    "RoundEnd": RoundEnd,
    "AfterBell": AfterBell,
    "TieBreak": TieBreak,
    "SetWinner": SetWinner,
    "Movement": Movement,
    "Fill": Fill,
    "PrizeTies": PrizeTies,
}

FieldValue: TypeAlias = bool | int | str | tuple[Prize, ...] | tuple[int, ...] | enum.StrEnum
"""A rule's value as the rule set holds it (:func:`coerce_rule_value`)."""

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _choices(enum_type: type[enum.StrEnum]) -> str:
    return ", ".join(m.value for m in enum_type)


def coerce_rule_value(name: str, type_name: object, value: Any) -> FieldValue:
    """Turn ``value`` (typed or text) into the type of rule ``name``."""
    type_text = str(type_name)
    try:
        if type_text == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError
        if type_text == "int":
            if name in OFF_IS_ZERO and str(value).strip().lower() in ("off", "none"):
                return 0
            return _whole(value)
        if type_text == "str":
            return clean_text(str(value), f"house rule {name!r}", InvalidRuleValue)
        if type_text.startswith("tuple[Prize"):
            items = value.split(",") if isinstance(value, str) else list(value)
            return tuple(Prize(str(i).strip()) for i in items if str(i).strip())
        if type_text.startswith("tuple[int"):
            items = value.split(",") if isinstance(value, str) else list(value)
            return tuple(_whole(i) for i in items if str(i).strip())
        if type_text in _ENUMS:
            return _ENUMS[type_text](str(value).strip().replace("-", "_"))
    except (ValueError, TypeError, OverflowError):  # OverflowError: int(float("inf"))
        pass
    raise InvalidRuleValue(
        f"{shown(value)} is not a valid value for house rule {name!r}",
        expected=f"off, or minutes from 1 to {MAX_ROUND_MINUTES}"
        if name in OFF_IS_ZERO
        else _expected(type_text),
    )


MAX_RULE_NUMBER = 1_000_000_000
MAX_ROUND_MINUTES = 240
"""The longest round clock (four hours): a round of Bunco takes minutes, not hours."""
OFF_IS_ZERO = frozenset({"round_minutes"})
"""Whole-number rules where ``off`` (or ``none``) is a word for 0."""
_DIGITS = re.compile(r"\s*[+-]?[0-9]{1,10}\s*")


def _whole(value: Any) -> int:
    """A whole-number rule value: an int, or its digits as text (from a command line);
    ``21.5``, ``"21.5"``, ``true`` and numbers beyond ±10^9 are refused (ValueError).

    >>> _whole(21), _whole(" 11 ")
    (21, 11)
    """
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        value = int(value)
    if not isinstance(value, int) or not -MAX_RULE_NUMBER <= value <= MAX_RULE_NUMBER:
        raise ValueError(value)
    return value


def whole_number_rules() -> frozenset[str]:
    """The names of the rules whose values are whole numbers (or lists of them)."""
    return frozenset(
        f.name
        for f in dataclasses.fields(RuleSet)
        if str(f.type) == "int" or str(f.type).startswith("tuple[int")
    )


def _expected(type_text: str) -> str:
    if type_text == "bool":
        return "true or false"
    if type_text == "int":
        return f"a whole number within ±{MAX_RULE_NUMBER:,}"
    if type_text.startswith("tuple[Prize"):
        return "a comma-separated list of " + _choices(Prize)
    if type_text.startswith("tuple[int"):
        return "a comma-separated list of round numbers"
    if type_text in _ENUMS:
        return "one of " + _choices(_ENUMS[type_text])
    return "text"


def _validate(rules: RuleSet) -> None:
    for name in (
        "team_target",
        "individual_target",
        "single_table_target",
        "roll_off_target",
        "bunco_points",
    ):
        if getattr(rules, name) < 1:
            raise InvalidRuleValue(
                f"{name} must be at least 1, got {getattr(rules, name)}",
                expected="a whole number of 1 or more",
            )
    for name in ("target_die_points", "low_trips_points", "high_trips_points"):
        if getattr(rules, name) < 0:
            raise InvalidRuleValue(
                f"{name} must not be negative, got {getattr(rules, name)}", expected="0 or more"
            )
    for name in ("low_trips_kind", "high_trips_kind"):
        if getattr(rules, name) not in (
            RollKind.MINI_BUNCO,
            RollKind.LOW_BUNCO,
            RollKind.HIGH_BUNCO,
        ):
            raise InvalidRuleValue(
                f"{name} cannot be {getattr(rules, name)}",
                expected="mini_bunco, low_bunco or high_bunco",
            )
    if not 0 <= rules.traveling_excluded_round <= 6:
        raise InvalidRuleValue(
            f"traveling_excluded_round must be 0 to 6, got {rules.traveling_excluded_round}",
            expected="0 (none) or a round 1-6",
        )
    if rules.traveling not in TRAVELING_NAMED and not _is_faces(rules.traveling):
        raise InvalidRuleValue(
            f"traveling trigger {rules.traveling!r} is not known",
            expected="off, bunco, mini_bunco, any_trips, or three faces such as 123",
        )
    if not 0 <= rules.round_minutes <= MAX_ROUND_MINUTES:
        raise InvalidRuleValue(
            f"round_minutes must be 0 to {MAX_ROUND_MINUTES}, got {rules.round_minutes}",
            expected=f"0 (off: the head table's bell only) or minutes from 1 to {MAX_ROUND_MINUTES}",
        )
    for r in rules.breaks_after_rounds:
        if not 1 <= r <= 6:
            raise InvalidRuleValue(
                f"breaks_after_rounds has round {r}", expected="rounds from 1 to 6"
            )
    if rules.traveling == "off" and Prize.TRAVELING in rules.prizes:
        raise InvalidRuleValue(
            "the traveling prize needs a traveling trigger",
            expected="traveling set to bunco, mini_bunco, any_trips or faces",
        )


def _is_faces(text: str) -> bool:
    digits = text.replace("-", "").replace(",", "").replace(" ", "")
    return len(digits) == 3 and all(c in "123456" for c in digits)
