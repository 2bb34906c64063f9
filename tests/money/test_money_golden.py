"""The golden tournament night with prize money (tests/party/golden/tournament-money-12.jsonl,
built by build_money_golden.py from the rolls of tournament-12.jsonl).

Verified cards after round 6 (Buncos, Minis, Wins), two teams of six:
Team 1: Ann 1 1 3, Bea 1 1 3, Cat 1 0 2, Dee 0 0 2, Eve 0 0 3, Fay 0 1 5
Team 2: Gus 0 0 2, Hal 1 0 3, Ivy 1 0 2, Jo 2 0 3, Kim 0 0 3, Lou 0 0 5
Ties are shared; one prize per person; must be present to win; Eve goes home.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from bunco.core.errors import LogError
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report

GOLDEN = Path(__file__).parent.parent / "party" / "golden" / "tournament-money-12.jsonl"


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return night_report(read_log(GOLDEN.read_text().splitlines()))


def test_the_payout_sheet_of_the_tournament(report: dict[str, Any]) -> None:
    assert report["phase"] == "over"
    rows = [(p["player"], p["prize"], p["group"], p["amount"]) for p in report["payouts"]]
    team2 = [
        (n, "group_most_buncos", "Team 2", "16.66")
        for n in ("Gus", "Hal", "Ivy", "Jo", "Kim", "Lou")
    ]
    team1 = [
        (n, "group_best_costume", "Team 1", "5.00") for n in ("Ann", "Bea", "Cat", "Dee", "Fay")
    ]  # Eve is absent
    # One prize per person, the most valuable first (what each winner receives): Jo's $100;
    # Team 1's Most Minis (Ann, Bea, Fay: $16.66 each) leaves out Ann, who takes a share of
    # Most Buncos ($33.33, more), then Fay, who takes Most Wins ($40, more than $25): Bea
    # takes it whole ($50). Most Buncos of Team 1 then goes to Ann and Cat, $50 each.
    assert rows == [
        ("Ann", "most_buncos", "Team 1", "50.00"),
        ("Cat", "most_buncos", "Team 1", "50.00"),
        ("Jo", "most_buncos", "Team 2", "100.00"),
        ("Bea", "most_mini_buncos", "Team 1", "50.00"),
        ("Fay", "most_wins", "Team 1", "40.00"),
        ("Lou", "most_wins", "Team 2", "40.00"),
        *team2,
        ("Kim", "best_costume", "Team 2", "25.00"),  # Jo, ranked first, already won
        *team1,
    ]
    awards = {(a["prize"], a["group"]): a for a in report["awards"]}
    assert awards[("most_mini_buncos", "Team 1")]["passed_over"] == [
        {"name": "Ann", "reason": "takes Most Buncos (Team 1) instead"},
        {"name": "Fay", "reason": "takes Most Wins (Team 1) instead"},
    ]
    money = report["money"]
    assert (money["pot"], money["paid_out"], money["top_up"]) == ("0.00", "479.96", "479.96")
    # $100 six ways leaves 0.04, on a line of its own
    assert (money["remainder"], money["unawarded"]) == ("0.04", "75.00")
    assert money["left_over"] == [
        {
            "prize": "group_most_buncos",
            "label": "Group with the most Buncos",
            "group": None,
            "kind": "split",
            "amount": "0.04",
            "why": "Team 2's $100.00 among 6: $16.66 each",
        }
    ]
    assert sum(Decimal(p["amount"]) for p in report["payouts"]) == Decimal("479.96")


def test_one_prize_per_person_in_the_order_listed() -> None:
    lines = GOLDEN.read_text().splitlines()
    setup = json.loads(lines[0])
    setup["money"] = {"preset": "tournament", "one_prize_order": "listed"}
    report = night_report(read_log([json.dumps(setup), *lines[1:]]))
    rows = [(p["player"], p["prize"], p["amount"]) for p in report["payouts"]][:7]
    assert rows == [
        # Team 1's Most Buncos: Ann, Bea and Cat have one each: $100 three ways
        ("Ann", "most_buncos", "33.33"),
        ("Bea", "most_buncos", "33.33"),
        ("Cat", "most_buncos", "33.33"),
        ("Jo", "most_buncos", "100.00"),
        # Ann and Bea (one Mini each) already won: Fay's Mini takes it
        ("Fay", "most_mini_buncos", "50.00"),
        # Fay (5 wins), Ann, Bea (3) already won, Eve (3) is absent: Dee (2) is next
        ("Dee", "most_wins", "40.00"),
        ("Lou", "most_wins", "40.00"),
    ]
    assert report["money"]["paid_out"] == "479.95"
    assert report["money"]["one_prize_order"] == "listed"


def test_prizes_nobody_could_take(report: dict[str, Any]) -> None:
    awards = {(a["prize"], a["group"]): a for a in report["awards"]}
    assert awards[("most_mini_buncos", "Team 2")]["status"] == "nobody"  # no Minis in Team 2
    costume = awards[("best_costume", "Team 1")]
    assert costume["status"] == "nobody"
    assert costume["passed_over"] == [
        {"name": "Eve", "reason": "absent"},
        {"name": "Ann", "reason": "already won Most Buncos"},
    ]
    unpaid = [
        (p["prize"], p["group"], p["amount"])
        for p in report["money"]["prizes"]
        if p["status"] != "won"
    ]
    assert unpaid == [("most_mini_buncos", "Team 2", "50.00"), ("best_costume", "Team 1", "25.00")]


def test_the_break_drawing_is_recorded_and_rechecked(report: dict[str, Any]) -> None:
    (drawing,) = report["drawings"]
    assert drawing["candidates"][drawing["pick"]] == drawing["winner"] == "Eve"
    assert len(drawing["candidates"]) == 12
    assert report["break"] is None  # the host ended it


def test_a_tampered_drawing_is_refused() -> None:
    lines = GOLDEN.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"drawing"' in line)
    event = json.loads(lines[at])
    for change, message in (
        ({"winner": "Ann"}, "candidate 4 is Eve, not Ann"),
        (
            {"candidates": event["candidates"][::-1]},
            "the drawing's candidates are not the players who may win it now",
        ),
        ({"pick": 12}, "pick 12 is not a position among 12 candidates"),
    ):
        bad = [*lines[:at], json.dumps({**event, **change}), *lines[at + 1 :]]
        with pytest.raises(LogError) as caught:
            read_log(bad)
        assert caught.value.line == at + 1
        assert message in caught.value.message


def test_replay_prints_the_payouts() -> None:
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bunco", "replay", str(GOLDEN)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "120"},
    )
    assert "Payouts" in done.stdout
    assert "Host's top-up: $479.96" in done.stdout
    assert "Stays behind: Group with the most Buncos: $0.04" in done.stdout
    assert "Best Costume (Team 1): $25.00 (nobody to hand it to)" in done.stdout


def test_a_group_can_have_its_own_payout() -> None:
    lines = GOLDEN.read_text().splitlines()
    setup = json.loads(lines[0])
    setup["money"] = {
        "preset": "tournament",
        "payouts": [
            {"prize": "most_buncos", "amount": "100"},
            {"prize": "most_buncos", "group": "Team 2", "amount": "60"},
            {"prize": "group_most_buncos", "share": "100%"},
        ],
        "buy_in": "10",
        "top_up": True,
    }
    report = night_report(read_log([json.dumps(setup), *lines[1:]]))
    paid = {(p["player"], p["prize"]): p["amount"] for p in report["payouts"]}
    assert paid[("Ann", "most_buncos")] == "33.33"  # Team 1: the general $100
    assert paid[("Jo", "most_buncos")] == "60.00"  # Team 2's own payout
    assert paid[("Gus", "group_most_buncos")] == "20.00"  # 100% of 12 × $10, six ways
    money = report["money"]
    assert (money["pot"], money["paid_out"], money["top_up"]) == ("120.00", "279.99", "159.99")
