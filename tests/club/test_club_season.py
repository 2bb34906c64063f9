"""A club's season as pure folds: roster, nights from the roster, standings, ledger; and
`bunco club` on a database."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from bunco.club.club import Club, roster_for_night
from bunco.club.nights import night_setup
from bunco.club.season import pot_to_carry, season_ledger, season_progress, season_standings
from bunco.core.errors import BuncoError
from bunco.core.night import Night
from night_helpers import roll

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def club() -> Club:
    c = Club.start(
        {
            "name": "Tuesday Club",
            "dues": "5",
            "prize_ties": "shared",
            "payouts": [
                {"prize": "most_buncos", "share": "50%"},
                {"prize": "most_wins", "amount": "4"},
            ],
        }
    )
    return c.apply_all(
        [{"type": "member", "name": n} for n in FOUR]
        + [
            {"type": "member", "name": "Zoe", "role": "substitute"},
            {"type": "season", "name": "2026"},
        ]
    )


def one_sided(setup: dict[str, Any]) -> Night:
    """Every round the table's first roller rolls a Bunco and then misses."""
    night = Night.start({**setup, "tables": [setup["players"]]})
    for r in range(1, 7):
        night = roll(night, 1, r, r, r)
        night = roll(night, 1, *[f for f in range(1, 7) if f != r][:3])
    assert night.phase == "over"
    return night


def test_a_night_of_the_club_starts_with_its_roster_and_money() -> None:
    c = club()
    assert roster_for_night(c, {}) == FOUR
    assert roster_for_night(c, {"Bea": "Zoe"}) == ["Ann", "Zoe", "Cat", "Dee"]
    setup = night_setup(c.setup, FOUR, carried_over=Decimal("3.50"), date="2026-01-13")
    assert setup["name"] == "Tuesday Club, 2026-01-13"
    assert setup["money"]["buy_in"] == "5.00" and setup["money"]["carried_over"] == "3.50"
    with pytest.raises(BuncoError, match="'Zoe' already plays tonight"):
        roster_for_night(c, {"Bea": "Zoe", "Cat": "Zoe"})


def test_standings_and_ledger_fold_over_the_nights() -> None:
    c = club()
    nights: dict[str, Night] = {}
    for i, swaps in enumerate(({}, {"Dee": "Zoe"}, {})):
        setup = night_setup(
            c.setup, roster_for_night(c, swaps), carried_over=pot_to_carry(c, nights)
        )
        nights[f"n{i}"] = one_sided(setup)
        c = c.apply({"type": "night", "night": f"n{i}", "date": f"2026-0{i + 1}-10"})
    # each night: Ann rolls six Buncos and wins all six rounds. Pot 20: Most Buncos 50% =
    # 10.00 and Most Wins 4.00 to Ann, 6.00 left; the next night's pot is 26.00 (13.00 + 4),
    # 9.00 left; the third 29.00 (14.50 + 4.00), 10.50 left
    ledger = season_ledger(c, nights)
    assert [(n["pot"], n["paid_out"], n["left_in_pot"]) for n in ledger["nights"]] == [
        ("20.00", "14.00", "6.00"),
        ("26.00", "17.00", "9.00"),
        ("29.00", "18.50", "10.50"),
    ]
    rows = {r.player: r for r in season_standings(c, nights)}
    ann = rows["Ann"]
    assert (ann.rank, ann.nights, ann.wins, ann.losses, ann.buncos) == (1, 3, 18, 0, 18)
    assert (ann.prizes, ann.won) == (9, Decimal("49.50"))  # Buncos, Wins, Last Bunco, x3
    assert (rows["Dee"].nights, rows["Zoe"].nights, rows["Zoe"].role) == (2, 1, "substitute")
    assert rows["Zoe"].wins + rows["Zoe"].losses == 6
    c = c.apply_all(
        [
            {"type": "payment", "player": "Ann", "amount": "15"},
            {"type": "payment", "player": "Zoe", "amount": "2.50", "note": "half"},
        ]
    )
    members = {m["player"]: m for m in season_ledger(c, nights)["members"]}
    assert (members["Ann"]["owed"], members["Ann"]["balance"]) == ("15.00", "0.00")
    assert (members["Zoe"]["owed"], members["Zoe"]["paid"], members["Zoe"]["balance"]) == (
        "5.00",
        "2.50",
        "2.50",
    )
    labels, series = season_progress(c, nights)
    assert labels == ["2026-01-10", "2026-02-10", "2026-03-10"]
    assert series["Ann"] == [6, 12, 18] and series["Zoe"] == [0, 2, 2]


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "member", "name": "Ann", "role": "captain"}, "role 'captain'"),
        ({"type": "host", "month": "2026-1", "host": "Ann"}, "month '2026-1'"),
        ({"type": "payment", "player": "Ann", "amount": "0"}, "a payment of 0"),
        ({"type": "payment", "player": "Ann", "amount": 2.5}, "not an amount"),
        ({"type": "season", "name": "2026"}, "season '2026' already exists"),
        ({"type": "leave_club", "name": "Zed"}, "'Zed' is not a member"),
        ({"type": "party"}, "unknown club event 'party'"),
    ],
)
def test_bad_club_events_are_refused(event: dict[str, Any], message: str) -> None:
    c = club()
    with pytest.raises(BuncoError) as caught:
        c.apply(event)
    assert message in caught.value.message and caught.value.expected


@pytest.mark.slow
def test_the_club_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")

    def bunco(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "bunco", "club", *args, "--db", db],
            capture_output=True,
            text=True,
            check=False,
        )
        assert (done.returncode == 0) == ok, done.stderr
        return done

    made = json.loads(
        bunco(
            "create",
            "Tuesday Club",
            "--dues",
            "5",
            "--regular",
            "Ann",
            "--regular",
            "Bea",
            "--sub",
            "Zoe",
            "--payout",
            "most_wins=50%",
            "--json",
        ).stdout
    )
    assert made["name"] == "Tuesday Club" and len(made["token"]) > 20
    log = tmp_path / "night.jsonl"
    night = one_sided({"type": "party", "players": ["Ann", "Bea"], "rules": "classic"})
    log.write_text("\n".join([json.dumps(night.setup)] + [json.dumps(e) for e in night.events]))
    bunco("add-night", "Tuesday Club", str(log), "--date", "2026-01-13")
    bunco("pay", made["club"], "Bea", "5")
    bunco("host", "Tuesday Club", "2026-01", "Ann")
    rows = json.loads(bunco("standings", "Tuesday Club", "--json").stdout)["standings"]
    assert [(r["player"], r["nights"], r["won"]) for r in rows] == [
        ("Ann", 1, "5.00"),
        ("Bea", 1, "0.00"),
        ("Zoe", 0, "0.00"),
    ]
    ledger = json.loads(bunco("ledger", "Tuesday Club", "--json").stdout)
    assert ledger["totals"] == {
        "dues_owed": "10.00",
        "dues_paid": "5.00",
        "outstanding": "5.00",
        "paid_out": "5.00",
        "sub_fees": "0.00",
        "pot": "5.00",
        "pot_collected": "0.00",  # Bea's $5 paid Ann's prize: Ann's own $5 is owed
        "pot_owed": "5.00",
        "nights_played": 1,
    }
    bad = bunco("host", "Tuesday Club", "2026-01", "Zed", ok=False)
    assert "error:" in bad.stderr and "'Zed' is not a member" in bad.stderr
    assert "expected:" in bad.stderr
    missing = bunco("show", "Wednesday Club", ok=False)
    assert "there is no club 'Wednesday Club'" in missing.stderr
    bunco("report", "Tuesday Club", "--out", str(tmp_path / "season.pdf"))
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "season.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Tuesday Club: Season 1" in text and "Season standings" in text and "2026-01" in text
