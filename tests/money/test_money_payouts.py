"""Payouts with exact decimals: fixed amounts and shares, shared prizes split to the cent,
prizes passed on to the next in line, and the bad money a night refuses."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from typing import Any

import pytest

from bunco.core.errors import InvalidSetup
from bunco.core.night import Night
from bunco.core.settlement import split
from bunco.party.night_report import night_report
from night_helpers import party, roll

PLAYERS = ["Ann", "Bea", "Cat", "Dee"]


def one_table_night(**extra: Any) -> Night:
    """Four players, one table; every round its first roller rolls a Bunco (21, the bell)
    and then misses: Ann wins all six rounds with 6 Buncos; the partners change every round,
    so Bea, Cat and Dee each win two and lose four."""
    night = party("classic", PLAYERS, tables=[PLAYERS], prize_ties="shared", **extra)
    for r in range(1, 7):
        assert night.tables[0].roller == "Ann"
        miss = [f for f in range(1, 7) if f != r][:3]
        night = roll(night, 1, r, r, r)
        night = roll(night, 1, *miss)
    assert night.phase == "over"
    return night


def test_split_is_exact_to_the_cent_with_the_remainder_stated() -> None:
    assert split(Decimal("100"), 3) == (Decimal("33.33"), Decimal("0.01"))
    assert split(Decimal("25.00"), 5) == (Decimal("5.00"), Decimal("0.00"))
    assert split(Decimal("0.05"), 2) == (Decimal("0.02"), Decimal("0.01"))
    each, rest = split(Decimal("1000000.01"), 7)
    assert each * 7 + rest == Decimal("1000000.01") and rest < Decimal("0.07")


def test_fixed_amounts_and_shares_of_the_pot() -> None:
    money = {
        "currency": "€",
        "buy_in": "7.50",
        "payouts": [
            {"prize": "most_buncos", "share": "50%"},
            {"prize": "most_wins", "share": "12.5%"},
            {"prize": "most_losses", "amount": "10"},
        ],
    }
    report = night_report(
        one_table_night(money=money, prizes=["most_buncos", "most_wins", "most_losses"])
    )
    m = report["money"]
    assert (m["currency"], m["buy_in"], m["players_paid"], m["pot"]) == ("€", "7.50", 4, "30.00")
    # 50% of 30.00 = 15.00 and 12.5% = 3.75 to Ann; Bea, Cat and Dee share Most Losses:
    # 10.00 three ways is 3.33 each, with 0.01 left over
    assert [(p["player"], p["prize"], p["amount"]) for p in report["payouts"]] == [
        ("Ann", "most_buncos", "15.00"),
        ("Ann", "most_wins", "3.75"),
        ("Bea", "most_losses", "3.33"),
        ("Cat", "most_losses", "3.33"),
        ("Dee", "most_losses", "3.33"),
    ]
    assert m["prizes"][2]["remainder"] == "0.01"
    assert (m["paid_out"], m["remainder"], m["left_in_pot"], m["top_up"]) == (
        "28.74",
        "0.01",
        "1.26",
        "0.00",
    )
    assert sum(Decimal(p["amount"]) for p in report["payouts"]) == Decimal(m["paid_out"])


def test_one_prize_per_person_passes_a_prize_to_the_next_in_line() -> None:
    money = {
        "buy_in": "5",
        "payouts": [
            {"prize": "most_buncos", "amount": "10"},
            {"prize": "most_wins", "amount": "6"},
        ],
    }
    report = night_report(
        one_table_night(money=money, one_prize_per_person=True, prizes=["most_buncos", "most_wins"])
    )
    wins = report["awards"][1]
    # Ann has the most wins but already won Most Buncos: the next in line, Bea, Cat and
    # Dee (two wins each), share it
    assert wins["winners"] == ["Bea", "Cat", "Dee"]
    assert wins["passed_over"] == [{"name": "Ann", "reason": "already won Most Buncos"}]
    assert report["prizes"][1]["winners"] == ["Ann"]  # the cards' prize itself is unchanged
    assert [(p["player"], p["amount"]) for p in report["payouts"]] == [
        ("Ann", "10.00"),
        ("Bea", "2.00"),
        ("Cat", "2.00"),
        ("Dee", "2.00"),
    ]


def test_must_be_present_passes_over_absentees_and_nobody_left_leaves_the_money() -> None:
    money = {
        "buy_in": "5",
        "payouts": [
            {"prize": "most_buncos", "amount": "10"},
            {"prize": "most_losses", "amount": "4"},
        ],
    }
    night = one_table_night(
        money=money, must_be_present=True, prizes=["most_buncos", "most_losses"]
    )
    night = night.apply({"type": "absent", "player": "Ann"}).apply(
        {"type": "absent", "player": "Bea"}
    )
    report = night_report(night)
    # nobody else rolled a Bunco: nobody is next in line for Most Buncos
    assert report["awards"][0]["status"] == "nobody"
    assert report["awards"][0]["passed_over"] == [{"name": "Ann", "reason": "absent"}]
    assert report["awards"][1]["passed_over"] == [{"name": "Bea", "reason": "absent"}]
    assert [(p["player"], p["amount"]) for p in report["payouts"]] == [
        ("Cat", "2.00"),
        ("Dee", "2.00"),
    ]
    assert (report["money"]["unawarded"], report["money"]["left_in_pot"]) == ("10.00", "16.00")
    back = night_report(night.apply({"type": "present", "player": "Ann"}))
    assert back["payouts"][0] == {
        "player": "Ann",
        "prize": "most_buncos",
        "label": "Most Buncos",
        "group": None,
        "amount": "10.00",
    }


def test_top_up_states_what_the_host_adds() -> None:
    money = {"buy_in": "1", "top_up": True, "payouts": [{"prize": "most_buncos", "amount": "10"}]}
    m = night_report(one_table_night(money=money))["money"]
    assert (m["pot"], m["paid_out"], m["top_up"], m["left_in_pot"]) == (
        "4.00",
        "10.00",
        "6.00",
        "0.00",
    )


def test_a_night_without_money_has_no_payouts() -> None:
    report = night_report(one_table_night())
    assert report["money"] is None and report["payouts"] == []
    assert [a["winners"] for a in report["awards"]][:1] == [["Ann"]]


@pytest.mark.parametrize(
    ("money", "message"),
    [
        (
            {"payouts": [{"prize": "most_bunco", "amount": "1"}]},
            "payout names 'most_bunco', which is not a prize of the night",
        ),
        ({"buy_in": "-5"}, "buy_in '-5' is negative"),
        (
            {"buy_in": "5", "payouts": [{"prize": "most_wins", "amount": "-1"}]},
            "amount for most_wins '-1' is negative",
        ),
        ({"buy_in": 2.5}, "buy_in 2.5 is not an amount"),
        ({"buy_in": "2.505"}, "buy_in '2.505' is not in whole cents"),
        (
            {"buy_in": "5", "payouts": [{"prize": "most_wins", "amount": "21"}]},
            "the payouts come to $21.00, more than the pot of $20.00 (4 × $5.00)",
        ),
        (
            {
                "buy_in": "5",
                "top_up": True,
                "payouts": [
                    {"prize": "most_wins", "share": "60%"},
                    {"prize": "most_buncos", "share": "50%"},
                ],
            },
            "the shares add up to 110% of the pot",
        ),
        ({"payouts": [{"prize": "most_wins", "share": "0%"}]}, "share '0%' is not a share"),
        (
            {"payouts": [{"prize": "most_wins", "share": "50%", "amount": "1"}]},
            "needs an amount or a share, not both",
        ),
        (
            {"payouts": [{"prize": "most_wins", "group": "Team 1", "amount": "1"}]},
            "payout for most_wins names group 'Team 1'",
        ),
        ({"preset": "casino"}, "there is no money preset 'casino'"),
        ({"pot": "5"}, "money has no field 'pot'"),
    ],
)
def test_bad_money_is_refused_with_what_was_wrong(money: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidSetup) as caught:
        party("classic", PLAYERS, money=money)
    assert message in caught.value.message
    assert caught.value.expected


def test_the_tournament_money_table_brings_its_judged_prize() -> None:
    implied = party(
        "tournament", PLAYERS, groups={"A": PLAYERS[:2], "B": PLAYERS[2:]}, money="tournament"
    )
    assert implied.setup["judged"] == ["Best Costume"]
    night = party(
        "tournament",
        PLAYERS,
        groups={"A": PLAYERS[:2], "B": PLAYERS[2:]},
        money="tournament",
        judged=["Best Costume"],
    )
    assert night.setup["money"]["top_up"] is True
    assert night.setup["money"]["payouts"][0] == {"prize": "most_buncos", "amount": "100.00"}


def test_replay_refuses_bad_money_on_the_first_line(tmp_path: Any) -> None:
    log = tmp_path / "night.jsonl"
    log.write_text(
        json.dumps(
            {
                "players": PLAYERS,
                "money": {"buy_in": "5", "payouts": [{"prize": "most_wins", "amount": "30"}]},
            }
        )
        + "\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "bunco", "replay", str(log), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0 and done.stdout == ""
    assert "line 1: the payouts come to $30.00, more than the pot of $20.00" in done.stderr
    assert 'expected: payouts within the pot, or "top_up": true' in done.stderr
