"""The typed shapes of prize money: the party line's ``money`` and the night's payouts.

:mod:`bunco.core.money` checks the one and :mod:`bunco.core.settlement` computes the other; these ``TypedDict`` classes
name their keys for the log, the report, the pages and the sheets. Amounts are decimal
strings in whole cents ("12.50"), shares percentages ("50%").

Like :mod:`bunco.core.events`, there is no ``from __future__ import annotations`` here:
TypedDict reads ``NotRequired[...]`` at class creation.
"""

from typing import NotRequired

from typing_extensions import TypedDict


class PayoutSpec(TypedDict):
    """One payout of the party line: a fixed ``amount`` or a ``share`` of the pot."""

    prize: str
    group: NotRequired[str]
    amount: NotRequired[str]
    share: NotRequired[str]


class MoneySpec(TypedDict):
    """The party line's ``money`` in canonical form (:func:`~bunco.core.money.normalize_money`)."""

    currency: str
    buy_in: str
    carried_over: NotRequired[str]
    top_up: bool
    payouts: list[PayoutSpec]
    one_prize_order: NotRequired[str]  # "listed" (the default, "value", is left out)


class MoneyLine(TypedDict, total=False):
    """A party line's ``money`` as a program writes it before the checks: a ``preset``'s
    name, the fields that change it, or a money table of its own."""

    preset: str
    currency: str
    buy_in: str
    carried_over: str
    top_up: bool
    payouts: list[PayoutSpec]
    one_prize_order: str


class MoneyPreset(TypedDict):
    """A ready-made money table a party line names by ``"preset"``."""

    currency: str
    top_up: bool
    payouts: list[PayoutSpec]


class PassedOver(TypedDict):
    """Someone a prize passed over, and why."""

    name: str
    reason: str


class PaidTo(TypedDict):
    """One person's part of a prize."""

    player: str
    amount: str


class PrizeMoney(TypedDict):
    """One paid prize of the night: what it pays, to whom, and what of it stays behind."""

    prize: str
    label: str
    group: str | None
    amount: str
    status: str  # "won", "pending", "nobody" (bunco.core.awards.Award)
    paid_to: list[PaidTo]
    passed_over: list[PassedOver]
    remainder: str


class LeftOver(TypedDict):
    """An amount that stays in the pot, and why (``kind``: rounding, split, nobody_present;
    ``amount`` with its sub-cent digits, "0.005")."""

    prize: str
    label: str
    group: str | None
    kind: str
    amount: str  # sub-cent digits kept ("0.005")
    why: str


class Payout(TypedDict):
    """One payment: a player's part of one prize (``amount`` without the currency sign)."""

    player: str
    prize: str
    label: str
    group: str | None
    amount: str


class PotFigures(TypedDict):
    """The night's money as both the settlement and the report give it: the pot, what was
    paid out, what stays behind, each prize's amount and to whom."""

    currency: str
    buy_in: str
    players_paid: int
    carried_over: str
    pot: str
    paid_out: str
    remainder: str
    unawarded: str
    top_up: str
    left_in_pot: str
    unallotted: str
    left_over: list[LeftOver]
    prizes: list[PrizeMoney]


class Settlement(PotFigures):
    """The money of the night as :func:`~bunco.core.settlement.settle` computes it."""

    payouts: list[Payout]


class NightMoney(PotFigures):
    """The report's ``money``: the settlement without its payouts (the pot, what was paid
    out, what stays behind, each prize's amount and to whom), and whether it is final."""

    final: bool
    one_prize_order: str
