"""Many tables at once (RULES.md §2-§3): targets, the bell, who may roll after it, ties."""

from __future__ import annotations

import pytest
from golden.build_golden import events
from party_helpers import party

from bunco.core.errors import NotYourTurn, RoundOver
from bunco.core.night import Night
from bunco.core.table import Status
from bunco.party.night_report import night_report


def play(night: Night, script: str) -> Night:
    for event in events(script):
        night = night.apply(event)
    return night


def head_to_22(name: str) -> str:
    """Eleven rolls of two 1's by ``name`` at table 1 (round 1)."""
    return "\n".join(f"1 {name} 114" for _ in range(11))


def test_winning_moves_six_players_individuals_play_to_11() -> None:
    night = party("wm", ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay"])  # T4 + I2
    night = play(night, "\n".join(["2 Eve 114"] * 5) + "\n2 Eve 145")  # Eve: 10, then 11
    assert night.tables[1].status is Status.DONE and night.tables[1].winners == ("Eve",)
    assert night.tables[0].status is Status.PLAYING  # table 1 plays on to 21
    with pytest.raises(RoundOver, match="the round is over at table 2"):
        play(night, "2 Fay 114")
    night = play(night, head_to_22("Ann"))
    first = night_report(night)["rounds"][0]["tables"]
    assert (first[0]["team_scores"], first[1]["scores"]) == ([22, 0], {"Eve": 11, "Fay": 0})
    # RULES.md §6, 6 players: table 1 losers go to table 2, both at table 2 go to table 1.
    # Seats (docs/seating.md): Ann keeps her chair, Cat shifts, Eve and Fay arrive in seat
    # order, so Ann partners Eve and Cat partners Fay.
    assert night.seating == (("Ann", "Cat", "Eve", "Fay"), ("Bea", "Dee"))


def test_a_tie_at_a_table_of_three_is_rolled_off_by_the_tied_players_only() -> None:
    night = party("classic", ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus"])  # T4 + I3
    night = play(
        night,
        """
2 Eve 114   # +2
2 Eve 234   # miss
2 Fay 115   # +2
2 Fay 235   # miss -> Gus: Eve 2, Fay 2, Gus 0
"""
        + head_to_22("Ann")
        + "\n1 Ann 234",  # the bell; Ann rolls on and misses
    )
    assert night.tables[1].status is Status.TIE_BREAK
    with pytest.raises(NotYourTurn, match="it is Eve's turn at table 2, not Gus's"):
        play(night, "2 Gus 111")
    night = play(night, "2 Eve 234\n2 Fay 124\n2 Fay 234")  # Eve 0, Fay 1: Fay wins
    table = night_report(night)["rounds"][0]["tables"][1]
    assert (table["winners"], table["losers"]) == (["Fay"], ["Eve", "Gus"])
    assert table["scores"] == {"Eve": 2, "Fay": 2, "Gus": 0}


def test_tournament_a_tie_after_the_bell_goes_on_with_the_next_player() -> None:
    night = party("tournament", ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"])
    night = play(night, "2 Eve 145\n2 Eve 234\n2 Fay 145")  # 1-1, Fay still rolling
    night = play(night, head_to_22("Ann"))  # the bell
    assert [t.status for t in night.tables] == [Status.FINISHING, Status.FINISHING]
    night = play(night, "2 Fay 234")  # Fay's turn ends on a miss: still 1-1
    # 004: ties are decided by continuing to roll, so the dice go on to Gus.
    assert night.tables[1].status is Status.TIE_BREAK and night.tables[1].roller == "Gus"
    night = play(night, "2 Gus 234\n2 Hal 156\n1 Ann 234")  # Hal shows a 1
    assert night_report(night)["rounds"][0]["tables"][1]["winners"] == ["Fay", "Hal"]


def test_scil_the_bell_stops_everyone_even_the_roller_who_rang_it() -> None:
    night = party("scil", ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"])
    night = play(
        night,
        """
1 Ann 665   # rolls for high (to the right): Ann starts at table 1
1 Dee 112
1 Cat 113
1 Bea 114
2 Eve 665   # Eve starts at table 2
2 Hal 112
2 Gus 113
2 Fay 114
2 Eve 145   # Eve +1 and would roll again
"""
        + head_to_22("Ann"),
    )
    assert night.round_no == 2  # the round ended at once: nobody rolls on
    tables = night_report(night)["rounds"][0]["tables"]
    assert [t["team_scores"] for t in tables] == [[22, 0], [1, 0]]
    assert [t["winners"] for t in tables] == [["Ann", "Cat"], ["Eve", "Gus"]]


def test_winning_moves_a_bunco_does_not_reopen_a_table_already_won() -> None:
    night = party("wm", ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"])
    night = play(night, "\n".join(["2 Eve 114"] * 11))  # table 2: Eve & Gus reach 22
    night = play(night, "1 Ann 145\n1 Ann 234\n1 Bea 111")  # Bea's Bunco ends the round
    tables = night_report(night)["rounds"][0]["tables"]
    assert [t["team_scores"] for t in tables] == [[1, 21], [22, 0]]
    assert [t["winners"] for t in tables] == [["Bea", "Dee"], ["Eve", "Gus"]]
    assert night.round_no == 2
