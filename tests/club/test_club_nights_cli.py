"""`bunco club` for the nights that change and the organizer's way back in, in one
process (Typer's runner) at 80 columns: the club's link and recovery code at creation,
`recover`, a night added and never played taken back (the ledger as before), a night
postponed then cancelled, the standings and the ladder readable at 80 columns with every
amount whole, and the members' links on one sheet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bunco.cli.app import app
from bunco.core.night import Night
from night_helpers import roll

LONG = "Catherine Longname-Smithson"


def one_sided(players: list[str], money: dict[str, Any]) -> Night:
    """The first roller rolls a Bunco then misses, every round: she wins everything."""
    night = Night.start(
        {
            "rules": "classic",
            "players": players,
            "tables": [players],
            "money": money,
            "prize_ties": "shared",
        }
    )
    for r in range(1, 7):
        night = roll(night, 1, r, r, r)
        night = roll(night, 1, *[f for f in range(1, 7) if f != r][:3])
    return night


def write(path: Path, night: Night, played: bool = True) -> Path:
    lines = [json.dumps(night.setup)] + ([json.dumps(e) for e in night.events] if played else [])
    path.write_text("\n".join(lines) + "\n")
    return path


def test_nights_that_change_and_the_way_back_in(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "club.sqlite3")

    def bunco(*args: str, ok: bool = True) -> str:
        done = runner.invoke(app, ["club", *args, "--db", db], env={"COLUMNS": "80"})
        assert (done.exit_code == 0) == ok, done.output
        return done.output

    made = json.loads(
        bunco(
            "create",
            "Tuesday Club",
            "--dues",
            "5",
            "--regular",
            LONG,
            "--regular",
            "Bea",
            "--regular",
            "Cat",
            "--regular",
            "Dee",
            "--sub",
            "Zoe",
            "--payout",
            "most_wins=50%",
            "--payout",
            "most_buncos=25%",
            "--season",
            "2026",
            "--timezone",
            "America/Chicago",
            "--base-url",
            "https://bunco.example",
            "--json",
        )
    )
    club, code = made["club"], made["recovery_code"]
    assert made["url"] == f"https://bunco.example/c/{club}?token={made['token']}"
    back = bunco("recover", club, code.lower(), "--base-url", "https://bunco.example")
    assert f"https://bunco.example/c/{club}?token={made['token']}" in back
    assert "not this club's recovery code" in bunco("recover", club, "AAAA-BBBB", ok=False)

    players = [LONG, "Bea", "Cat", "Dee"]
    money = {
        "buy_in": "5",
        "payouts": [
            {"prize": "most_wins", "share": "50%"},
            {"prize": "most_buncos", "share": "25%"},
        ],
    }
    bunco(
        "add-night",
        "Tuesday Club",
        str(write(tmp_path / "jan.jsonl", one_sided(players, money))),
        "--date",
        "2026-01-13",
    )
    before = json.loads(bunco("ledger", "Tuesday Club", "--json"))
    bunco("plan", "Tuesday Club", "2026-02-10", "--time", "19:00", "--deadline", "2026-02-07T18:00")
    waiting = write(tmp_path / "feb.jsonl", one_sided(players, money), played=False)
    bunco("add-night", "Tuesday Club", str(waiting), "--date", "2026-02-10")
    started = json.loads(bunco("show", "Tuesday Club", "--json"))
    assert [n["played"] for n in started["nights"]] == [True, False]
    assert json.loads(bunco("ledger", "Tuesday Club", "--json"))["totals"] == before["totals"]
    refused = bunco("cancel", "Tuesday Club", "2026-01-13", ok=False)
    assert "the night 2026-01-13 has been played" in " ".join(refused.split())  # any width
    moved = bunco("postpone", "Tuesday Club", "2026-02-10", "2026-02-17", "--time", "19:30")
    # the started night was taken back first (the words as the terminal's width wraps them)
    assert "moves to 2026-02-17 at 19:30" in " ".join(moved.split())
    assert [n["played"] for n in json.loads(bunco("show", "Tuesday Club", "--json"))["nights"]] == [
        True
    ]
    bunco("cancel", "Tuesday Club", "2026-02-17")
    assert json.loads(bunco("show", "Tuesday Club", "--json"))["upcoming"] == []
    assert json.loads(bunco("ledger", "Tuesday Club", "--json")) == before
    played = bunco("take-back", "Tuesday Club", started["nights"][0]["night"], ok=False)
    assert "has been played" in " ".join(played.split())

    table = bunco("standings", "Tuesday Club")
    assert max(len(line) for line in table.splitlines()) <= 80
    winner = next(line for line in table.splitlines() if " 1 " in line[:4])
    assert winner.rstrip().endswith("$15.00")  # the money column whole at 80 columns
    ledger = bunco("ledger", "Tuesday Club")
    assert max(len(line) for line in ledger.splitlines()) <= 80
    words = " ".join(ledger.split())
    assert "pot $5.00: $20.00 of it is dues not yet collected, $15.00 of which already" in words
    assert "2026-01-13 paid $15.00 from dues not yet collected" in words

    bunco(
        "add-night",
        "Tuesday Club",
        str(write(tmp_path / "mar.jsonl", one_sided(["Bea", "Cat", "Dee", LONG], money))),
        "--date",
        "2026-03-10",
    )
    ladder = bunco("ladder", "Tuesday Club", "--best", "1")
    assert "standings by wins, best 1 nights counted" in ladder
    assert "1/2" in ladder and "Left out:" in ladder  # which nights counted, which dropped
    assert max(len(line) for line in ladder.splitlines()) <= 80

    sheet = tmp_path / "links.pdf"
    out = bunco("links", "Tuesday Club", "--token", made["token"], "--sheet", str(sheet))
    assert sheet.read_bytes()[:4] == b"%PDF" and "QR code" in out
