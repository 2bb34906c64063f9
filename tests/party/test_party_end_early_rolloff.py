"""A night the host ends early: its roll-offs are for the number of the round just completed.

000: "points are scored for rolling the number of the round just completed, as well as for
Buncos". After ``end_night`` following round 2 that is 2s, not 6s, both for a tied
``winning-moves`` set and for a tied prize.
"""

from __future__ import annotations

import json
from pathlib import Path

from party_helpers import miss, party, roll
from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.night import Night
from bunco.party.view import live_view
from night_helpers import night_log

END = {"type": "end_night"}


def wm_tied_after_two_rounds() -> Night:
    """Ann and Bea (winning-moves, one table): one Bunco and one win each, then the end."""
    night = party("winning-moves", ["Ann", "Bea"], sets=2)
    night = roll(night, 1, 1, 1, 1, player="Ann")  # a Bunco ends round 1 for Ann
    assert night.round_no == 2
    roller = night.tables[0].roller
    other = "Ann" if roller == "Bea" else "Bea"
    if roller == "Ann":  # Ann misses so that Bea rolls the Bunco of round 2
        night = roll(night, 1, 3, 4, 5, player="Ann")
    night = roll(night, 1, 2, 2, 2, player="Bea")
    assert night.round_no == 3 and {roller, other} == {"Ann", "Bea"}
    return night.apply(END)


def test_a_tied_set_ended_early_rolls_off_for_the_round_just_completed() -> None:
    night = wm_tied_after_two_rounds()
    assert night.phase == "rolloff" and night.rolloff is not None
    assert night.rolloff.round_no == 2
    assert live_view(night)["rolloff"]["round"] == 2
    night = roll(night, None, 6, 6, 5, player="Ann")  # 17 for high: Ann starts
    night = roll(night, None, 1, 1, 3, player="Bea")
    assert night.rolloff is not None and night.rolloff.roller == "Ann"
    night = roll(night, None, 6, 6, 6, player="Ann")  # three 6s: nothing in a roll-off for 2s
    assert night.rolloff is not None
    assert dict(zip(night.rolloff.order, night.rolloff.points, strict=True)) == {"Ann": 0, "Bea": 0}
    assert night.rolloff.roller == "Bea"  # and Ann's turn ended
    night = roll(night, None, 2, 2, 5, player="Bea")  # two 2s: 2 points, Bea rolls on
    assert night.rolloff is not None and night.rolloff.roller == "Bea"
    night = roll(night, None, 2, 3, 2, player="Bea")  # 4
    night = roll(night, None, 2, 1, 1, player="Bea")  # 5: Bea wins the set
    assert night.phase == "over"
    assert night.set_results[0].winner == "Bea"
    assert night.set_results[0].settled_by == "roll_off"


def test_a_set_played_to_the_end_still_rolls_off_for_6s() -> None:
    night = party("winning-moves", ["Ann", "Bea"])
    while night.phase == "playing":  # Ann takes rounds 1-3 with a Bunco, Bea rounds 4-6
        roller, round_no = night.tables[0].roller, night.round_no
        wants = "Ann" if round_no <= 3 else "Bea"
        night = roll(night, 1, *([round_no] * 3 if roller == wants else miss(round_no)))
    assert night.rolloff is not None and night.rolloff.round_no == 6


def test_a_tied_prize_after_an_early_end_rolls_off_for_that_round(tmp_path: Path) -> None:
    night = party("classic", ["Ann", "Bea", "Cat", "Dee"])
    night = roll(night, 1, 1, 1, 1, player="Ann")  # a Bunco: 21, the bell; Ann rolls on
    night = roll(night, 1, 2, 3, 4, player="Ann")  # her turn ends: Ann and Cat win round 1
    assert night.round_no == 2 and not night.started
    night = night.apply(END)
    assert night.phase == "rolloff" and night.rolloff is not None
    assert night.rolloff.purpose == "Most Wins" and night.rolloff.players == ("Ann", "Cat")
    assert night.rolloff.round_no == 1
    night = roll(night, None, 6, 6, 6, player="Ann")
    night = roll(night, None, 1, 2, 3, player="Cat")  # Ann starts
    night = roll(night, None, 1, 1, 1, player="Ann")  # a Bunco of 1s wins at once
    most_wins = next(p for p in night.prizes if p.category == "most_wins")
    assert most_wins.winners == ("Ann",) and most_wins.settled_by == "roll_off"

    # The same log through `bunco replay --json`: the roll-off and its winner
    path = tmp_path / "early.jsonl"
    path.write_text(night_log(night), encoding="utf-8")
    shown = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert shown.exit_code == 0, shown.output
    report = json.loads(shown.stdout)
    prize = next(p for p in report["prizes"] if p["category"] == "most_wins")
    assert prize["winners"] == ["Ann"] and prize["settled_by"] == "roll_off"


def test_replay_shows_the_early_end_roll_off_for_the_round_just_completed(tmp_path: Path) -> None:
    night = wm_tied_after_two_rounds()
    night = roll(night, None, 6, 6, 5, player="Ann")
    night = roll(night, None, 1, 1, 3, player="Bea")
    night = roll(night, None, 2, 2, 2, player="Ann")  # a Bunco of 2s: 21, Ann wins
    assert night.set_results[0].winner == "Ann"
    path = tmp_path / "wm.jsonl"
    path.write_text(night_log(night), encoding="utf-8")
    report = json.loads(CliRunner().invoke(app, ["replay", str(path), "--json"]).stdout)
    assert report["set_winners"][0]["winner"] == "Ann"
    assert report["set_winners"][0]["settled_by"] == "roll_off"
    # cut before the last roll, replay says a roll-off for 2s is due
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    report = json.loads(CliRunner().invoke(app, ["replay", str(path), "--json"]).stdout)
    assert report["rolloff"]["round"] == 2 and report["rolloff"]["roller"] == "Ann"
    shown = " ".join(CliRunner().invoke(app, ["replay", str(path)]).stdout.split())
    assert "Roll-off due for set 1 winner between Ann, Bea, rolling for 2s; next: Ann" in shown
