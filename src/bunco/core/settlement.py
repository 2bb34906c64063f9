"""The night's money settled: the pot, who is paid how much for which prize, and a line for
every amount that stays behind (what :mod:`bunco.core.money` sets up, paid out).

A shared prize is split to the cent; what does not split is the **remainder**, stated:

>>> split(Decimal("100"), 3)
(Decimal('33.33'), Decimal('0.01'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_DOWN, Decimal

from typing_extensions import TypedDict

from bunco.core.awards import Award, AwardView, decide_awards
from bunco.core.hosting import HostedNight, presence_required
from bunco.core.money import CENT, MoneySetup, money_setup, money_text, percent_text
from bunco.core.money_shapes import (
    LeftOver,
    NightMoney,
    PaidTo,
    Payout,
    PrizeMoney,
    Settlement,
)


def split(amount: Decimal, ways: int) -> tuple[Decimal, Decimal]:
    """Each one's part of ``amount`` shared ``ways`` ways, to the cent, and the remainder.

    >>> split(Decimal("25"), 4)
    (Decimal('6.25'), Decimal('0.00'))
    """
    each = (amount / ways).quantize(CENT, rounding=ROUND_DOWN)
    return each, (amount - each * ways).quantize(CENT)


def amount_words(value: Decimal, currency: str) -> str:
    """An amount in words for the left-over lines, sub-cent digits kept ("$45.125").

    >>> amount_words(Decimal("45.1250"), "$"), amount_words(Decimal("3"), "$")
    ('$45.125', '$3.00')
    """
    if value == value.quantize(CENT):
        return currency + money_text(value)
    return currency + format(value.normalize(), "f")


def _left_line(prize: PrizeMoney, amount: Decimal, kind: str, why: str) -> LeftOver:
    return {
        "prize": prize["prize"],
        "label": prize["label"],
        "group": prize["group"],
        "kind": kind,
        "amount": format(amount.normalize(), "f"),
        "why": why,
    }


def _split_noted(
    entry: PrizeMoney,
    amount: Decimal,
    ways: int,
    what: str,
    currency: str,
    left_over: list[LeftOver],
) -> tuple[Decimal, Decimal]:
    """``split`` that adds the left-over line for a remainder ("{what}: $x.xx each")."""
    each, rest = split(amount, ways)
    if rest:
        left_over.append(
            _left_line(entry, rest, "split", f"{what}: {currency}{money_text(each)} each")
        )
    return each, rest


def settle(
    money: MoneySetup,
    awards: Sequence[Award],
    roster: Sequence[str],
    groups: Mapping[str, Sequence[str]],
    absent: frozenset[str],
    *,
    must_be_present: bool,
) -> Settlement:
    """The money of the night: the pot, every paid prize, the payouts, and a line for every
    amount that stays behind (``left_over``: a share rounded down to the cent, a shared
    prize that does not split to the cent, a group with nobody present)."""
    c = money.currency
    pot = money.pot(len(roster))
    prizes: list[PrizeMoney] = []
    payouts: list[Payout] = []
    left_over: list[LeftOver] = []
    paid = remainder = unawarded = allotted = Decimal(0)
    for award in awards:
        exact = money.exact_for(award.prize, award.group, pot)
        amount = money.amount_for(award.prize, award.group, pot)
        if exact is None or amount is None:
            continue
        allotted += exact
        entry: PrizeMoney = {
            "prize": award.prize,
            "label": award.label,
            "group": award.group,
            "amount": money_text(amount),
            "status": award.status,
            "paid_to": [],
            "passed_over": [{"name": n, "reason": r} for n, r in award.passed_over],
            "remainder": money_text(Decimal(0)),
        }
        if exact != amount:
            rule = money.rule_for(award.prize, award.group)
            assert rule is not None and rule.share is not None
            left_over.append(
                _left_line(
                    entry,
                    exact - amount,
                    "rounding",
                    f"{percent_text(rule.share)} of {c}{money_text(pot)} is "
                    f"{amount_words(exact, c)}: paid {c}{money_text(amount)}",
                )
            )
        if award.status != "won":
            unawarded += amount
            prizes.append(entry)
            continue
        parts: list[tuple[str, str | None, Decimal]] = []  # (player, group, amount)
        if award.team:  # split between the groups, then among each group's members
            per_group, left = _split_noted(
                entry,
                amount,
                len(award.winners),
                f"{c}{money_text(amount)} between {len(award.winners)} groups",
                c,
                left_over,
            )
            for group in award.winners:
                members = [m for m in groups[group] if not (must_be_present and m in absent)]
                if not members:
                    left_over.append(
                        _left_line(
                            entry,
                            per_group,
                            "nobody_present",
                            f"{group}'s {c}{money_text(per_group)}: nobody of {group} is present",
                        )
                    )
                    left += per_group
                    continue
                each, rest = _split_noted(
                    entry,
                    per_group,
                    len(members),
                    f"{group}'s {c}{money_text(per_group)} among {len(members)}",
                    c,
                    left_over,
                )
                left += rest
                parts += [(m, group, each) for m in members]
        else:
            each, left = _split_noted(
                entry,
                amount,
                len(award.winners),
                f"{c}{money_text(amount)} shared {len(award.winners)} ways",
                c,
                left_over,
            )
            parts = [(w, award.group, each) for w in award.winners]
        for player, in_group, part in parts:
            payouts.append(
                {
                    "player": player,
                    "prize": award.prize,
                    "label": award.label,
                    "group": in_group,
                    "amount": money_text(part),
                }
            )
            paid += part
        entry["paid_to"] = [PaidTo(player=p, amount=money_text(a)) for p, _, a in parts]
        entry["remainder"] = money_text(left)
        remainder += left
        prizes.append(entry)
    return {
        "currency": money.currency,
        "buy_in": money_text(money.buy_in),
        "players_paid": len(roster),
        "carried_over": money_text(money.carried_over),
        "pot": money_text(pot),
        "paid_out": money_text(paid),
        "remainder": money_text(remainder),
        "unawarded": money_text(unawarded),
        "top_up": money_text(max(paid - pot, Decimal(0))),
        "left_in_pot": money_text(max(pot - paid, Decimal(0))),
        "unallotted": format(max(pot - allotted, Decimal(0)).normalize(), "f"),
        "left_over": left_over,
        "prizes": prizes,
        "payouts": payouts,
    }


class PrizeMoneyReport(TypedDict):
    """The report's ``awards``, ``money`` and ``payouts``."""

    awards: list[AwardView]
    money: NightMoney | None
    payouts: list[Payout]


def prize_money(night: HostedNight) -> PrizeMoneyReport:
    """The report's ``awards``, ``money`` and ``payouts`` (``money`` is None and
    ``payouts`` empty for a night without money)."""
    money = money_setup(night.setup)
    if money is None or money.one_prize_order == "listed":
        awards = decide_awards(night)
    else:
        pot = money.pot(len(night.roster))
        awards = decide_awards(
            night, lambda prize, group: money.amount_for(prize, group, pot) or Decimal(0)
        )
    if money is None:
        return {"awards": [a.as_dict() for a in awards], "money": None, "payouts": []}
    s = settle(
        money,
        awards,
        night.roster,
        night.groups,
        night.host.absent,
        must_be_present=presence_required(night),
    )
    settled: NightMoney = {  # the settlement's keys in order, its payouts apart
        "currency": s["currency"],
        "buy_in": s["buy_in"],
        "players_paid": s["players_paid"],
        "carried_over": s["carried_over"],
        "pot": s["pot"],
        "paid_out": s["paid_out"],
        "remainder": s["remainder"],
        "unawarded": s["unawarded"],
        "top_up": s["top_up"],
        "left_in_pot": s["left_in_pot"],
        "unallotted": s["unallotted"],
        "left_over": s["left_over"],
        "prizes": s["prizes"],
        "final": night.phase == "over" and night.prize_cards is not None,
        "one_prize_order": money.one_prize_order,
    }
    return {"awards": [a.as_dict() for a in awards], "money": settled, "payouts": s["payouts"]}
