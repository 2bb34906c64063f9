"""CSV standings: the hand-worked standings of the classic night, exactly."""

from __future__ import annotations

import csv
import io

from sheet_helpers import hand_night, party, play_randomly

from bunco.sheets import standings_csv

HAND_CSV = """\
rank,player,wins,losses,buncos,mini_buncos,points,prizes_won,group
1,Eve,4,2,2,1,51,Most Buncos (shared); Most Wins (shared),
2,Fay,4,2,0,1,5,Most Wins (shared),
3,Cat,3,3,2,0,44,Most Buncos (shared); Half Wins and Half Losses (shared),
4,Gus,3,3,1,1,31,Half Wins and Half Losses (shared); Last Bunco,
5,Dee,3,3,0,1,5,Half Wins and Half Losses (shared),
6,Hal,3,3,0,0,0,Half Wins and Half Losses (shared),
7,Ann,2,4,1,1,30,Most Losses (shared),
8,Bea,2,4,0,1,5,Most Losses (shared),
"""


def test_hand_log_csv() -> None:
    assert standings_csv(hand_night()) == HAND_CSV


def test_set_winner_and_roll_off_prizes() -> None:
    # one table of two: Ann wins rounds 1-3 with Buncos, Bea rounds 4-6 with +2's:
    # 3 W each, Ann 3 B: Ann wins set 1 on B's (RULES.md §4), and is first.
    night = party("winning-moves", ["Ann", "Bea"])
    for r in range(1, 7):
        while night.round_no == r and night.phase == "playing":
            roller = night.tables[0].roller
            winner = "Ann" if r <= 3 else "Bea"
            if roller != winner:
                dice = [f for f in range(1, 7) if f != r][:3]  # a miss
            else:
                dice = [r, r, r] if winner == "Ann" else [r, r, (r % 6) + 1]
            night = night.apply({"type": "roll", "table": 1, "dice": dice})
    rows = list(csv.DictReader(io.StringIO(standings_csv(night))))
    assert [(r["rank"], r["player"], r["wins"], r["buncos"], r["prizes_won"]) for r in rows] == [
        ("1", "Ann", "3", "3", "Winner of set 1"),
        ("2", "Bea", "3", "0", ""),
    ]


def test_formulas_are_made_inert() -> None:
    names = ['=HYPERLINK("x")', "+1", "-2", "@Ann", "Bea, Jr."]
    night = play_randomly(party("classic", names, prize_ties="shared"), 4)
    rows = list(csv.DictReader(io.StringIO(standings_csv(night))))
    players = {r["player"] for r in rows}
    assert players == {'\'=HYPERLINK("x")', "'+1", "'-2", "'@Ann", "Bea, Jr."}
    assert len(rows) == 5
    for r in rows:
        assert int(r["wins"]) + int(r["losses"]) == 6
