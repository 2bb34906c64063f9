"""One prize per person by value (issue 22, point 4): a player who wins two prizes keeps
the one worth more to them, wherever it is listed, and the other goes to the next in
line; "in the order listed" keeps the first listed. Every cent that stays behind (a
share rounded down to the cent, a shared prize that does not split) is a line of its own.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from test_money_payouts import one_table_night

from bunco.party.night_report import night_report
from bunco.party.payouts import notes, payout_sheet

# Ann wins all six rounds with six Buncos; Bea, Cat and Dee win two each. Most Wins is
# listed first and is worth less to Ann than Most Buncos.
PAYOUTS = [{"prize": "most_wins", "amount": "2"}, {"prize": "most_buncos", "share": "33.3%"}]


def _report(order: str | None) -> dict[str, Any]:
    money: dict[str, Any] = {"buy_in": "4.75", "payouts": PAYOUTS}
    if order:
        money["one_prize_order"] = order
    night = one_table_night(
        money=money, one_prize_per_person=True, prizes=["most_wins", "most_buncos"]
    )
    sheet = payout_sheet(night)
    assert sheet is not None
    return {"report": night_report(night), "notes": notes(sheet)}


def test_by_value_the_winner_keeps_the_prize_worth_more() -> None:
    got = _report(None)
    report = got["report"]
    wins, buncos = report["awards"]
    # 33.3% of the $19.00 pot is $6.327: Ann keeps Most Buncos ($6.32), worth more than
    # the $2 of Most Wins, which passes to Bea, Cat and Dee (two wins each)
    assert buncos["winners"] == ["Ann"] and buncos["passed_over"] == []
    assert wins["winners"] == ["Bea", "Cat", "Dee"]
    assert wins["passed_over"] == [{"name": "Ann", "reason": "already won Most Buncos"}]
    assert [(p["player"], p["prize"], p["amount"]) for p in report["payouts"]] == [
        ("Bea", "most_wins", "0.66"),
        ("Cat", "most_wins", "0.66"),
        ("Dee", "most_wins", "0.66"),
        ("Ann", "most_buncos", "6.32"),
    ]
    money = report["money"]
    assert report["money"]["one_prize_order"] == "value"
    assert [(x["prize"], x["kind"], x["amount"]) for x in money["left_over"]] == [
        ("most_wins", "split", "0.02"),
        ("most_buncos", "rounding", "0.007"),
    ]
    paid = Decimal(money["paid_out"])
    assert paid == Decimal("8.30") and Decimal(money["remainder"]) == Decimal("0.02")
    # every cent of the pot: paid, the split's two cents, the share's rounding, the rest
    # not given as any prize
    assert Decimal(money["pot"]) == paid + Decimal(money["left_in_pot"]) == Decimal("19.00")
    assert got["notes"][:4] == [
        "Pot: $19.00 (4 × $4.75)",
        "Paid out: $8.30",
        "Remainder of shared prizes (cannot split to the cent): $0.02",
        "Left in the pot: $10.70",
    ]
    assert "Stays behind: Most Wins: $0.02 ($2.00 shared 3 ways: $0.66 each)" in got["notes"]
    assert (
        "Stays behind: Most Buncos: $0.007 (33.3% of $19.00 is $6.327: paid $6.32)" in got["notes"]
    )


def test_in_the_order_listed_the_winner_keeps_the_first() -> None:
    report = _report("listed")["report"]
    wins, buncos = report["awards"]
    assert wins["winners"] == ["Ann"]
    assert buncos["passed_over"] == [{"name": "Ann", "reason": "already won Most Wins"}]
    assert ("Ann", "most_wins", "2.00") in [
        (p["player"], p["prize"], p["amount"]) for p in report["payouts"]
    ]
    assert all(p["player"] != "Ann" or p["prize"] == "most_wins" for p in report["payouts"])
