"""A 1,000-player ``tournament`` night (250 tables) plays to the end and replays identically.

Not timed (benchmarks/replay.py measures the speed). To keep it short the head table rolls
every few turns, so rounds end early and most tables are settled by sudden death.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from party_checks import check_night
from party_helpers import party

from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report
from bunco.party.view import live_view
from night_helpers import night_log


def next_event(night: Night, rng: random.Random, state: dict[str, int]) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
    if night.phase != "playing":
        return event
    tables = night.tables
    state["step"] += 1
    if state["step"] % 6 == 0 and tables[0].roller is not None:
        event["table"] = 1
        return event
    for step in range(len(tables)):
        k = (state["pointer"] + step) % len(tables)
        if tables[k].roller is not None:
            state["pointer"] = k + 1
            event["table"] = k + 1
            return event
    raise AssertionError("nobody may roll")


@pytest.mark.slow
def test_a_thousand_player_tournament_night() -> None:
    names = [f"P{i:04d}" for i in range(1, 1001)]
    start = party("tournament", names, seed=1000)
    rng = random.Random(1000)
    state = {"step": 0, "pointer": 0}
    night = start
    events: list[dict[str, Any]] = []

    def apply(event: dict[str, Any]) -> None:
        nonlocal night
        night = night.apply(event)
        events.append(event)

    while night.phase == "playing":
        if night.round_no == 5 and not night.started and not night.verified:
            for name in names:  # the checkers verify every card at the break after round 4
                apply({"type": "verify", "player": name, "checker": "Staff"})
        apply(next_event(night, rng, state))
    assert len(night.history) == 6 and len(night.history[0].tables) == 250
    late = names[:10]
    for name in late:  # ten cards are checked again after the last round
        apply({"type": "verify", "player": name})
    # The prizes wait for the cards that changed after round 4; the host closes them.
    stale = [n for n in night_report(night)["verification"]["awaiting"]]
    assert night.phase == "over" and not night.prizes and set(late).isdisjoint(stale)
    apply({"type": "close_cards", "unverified": stale})
    while night.phase != "over" or not night.prizes:  # prize roll-offs, if a prize is tied
        apply(next_event(night, rng, state))
    report = night_report(night)
    check_night(report, night.rules, names)  # seats, W/L, losers walk, no repeat partners
    assert sum(c["wins"] for c in report["players"].values()) == 6 * 500
    # Wins that count: rounds 1-4 for everyone, all six for the ten checked again.
    counted = {
        name: sum(
            name in t["winners"]
            for r in report["rounds"]
            if name in late or r["round"] <= 4
            for t in r["tables"]
        )
        for name in names
    }
    best = max(counted.values())
    most_wins = next(p for p in report["prizes"] if p["category"] == "most_wins")
    assert most_wins["value"] == best
    assert most_wins["candidates"] == [n for n in names if counted[n] == best]
    assert len(most_wins["winners"]) == 1 and most_wins["winners"][0] in most_wins["candidates"]
    # The log of the night is the events as applied, and folding it again gives the same night.
    assert [json.loads(line) for line in night_log(night).splitlines()] == [start.setup, *events]
    again = read_log(night_log(night).splitlines())
    assert night_report(again) == report and live_view(again) == live_view(night)
