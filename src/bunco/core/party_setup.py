"""The typed shape of a party line: the first line of a party log, as
:func:`~bunco.core.setup.normalize_setup` returns it.

Like :mod:`bunco.core.events`, there is no ``from __future__ import annotations`` here:
TypedDict reads ``NotRequired[...]`` at class creation.
"""

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from bunco.core.money_shapes import MoneyLine, MoneySpec
from bunco.core.rules import HouseRuleValue


class PartyLine(TypedDict, total=False):
    """A party line as a program writes it, before :func:`~bunco.core.setup.normalize_setup`
    checks it (``bunco play``, the sample night): the keys of :class:`PartySetup`, a
    house rule's value as given (``"false"`` from a command line), the money as given."""

    type: str
    name: str
    rules: str
    house_rules: dict[str, HouseRuleValue]
    players: list[str]
    sets: int
    seed: int
    bots: list[str]
    dice: str
    tables: list[list[str | None]]
    groups: dict[str, list[str]]
    judged: list[str]
    must_be_present: bool
    one_prize_per_person: bool
    money: MoneyLine


class PrizeOptions(TypedDict, total=False):
    """The party line's judged prizes, presence and payout options, and its money."""

    must_be_present: bool
    one_prize_per_person: bool
    judged: list[str]  # the labels of the prizes the host judges ("Best Costume")
    money: MoneySpec


class PartySetup(TypedDict):
    """Who plays, under which rules, seated how; the keys in the order the log writes them."""

    type: Literal["party"]
    rules: str  # a preset's name (bunco.core.presets)
    house_rules: NotRequired[dict[str, HouseRuleValue]]
    players: list[str]
    sets: int
    name: NotRequired[str]
    created: NotRequired[str]
    seed: NotRequired[int]
    prizes: NotRequired[list[str]]
    prize_ties: NotRequired[str]
    dice: NotRequired[Literal["digital", "physical"]]  # drawn, or typed from real dice
    groups: NotRequired[dict[str, list[str]]]
    bots: NotRequired[list[str]]
    tables: NotRequired[list[list[str | None]]]
    must_be_present: NotRequired[bool]
    one_prize_per_person: NotRequired[bool]
    judged: NotRequired[list[str]]
    money: NotRequired[MoneySpec]
