"""Round ends, the bell, after-bell play and table tie-breaks at several tables."""

from __future__ import annotations

import pytest
from helpers import party, roll

from bunco.core.errors import NotYourTurn, RoundOver, WrongTable
from bunco.core.night import Night
from bunco.core.table import Status
from bunco.party.night_report import night_report
from bunco.party.view import live_view

TWELVE = [f"P{i}" for i in range(1, 13)]


def head_to_21(night: Night) -> Night:
    """Table 1's scorekeeper (team 0) rolls two 1's per roll until the team has 22 (round 1)."""
    for _ in range(11):
        night = roll(night, 1, 1, 1, 5)
    return night


def test_classic_head_table_ends_the_round_and_mid_turn_players_roll_on() -> None:
    night = party("classic", TWELVE)
    night = roll(night, 2, 1, 3, 4)  # table 2: P5 scores 1 and is mid-turn
    night = roll(night, 3, 1, 3, 4)  # table 3: P9 scores 1 ...
    night = roll(night, 3, 2, 3, 4)  # ... and misses: dice pass to P10
    night = head_to_21(night)
    assert night.bell
    t1, t2, t3 = night.tables
    assert t1.status is Status.FINISHING and t1.roller == "P1"
    assert t2.status is Status.FINISHING and t2.roller == "P5"
    assert t3.status is Status.DONE and t3.winners == ("P9", "P11")  # P10 was not mid-turn
    with pytest.raises(RoundOver, match="the round is over at table 3"):
        roll(night, 3, 1, 2, 3)
    night = roll(night, 2, 1, 1, 1)  # P5 rolls a Bunco after the bell: it counts
    night = roll(night, 2, 2, 3, 4)  # and then misses: table 2 is settled
    assert night.tables[1].status is Status.DONE
    assert night.tables[1].side_scores == (22, 0)
    night = roll(night, 1, 2, 2, 3)  # the head table's roller misses: the round is over
    assert night.round_no == 2
    first = night_report(night)["rounds"][0]["tables"]
    assert [t["winners"] for t in first] == [["P1", "P3"], ["P5", "P7"], ["P9", "P11"]]
    assert night.cards["P5"].buncos == 1 and night.cards["P5"].points == 22


def test_classic_tie_is_broken_by_roll_off_sessions() -> None:
    night = party("classic", [f"P{i}" for i in range(1, 9)])
    night = head_to_21(night)
    night = roll(night, 1, 2, 3, 4)
    t2 = night.tables[1]
    assert t2.status is Status.TIE_BREAK and t2.roller == "P5"  # 0-0: scorekeeper first
    night = roll(night, 2, 1, 4, 5)  # P5 +1
    night = roll(night, 2, 3, 4, 5)  # P5 misses
    night = roll(night, 2, 1, 4, 5)  # P6 +1
    night = roll(night, 2, 3, 4, 5)  # P6 misses
    night = roll(night, 2, 3, 4, 5)  # P7 misses
    night = roll(night, 2, 3, 4, 5)  # P8 misses: 1-1 after the session, another session
    t2 = night.tables[1]
    assert t2.status is Status.TIE_BREAK and t2.tie_break is not None and t2.tie_break.session == 2
    night = roll(night, 2, 3, 4, 5)  # P5 misses
    night = roll(night, 2, 1, 1, 5)  # P6 +2
    night = roll(night, 2, 3, 4, 5)  # P6 misses
    night = roll(night, 2, 3, 4, 5)  # P7
    assert night.round_no == 1
    night = roll(night, 2, 3, 4, 5)  # P8: session over, P6 & P8 lead 2-0
    assert night.round_no == 2
    table = night_report(night)["rounds"][0]["tables"][1]
    assert table["winners"] == ["P6", "P8"] and table["team_scores"] == [0, 0]
    assert table["tie_break"]["sessions"] == 2


def test_a_bunco_at_any_table_ends_a_winning_moves_round_everywhere() -> None:
    night = party("wm", [f"P{i}" for i in range(1, 9)])  # two team tables
    night = roll(night, 1, 1, 2, 3)  # table 1: P1 +1, rolls on
    night = roll(night, 2, 1, 1, 1)  # table 2: P5 Bunco: the round ends at all tables
    assert night.round_no == 2
    tables = night_report(night)["rounds"][0]["tables"]
    assert tables[0]["team_scores"] == [1, 0] and tables[0]["winners"] == ["P1", "P3"]
    assert tables[1]["team_scores"] == [21, 0] and tables[1]["winners"] == ["P5", "P7"]


def test_winning_moves_tables_each_play_to_their_own_target() -> None:
    night = party("wm", [f"P{i}" for i in range(1, 9)])
    for _ in range(11):
        night = roll(night, 2, 1, 1, 5)
    assert night.tables[1].status is Status.DONE  # table 2 reached 21 on its own
    assert night.tables[0].status is Status.PLAYING  # table 1 plays on
    with pytest.raises(RoundOver):
        roll(night, 2, 1, 1, 5)


def test_winning_moves_tie_is_rolled_off_to_five() -> None:
    night = party("wm", [f"P{i}" for i in range(1, 9)])
    night = roll(night, 2, 1, 1, 1)  # Bunco at table 2; table 1 is 0-0
    t1 = night.tables[0]
    assert t1.status is Status.TIE_BREAK and t1.rolling_for_high and t1.roller == "P1"
    # 000: each player rolls for high total; the high total rolls first and does not score
    night = roll(night, 1, 3, 3, 1)  # P1: 7
    night = roll(night, 1, 6, 6, 5)  # P2: 17
    night = roll(night, 1, 1, 2, 2)  # P3: 5
    night = roll(night, 1, 6, 6, 5)  # P4: 17, tied with P2: they roll again
    assert night.tables[0].rolling_for_high and night.tables[0].roller == "P2"
    night = roll(night, 1, 1, 1, 2)  # P2: 4
    night = roll(night, 1, 2, 2, 2)  # P4: 6, P4 starts
    assert not night.tables[0].rolling_for_high and night.tables[0].roller == "P4"
    night = roll(night, 1, 1, 1, 4)  # P4 +2
    night = roll(night, 1, 2, 2, 2)  # P4: three 2's score nothing in a roll-off; turn ends
    assert night.tables[0].roller == "P1"
    night = roll(night, 1, 1, 5, 5)  # P1 +1
    night = roll(night, 1, 1, 1, 5)  # P1 +2 (3)
    night = roll(night, 1, 1, 1, 1)  # P1 Bunco +21: P1 & P3 win
    assert night.round_no == 2
    assert night_report(night)["rounds"][0]["tables"][0]["winners"] == ["P1", "P3"]
    assert night.cards["P1"].buncos == 1 and night.cards["P4"].highs == 0


def test_tournament_tie_is_sudden_death() -> None:
    night = party("tournament", [f"P{i}" for i in range(1, 9)])
    night = roll(night, 2, 2, 3, 4)  # table 2: P5 misses; P6 is next
    night = head_to_21(night)
    night = roll(night, 1, 2, 3, 4)  # head roller finishes her turn
    t2 = night.tables[1]
    assert t2.status is Status.TIE_BREAK and t2.roller == "P6"
    night = roll(night, 2, 5, 5, 5)  # a Mini Bunco: "continues their turn" (004), still P6
    assert night.tables[1].roller == "P6"
    night = roll(night, 2, 2, 3, 4)  # no 1 shown: P7's roll
    night = roll(night, 2, 1, 4, 4)  # P7 shows a 1: P5 & P7 win
    assert night_report(night)["rounds"][0]["tables"][1]["winners"] == ["P5", "P7"]


def test_scil_rolls_for_high_passes_right_and_baby_bunco_ends_the_turn() -> None:
    night = party("scil", ["A", "B", "C", "D"])
    assert night.tables[0].status is Status.FIRST_ROLL
    # each rolls once, scorekeeper first, to the right: A, D, C, B
    night = roll(night, 1, 6, 6, 5, player="A")
    night = roll(night, 1, 6, 6, 5, player="D")
    night = roll(night, 1, 1, 1, 2, player="C")
    night = roll(night, 1, 1, 2, 2, player="B")
    assert night.tables[0].status is Status.FIRST_ROLL  # A and D tied on 17: they re-roll
    night = roll(night, 1, 1, 2, 3, player="A")
    night = roll(night, 1, 4, 4, 4, player="D")
    assert night.tables[0].status is Status.PLAYING and night.tables[0].roller == "D"
    night = roll(night, 1, 3, 3, 3, player="D")  # Baby Bunco: 5 points, the turn ends
    assert night.tables[0].side_scores == (0, 5) and night.tables[0].roller == "C"


def test_refused_commands_name_what_was_expected_and_change_nothing() -> None:
    night = party("classic", TWELVE)
    before = live_view(night)
    with pytest.raises(NotYourTurn, match="it is P1's turn at table 1, not P2's"):
        roll(night, 1, 1, 2, 3, player="P2")
    with pytest.raises(WrongTable, match="there is no table 4"):
        roll(night, 4, 1, 2, 3)
    with pytest.raises(WrongTable, match="names no table"):
        roll(night, None, 1, 2, 3)
    assert live_view(night) == before
    assert len(night.events) == 0


def test_sudden_death_after_a_rolled_on_turn_starts_with_the_next_player() -> None:
    night = party("tournament", [f"P{i}" for i in range(1, 9)])
    night = roll(night, 2, 1, 2, 3)  # P5 +1, mid-turn
    night = roll(night, 2, 2, 3, 4)  # P5 misses: P6
    night = roll(night, 2, 1, 2, 3)  # P6 +1, mid-turn: 1-1
    night = head_to_21(night)  # the bell: P6 rolls on
    night = roll(night, 2, 2, 3, 4)  # P6 misses; 1-1 tie: sudden death goes on with P7
    assert night.tables[1].status is Status.TIE_BREAK and night.tables[1].roller == "P7"


def test_tournament_cards_verified_after_the_last_round_count_for_prizes() -> None:
    night = party("tournament", ["A", "B", "C", "D"], prizes=["most_buncos"], prize_ties="shared")
    for round_no in range(1, 7):
        night = roll(night, 1, round_no, round_no, round_no)  # A rolls a Bunco: 21, rolls on
        night = roll(night, 1, *(((round_no % 6) + 1,) * 2), (round_no + 1) % 6 + 1)  # misses
        if round_no < 6:
            night = night.apply({"type": "verify", "player": "A"}) if round_no == 3 else night
    assert night.phase == "over"
    # A's card changed after its verification in round 3: the prizes wait for every card
    report = night_report(night)
    assert report["prizes"] == [] and report["verification"]["awaiting"] == ["A", "B", "C", "D"]
    assert report["verification"]["cards"]["A"] == {
        "checker": None,
        "after": {"set": 1, "round": 3},
        "current": False,
    }
    for name in "BCD":
        night = night.apply({"type": "verify", "player": name, "checker": "Staff 2"})
    assert night_report(night)["prizes"] == []
    night = night.apply({"type": "verify", "player": "A", "checker": "Staff 1"})
    prize = night_report(night)["prizes"][0]
    assert prize["winners"] == ["A"] and prize["value"] == 6
