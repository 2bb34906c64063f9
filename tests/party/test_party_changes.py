"""People change between rounds: substitutes, late arrivals, leavers (RULES.md §6,
DESIGN.md party log; seats per docs/seating.md "Joins and leaves").

Eight players, two tables: table 1 Ann Bea Cat Dee, table 2 Eve Fay Gus Hal. In round 1
(the plan ROUND_1) Eve scores 1 at table 2 and misses; at the head table Ann, Bea and Cat
miss and Dee rolls a Bunco (bell), then misses. Winners: Bea & Dee (seats 2&4),
Eve & Gus (seats 1&3).

Round 2 under ``classic`` (up/down): Bea, Dee stay at the head table (they held seats 2&4,
so [Bea, Eve, Gus, Dee] with Eve, Gus up from table 2); Ann, Cat go down to table 2 where
Fay, Hal stay (the last table's losers, seats 2&4): [Fay, Ann, Cat, Hal].
"""

from __future__ import annotations

import pytest
from golden.build_golden import events
from party_helpers import party

from bunco.core.errors import InvalidSetup, NotAllowedNow
from bunco.core.night import Night
from bunco.party.night_report import night_report

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
ROUND_1 = """
2 Eve 144   # +1
2 Eve 234   # miss -> Fay
1 Ann 234   # miss
1 Bea 234   # miss
1 Cat 234   # miss
1 Dee 111   # Bunco: bell
1 Dee 234   # miss
"""
ROUND_2_CLASSIC = (("Bea", "Eve", "Gus", "Dee"), ("Fay", "Ann", "Cat", "Hal"))


def play(night: Night, script: str) -> Night:
    for event in events(script):
        night = night.apply(event)
    return night


def marks(night: Night, name: str) -> list[tuple[int, str]]:
    return [(r["round"], r["result"]) for r in night_report(night)["players"][name]["rounds"]]


def test_a_substitute_takes_the_seat_and_each_keeps_their_own_results() -> None:
    night = play(party("classic", EIGHT), ROUND_1)
    assert night.seating == ROUND_2_CLASSIC
    night = night.apply({"type": "substitute", "out": "Dee", "in": "Zoe"})
    assert night.seating == (("Bea", "Eve", "Gus", "Zoe"), ROUND_2_CLASSIC[1])
    night = play(
        night,
        """
2 Fay 234   # R2: +1
2 Fay 134   # miss
1 Bea 134   # miss
1 Eve 345   # miss
1 Gus 113   # miss
1 Zoe 222   # Bunco: bell (Zoe in Dee's seat)
1 Zoe 134   # miss: Eve & Zoe win
""",
    )
    # Dee keeps round 1 (W, her Bunco, 21 points); Zoe has round 2 (W, a Bunco, 21 points).
    report = night_report(night)
    assert marks(night, "Dee") == [(1, "W")] and marks(night, "Zoe") == [(2, "W")]
    assert (report["players"]["Dee"]["buncos"], report["players"]["Dee"]["points"]) == (1, 21)
    assert (report["players"]["Zoe"]["buncos"], report["players"]["Zoe"]["points"]) == (1, 21)
    assert list(report["players"]) == [*EIGHT, "Zoe"]
    # Round 3: Eve, Zoe stay (seats 2&4) with Fay, Cat up: [Eve, Fay, Cat, Zoe]; Bea, Gus
    # go down to Ann, Hal (seats 2&4): [Ann, Bea, Gus, Hal]. Dee comes back for Zoe and her
    # card goes on.
    night = night.apply({"type": "substitute", "out": "Zoe", "in": "Dee"})
    assert night.seating == (("Eve", "Fay", "Cat", "Dee"), ("Ann", "Bea", "Gus", "Hal"))
    # R3: Ann +1 and a miss at table 2; Eve's Bunco and a miss: Eve & Cat beat Fay & Dee.
    night = play(night, "2 Ann 334\n2 Ann 124\n1 Eve 333\n1 Eve 124")
    assert marks(night, "Dee") == [(1, "W"), (3, "L")] and marks(night, "Zoe") == [(2, "W")]
    assert night_report(night)["changes"] == [
        {"type": "substitute", "out": "Dee", "in": "Zoe", "set": 1, "round": 2},
        {"type": "substitute", "out": "Zoe", "in": "Dee", "set": 1, "round": 3},
    ]


def test_substitutes_are_refused_mid_round_and_for_wrong_names() -> None:
    night = play(party("classic", EIGHT), ROUND_1)
    with pytest.raises(InvalidSetup, match="'Zed' is not seated"):
        night.apply({"type": "substitute", "out": "Zed", "in": "Zoe"})
    with pytest.raises(InvalidSetup, match="'Ann' is already seated"):
        night.apply({"type": "substitute", "out": "Dee", "in": "Ann"})
    started = play(night, "2 Fay 234")
    with pytest.raises(NotAllowedNow, match="only happen between rounds"):
        started.apply({"type": "substitute", "out": "Dee", "in": "Zoe"})
    with pytest.raises(NotAllowedNow):
        started.apply({"type": "join", "player": "Zoe"})
    with pytest.raises(NotAllowedNow):
        started.apply({"type": "leave", "player": "Ann"})


def test_a_late_arrival_joins_and_the_tables_are_laid_out_again() -> None:
    night = play(party("classic", EIGHT), ROUND_1)
    night = night.apply({"type": "join", "player": "Ivy"})
    # Nine players: 4 + 3 + 2. Everyone whose table and seat still exist keeps them; Hal's
    # seat 4 at table 2 is gone, so Hal and then Ivy take the free seats of table 3.
    assert night.seating == (("Bea", "Eve", "Gus", "Dee"), ("Fay", "Ann", "Cat"), ("Hal", "Ivy"))
    night = play(
        night,
        """
2 Fay 234   # R2, table 2 (individuals): Fay +1
2 Fay 134   # miss -> Ann
3 Hal 134   # miss -> Ivy
3 Ivy 256   # +1
3 Ivy 134   # miss -> Hal
1 Bea 222   # Bunco: bell
1 Bea 134   # miss
""",
    )
    tables = night_report(night)["rounds"][1]["tables"]
    assert [(t["players"], t["winners"]) for t in tables] == [
        (["Bea", "Eve", "Gus", "Dee"], ["Bea", "Gus"]),
        (["Fay", "Ann", "Cat"], ["Fay"]),
        (["Hal", "Ivy"], ["Ivy"]),
    ]
    assert [t["team"] for t in tables] == [True, False, False]
    assert marks(night, "Ivy") == [(2, "W")] and marks(night, "Hal") == [(1, "L"), (2, "L")]
    assert night_report(night)["changes"] == [
        {"type": "join", "player": "Ivy", "set": 1, "round": 2}
    ]


def test_a_leaver_is_reseated_around_in_classic() -> None:
    night = play(party("classic", EIGHT), ROUND_1)
    night = night.apply({"type": "leave", "player": "Ann"})
    # Seven players: 4 + 3. Hal's seat 4 is gone; Ann's seat 2 at his own table is free.
    assert night.seating == (ROUND_2_CLASSIC[0], ("Fay", "Hal", "Cat"))
    assert marks(night, "Ann") == [(1, "L")]
    assert night_report(night)["changes"] == [
        {"type": "leave", "player": "Ann", "set": 1, "round": 2}
    ]


def test_a_leaver_becomes_a_ghost_in_scil_and_a_late_arrival_takes_the_ghost_seat() -> None:
    night = party("scil", EIGHT)
    night = night.apply({"type": "leave", "player": "Fay"})
    assert night.seating == (("Ann", "Bea", "Cat", "Dee"), ("Eve", None, "Gus", "Hal"))
    night = play(
        night,
        """
1 Ann 665   # rolls for high: Ann, Dee, Cat, Bea (to the right)
1 Dee 112
1 Cat 113
1 Bea 114
2 Eve 665   # Eve, Hal, Gus (the ghost seat does not roll for high)
2 Hal 112
2 Gus 113
2 Eve 234   # miss -> Hal
2 Hal 255   # miss -> Gus
2 Gus 345   # miss -> the ghost: Hal rolls for it
2 Hal 114   # +2 for the ghost's team
2 Hal 345   # miss -> Eve
1 Ann 111   # Bunco: bell
""",
    )
    # Round 2 (scil): head winners Ann, Cat stay (seats 1&3); table 2's winners, the ghost
    # and Hal, come up: [Ann, Cat, ghost, Hal] (no ghost as scorekeeper, Ann keeps her chair,
    # nobody keeps a partner). Head losers Bea, Dee go to the last table, where Eve, Gus stay.
    assert night.seating == (("Ann", "Cat", None, "Hal"), ("Eve", "Gus", "Bea", "Dee"))
    assert marks(night, "Hal") == [(1, "W")] and night.cards["Hal"].points == 0
    night = night.apply({"type": "join", "player": "Fay"})
    assert night.seating == (("Ann", "Cat", "Fay", "Hal"), ("Eve", "Gus", "Bea", "Dee"))
    assert [c["type"] for c in night_report(night)["changes"]] == ["leave", "join"]


@pytest.mark.parametrize("preset", ["winning-moves", "tournament"])
def test_leavers_are_reseated_not_ghosted_outside_scil(preset: str) -> None:
    names = [f"P{i}" for i in range(1, 13)]
    night = party(preset, names).apply({"type": "leave", "player": "P6"})
    # Eleven players: 4 + 4 + 3. Everyone whose seat still exists keeps it; table 3 loses
    # its seat 4, and P12 takes the first free seat, P6's at table 2.
    assert night.seating == (
        ("P1", "P2", "P3", "P4"),
        ("P5", "P12", "P7", "P8"),
        ("P9", "P10", "P11"),
    )


def test_people_changes_are_refused_with_what_was_expected() -> None:
    night = party("classic", ["Ann", "Bea", "Cat"])
    with pytest.raises(InvalidSetup, match="'Ann' is already seated"):
        night.apply({"type": "join", "player": "Ann"})
    with pytest.raises(InvalidSetup, match="'Zed' is not seated"):
        night.apply({"type": "leave", "player": "Zed"})
    two = night.apply({"type": "leave", "player": "Cat"})
    assert two.seating == (("Ann", "Bea"),)
    with pytest.raises(InvalidSetup, match="only 1 player"):
        two.apply({"type": "leave", "player": "Bea"})
