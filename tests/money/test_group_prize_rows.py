"""A group prize as handed out (issue 22, "one truth about winners"): the row names each
member paid and the amount, and the members passed over because they went home, on the
golden tournament night (Eve of Team 1 has gone home; must be present)."""

from __future__ import annotations

from pathlib import Path

from bunco.core.party_log import read_log
from bunco.party.payouts import money_part
from bunco.party.winners import handed_prizes, winner_rows

GOLDEN = Path(__file__).resolve().parents[1] / "party" / "golden" / "tournament-money-12.jsonl"


def test_group_rows_name_the_members_paid_and_those_away() -> None:
    night = read_log(GOLDEN.read_text(encoding="utf-8").splitlines())
    rows = {r.prize: r for r in winner_rows(night)}
    costume = rows["group_best_costume"]
    assert costume.handed_to == ("Team 1",) and costume.amount == "$25.00 ($5.00 each)"
    assert costume.passed_over == (("Eve", "absent (Team 1)"),)
    assert costume.paid_text == "Ann, Bea, Cat, Dee, Fay $5.00 each"
    buncos = rows["group_most_buncos"]
    assert buncos.passed_over == () and buncos.paid_text.endswith("Lou $16.66 each")
    assert "Group with the Best Costume (Team 1)" not in handed_prizes(night)["Eve"]
    view = money_part(night)
    assert (
        "Group with the Best Costume: handed to Team 1 (judged); passed over Eve: absent (Team 1)"
    ) in view["payout_notes"]
    row = next(r for r in view["prize_winners"] if r["prize"] == "group_best_costume")
    assert row["paid"][0] == {"player": "Ann", "amount": "$5.00"}
