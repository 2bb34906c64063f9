"""Prizes at the end of a night (RULES.md §4, §7): every category, ties shared or rolled
off (roll events with no table), last Bunco, Traveling, tournament groups and verification.

Most tests play the same one-table night of four. A one-table game has no moving, so the
seats rotate (docs/seating.md: the scorekeeper stays, seats 2-4 turn one place):
rounds 1 and 4 Ann Bea Cat Dee (Ann & Cat v Bea & Dee), rounds 2 and 5 Ann Cat Dee Bea
(Ann & Dee v Cat & Bea), rounds 3 and 6 Ann Dee Bea Cat (Ann & Bea v Dee & Cat). At the
head table a team's 21 rings the bell and the roller rolls on until a roll scores nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from golden.build_golden import events
from party_helpers import party, roll

from bunco.core.errors import InvalidEvent, InvalidSetup, NotAllowedNow, NotYourTurn, RoundOver
from bunco.core.night import Night
from bunco.party.night_report import night_report

FOUR = ["Ann", "Bea", "Cat", "Dee"]

NIGHT = """
1 Ann 111   # R1: Bunco (bell), Ann rolls on
1 Ann 234   # miss: Ann & Cat win
1 Ann 134   # R2: miss -> Cat
1 Cat 222   # Bunco (bell)
1 Cat 555   # Mini Bunco after the bell
1 Cat 134   # miss: Cat & Bea win
1 Ann 124   # R3: miss -> Dee
1 Dee 333   # Bunco
1 Dee 124   # miss: Dee & Cat win
1 Ann 444   # R4: Bunco
1 Ann 111   # Mini Bunco (three 1's in round 4)
1 Ann 123   # miss: Ann & Cat win
1 Ann 123   # R5: miss
1 Cat 123   # miss
1 Dee 555   # Bunco
1 Dee 123   # miss: Ann & Dee win
1 Ann 123   # R6: miss
1 Dee 123   # miss
1 Bea 666   # Bunco: the last of the night
1 Bea 123   # miss: Ann & Bea win
"""
# By hand: W Ann 4 (R1, R4, R5, R6), Bea 2 (R2, R6), Cat 4 (R1-R4), Dee 2 (R3, R5);
# Buncos Ann 2, Bea 1, Cat 1, Dee 2; Minis Ann 1, Cat 1; nobody 3-3; last Bunco Bea.
CARDS = {"Ann": (4, 2, 2, 1), "Bea": (2, 4, 1, 0), "Cat": (4, 2, 1, 1), "Dee": (2, 4, 2, 0)}


def play(night: Night, script: str = NIGHT) -> Night:
    for event in events(script):
        night = night.apply(event)
    return night


def rows(night: Night) -> list[tuple[Any, ...]]:
    return [
        (p["category"], p["group"], p["value"], p["candidates"], p["winners"], p["settled_by"])
        for p in night_report(night)["prizes"]
    ]


def cards(night: Night) -> dict[str, tuple[int, int, int, int]]:
    return {
        n: (c["wins"], c["losses"], c["buncos"], c["mini_buncos"])
        for n, c in night_report(night)["players"].items()
    }


ALL_BUT_TRAVELING = [
    "most_buncos",
    "most_wins",
    "most_losses",
    "half_and_half",
    "last_bunco",
    "most_mini_buncos",
]


def test_every_category_with_shared_ties() -> None:
    night = play(party("classic", FOUR, prizes=ALL_BUT_TRAVELING, prize_ties="shared"))
    assert cards(night) == CARDS
    assert night.phase == "over"
    assert rows(night) == [
        ("most_buncos", None, 2, ["Ann", "Dee"], ["Ann", "Dee"], "shared"),
        ("most_wins", None, 4, ["Ann", "Cat"], ["Ann", "Cat"], "shared"),
        ("most_losses", None, 4, ["Bea", "Dee"], ["Bea", "Dee"], "shared"),
        ("half_and_half", None, None, [], [], "nobody"),
        ("last_bunco", None, None, ["Bea"], ["Bea"], "outright"),
        ("most_mini_buncos", None, 1, ["Ann", "Cat"], ["Ann", "Cat"], "shared"),
    ]


def test_half_and_half() -> None:
    # The same night, but Ann misses first in round 1 and Bea rolls the Bunco, so Bea & Dee
    # win it. W: Ann R4-R6, Bea R1, R2, R6, Cat R2-R4, Dee R1, R3, R5: everyone 3-3.
    # Buncos: Bea 2 (R1, R6), Dee 2, Ann 1, Cat 1.
    script = NIGHT.replace("1 Ann 111   # R1", "1 Ann 234\n1 Bea 111   # R1").replace(
        "1 Ann 234   # miss: Ann & Cat win", "1 Bea 234"
    )
    prizes = ["half_and_half", "most_buncos"]
    night = play(party("classic", FOUR, prizes=prizes, prize_ties="shared"), script)
    assert cards(night) == {
        "Ann": (3, 3, 1, 1),
        "Bea": (3, 3, 2, 0),
        "Cat": (3, 3, 1, 1),
        "Dee": (3, 3, 2, 0),
    }
    assert rows(night) == [
        ("half_and_half", None, None, FOUR, FOUR, "shared"),
        ("most_buncos", None, 2, ["Bea", "Dee"], ["Bea", "Dee"], "shared"),
    ]


def test_half_and_half_ties_follow_the_hosts_tie_choice() -> None:
    # docs/party.md: everyone with W = L qualifies; several are a tie like any other, so
    # the host's choice applies: shared above, a roll-off between all four here.
    script = NIGHT.replace("1 Ann 111   # R1", "1 Ann 234\n1 Bea 111   # R1").replace(
        "1 Ann 234   # miss: Ann & Cat win", "1 Bea 234"
    )
    night = play(party("classic", FOUR, prizes=["half_and_half"], prize_ties="roll_off"), script)
    assert rows(night) == [("half_and_half", None, None, FOUR, [], "pending_roll_off")]
    assert night.phase == "rolloff" and night_report(night)["rolloff"]["players"] == FOUR


def test_ties_are_rolled_off_at_no_table() -> None:
    night = play(party("classic", FOUR, prizes=["most_buncos", "most_mini_buncos", "last_bunco"]))
    assert night.phase == "rolloff"
    report = night_report(night)
    assert report["next"] is None  # the rounds are over; only the roll-offs are left
    assert report["rolloff"]["purpose"] == "Most Buncos"
    assert report["rolloff"]["players"] == ["Ann", "Dee"]
    assert night.expected_rollers() == [(None, "Ann")]
    with pytest.raises(NotAllowedNow, match="roll-off for Most Buncos is due"):
        roll(night, 1, 1, 2, 3)
    with pytest.raises(NotYourTurn, match="it is Ann's turn in the roll-off"):
        roll(night, None, 1, 2, 3, player="Dee")
    with pytest.raises(NotAllowedNow):  # the roll for high total needs the faces
        night.apply({"type": "tally", "outcome": "+1"})
    night = play(
        night,
        """
- Ann 111   # high total 3
- Dee 666   # 18: Dee rolls first (round 6's number counts)
- Dee 555   # another three of a kind scores nothing in a roll-off: Ann's turn
- Ann 612   # +1
- Ann 345   # miss
- Dee 662   # +2
- Dee 663   # +2
- Dee 612   # +1: 5, Dee wins Most Buncos
- Ann 665   # Most Minis: Ann 17
- Cat 664   # Cat 16: Ann first
- Ann 666   # a Bunco: 21, Ann wins
""",
    )
    assert night.phase == "over"
    assert rows(night) == [
        ("most_buncos", None, 2, ["Ann", "Dee"], ["Dee"], "roll_off"),
        ("most_mini_buncos", None, 1, ["Ann", "Cat"], ["Ann"], "roll_off"),
        ("last_bunco", None, None, ["Bea"], ["Bea"], "outright"),
    ]
    assert cards(night) == CARDS  # roll-off rolls are on nobody's card
    with pytest.raises(RoundOver, match="the night is over"):
        roll(night, None, 1, 2, 3)


def test_last_bunco_counts_after_the_bell_and_not_for_a_ghost() -> None:
    # scil, 8 players, Fay leaves before the first roll: her seat becomes a ghost, and Hal
    # (her partner, opposite) rolls for it. A ghost's Bunco is credited to nobody.
    night = party(
        "scil", ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"], prizes=["last_bunco"]
    )
    night = night.apply({"type": "leave", "player": "Fay"})
    assert night.seating == (("Ann", "Bea", "Cat", "Dee"), ("Eve", None, "Gus", "Hal"))
    night = play(
        night,
        """
1 Ann 665   # rolls for high, to the right: Ann 17, Dee, Cat, Bea
1 Dee 112
1 Cat 113
1 Bea 114
2 Eve 665   # Eve 17, Hal, Gus (the ghost does not roll for high)
2 Hal 112
2 Gus 113
2 Eve 234   # miss -> Hal (to the right)
2 Hal 345   # miss -> Gus
2 Gus 234   # miss -> the ghost's seat: Hal rolls for it
2 Hal 111   # Bunco for the ghost's team: 21 at table 2 (not the head table)
""",
    )
    assert night.last_bunco is None and night.cards["Hal"].buncos == 0
    night = play(night, "1 Ann 111  # Bunco at the head table: bell")
    table2 = night_report(night)["rounds"][0]["tables"][1]
    assert table2["players"] == ["Eve", None, "Gus", "Hal"]
    assert (table2["team_scores"], table2["winners"], table2["losers"]) == (
        [0, 21],
        ["Hal"],
        ["Eve", "Gus"],
    )
    assert table2["points"] == {"Eve": 0, "Gus": 0, "Hal": 0}  # the 21 are the ghost's
    assert night.last_bunco == "Ann"
    assert night_report(night)["players"]["Fay"]["rounds"] == []


@pytest.mark.parametrize(
    ("trigger", "excluded", "holder"),
    [
        ("bunco", 0, "Bea"),  # Buncos: Ann R1, Cat R2, Dee R3, Ann R4, Dee R5, Bea R6
        ("bunco", 6, "Dee"),
        ("mini_bunco", 0, "Ann"),  # Minis: Cat R2, Ann R4
        ("mini_bunco", 4, "Cat"),
        ("123", 0, "Bea"),  # 1-2-3: ... R5 Ann, Cat, Dee; R6 Ann, Dee, Bea (after her Bunco)
        ("3-1-2", 6, "Dee"),
        ("any_trips", 0, "Bea"),
        ("any_trips", 6, "Dee"),
    ],
)
def test_traveling(trigger: str, excluded: int, holder: str) -> None:
    night = party(
        "classic",
        FOUR,
        house_rules={"traveling": trigger, "traveling_excluded_round": excluded},
        prizes=["traveling"],
    )
    night = play(night)
    assert rows(night) == [("traveling", None, None, [holder], [holder], "outright")]


def test_traveling_nobody_and_not_on_a_roll_for_high() -> None:
    night = party("classic", FOUR, house_rules={"traveling": "654"}, prizes=["traveling"])
    assert rows(play(night)) == [("traveling", None, None, [], [], "nobody")]
    scil = party("scil", FOUR, house_rules={"traveling": "123"}, prizes=["traveling"])
    scil = roll(scil, 1, 1, 2, 3, player="Ann")  # rolling for high: not a traveling roll
    assert scil.traveler is None


def test_traveling_prize_needs_a_trigger() -> None:
    with pytest.raises(InvalidSetup, match="traveling"):
        party("classic", FOUR, prizes=["traveling"])


# -- tournament groups and verification ---------------------------------------------------

GROUPS = {"Red": ["Ann", "Bea"], "Blue": ["Cat", "Dee"]}


def tournament(**extra: Any) -> Night:
    return party("tournament", FOUR, groups=GROUPS, **extra)


def verify(night: Night, *names: str) -> Night:
    for name in names:
        night = night.apply({"type": "verify", "player": name, "checker": "Staff"})
    return night


def test_prizes_wait_for_every_card_and_the_host_may_close_the_rest() -> None:
    night = play(tournament(prize_ties="shared"))
    assert cards(night) == CARDS  # the same night under tournament rules
    assert night.phase == "over" and rows(night) == []  # nothing verified: the prizes wait
    night = verify(night, "Ann")
    assert rows(night) == []
    assert night_report(night)["verification"]["awaiting"] == ["Bea", "Cat", "Dee"]
    with pytest.raises(InvalidEvent, match="not verified as they stand are Bea, Cat, Dee"):
        night.apply({"type": "close_cards", "unverified": ["Bea"]})
    closed = night.apply({"type": "close_cards", "unverified": ["Dee", "Cat", "Bea"]})
    # Ann verified: 2 Buncos, 1 Mini, 4 W. The others count nothing.
    assert rows(closed) == [
        ("most_buncos", "Red", 2, ["Ann"], ["Ann"], "outright"),
        ("most_buncos", "Blue", 0, [], [], "nobody"),
        ("most_mini_buncos", "Red", 1, ["Ann"], ["Ann"], "outright"),
        ("most_mini_buncos", "Blue", 0, [], [], "nobody"),
        ("most_wins", "Red", 4, ["Ann"], ["Ann"], "outright"),
        ("most_wins", "Blue", 0, [], [], "nobody"),
        ("group_most_buncos", None, 2, ["Red"], ["Red"], "outright"),
    ]
    assert night_report(closed)["verification"]["closed_unverified"] == ["Dee", "Cat", "Bea"]
    with pytest.raises(NotAllowedNow, match="the prizes are decided"):
        closed.apply({"type": "close_cards", "unverified": []})
    night = verify(night, "Bea", "Cat", "Dee")  # the last card verified: the prizes
    # Red: Ann 2 B, 1 M, 4 W; Bea 1 B, 2 W. Blue: Cat 1 B, 1 M, 4 W; Dee 2 B, 2 W.
    # Groups: Red 3 Buncos, Blue 3: shared.
    assert rows(night) == [
        ("most_buncos", "Red", 2, ["Ann"], ["Ann"], "outright"),
        ("most_buncos", "Blue", 2, ["Dee"], ["Dee"], "outright"),
        ("most_mini_buncos", "Red", 1, ["Ann"], ["Ann"], "outright"),
        ("most_mini_buncos", "Blue", 1, ["Cat"], ["Cat"], "outright"),
        ("most_wins", "Red", 4, ["Ann"], ["Ann"], "outright"),
        ("most_wins", "Blue", 4, ["Cat"], ["Cat"], "outright"),
        ("group_most_buncos", None, 3, ["Red", "Blue"], ["Red", "Blue"], "shared"),
    ]


def test_an_absent_player_is_not_waited_for() -> None:
    night = verify(play(tournament(prize_ties="shared")), "Ann", "Bea", "Cat")
    assert rows(night) == []
    night = night.apply({"type": "absent", "player": "Dee"})  # Dee went home: not waited for
    assert rows(night)[1] == ("most_buncos", "Blue", 1, ["Cat"], ["Cat"], "outright")
    night = verify(night, "Dee")  # her card verified later still counts, as before a roll-off
    assert rows(night)[1] == ("most_buncos", "Blue", 2, ["Dee"], ["Dee"], "outright")


def test_close_cards_is_refused_where_there_is_nothing_to_close() -> None:
    with pytest.raises(NotAllowedNow, match="need no verifying"):
        play(party("classic", FOUR)).apply({"type": "close_cards", "unverified": []})
    with pytest.raises(NotAllowedNow, match="last round has not been played"):
        tournament().apply({"type": "close_cards", "unverified": []})


def test_a_card_verified_at_a_break_that_changes_afterwards_is_verified_again() -> None:
    night = tournament(prize_ties="shared")
    night = play(night, "\n".join(NIGHT.strip().splitlines()[:9]))  # rounds 1-3
    assert night.round_no == 4
    night = verify(night, "Ann")  # Ann after R3: 1 Bunco, 0 Minis, 1 W
    night = play(night, "\n".join(NIGHT.strip().splitlines()[9:]))
    night = verify(night, "Bea", "Cat", "Dee")
    # Ann's card changed after round 3: the prizes wait for it
    verification = night_report(night)["verification"]
    assert rows(night) == [] and verification["awaiting"] == ["Ann"]
    assert verification["cards"]["Ann"] == {
        "checker": "Staff",
        "after": {"set": 1, "round": 3},
        "current": False,
    }
    assert verification["cards"]["Bea"] == {
        "checker": "Staff",
        "after": {"set": 1, "round": 6},
        "current": True,
    }
    closed = night.apply({"type": "close_cards", "unverified": ["Ann"]})
    # Closed: Ann counts what she showed after R3: 1 B, 0 M, 1 W; Bea 1 B, 2 W.
    # Blue: Cat 1 B, 1 M, 4 W; Dee 2 B, 2 W. Groups: Red 2 Buncos, Blue 3.
    assert rows(closed) == [
        ("most_buncos", "Red", 1, ["Ann", "Bea"], ["Ann", "Bea"], "shared"),
        ("most_buncos", "Blue", 2, ["Dee"], ["Dee"], "outright"),
        ("most_mini_buncos", "Red", 0, [], [], "nobody"),
        ("most_mini_buncos", "Blue", 1, ["Cat"], ["Cat"], "outright"),
        ("most_wins", "Red", 2, ["Bea"], ["Bea"], "outright"),
        ("most_wins", "Blue", 4, ["Cat"], ["Cat"], "outright"),
        ("group_most_buncos", None, 3, ["Blue"], ["Blue"], "outright"),
    ]
    night = verify(night, "Ann")  # verified again instead: her whole card counts
    assert rows(night)[0] == ("most_buncos", "Red", 2, ["Ann"], ["Ann"], "outright")


def test_no_verification_once_the_prize_roll_offs_have_begun() -> None:
    night = verify(play(party("tournament", FOUR, groups={"All": FOUR})), *FOUR)
    # Verified Buncos: Ann 2 = Dee 2, and ties are rolled off by default: a roll-off is due.
    assert night.phase == "rolloff" and night_report(night)["rolloff"]["players"] == ["Ann", "Dee"]
    night = verify(night, "Ann")  # still allowed: nobody has rolled in the roll-off
    night = roll(night, None, 6, 6, 6)  # Ann's roll for high total
    night = verify(night, "Ann")  # her card as it stands, verified again: nothing changes
    assert night.rolloff is not None and night.rolloff.rolls
    with pytest.raises(InvalidSetup, match="not a player tonight"):
        verify(night, "Zed")


def test_a_card_not_waited_for_cannot_change_the_prizes_once_a_roll_off_has_begun() -> None:
    night = play(party("tournament", FOUR, groups={"All": FOUR}))
    night = verify(night.apply({"type": "absent", "player": "Dee"}), "Ann", "Bea", "Cat")
    # Dee went home unverified; Minis: Ann 1 = Cat 1, rolled off
    assert night.phase == "rolloff" and night_report(night)["rolloff"]["players"] == ["Ann", "Cat"]
    night = roll(night, None, 6, 6, 6)
    with pytest.raises(NotAllowedNow, match="roll-offs have begun"):
        verify(night, "Dee")
