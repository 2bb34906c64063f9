"""The payout sheet read as a cashier reads it (issue 36): each person's total to hand
over, final (with the time closed) or provisional in one line, a prize nobody could take
said in words and not as an amount to pay, and no pot line on a night without a pot."""

from __future__ import annotations

from pathlib import Path

from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.payouts import money_part, payout_sheet
from bunco.party.view import live_view
from bunco.party.winners import winner_rows

GOLDEN = Path(__file__).parent.parent / "party" / "golden" / "tournament-money-12.jsonl"


def golden() -> Night:
    return read_log(GOLDEN.read_text().splitlines())


def test_a_tournament_without_buy_in_has_no_pot_line_and_says_who_to_pay() -> None:
    night = golden()
    sheet = payout_sheet(night)
    assert sheet is not None
    assert not any(line.startswith(("Pot:", "Left in the pot:")) for line in sheet.summary)
    assert sheet.summary[0] == "Paid out: $479.96"
    totals = dict(sheet.totals)
    assert totals["Jo"] == "$116.66"
    view = live_view(night)
    assert {"player": "Jo", "total": "$116.66"} in view["payout_totals"]
    assert len(view["payout_totals"]) == len(sheet.totals)


def test_a_pot_night_keeps_its_pot_lines() -> None:
    night = read_log(
        [
            '{"type": "party", "rules": "classic", "players": ["Ann", "Bea"], '
            '"money": {"buy_in": "2"}}'
        ]
    )
    sheet = payout_sheet(night)
    assert sheet is not None
    assert sheet.summary[0] == "Pot: $4.00 (2 × $2.00)"
    assert sheet.summary[-1] == "Left in the pot: $4.00"
    assert sheet.status() == "Not final yet: the night is still being played."


def test_provisional_until_closed_then_final_with_the_time() -> None:
    night = golden()
    sheet = payout_sheet(night)
    assert sheet is not None and sheet.final and not sheet.closed
    assert sheet.status().startswith("Provisional: the host may still correct the results")
    assert money_part(night)["payout_status"] == sheet.status()
    closed = night.apply({"type": "close_night"})
    final = payout_sheet(closed)
    assert final is not None and final.closed
    assert final.status("22:41 on 28 Nov 2026") == (
        "Final: the host closed the night at 22:41 on 28 Nov 2026."
    )
    assert final.status() == "Final: the host closed the night."


def test_a_prize_nobody_could_take_reads_as_not_paid() -> None:
    rows = {(r.prize, r.group): r for r in winner_rows(golden())}
    costume = rows[("best_costume", "Team 1")]
    assert costume.status == "nobody"
    assert costume.who == "nobody to hand it to"
    assert costume.amount == "$25.00 not paid out"
    paid = rows[("most_buncos", "Team 1")]
    assert paid.amount == "$100.00 ($50.00 each)"
