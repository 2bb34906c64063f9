"""Prize money and prize options of a new ``bunco play`` night, from flags or questions.

What the API accepts about money, typed as a person would: ``--money tournament`` (seeds/
004's table in one choice), ``--buy-in $4.75``, ``--pay most_buncos=50%`` or
``--pay "best_costume@Team 1=25"``, ``--judged "Best Costume"``, ``--must-be-present``,
``--one-prize value|listed``, ``--breaks 2,4,6``, ``--carried-over 10``, ``--top-up``.
The party line's checks (bunco.core.setup) then refuse what does not fit, saying why.

>>> options = MoneyOptions(buy_in="$4.75", pays=["most_buncos=50%", "most_wins=10"])
>>> party_fields(options)["money"]
{'currency': '$', 'buy_in': '4.75', 'payouts': [{'prize': 'most_buncos', 'share': '50%'}, \
{'prize': 'most_wins', 'amount': '10'}]}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bunco.core.errors import InvalidSetup
from bunco.core.hosting import prize_key
from bunco.core.money import PRESETS
from bunco.core.money_shapes import MoneyLine, PayoutSpec
from bunco.core.party_setup import PartyLine

ONE_PRIZE = ("value", "listed")
_SIGNED = re.compile(r"^\s*([^\d\s.]{0,8})\s*(\d[\d.]*)\s*$")


@dataclass(frozen=True, slots=True)
class MoneyOptions:
    """The money and prize flags of ``bunco play`` as typed (None/empty: not given)."""

    money: str | None = None  # "tournament" or "none"
    currency: str | None = None
    buy_in: str | None = None
    carried_over: str | None = None
    top_up: bool = False
    pays: Sequence[str] = field(default_factory=list)
    judged: Sequence[str] = field(default_factory=list)
    must_be_present: bool = False
    one_prize: str | None = None
    breaks: str | None = None

    @property
    def given(self) -> bool:
        """True when any of the flags was given."""
        return bool(
            self.money
            or self.currency
            or self.buy_in
            or self.carried_over
            or self.top_up
            or self.pays
            or self.judged
            or self.must_be_present
            or self.one_prize
            or self.breaks
        )


def _amount(text: str, what: str) -> tuple[str, str]:
    """(currency sign, amount) of "$4.75" or "4.75"; the amount's checks come later."""
    match = _SIGNED.match(text)
    if not match:
        raise InvalidSetup(f"{what} {text!r} is not an amount", expected=f"{what} 4.75 (or $4.75)")
    return match.group(1), match.group(2)


def parse_pay(spec: str) -> PayoutSpec:
    """``--pay PRIZE[@GROUP]=AMOUNT|SHARE%`` as a payout of the party line.

    >>> parse_pay("best costume@Team 1=$25")
    {'prize': 'best_costume', 'group': 'Team 1', 'amount': '25'}
    """
    prize, sep, value = spec.rpartition("=")
    name, _, group = prize.partition("@")
    if not sep or not name.strip() or not value.strip():
        raise InvalidSetup(
            f"--pay {spec!r} names no prize and what it pays",
            expected="--pay most_buncos=50% or --pay most_wins=10 (--pay 'best_costume@Team 1=25')",
        )
    out: PayoutSpec = {"prize": prize_key(name)}
    if group.strip():
        out["group"] = " ".join(group.split())
    value = value.strip()
    if value.endswith("%"):
        out["share"] = value
    else:
        out["amount"] = _amount(value, f"--pay {name.strip()}")[1]
    return out


def _rounds(text: str) -> list[int]:
    """``"2,4"`` (or ``"2 4"``) as the rounds ``[2, 4]``; the rule set checks them later."""
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if not parts or not all(p.isdigit() for p in parts):
        raise InvalidSetup(
            f"--breaks {text!r} is not a list of rounds",
            expected="--breaks 2,4,6 (round numbers from 1 to 6)",
        )
    return [int(p) for p in parts]


def party_fields(options: MoneyOptions) -> PartyLine:
    """The party line's ``money``, ``judged``, ``must_be_present``,
    ``one_prize_per_person`` and ``house_rules.breaks_after_rounds`` of the flags."""
    out: PartyLine = {}
    if options.judged:
        out["judged"] = [" ".join(j.split()) for j in options.judged]
    if options.must_be_present:
        out["must_be_present"] = True
    if options.one_prize is not None:
        if options.one_prize not in ONE_PRIZE:
            raise InvalidSetup(
                f"--one-prize {options.one_prize!r}",
                expected="--one-prize value (keep the prize worth more) or listed",
            )
        out["one_prize_per_person"] = True
    if options.breaks:
        out["house_rules"] = {"breaks_after_rounds": _rounds(options.breaks)}
    money: MoneyLine = {}
    if options.money is not None and options.money != "none":
        if options.money not in PRESETS:
            raise InvalidSetup(
                f"--money {options.money!r} is not a money table",
                expected="--money " + " or ".join([*PRESETS, "none"]),
            )
        money["preset"] = options.money
    sign, buy_in = _amount(options.buy_in, "--buy-in") if options.buy_in else ("", "")
    if options.currency or sign:
        money["currency"] = options.currency or sign
    if buy_in:
        money["buy_in"] = buy_in
    if options.carried_over:
        _, money["carried_over"] = _amount(options.carried_over, "--carried-over")
    if options.top_up:
        money["top_up"] = True
    if options.pays:
        money["payouts"] = [parse_pay(p) for p in options.pays]
    if options.one_prize == "listed" and money:
        money["one_prize_order"] = "listed"
    if money:
        out["money"] = money
    return out


Ask = Callable[[str, str], str]
"""A question and its default; returns the answer (Rich's Prompt.ask, or a test's)."""


def ask_money(ask: Ask, prizes: Sequence[str], grouped: bool) -> MoneyOptions:
    """The interactive questions of a new night about prizes and money.

    >>> answers = iter(["Best Costume", "y", "value", "", "pot", "$5", "50%", "", "2.50", "n"])
    >>> ask_money(lambda q, d: next(answers), ["most_buncos", "most_wins"], False).pays
    ['most_buncos=50%', 'best_costume=2.50']
    """
    judged = [
        j
        for j in re.split(r"[,;]", ask("Judged prizes (e.g. Best Costume; Enter: none)", ""))
        if j.strip()
    ]
    present = ask("Must be present to win? (y/n)", "n").strip().lower().startswith("y")
    one = ask("One prize per person? (value: keep the prize worth more / listed / n)", "n")
    one_prize = one.strip().lower() if one.strip().lower() in ONE_PRIZE else None
    breaks = ask("Breaks after rounds (e.g. 2,4,6; Enter: the preset's)", "").strip()
    mode = ask("Prize money? (none / pot / tournament)", "none").strip().lower()
    if mode not in ("pot", "tournament"):
        return MoneyOptions(
            judged=judged, must_be_present=present, one_prize=one_prize, breaks=breaks or None
        )
    if mode == "tournament":
        return MoneyOptions(
            money="tournament",
            judged=judged,
            must_be_present=present,
            one_prize=one_prize,
            breaks=breaks or None,
        )
    buy_in = ask("Buy-in per player (e.g. $5)", "$5")
    pays = []
    keys = [*prizes, *(["group_most_buncos"] if grouped else []), *(prize_key(j) for j in judged)]
    for key in keys:
        answer = ask(
            f"{key.replace('_', ' ').capitalize()} pays (an amount, a share like 50%,"
            " Enter: nothing)",
            "",
        ).strip()
        if answer:
            pays.append(f"{key}={answer}")
    top_up = ask("The host tops up if the payouts come to more than the pot? (y/n)", "n")
    return MoneyOptions(
        buy_in=buy_in,
        pays=pays,
        judged=judged,
        must_be_present=present,
        one_prize=one_prize,
        breaks=breaks or None,
        top_up=top_up.strip().lower().startswith("y"),
    )


def add_prize_money(party: PartyLine, options: MoneyOptions | None, ask: bool) -> None:
    """Put the prize and money options into a new night's party line: the flags given, or
    (at a terminal, none given) the answers to the questions."""
    if options is None or not options.given:
        if not ask:
            return
        from rich.prompt import Prompt

        from bunco.core.setup import normalize_setup, rules_of

        if (
            Prompt.ask(
                "Prizes and money (judged prizes, present to win, one prize each, "
                "breaks, a pot)? y/n",
                default="n",
            )
            .strip()
            .lower()[:1]
            != "y"
        ):
            return
        rules = rules_of(normalize_setup(party))
        options = ask_money(
            lambda q, d: Prompt.ask(q, default=d),
            [p.value for p in rules.prizes],
            bool(party.get("groups")) and rules.prize_groups,
        )
    fields = party_fields(options)
    house = fields.pop("house_rules", {})
    if house:
        party["house_rules"] = {**party.get("house_rules", {}), **house}
    party.update(fields)


def parse_group_lines(text: str, names: Sequence[str]) -> dict[str, list[str]]:
    """Prize groups a line each ("Team 1: Ann, Bea"), each player of ``names`` (when they
    are known) in one group; raises :class:`InvalidSetup` naming the line.

    >>> parse_group_lines("Team 1: Ann, Bea\nTeam 2: Cat", ["Ann", "Bea", "Cat"])
    {'Team 1': ['Ann', 'Bea'], 'Team 2': ['Cat']}
    """
    known = [n for n in names if n]
    out: dict[str, list[str]] = {}
    placed: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, members = line.partition(":")
        players = [" ".join(m.split()) for m in members.split(",") if m.strip()]
        group = " ".join(name.split())
        if not colon or not group or not players:
            raise InvalidSetup(
                f"line {number}: {line.strip()!r} names no group and players",
                expected="a line each: Team 1: Ann, Bea, Cat",
            )
        if group in out:
            raise InvalidSetup(
                f"line {number}: the group {group!r} is given twice",
                expected="each group on one line",
            )
        for player in players:
            if known and player not in known:
                raise InvalidSetup(
                    f"line {number}: {player!r} is not one of the players",
                    expected="names as in --names",
                )
            if player in placed:
                raise InvalidSetup(
                    f"line {number}: {player!r} is in {placed[player]} and {group}",
                    expected="each player in one group",
                )
            placed[player] = group
        out[group] = players
    if not out:
        raise InvalidSetup("no groups given", expected="a line each: Team 1: Ann, Bea, Cat")
    return out
