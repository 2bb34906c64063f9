"""The live view says which tables play as teams, also for the seating of the round to come
(the host page's seat cards read it, never counting seats themselves)."""

from __future__ import annotations

from bunco.core.night import Night
from bunco.party.view import live_view

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def set_rolloff(rules: str, players: list[str]) -> Night:
    """Two sets; in set 1 each round's first roller taps a Bunco (it ends the round in
    ``winning-moves``), until the set ends."""
    night = Night.start({"type": "party", "rules": rules, "players": players, "sets": 2})
    while night.set_no == 1 and night.phase == "playing":
        table, _ = night.expected_rollers()[0]
        night = night.apply({"type": "tally", "table": table, "outcome": "bunco"})
    return night


def test_one_table_winning_moves_is_no_team_between_sets() -> None:
    night = set_rolloff("winning-moves", FOUR)
    view = live_view(night)
    assert night.phase == "rolloff" and night.rolloff_for == ("set", 1)
    assert view["tables"] == []  # the seat cards read the next round's seating
    assert view["next"]["tables"] == [FOUR]
    assert view["next"]["teams"] == [False]
    assert view["next"]["partners"] == [[None, None, None, None]]


def test_team_tables_of_the_next_round_are_teams() -> None:
    classic = live_view(Night.start({"type": "party", "rules": "classic", "players": FOUR}))
    assert classic["next"]["teams"] == [True] and classic["tables"][0]["team"] is True
    eight = [*FOUR, "Eve", "Fay", "Gus", "Hal"]
    wm = live_view(Night.start({"type": "party", "rules": "winning-moves", "players": eight}))
    assert wm["next"]["teams"] == [True, True]
    assert [t["team"] for t in wm["tables"]] == [True, True]
