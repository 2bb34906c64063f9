"""Who is handed each prize: one list that the big screen, the end page, the night report,
the standings CSV, the payout sheet and ``bunco replay`` all print.

A row is a prize as the room hears it announced: the person (or group) handed it, with the
amount when the night carries money, who came first on the cards when that is someone
else, and who was passed over and why. Judged prizes (Best Costume) are rows like the
others. Before the prizes are decided (a roll-off due, cards still to verify) the rows say
so instead of naming anyone.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "classic", "players": ["Ann", "Bea"], '
...                   '"prizes": ["most_buncos"]}', '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> winner_rows(night)
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from bunco.core.awards import AwardView
from bunco.core.hosting import presence_required
from bunco.core.money import money_text
from bunco.core.money_shapes import PrizeMoney
from bunco.core.night import Night
from bunco.core.settlement import PrizeMoneyReport, prize_money, split
from bunco.core.verification import awaiting_cards, waiting_for_cards
from bunco.party.record_shapes import WinnerLine, WinnersPart


@dataclass(frozen=True, slots=True)
class WinnerRow:
    """One prize as handed out."""

    prize: str  # the key: most_buncos, best_costume, group_most_buncos, ...
    group: str | None  # the group the prize is given in (None: the whole room)
    name: str  # as printed: "Most Buncos (Team 1)"
    figure: str  # the count on the cards ("" for judged and single-holder prizes)
    handed_to: tuple[str, ...]  # the people (or groups) handed it; empty: pending or nobody
    amount: str  # "$100.00" (each one's part when shared: "$33.33 each"), "" without money
    status: str  # "won", "pending", "nobody"
    settled: str  # how: "shared", "after a roll-off", "judged", "" (outright)
    on_cards: tuple[str, ...]  # who came first on the cards (or the host's first choice)
    passed_over: tuple[tuple[str, str], ...]  # (name, why)
    paid: tuple[tuple[str, str], ...] = ()  # a group prize: (member paid, amount), in order

    @property
    def who(self) -> str:
        """The winners in words: "Ann, Bea (shared)", "roll-off due", "nobody to hand it
        to"."""
        if self.status == "pending":
            return "to be judged" if self.settled == "judged" else "roll-off due"
        if not self.handed_to:
            return "nobody to hand it to"
        return ", ".join(self.handed_to) + (f" ({self.settled})" if self.settled else "")

    @property
    def passed_text(self) -> str:
        """Who was passed over and why, in words ("" when nobody was)."""
        return "; ".join(f"{n}: {why}" for n, why in self.passed_over)

    @property
    def paid_text(self) -> str:
        """A group prize's members paid, in words: "Ann, Cat $16.66 each; Ivy $12.50"
        ("" for a prize handed to people)."""
        runs: list[tuple[list[str], str]] = []
        for name, amount in self.paid:
            if runs and runs[-1][1] == amount:
                runs[-1][0].append(name)
            else:
                runs.append(([name], amount))
        return "; ".join(
            ", ".join(who) + f" {amount}" + (" each" if len(who) > 1 else "")
            for who, amount in runs
        )

    def as_dict(self) -> WinnerLine:
        return {
            "prize": self.prize,
            "group": self.group,
            "name": self.name,
            "figure": self.figure,
            "handed_to": list(self.handed_to),
            "amount": self.amount,
            "status": self.status,
            "settled": self.settled,
            "on_cards": list(self.on_cards),
            "passed_over": [{"name": n, "reason": r} for n, r in self.passed_over],
            "who": self.who,
            "paid": [{"player": n, "amount": a} for n, a in self.paid],
            "paid_text": self.paid_text,
        }


def tied_words(award: AwardView) -> str:
    """What happened to a winner level first with someone passed over: "tied with Ellie,
    who went home".

    >>> tied_words({"prize": "most_buncos", "label": "Most Buncos", "group": None,
    ...             "team": False, "winners": ["Bea"], "status": "won", "by_cards": True,
    ...             "tied_with": ["Ellie"], "passed_over": [{"name": "Ellie", "reason": "absent"}]})
    'tied with Ellie, who went home'
    """
    why = {p["name"]: p["reason"] for p in award["passed_over"]}
    parts = [
        f"{name}, who " + ("went home" if why.get(name) == "absent" else str(why.get(name, "")))
        for name in award["tied_with"]
    ]
    return "tied with " + " and ".join(parts)


def prize_name(label: str, group: str | None) -> str:
    """A prize as the sheets print it: ``Most Buncos (Team 1)``."""
    return label + (f" ({group})" if group else "")


def winner_rows(night: Night, data: PrizeMoneyReport | None = None) -> list[WinnerRow]:
    """Every prize as handed out (empty until the prizes are decided); ``data`` is the
    night's :func:`~bunco.core.settlement.prize_money` when the caller has it already."""
    data = prize_money(night) if data is None else data
    money = data["money"]
    paid: dict[tuple[str, str | None], PrizeMoney] = {}
    currency = None  # the currency sign of a night with money
    if money is not None:
        paid = {(p["prize"], p["group"]): p for p in money["prizes"]}
        currency = str(money["currency"])
    cards = {(p.category, p.group): p for p in night.prizes}
    rows = []
    for award in data["awards"]:
        key = (award["prize"], award["group"])
        prize = cards.get(key)
        judged = prize is None
        handed = tuple(award["winners"])
        first = (
            tuple(prize.winners)
            if prize is not None
            else next(
                (tuple(r[:1]) for (k, g), r in night.host.judged.items() if (k, g) == key), ()
            )
        )
        if len(handed) > 1:
            settled = "shared"
        elif award.get("tied_with"):
            settled = tied_words(award)
        elif award["passed_over"]:
            settled = "next in line"
        elif prize is not None and prize.settled_by == "roll_off":
            settled = "after a roll-off"
        else:
            settled = ""
        if judged:
            settled = "judged" + (f", {settled}" if settled else "")
        rows.append(
            WinnerRow(
                prize=award["prize"],
                group=award["group"],
                name=prize_name(award["label"], award["group"]),
                figure="" if prize is None or prize.value is None else str(prize.value),
                handed_to=handed,
                amount=_amount(paid.get(key), currency, award),
                status=award["status"],
                settled=settled,
                on_cards=first,
                passed_over=tuple((p["name"], p["reason"]) for p in award["passed_over"])
                + _members_away(night, award),
                paid=_members_paid(paid.get(key), currency) if award["team"] else (),
            )
        )
    return rows


def _members_away(night: Night, award: AwardView) -> tuple[tuple[str, str], ...]:
    """The members of a winning group passed over because they went home (when the night
    says you must be present to win): a group prize is paid to the members present."""
    if not award["team"] or award["status"] != "won" or not presence_required(night):
        return ()
    absent = night.host.absent
    return tuple(
        (m, f"absent ({group})")
        for group in award["winners"]
        for m in night.groups.get(group, ())
        if m in absent
    )


def _members_paid(entry: PrizeMoney | None, c: str | None) -> tuple[tuple[str, str], ...]:
    """A group prize's members paid, each with the amount (``c``: the currency sign)."""
    if entry is None or c is None:
        return ()
    return tuple((p["player"], c + p["amount"]) for p in entry["paid_to"])


def _amount(entry: PrizeMoney | None, c: str | None, award: AwardView) -> str:
    """A prize's amount in words (``c``: the currency sign; "" without money)."""
    if entry is None or c is None:
        return ""
    whole = str(entry["amount"])
    if award["status"] == "nobody":  # a cashier reads an amount as money to hand over
        return f"{c}{whole} not paid out"
    if award["status"] != "won":
        return c + whole
    if award["team"] and len(award["winners"]) > 1:
        per_group, _ = split(Decimal(whole), len(award["winners"]))
        return f"{c}{whole} ({c}{money_text(per_group)} a group)"
    parts = {p["amount"] for p in entry["paid_to"]}
    if len(entry["paid_to"]) > 1 and len(parts) == 1:
        return f"{c}{whole} ({c}{parts.pop()} each)"
    return c + whole


def prizes_status(night: Night) -> str | None:
    """Why nobody is named yet, in words (None once the prizes are decided or due)."""
    if waiting_for_cards(night):
        waiting = awaiting_cards(night)
        return (
            (
                "The prizes wait for the staff to verify the cards of "
                + ", ".join(waiting)
                + ", or for the host to close the cards."
            )
            if waiting
            else None
        )
    return None


def handed_prizes(night: Night) -> dict[str, list[str]]:
    """The prizes each player is handed, as printed (a group prize under each member paid,
    or each member when the night has no money): for the standings and their CSV."""
    out: dict[str, list[str]] = {name: [] for name in night.roster}
    data = prize_money(night)
    paid_to = {(p["player"], p["prize"], p["group"]) for p in data["payouts"]}
    for row, award in zip(winner_rows(night, data), data["awards"], strict=True):
        if award["status"] != "won":
            continue
        if award["team"]:
            for group in award["winners"]:
                away = {m for m, _ in _members_away(night, award)}
                for member in night.groups.get(group, ()):
                    if (data["money"] is None and member not in away) or (
                        member,
                        award["prize"],
                        group,
                    ) in paid_to:
                        out.setdefault(member, []).append(prize_name(award["label"], group))
            continue
        for name in award["winners"]:
            out.setdefault(name, []).append(
                row.name + (" (shared)" if row.settled == "shared" else "")
            )
    return out


def money_part(night: Night) -> WinnersPart:
    """The report's and the live view's ``awards``, ``money``, ``payouts`` and
    ``prize_winners`` (the rows of :func:`winner_rows`) and ``prizes_status``."""
    data = prize_money(night)
    return {
        **data,
        "prize_winners": [r.as_dict() for r in winner_rows(night, data)],
        "prizes_status": prizes_status(night),
    }
