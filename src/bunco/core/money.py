"""Prize money: the party line's ``money`` and who is paid how much for what.

Amounts are exact :class:`~decimal.Decimal` values in whole cents, never floats. The pot
is the buy-in times the players with a score card (substitutes and late arrivals pay
too) plus what was carried over. A payout is a fixed ``amount`` or a ``share`` of the pot
("50%"); a per-group prize pays it in every group. Money that a shared prize cannot split
to the cent is the **remainder**: it stays in the pot and is stated.

Paying more than the pot holds is refused when the night is set up, unless the money
says ``"top_up": true``: then the host pays the difference, stated as ``top_up``. Shares
never add up to more than the whole pot.

>>> m = money_setup({"money": normalize_money(
...     {"currency": "$", "buy_in": "5", "payouts": [{"prize": "most_wins", "share": "50%"}]},
...     {"most_wins": False}, [], players=4)})
>>> m.pot(4), m.amount_for("most_wins", None, m.pot(4))
(Decimal('20.00'), Decimal('10.00'))

Who is paid what on a night is :mod:`bunco.core.settlement`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from typing_extensions import TypedDict

from bunco.core.errors import InvalidSetup, shown
from bunco.core.money_shapes import (
    MoneyPreset,
    MoneySpec,
    PayoutSpec,
)
from bunco.core.names import clean_text

CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("1000000000")
_AMOUNT = re.compile(r"[0-9]+(\.[0-9]{1,2})?")
"""An amount as text: ASCII digits, at most two decimals (no sign, space, exponent,
underscore or other script's digits, which :class:`~decimal.Decimal` would take)."""
_FINER = re.compile(r"[0-9]+\.[0-9]{3,}")
_SHARE = re.compile(r"[0-9]+(\.[0-9]{1,2})?%")
PAYOUT_KEYS = ("prize", "group", "amount", "share")
PRESETS: dict[str, MoneyPreset] = {
    # seeds/004: "Each Team will have the following winners paid: Most Bunco's $100, Most
    # Mini's $50, Most Wins $40, Best Costume $25. Overall: Team with Overall Most Bunco's
    # $100, Team with Best Costume $25". No buy-in: the tournament pays its prizes.
    "tournament": {
        "currency": "$",
        "top_up": True,
        "payouts": [
            {"prize": "most_buncos", "amount": "100"},
            {"prize": "most_mini_buncos", "amount": "50"},
            {"prize": "most_wins", "amount": "40"},
            {"prize": "best_costume", "amount": "25"},
            {"prize": "group_most_buncos", "amount": "100"},
            {"prize": "group_best_costume", "amount": "25"},
        ],
    },
}
KEYS = ("currency", "buy_in", "carried_over", "top_up", "payouts", "one_prize_order", "preset")
ONE_PRIZE_ORDERS = ("value", "listed")


@dataclass(frozen=True, slots=True)
class PayoutRule:
    """What one prize pays: a fixed ``amount`` or a ``share`` of the pot (a fraction)."""

    prize: str
    group: str | None
    amount: Decimal | None
    share: Decimal | None


@dataclass(frozen=True, slots=True)
class MoneySetup:
    currency: str
    buy_in: Decimal
    carried_over: Decimal
    top_up: bool
    rules: tuple[PayoutRule, ...]
    one_prize_order: str = "value"  # one prize per person: the most valuable first, or as listed

    def pot(self, players: int) -> Decimal:
        """The buy-ins of ``players`` plus what was carried over."""
        return (self.buy_in * players + self.carried_over).quantize(CENT)

    def rule_for(self, prize: str, group: str | None) -> PayoutRule | None:
        """The payout of ``prize`` (in ``group``): the group's own rule first."""
        general = None
        for rule in self.rules:
            if rule.prize == prize and rule.group == group:
                return rule
            if rule.prize == prize and rule.group is None:
                general = rule
        return general

    def exact_for(self, prize: str, group: str | None, pot: Decimal) -> Decimal | None:
        """What ``prize`` pays before rounding: a share of the pot may fall between cents."""
        rule = self.rule_for(prize, group)
        if rule is None:
            return None
        if rule.amount is not None:
            return rule.amount
        assert rule.share is not None
        return pot * rule.share

    def amount_for(self, prize: str, group: str | None, pot: Decimal) -> Decimal | None:
        """What ``prize`` pays: its amount, or its share of the pot rounded down to the cent."""
        exact = self.exact_for(prize, group, pot)
        return None if exact is None else exact.quantize(CENT, rounding=ROUND_DOWN)


PRESET_JUDGED = {"tournament": ["Best Costume"]}


def implied_judged(value: object) -> list[str] | None:
    """The judged prizes a money preset brings with it, when the party line names none:
    the ``tournament`` table pays a Best Costume, so choosing it in one go judges one.

    >>> implied_judged("tournament"), implied_judged({"buy_in": "5"})
    (['Best Costume'], None)
    """
    name = (
        value
        if isinstance(value, str)
        else (value.get("preset") if isinstance(value, Mapping) else None)
    )
    return PRESET_JUDGED.get(name) if isinstance(name, str) else None


def money_text(value: Decimal) -> str:
    """An amount as the decimal string of the log and the reports ("12.50")."""
    return str(value.quantize(CENT))


def parse_amount(value: object, what: str) -> Decimal:
    """An amount in whole cents, 0 or more, from text or a whole number (never a float)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InvalidSetup(
            f"{what} {shown(value)} is not an amount",
            expected='an amount as text, such as "12.50" (or a whole number); never a float',
        )
    given = shown(value)
    if isinstance(value, int) and not 0 <= value <= MAX_AMOUNT:  # before any conversion
        raise InvalidSetup(
            f"{what} {given} is out of range", expected=f"an amount from 0 to {MAX_AMOUNT}"
        )
    if isinstance(value, str) and value.startswith("-") and _AMOUNT.fullmatch(value[1:]):
        raise InvalidSetup(f"{what} {given} is negative", expected="an amount of 0 or more")
    if isinstance(value, str) and len(value) <= 40 and _FINER.fullmatch(value):
        raise InvalidSetup(
            f"{what} {value!r} is not in whole cents",
            expected=f"an amount with at most two decimals, up to {MAX_AMOUNT}",
        )
    if isinstance(value, str) and (len(value) > 40 or not _AMOUNT.fullmatch(value)):
        raise InvalidSetup(
            f"{what} {given} is not an amount",
            expected='an amount in ASCII digits with at most two decimals, such as "12.50" '
            "(no sign, spaces, exponent or separators)",
        )
    try:
        number = Decimal(value)
    except InvalidOperation:  # pragma: no cover - the pattern lets only decimals through
        raise InvalidSetup(
            f"{what} {given} is not an amount", expected='an amount such as "12.50"'
        ) from None
    if number < 0:
        raise InvalidSetup(f"{what} {given} is negative", expected="an amount of 0 or more")
    if number > MAX_AMOUNT:  # checked before quantize, which fails past 28 digits
        raise InvalidSetup(
            f"{what} {given} is out of range", expected=f"an amount from 0 to {MAX_AMOUNT}"
        )
    if number != number.quantize(CENT):
        raise InvalidSetup(
            f"{what} {value!r} is not in whole cents",
            expected=f"an amount with at most two decimals, up to {MAX_AMOUNT}",
        )
    return number.quantize(CENT)


def percent_text(fraction: Decimal) -> str:
    """A fraction of the pot as a percentage.

    >>> percent_text(Decimal("1")), percent_text(Decimal("0.125")), percent_text(Decimal("1.1"))
    ('100%', '12.5%', '110%')
    """
    return format((fraction * 100).normalize(), "f") + "%"


def _share(value: object) -> Decimal:
    text = value if isinstance(value, str) and len(value) <= 20 else ""
    percent = Decimal(text[:-1]) if _SHARE.fullmatch(text) else None
    if percent is None or not 0 < percent <= 100:
        raise InvalidSetup(
            f"share {shown(value)} is not a share of the pot",
            expected="a percentage above 0 and at most 100 in ASCII digits with at most two "
            'decimals, as text such as "50%" or "33.33%"',
        )
    return percent / 100


def normalize_money(
    value: object, keys: Mapping[str, bool], groups: Sequence[str], *, players: int
) -> MoneySpec:
    """The canonical ``money`` of a party line; raises :class:`InvalidSetup` naming what is
    wrong. ``keys`` are the prize keys a payout may name (True: given per group)."""
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, Mapping):
        raise InvalidSetup(
            "money must be an object", expected='{"currency": "$", "buy_in": "5", "payouts": [...]}'
        )
    unknown = [k for k in value if k not in KEYS]
    if unknown:
        raise InvalidSetup(
            f"money has no field {unknown[0]!r}", expected="fields " + ", ".join(KEYS)
        )
    spec: Mapping[str, object] = value  # the fields as given, each checked below
    if "preset" in value:
        preset = PRESETS.get(str(value["preset"]))
        if preset is None:
            raise InvalidSetup(
                f"there is no money preset {value['preset']!r}",
                expected="one of " + ", ".join(PRESETS),
            )
        spec = {**preset, **{k: v for k, v in value.items() if k != "preset"}}
    currency = spec.get("currency", "$")
    if not isinstance(currency, str) or not 0 < len(currency.strip()) <= 8:
        raise InvalidSetup(
            f"currency {shown(currency)} is not a currency sign",
            expected='1 to 8 characters, e.g. "$"',
        )
    clean_text(currency, "currency")
    buy_in = money_text(parse_amount(spec.get("buy_in", "0"), "buy_in"))
    carried = spec.get("carried_over")
    carried_over = None if carried is None else money_text(parse_amount(carried, "carried_over"))
    top_up = spec.get("top_up", False)
    if not isinstance(top_up, bool):
        raise InvalidSetup(f"top_up {top_up!r} is not true or false", expected="true or false")
    payouts = _payouts(spec.get("payouts", []), keys, groups)
    out: MoneySpec
    if carried_over is None:  # the keys in the log's order
        out = {"currency": currency.strip(), "buy_in": buy_in, "top_up": top_up, "payouts": payouts}
    else:
        out = {
            "currency": currency.strip(),
            "buy_in": buy_in,
            "carried_over": carried_over,
            "top_up": top_up,
            "payouts": payouts,
        }
    order = spec.get("one_prize_order", "value")
    if not isinstance(order, str) or order not in ONE_PRIZE_ORDERS:
        raise InvalidSetup(
            f"one_prize_order {order!r} is not an order",
            expected='"value" (one prize per person keeps the most valuable) or "listed"',
        )
    if order != "value":
        out["one_prize_order"] = order
    checked = money_setup({"money": out})
    assert checked is not None
    _check_pot(checked, keys, groups, players)
    return out


def _payouts(value: object, keys: Mapping[str, bool], groups: Sequence[str]) -> list[PayoutSpec]:
    if not isinstance(value, list):
        raise InvalidSetup(
            "payouts must be a list", expected='[{"prize": "most_buncos", "amount": "100"}, ...]'
        )
    out: list[PayoutSpec] = []
    seen: set[tuple[str, str | None]] = set()
    for entry in value:
        if not isinstance(entry, Mapping):
            raise InvalidSetup(
                f"payout {entry!r} is not an object",
                expected='{"prize": "most_buncos", "amount": "100"} or {"prize": ..., "share": "50%"}',
            )
        unknown = [k for k in entry if k not in PAYOUT_KEYS]
        if unknown:
            raise InvalidSetup(
                f"payout has no field {shown(unknown[0])}",
                expected="fields " + ", ".join(PAYOUT_KEYS),
            )
        prize = entry.get("prize")
        if not isinstance(prize, str) or prize not in keys:
            raise InvalidSetup(
                f"payout names {prize!r}, which is not a prize of the night",
                expected="one of " + ", ".join(keys),
            )
        group = entry.get("group")
        if group is not None and (
            not keys[prize] or not isinstance(group, str) or group not in groups
        ):
            raise InvalidSetup(
                f"payout for {prize} names group {group!r}",
                expected=("one of " + ", ".join(groups))
                if keys[prize]
                else f"no group: {prize} is not given per group",
            )
        if (prize, group) in seen:
            raise InvalidSetup(
                f"{prize}{' in ' + group if group else ''} has two payouts",
                expected="one payout per prize (and per group)",
            )
        seen.add((prize, group))
        if ("amount" in entry) == ("share" in entry):
            raise InvalidSetup(
                f"payout for {prize} needs an amount or a share, not "
                + ("both" if "amount" in entry else "neither"),
                expected='"amount": "100" or "share": "50%"',
            )
        item: PayoutSpec = {"prize": str(prize)}
        if group is not None:
            item["group"] = str(group)
        if "amount" in entry:
            item["amount"] = money_text(parse_amount(entry["amount"], f"amount for {prize}"))
        else:
            item["share"] = percent_text(_share(entry["share"]))
        out.append(item)
    return out


class _WithMoney(TypedDict, total=False):
    """What :func:`money_setup` reads of a party line."""

    money: MoneySpec


def money_setup(party: _WithMoney) -> MoneySetup | None:
    """The money of a normalised party line, or None when the night carries none."""
    spec = party.get("money")
    if spec is None:
        return None
    rules = tuple(
        PayoutRule(
            p["prize"],
            p.get("group"),
            Decimal(p["amount"]) if "amount" in p else None,
            Decimal(p["share"][:-1]) / 100 if "share" in p else None,
        )
        for p in spec["payouts"]
    )
    return MoneySetup(
        currency=spec["currency"],
        buy_in=Decimal(spec["buy_in"]),
        carried_over=Decimal(spec.get("carried_over", "0")),
        top_up=spec["top_up"],
        rules=rules,
        one_prize_order=spec.get("one_prize_order", "value"),
    )


def _check_pot(
    money: MoneySetup, keys: Mapping[str, bool], groups: Sequence[str], players: int
) -> None:
    """Refuse payouts beyond the pot (the pot only grows as people join, and a share
    grows with it, so what fits now always fits)."""
    fixed = Decimal(0)
    shares = Decimal(0)
    for rule in money.rules:
        if rule.group is not None or not keys[rule.prize]:
            times = 1
        else:
            times = sum(1 for g in groups if money.rule_for(rule.prize, g) is rule)
        fixed += (rule.amount or 0) * times
        shares += (rule.share or 0) * times
    if shares > 1:
        raise InvalidSetup(
            f"the shares add up to {percent_text(shares)} of the pot",
            expected="shares of at most 100% in all (a per-group share counts once per group)",
        )
    pot = money.pot(players)
    committed = fixed + (pot * shares).quantize(CENT, rounding=ROUND_DOWN)
    if committed > pot and not money.top_up:
        c = money.currency
        raise InvalidSetup(
            f"the payouts come to {c}{money_text(committed)}, more than the pot of {c}{money_text(pot)}"
            f" ({players} × {c}{money_text(money.buy_in)}"
            + (f" + {c}{money_text(money.carried_over)} carried over" if money.carried_over else "")
            + ")",
            expected='payouts within the pot, or "top_up": true to state the difference as the '
            "host's top-up",
        )
