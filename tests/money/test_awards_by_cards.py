"""Each award says whether the cards decide it or the host judges it (``by_cards``): the
pages show the judged and passed-over prizes from that, not from a list of their own."""

from __future__ import annotations

from test_money_payouts import one_table_night

from bunco.core.awards import decide_awards
from bunco.party.night_report import night_report


def test_awards_say_which_prizes_the_cards_decide() -> None:
    night = one_table_night(judged=["Best Costume"], prizes=["most_buncos", "last_bunco"])
    night = night.apply({"type": "judge", "prize": "best_costume", "winner": "Cat"})
    awards = {a.prize: a.as_dict() for a in decide_awards(night)}
    assert {k: a["by_cards"] for k, a in awards.items()} == {
        "most_buncos": True,
        "last_bunco": True,
        "best_costume": False,
    }
    assert awards["best_costume"]["winners"] == ["Cat"]
    report = night_report(night)
    assert [a["by_cards"] for a in report["awards"]] == [True, True, False]


def test_a_judged_prize_still_waiting_is_not_the_cards_either() -> None:
    night = one_table_night(judged=["Best Costume"])
    (costume,) = [a for a in decide_awards(night) if a.prize == "best_costume"]
    assert costume.status == "pending" and costume.as_dict()["by_cards"] is False
