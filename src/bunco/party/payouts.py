"""The payout sheet of a night: who gets how much for what, and each person's total.

A read model over the report's ``money`` and ``payouts`` (decided by
:mod:`bunco.core.settlement`); the night report, the CSV and the pages print it.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "classic", "players": ["Ann", "Bea"], '
...                   '"money": {"buy_in": "2"}}'])
>>> payout_sheet(night).summary[0]
'Pot: $4.00 (2 × $2.00)'
>>> payout_sheet(night).status()
'Not final yet: the night is still being played.'
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from bunco.core.money import money_text
from bunco.core.night import Night
from bunco.core.settlement import PrizeMoneyReport, amount_words, prize_money
from bunco.party.record_shapes import MoneyPart
from bunco.party.winners import money_part as _money_part
from bunco.party.winners import prize_name, prizes_status, winner_rows

__all__ = ["PayoutLine", "PayoutSheet", "money_part", "notes", "payout_sheet", "prize_name"]


@dataclass(frozen=True, slots=True)
class PayoutLine:
    player: str
    prize: str  # the prize's label, with its group
    amount: str  # with the currency sign: "$33.33"


@dataclass(frozen=True, slots=True)
class PayoutSheet:
    currency: str
    lines: tuple[PayoutLine, ...]
    totals: tuple[tuple[str, str], ...]  # (player, total with the currency sign), first paid first
    summary: tuple[str, ...]  # the pot, what was paid, the top-up, the remainder, what is left
    unpaid: tuple[str, ...]  # prizes with money nobody was handed (pending or nobody)
    final: bool
    left_over: tuple[str, ...] = ()  # one line per amount that stays behind (rounding, ...)
    passed_over: tuple[str, ...] = ()  # who was passed over for which prize, and why
    not_final: str = ""  # why the sheet is not final yet, in words
    closed: bool = False  # the host closed the night: the results are final

    def status(self, closed_at: str | None = None) -> str:
        """Provisional or final, in one line, as a cashier needs it on the sheet:
        "Final: the host closed the night at 22:41." (``closed_at``: when, in words),
        "Provisional: …" while the host may still correct the results, or why the amounts
        are not decided yet."""
        if self.closed:
            return f"Final: the host closed the night{f' at {closed_at}' if closed_at else ''}."
        if self.final:
            return (
                "Provisional: the host may still correct the results until the night is "
                "closed. Check again before paying."
            )
        return self.not_final


def money_part(night: Night) -> MoneyPart:
    """The report's and the live view's money: :func:`bunco.party.winners.money_part`,
    ``payout_notes``, the payout sheet's lines under the payouts (the pot, every amount
    that stays behind, who was passed over), so every page prints the sheet's own words,
    ``payout_totals``, each person's total to hand over (first paid first), and
    ``payout_status``, final, provisional or why not decided yet, in words."""
    data = _money_part(night)
    sheet = payout_sheet(night, data)
    return {
        **data,
        "payout_notes": notes(sheet) if sheet is not None else [],
        "payout_totals": [{"player": p, "total": t} for p, t in sheet.totals] if sheet else [],
        "payout_status": sheet.status() if sheet is not None else "",
    }


def payout_sheet(night: Night, data: PrizeMoneyReport | None = None) -> PayoutSheet | None:
    """The night's payout sheet, or None when the night carries no money; ``data`` is the
    night's :func:`~bunco.core.settlement.prize_money` when the caller has it already."""
    data = prize_money(night) if data is None else data
    money = data["money"]
    if money is None:
        return None
    c = money["currency"]
    lines = tuple(
        PayoutLine(p["player"], prize_name(p["label"], p["group"]), c + p["amount"])
        for p in data["payouts"]
    )
    totals: dict[str, Decimal] = {}
    for p in data["payouts"]:
        totals[p["player"]] = totals.get(p["player"], Decimal(0)) + Decimal(p["amount"])
    # a night without buy-in or money carried over has no pot: no line says "Pot: $0.00"
    pot = bool(Decimal(money["pot"]) or Decimal(money["buy_in"]))
    summary = (
        [
            f"Pot: {c}{money['pot']} ({money['players_paid']} × {c}{money['buy_in']}"
            + (
                f" + {c}{money['carried_over']} carried over"
                if Decimal(money["carried_over"])
                else ""
            )
            + ")"
        ]
        if pot
        else []
    )
    summary.append(f"Paid out: {c}{money['paid_out']}")
    if Decimal(money["top_up"]):
        summary.append(f"Host's top-up: {c}{money['top_up']}")
    if Decimal(money["remainder"]):
        summary.append(
            f"Remainder of shared prizes (cannot split to the cent): {c}{money['remainder']}"
        )
    if pot:
        summary.append(f"Left in the pot: {c}{money['left_in_pot']}")
    left_over = [
        f"{prize_name(x['label'], x['group'])}: {amount_words(Decimal(x['amount']), c)}"
        f" ({x['why']})"
        for x in money["left_over"]
    ]
    unallotted = Decimal(money["unallotted"])
    if unallotted and not Decimal(money["top_up"]):
        left_over.append(f"Not given as any prize: {amount_words(unallotted, c)}")
    passed = tuple(
        f"{row.name}: handed to {row.who}; passed over {row.passed_text}"
        for row in winner_rows(night, data)
        if row.passed_over
    )
    unpaid = tuple(
        f"{prize_name(p['label'], p['group'])}: {c}{p['amount']} "
        + (
            "(waiting: roll-off or judging)"
            if p["status"] == "pending"
            else "(nobody to hand it to)"
        )
        for p in money["prizes"]
        if p["status"] != "won"
    )
    return PayoutSheet(
        currency=c,
        lines=lines,
        totals=tuple((name, c + money_text(total)) for name, total in totals.items()),
        summary=tuple(summary),
        unpaid=unpaid,
        final=bool(money["final"]),
        left_over=tuple(left_over),
        passed_over=passed,
        not_final=_not_final(night, bool(money["final"])),
        closed=night.closed,
    )


def _not_final(night: Night, final: bool) -> str:
    """Why the payout sheet may still change ("" once it is final)."""
    if final:
        return ""
    waiting = prizes_status(night)
    if waiting:
        return "Not final yet: " + waiting[0].lower() + waiting[1:]
    if night.phase == "rolloff":
        return "Not final yet: a prize roll-off is due."
    if night.phase == "over":
        return "Not final yet: the prizes wait for the cards to be verified or closed."
    return "Not final yet: the night is still being played."


def notes(sheet: PayoutSheet) -> list[str]:
    """The lines under the payouts: the pot and what is left, every amount that stays
    behind (a line each), the prizes nobody was handed, who was passed over and why."""
    out = [*sheet.summary]
    out += [f"Stays behind: {line}" for line in sheet.left_over]
    out += [*sheet.unpaid, *sheet.passed_over]
    return out
