"""Prizes and money on final cards: a tournament verified at its breaks (after rounds 2 and
4) whose rounds 5 and 6 change prize winners. The prizes wait after the last round; the
staff's verification then is accepted, and ``bunco replay --json`` pays the final winners.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report
from bunco.play.driver import Driver

PLAYERS = [f"P{i:02d}" for i in range(1, 17)]
GROUPS = {"Team 1": PLAYERS[:8], "Team 2": PLAYERS[8:]}
PARTY = {
    "type": "party",
    "rules": "tournament",
    "players": PLAYERS,
    "groups": GROUPS,
    "seed": 1,
    "prize_ties": "shared",
    "money": "tournament",
}


def rounds_with_break_checks() -> list[dict[str, Any]]:
    """The events of the six rounds, with every card verified at the breaks after rounds 2
    and 4 (seeded dice, so the same every run)."""
    events: list[dict[str, Any]] = []
    driver = Driver.new(PARTY, events.append)
    checked: set[int] = set()
    while True:
        night = driver.night
        last = night.history[-1].round_no if night.history else 0
        if (
            night.phase == "playing"
            and not night.started
            and last in (2, 4)
            and last not in checked
        ):
            checked.add(last)
            for name in PLAYERS:
                driver.submit({"type": "verify", "player": name, "checker": "Staff 1"})
        turn = driver.next_turn()
        if turn is None or turn.table is None:
            break
        driver.roll_for(turn)
    last_roll = max(i for i, e in enumerate(events) if e["type"] == "roll" and "table" in e)
    return events[: last_roll + 1]


def winners(report: dict[str, Any]) -> dict[tuple[str, str | None], list[str]]:
    return {(p["prize"], p["group"]): p["handed_to"] for p in report["prize_winners"]}


def best(report: dict[str, Any], figure: str, group: str) -> list[str]:
    cards = {n: report["players"][n][figure] for n in GROUPS[group]}
    top = max(cards.values())
    return [n for n in GROUPS[group] if cards[n] == top] if top else []


@pytest.mark.slow
def test_the_prizes_wait_for_the_last_round_verification_and_pay_the_final_winners(
    tmp_path: Path,
) -> None:
    events = rounds_with_break_checks()
    night = Night.start(PARTY).apply_all(events)
    waiting = night_report(night)
    assert night.phase == "over" and waiting["prizes"] == [] and waiting["payouts"] == []
    assert waiting["money"]["final"] is False and waiting["prize_winners"] == []
    stale = waiting["verification"]["awaiting"]
    assert stale and all(
        waiting["verification"]["cards"][n]["after"] == {"set": 1, "round": 4} for n in stale
    )
    # What the cards of round 4 would have paid (the host closing them unverified) ...
    early = night_report(night.apply({"type": "close_cards", "unverified": stale}))
    # ... and what the staff's check after the last round pays: accepted, every card final.
    staff = [{"type": "verify", "player": n, "checker": "Staff 2"} for n in PLAYERS]
    path = tmp_path / "charity.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in [PARTY, *events, *staff]))
    done = subprocess.run(
        [sys.executable, "-m", "bunco", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    final = json.loads(done.stdout)
    assert final["money"]["final"] is True and final["verification"]["awaiting"] == []
    assert all(
        c["checker"] == "Staff 2" and c["current"] for c in final["verification"]["cards"].values()
    )
    changed = [k for k, v in winners(final).items() if winners(early)[k] != v]
    assert len(changed) >= 3  # rounds 5 and 6 changed these prizes
    for group in GROUPS:  # ties shared: everyone level at the top of the final cards is paid
        for prize, figure in (
            ("most_buncos", "buncos"),
            ("most_mini_buncos", "mini_buncos"),
            ("most_wins", "wins"),
        ):
            paid = sorted(
                p["player"] for p in final["payouts"] if p["prize"] == prize and p["group"] == group
            )
            assert paid == best(final, figure, group), (prize, group)
    assert read_log(path.read_text().splitlines()).phase == "over"
    text = subprocess.run(
        [sys.executable, "-m", "bunco", "replay", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "160"},
    ).stdout
    assert "verified by Staff 2 at the end, after round 6" in text and "Verified cards" in text
