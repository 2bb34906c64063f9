"""Sets and the night (RULES.md §4-§5): one to four sets of six rounds; totals run across
the night; ``winning-moves`` starts fresh W columns each set and names a winner per set."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from party_checks import check_night
from party_helpers import miss, party, play_randomly, roll

from bunco.core.errors import InvalidSetup, NotAllowedNow
from bunco.core.night import Night
from bunco.core.party_log import LogError, read_log
from bunco.core.rules import RollKind
from bunco.core.table import Phase
from bunco.party.night_report import night_report
from bunco.party.sheets import master_sheet

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def win_round(night: Night, winner: str, bunco: bool = False) -> Night:
    """One ``winning-moves`` round at one table of individuals: the others miss; ``winner``
    rolls a Bunco (which ends the round at once) or +2 at a time up to 22."""
    r, start = night.round_no, (night.set_no, night.round_no)
    while (night.set_no, night.round_no) == start and night.phase == "playing":
        roller = night.tables[0].roller
        if roller != winner:
            night = roll(night, 1, *miss(r), player=roller)
        elif bunco:
            night = roll(night, 1, r, r, r, player=roller)
        else:
            night = roll(night, 1, r, r, miss(r)[0], player=roller)
    return night


def test_two_sets_of_winning_moves_one_table() -> None:
    night = party("winning-moves", FOUR, sets=2)
    for winner, bunco in [
        ("Ann", True),
        ("Bea", False),
        ("Ann", False),
        ("Cat", True),
        ("Ann", False),
    ]:
        night = win_round(night, winner, bunco)
    night = win_round(night, "Dee")
    # Set 1: Ann 3 W (1 B), Bea 1, Cat 1 (1 B), Dee 1: Ann wins on W's.
    report = night_report(night)
    assert night.phase == "playing" and (night.set_no, night.round_no) == (2, 1)
    assert report["next"] == {"set": 2, "round": 1, "tables": [FOUR]}
    assert report["set_winners"] == [
        {
            "set": 1,
            "winner": "Ann",
            "settled_by": "wins",
            "tied_on_wins": ["Ann"],
            "tied_on_buncos": ["Ann"],
        }
    ]
    for winner, bunco in [
        ("Bea", True),
        ("Bea", False),
        ("Cat", False),
        ("Cat", False),
        ("Dee", False),
    ]:
        night = win_round(night, winner, bunco)
    night = win_round(night, "Dee")
    # Set 2: Bea, Cat, Dee 2 W each; B's among them: Bea 1 -> Bea wins set 2. The W's of
    # set 1 do not count in set 2.
    report = night_report(night)
    assert report["set_winners"][1] == {
        "set": 2,
        "winner": "Bea",
        "settled_by": "buncos",
        "tied_on_wins": ["Bea", "Cat", "Dee"],
        "tied_on_buncos": ["Bea"],
    }
    sheet1 = {
        row["player"]: (row["rounds"], row["wins"], row["buncos"]) for row in master_sheet(night, 1)
    }
    sheet2 = {
        row["player"]: (row["rounds"], row["wins"], row["buncos"]) for row in master_sheet(night, 2)
    }
    assert sheet1 == {
        "Ann": (["WB", "", "W", "", "W", ""], 3, 1),
        "Bea": (["", "W", "", "", "", ""], 1, 0),
        "Cat": (["", "", "", "WB", "", ""], 1, 1),
        "Dee": (["", "", "", "", "", "W"], 1, 0),
    }
    assert sheet2 == {
        "Ann": (["", "", "", "", "", ""], 0, 0),
        "Bea": (["WB", "W", "", "", "", ""], 2, 1),
        "Cat": (["", "", "W", "W", "", ""], 2, 0),
        "Dee": (["", "", "", "", "W", "W"], 2, 0),
    }
    # The night's totals run across both sets: 3 W and 9 L each; Buncos Ann, Bea, Cat 1.
    totals = {n: (c["wins"], c["losses"], c["buncos"]) for n, c in report["players"].items()}
    assert totals == {"Ann": (3, 9, 1), "Bea": (3, 9, 1), "Cat": (3, 9, 1), "Dee": (3, 9, 0)}
    assert [(r["set"], r["round"]) for r in report["rounds"]] == [
        (s, r) for s in (1, 2) for r in range(1, 7)
    ]
    assert (night.phase, report["next"]) == ("over", None)


def test_a_set_tied_on_wins_and_buncos_is_rolled_off_before_the_next_set() -> None:
    night = party("winning-moves", ["Ann", "Bea"], sets=2)  # Bunco for two (002)
    for winner in ("Ann", "Bea", "Ann", "Bea", "Ann", "Bea"):
        night = win_round(night, winner)
    assert night.phase == "rolloff"
    report = night_report(night)
    assert report["set_winners"][0]["settled_by"] == "pending_roll_off"
    assert report["rolloff"]["purpose"] == "set 1 winner"
    assert report["next"] == {"set": 2, "round": 1, "tables": [["Ann", "Bea"]]}
    with pytest.raises(NotAllowedNow):
        roll(night, 1, 1, 1, 1)
    night = roll(night, None, 6, 6, 6)  # Ann's high total 18
    night = roll(night, None, 1, 1, 2)  # Bea's 4: Ann rolls first, for 6's
    night = roll(night, None, 6, 6, 6, player="Ann")  # a Bunco: 21 >= 5
    assert night_report(night)["set_winners"][0]["winner"] == "Ann"
    assert (night.phase, night.set_no, night.round_no) == ("playing", 2, 1)
    for _ in range(6):
        night = win_round(night, "Bea")
    report = night_report(night)
    assert [s["winner"] for s in report["set_winners"]] == ["Ann", "Bea"]
    assert report["players"]["Bea"]["wins"] == 9 and report["players"]["Ann"]["wins"] == 3


@pytest.mark.parametrize(
    ("preset", "sets", "players"), [("classic", 3, 9), ("scil", 4, 6), ("tournament", 4, 13)]
)
def test_three_and_four_sets_total_across_the_night(preset: str, sets: int, players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    night, _ = play_randomly(party(preset, names, sets=sets), seed=sets)
    report = night_report(night)
    assert [(r["set"], r["round"]) for r in report["rounds"]] == [
        (s, r) for s in range(1, sets + 1) for r in range(1, 7)
    ]
    check_night(report, night.rules, names)  # movement goes on from one set into the next
    buncos: Counter[str] = Counter()
    for rnd in night.history:
        for table in rnd.tables:
            buncos.update(
                r.credited
                for r in table.rolls
                if r.kind is RollKind.BUNCO and r.credited and r.phase is not Phase.FIRST_ROLL
            )
    for name in names:
        card = report["players"][name]
        assert len(card["rounds"]) == 6 * sets
        assert card["buncos"] == buncos[name]


def test_winning_moves_set_winners_follow_each_sets_columns() -> None:
    """Twelve players, two sets, random dice: each set's winner has the most W's of that
    set, then the most B's among those tied (counted here from the rolls)."""
    names = [f"P{i}" for i in range(12)]
    night, _ = play_randomly(party("winning-moves", names, sets=2), seed=7)
    for result in night.set_results:
        s = result.set_no
        wins = Counter(
            w
            for rnd in night.history
            if rnd.set_no == s
            for t in rnd.tables
            for w in t.winners
            if w
        )
        buncos = Counter(
            r.credited
            for rnd in night.history
            if rnd.set_no == s
            for t in rnd.tables
            for r in t.rolls
            if r.kind is RollKind.BUNCO and r.credited
        )
        best = max(wins.values())
        tied = sorted(p for p in names if wins[p] == best)
        assert sorted(result.tied_on_wins) == tied
        most_b = max(buncos[p] for p in tied)
        assert sorted(result.tied_on_buncos) == sorted(p for p in tied if buncos[p] == most_b)
        assert result.winner in result.tied_on_buncos
        rows = {row["player"]: row["wins"] for row in master_sheet(night, s)}
        assert rows == {p: wins[p] for p in names}


@pytest.mark.parametrize("sets", [0, 5, True, "2", 1.5])
def test_one_to_four_sets(sets: object) -> None:
    line = '{"type": "party", "rules": "classic", "players": ["Ann", "Bea"], "sets": %s}'
    text = line % (str(sets).lower() if isinstance(sets, bool) else repr(sets).replace("'", '"'))
    with pytest.raises(LogError, match=r"line 1: sets .* is not allowed; expected 1 to 4 sets"):
        read_log([text])
    with pytest.raises(InvalidSetup):
        party("classic", ["Ann", "Bea"], sets=sets)


def test_random_two_set_nights_replay_with_people_changing_between_sets() -> None:
    """A substitute after set 1 plays set 2 in the seat; the totals stay apart."""
    rng = random.Random(3)
    night = party("classic", [f"P{i}" for i in range(8)], sets=2)
    while night.set_no == 1:
        table, _ = rng.choice(night.expected_rollers())
        night = roll(night, table, *(rng.randint(1, 6) for _ in range(3)))
    seat = night.seating[1].index("P7")
    night = night.apply({"type": "substitute", "out": "P7", "in": "Sub"})
    assert night.seating[1][seat] == "Sub"
    night, _ = play_randomly(night, seed=4)
    report = night_report(night)
    assert [c["set"] for c in report["changes"]] == [2]
    assert {r["set"] for r in report["players"]["P7"]["rounds"]} == {1}
    assert {r["set"] for r in report["players"]["Sub"]["rounds"]} == {2}
    assert len(report["players"]["P7"]["rounds"]) == len(report["players"]["Sub"]["rounds"]) == 6
