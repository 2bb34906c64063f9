"""``bunco play`` sets up prizes and money from flags: seeds/004's night without JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.errors import InvalidSetup
from bunco.core.party_log import read_log
from bunco.play.money_setup import MoneyOptions, parse_pay, party_fields

runner = CliRunner()
TEAMS = ["--group", "Team 1=Ann,Bea,Cat,Dee", "--group", "Team 2=Eve,Fay,Gus,Hal"]


def test_seed_004_night_from_flags_runs_to_paid_final_winners(tmp_path: Path) -> None:
    log = tmp_path / "charity.jsonl"
    result = runner.invoke(
        app,
        [
            "play",
            "--auto",
            "--json",
            "--rules",
            "tournament",
            "--seed",
            "4",
            "--log",
            str(log),
            "--players",
            "Ann,Bea,Cat,Dee,Eve,Fay,Gus,Hal",
            *TEAMS,
            "--house",
            "verify_for_prizes=true",
            "--house",
            "prize_ties=shared",
            "--money",
            "tournament",
            "--must-be-present",
            "--one-prize",
            "value",
        ],
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    party = json.loads(log.read_text().splitlines()[0])
    assert party["money"] == {"preset": "tournament"} and party["must_be_present"] is True
    assert party["one_prize_per_person"] is True
    night = read_log(log.read_text().splitlines())
    assert night.setup["judged"] == ["Best Costume"]  # the table brings its judged prize
    # the staff verified every card after the last round: the prizes on final cards
    assert report["verification"]["awaiting"] == [] and report["prizes"]
    assert all(
        c["current"] and c["after"] == {"set": 1, "round": 6}
        for c in report["verification"]["cards"].values()
    )
    paid = {p["player"] for p in report["payouts"] if p["prize"] == "most_wins"}
    for group, members in night.groups.items():
        best = max(night.cards[m].wins for m in members)
        handed = next(
            r for r in report["prize_winners"] if r["prize"] == "most_wins" and r["group"] == group
        )
        assert all(
            night.cards[m].wins == best or handed["passed_over"] for m in handed["handed_to"]
        )
        assert set(handed["handed_to"]) <= paid


def test_a_home_pot_from_flags(tmp_path: Path) -> None:
    log = tmp_path / "pot.jsonl"
    result = runner.invoke(
        app,
        [
            "play",
            "--auto",
            "--rules",
            "classic",
            "--players",
            "8",
            "--seed",
            "2",
            "--log",
            str(log),
            "--buy-in",
            "$4.75",
            "--pay",
            "most_buncos=50%",
            "--pay",
            "most wins=10",
            "--pay",
            "best costume=2.50",
            "--judged",
            "Best Costume",
            "--one-prize",
            "listed",
            "--breaks",
            "2,4",
            "--carried-over",
            "1",
        ],
    )
    assert result.exit_code == 0, result.stderr
    party = json.loads(log.read_text().splitlines()[0])
    assert party["money"] == {
        "currency": "$",
        "buy_in": "4.75",
        "carried_over": "1",
        "payouts": [
            {"prize": "most_buncos", "share": "50%"},
            {"prize": "most_wins", "amount": "10"},
            {"prize": "best_costume", "amount": "2.50"},
        ],
        "one_prize_order": "listed",
    }
    night = read_log(log.read_text().splitlines())
    assert night.rules.breaks_after_rounds == (2, 4)
    assert night.setup["money"]["buy_in"] == "4.75"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--pay", "most_buncos"], "--pay 'most_buncos' names no prize and what it pays"),
        (["--buy-in", "five"], "--buy-in 'five' is not an amount"),
        (["--money", "gold"], "--money 'gold' is not a money table"),
        (["--one-prize", "first"], "--one-prize 'first'"),
        (["--pay", "most_buncos=80%", "--pay", "most_wins=30%"], "the shares add up to 110%"),
        (["--pay", "best_costume=5"], "payout names 'best_costume', which is not a prize"),
    ],
)
def test_bad_money_flags_say_what_was_wrong(flags: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play", "--auto", "--players", "4", "--log", str(tmp_path / "x.jsonl"), *flags]
    )
    assert result.exit_code != 0
    assert message in " ".join(result.stderr.split()) and "expected" in result.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_party_fields_of_nothing_is_nothing() -> None:
    assert party_fields(MoneyOptions()) == {} and not MoneyOptions().given
    assert parse_pay("most_buncos@Team 1=50%") == {
        "prize": "most_buncos",
        "group": "Team 1",
        "share": "50%",
    }
    with pytest.raises(InvalidSetup):
        parse_pay("=5")
