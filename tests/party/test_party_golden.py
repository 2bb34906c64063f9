"""Golden 12-player nights, one per preset (tests/party/golden/<preset>-12.jsonl).

Every expected value below was worked out by hand from RULES.md (and, for who sits in
which chair, the seat rule of docs/seating.md), not printed by the program. The logs
themselves name the player of every roll, so a replay that seated anyone differently or
passed the dice another way would be refused at that line.

Movement used for the seatings (RULES.md §6; docs/seating.md "Who sits where"): a table
receives two pairs. Written stayers first (by old seat), then arrivals (by old table and
seat): when the staying pair held seats 1&3 the table becomes [S1, S2, A1, A2]; when it
held seats 2&4 it becomes [S1, A1, A2, S2]. Either way the stayers split (each partners an
arrival) and one stayer keeps their chair. A table with no stayers (classic table 2) seats
the arrivals in order [L1, L2, W1, W2], which splits both pairs.

Names: round 1 is table 1 Ann Bea Cat Dee, table 2 Eve Fay Gus Hal, table 3 Ivy Jo Kim Lou.
Scores are (seats 1&3, seats 2&4). Cards are (W/L per round, Buncos, Mini/Baby/Low/High
Buncos, points); points are what the player rolled in play and after the bell (tie-break
rolls settle the table and are not points of the round).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from party_helpers import GOLDEN, golden

from bunco.party.night_report import night_report
from bunco.party.sheets import master_sheet, table_tally

Seating = list[list[list[str]]]


def check_rounds(
    report: dict[str, Any],
    seating: Seating,
    scores: list[list[tuple[int, int]]],
    winners: list[list[list[str]]],
) -> None:
    rounds = report["rounds"]
    assert [(r["set"], r["round"]) for r in rounds] == [(1, n) for n in range(1, 7)]
    for n, rnd in enumerate(rounds):
        tables = rnd["tables"]
        assert [t["table"] for t in tables] == [1, 2, 3]
        assert [t["players"] for t in tables] == seating[n], f"seating of round {n + 1}"
        assert [tuple(t["team_scores"]) for t in tables] == scores[n], f"scores of round {n + 1}"
        assert [t["winners"] for t in tables] == winners[n], f"winners of round {n + 1}"
        for t, seats in zip(tables, seating[n], strict=True):
            assert sorted(t["winners"] + t["losers"]) == sorted(seats)


def check_cards(report: dict[str, Any], cards: dict[str, tuple[str, int, int, int]]) -> None:
    players = report["players"]
    assert list(players) == list(cards)
    for name, (marks, buncos, minis, points) in cards.items():
        card = players[name]
        got = "".join(r["result"] for r in card["rounds"])
        assert (got, card["buncos"], card["mini_buncos"], card["points"]) == (
            marks,
            buncos,
            minis,
            points,
        ), name
        assert (card["wins"], card["losses"]) == (marks.count("W"), marks.count("L")), name


def prize_rows(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (p["category"], p["group"], p["value"], p["candidates"], p["winners"], p["settled_by"])
        for p in report["prizes"]
    ]


def tie_breaks(report: dict[str, Any]) -> dict[tuple[int, int], str]:
    return {
        (r["round"], t["table"]): t["tie_break"]["rule"]
        for r in report["rounds"]
        for t in r["tables"]
        if t["tie_break"]
    }


# -- classic --------------------------------------------------------------------------------
# Up/down movement: head winners stay, winners k -> k-1, losers k -> k+1, last losers stay.
CLASSIC_SEATING: Seating = [
    [["Ann", "Bea", "Cat", "Dee"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lou"]],
    # R1 won by Ann&Cat (t1, seats 1&3), Fay&Hal (t2, 2&4), Ivy&Kim (t3, 1&3).
    # t1: Ann, Cat stay + Fay, Hal up. t2: Bea, Dee down + Ivy, Kim up (no stayers).
    # t3: Jo, Lou stay (seats 2&4) + Eve, Gus down -> [Jo, Eve, Gus, Lou].
    [["Ann", "Cat", "Fay", "Hal"], ["Bea", "Dee", "Ivy", "Kim"], ["Jo", "Eve", "Gus", "Lou"]],
    # R2 won by Cat&Hal (t1, 2&4), Dee&Kim (t2, 2&4), Jo&Gus (t3, 1&3).
    [["Cat", "Dee", "Kim", "Hal"], ["Ann", "Fay", "Jo", "Gus"], ["Eve", "Bea", "Ivy", "Lou"]],
    # R3 won by Cat&Kim (t1, 1&3), Ann&Jo (t2, 1&3), Bea&Lou (t3, 2&4).
    [["Cat", "Kim", "Ann", "Jo"], ["Dee", "Hal", "Bea", "Lou"], ["Eve", "Ivy", "Fay", "Gus"]],
    # R4 won by Cat&Ann (t1, 1&3), Hal&Lou (t2, 2&4), Eve&Fay (t3, 1&3).
    [["Cat", "Ann", "Hal", "Lou"], ["Kim", "Jo", "Eve", "Fay"], ["Ivy", "Dee", "Bea", "Gus"]],
    # R5 won by Ann&Lou (t1, 2&4), Jo&Fay (t2, 2&4), Ivy&Bea (t3, 1&3).
    [["Ann", "Jo", "Fay", "Lou"], ["Cat", "Hal", "Ivy", "Bea"], ["Dee", "Kim", "Eve", "Gus"]],
]
CLASSIC_SCORES = [
    # R1: Ann's Bunco + 1 after the bell; Eve 1 v Fay 2 + 1 after the bell; Ivy's Mini.
    [(22, 0), (1, 3), (5, 0)],
    # R2: Cat's Bunco + a Mini after the bell; Dee +2; Jo 1 v Eve 1: a tie.
    [(0, 26), (0, 2), (1, 1)],
    # R3: Cat 5+1, Kim's Bunco v Dee 3; Ann 1+2; Bea 1.
    [(27, 3), (3, 0), (0, 1)],
    # R4: Cat's Bunco; Dee 1 v Hal 2; Eve's Bunco at table 3 (no bell there).
    [(21, 0), (1, 2), (21, 0)],
    # R5: Ann's Bunco; Kim 2 v Jo 2 at the bell, Jo mid-turn rolls on +2; Bea 1.
    [(0, 21), (2, 4), (1, 0)],
    # R6: Ann 3 Minis and three +2's; Cat's Bunco; Kim 1.
    [(21, 0), (21, 0), (0, 1)],
]
CLASSIC_WINNERS = [
    [["Ann", "Cat"], ["Fay", "Hal"], ["Ivy", "Kim"]],
    # table 3 tie: a roll-off session from the scorekeeper: Jo +1, everyone else misses.
    [["Cat", "Hal"], ["Dee", "Kim"], ["Jo", "Gus"]],
    [["Cat", "Kim"], ["Ann", "Jo"], ["Bea", "Lou"]],
    [["Cat", "Ann"], ["Hal", "Lou"], ["Eve", "Fay"]],
    [["Ann", "Lou"], ["Jo", "Fay"], ["Ivy", "Bea"]],
    [["Ann", "Fay"], ["Cat", "Ivy"], ["Kim", "Gus"]],
]
CLASSIC_CARDS = {
    "Ann": ("WLWWWW", 2, 3, 67),  # 22 + 3 + 21 + 21
    "Bea": ("LLWLWL", 0, 0, 2),
    "Cat": ("WWWWLW", 3, 2, 74),  # 26 + 6 + 21 + 21
    "Dee": ("LWLLLL", 0, 0, 6),  # 2 + 3 + 1
    "Eve": ("LLLWLL", 1, 0, 23),  # 1 + 1 + 21
    "Fay": ("WLLWWW", 0, 0, 3),
    "Gus": ("LWLLLW", 0, 0, 0),
    "Hal": ("WWLWLL", 0, 0, 2),
    "Ivy": ("WLLLWW", 0, 1, 5),
    "Jo": ("LWWLWL", 0, 0, 5),  # 1 + 4 (the tie-break point is not a point of the round)
    "Kim": ("WWWLLW", 1, 0, 24),  # 21 + 2 + 1
    "Lou": ("LLWWWL", 0, 0, 0),
}


def test_classic_golden_night() -> None:
    night = golden("classic")
    report = night_report(night)
    check_rounds(report, CLASSIC_SEATING, CLASSIC_SCORES, CLASSIC_WINNERS)
    assert tie_breaks(report) == {(2, 3): "sessions"}
    check_cards(report, CLASSIC_CARDS)
    # after-bell rolls: R1 Fay (t2) and Ann (t1), R2 Cat, R3 Kim, R4 Cat, R5 Jo and Ann, R6 Ann
    after_bell = {
        (r.round_no, t.table, rec.roller)
        for r in night.history
        for t in r.tables
        for rec in t.rolls
        if rec.phase.value == "after_bell"
    }
    assert after_bell == {
        (1, 2, "Fay"),
        (1, 1, "Ann"),
        (2, 1, "Cat"),
        (3, 1, "Kim"),
        (4, 1, "Cat"),
        (5, 2, "Jo"),
        (5, 1, "Ann"),
        (6, 1, "Ann"),
    }
    # Prizes (shared ties): Cat 3 Buncos; Ann and Cat 5 W; Dee and Eve 5 L; 3-3: Hal, Ivy,
    # Jo, Lou; the last Bunco was Cat's (R6, table 2); the traveler went Ann (1-2-3 in R3) ->
    # Gus (3-1-2 in R6).
    assert prize_rows(report) == [
        ("most_buncos", None, 3, ["Cat"], ["Cat"], "outright"),
        ("most_wins", None, 5, ["Ann", "Cat"], ["Ann", "Cat"], "shared"),
        ("most_losses", None, 5, ["Dee", "Eve"], ["Dee", "Eve"], "shared"),
        (
            "half_and_half",
            None,
            None,
            ["Hal", "Ivy", "Jo", "Lou"],
            ["Hal", "Ivy", "Jo", "Lou"],
            "shared",
        ),
        ("last_bunco", None, None, ["Cat"], ["Cat"], "outright"),
        ("traveling", None, None, ["Gus"], ["Gus"], "outright"),
    ]
    assert (report["traveler"], report["last_bunco"]) == ("Gus", "Cat")
    # Table tallies, points per turn (Us = seats 1&3): R1 table 2, Eve 1, then Fay 2 + 1 after
    # the bell; R2 table 3, Jo 1, Eve 1 (the tie-break rolls are not turns of the round);
    # R3 table 1, Cat 5 + 1, Dee 2 + 1, Kim 21.
    tally = {
        (r, t): table_tally(night.history[r - 1].tables[t - 1]) for r, t in ((1, 2), (2, 3), (3, 1))
    }
    assert [(v["us"], v["them"], v["totals"]) for v in tally.values()] == [
        ([1], [3], [1, 3]),
        ([1], [1], [1, 1]),
        ([6, 21], [3], [27, 3]),
    ]
    assert (report["winner"], report["next"], report["phase"]) == (None, None, "over")


# -- tournament -----------------------------------------------------------------------------
# Winners stay, losers walk k -> k+1 (t3 -> t1); nobody keeps a partner (both rules hold here).
TOURNAMENT_SEATING: Seating = [
    [["Ann", "Bea", "Cat", "Dee"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lou"]],
    # R1 won by Ann&Cat (t1, 1&3), Fay&Hal (t2, 2&4), Jo&Lou (t3, 2&4).
    # t1: Ann, Cat + Ivy, Kim (t3 losers). t2: Fay, Hal + Bea, Dee -> [Fay, Bea, Dee, Hal].
    # t3: Jo, Lou + Eve, Gus -> [Jo, Eve, Gus, Lou].
    [["Ann", "Cat", "Ivy", "Kim"], ["Fay", "Bea", "Dee", "Hal"], ["Jo", "Eve", "Gus", "Lou"]],
    # R2 won by Cat&Kim (t1, 2&4), Fay&Dee (t2, 1&3), Eve&Lou (t3, 2&4).
    [["Cat", "Jo", "Gus", "Kim"], ["Fay", "Dee", "Ann", "Ivy"], ["Eve", "Bea", "Hal", "Lou"]],
    # R3 won by Jo&Kim (t1, 2&4), Fay&Ann (t2, 1&3), Bea&Lou (t3, 2&4).
    [["Jo", "Eve", "Hal", "Kim"], ["Fay", "Ann", "Cat", "Gus"], ["Bea", "Dee", "Ivy", "Lou"]],
    # R4 won by Jo&Hal (t1, 1&3), Ann&Gus (t2, 2&4), Bea&Ivy (t3, 1&3).
    [["Jo", "Hal", "Dee", "Lou"], ["Ann", "Eve", "Kim", "Gus"], ["Bea", "Ivy", "Fay", "Cat"]],
    # R5 won by Hal&Lou (t1, 2&4), Eve&Gus (t2, 2&4), Bea&Fay (t3, 1&3).
    [["Hal", "Ivy", "Cat", "Lou"], ["Eve", "Jo", "Dee", "Gus"], ["Bea", "Fay", "Ann", "Kim"]],
]
TOURNAMENT_SCORES = [
    # R1: Ann Mini + Bunco + 1 after the bell; Fay 2 + 2 after the bell; Ivy 1 v Jo 1.
    [(27, 0), (0, 4), (1, 1)],
    [(0, 21), (1, 0), (0, 2)],
    # R3: Jo 1 + Bunco; Fay 1 + Mini; Bea 2.
    [(0, 22), (6, 0), (0, 2)],
    # R4: Jo 2 + Bunco; Ann 1; Bea 1 at the bell, then a Bunco after it.
    [(23, 0), (0, 1), (22, 0)],
    # R5: Hal's Bunco; Eve 1; Bea 2 + Mini.
    [(0, 21), (0, 1), (7, 0)],
    # R6: Ivy's Bunco; Eve 1; Fay 2.
    [(0, 21), (1, 0), (0, 2)],
]
TOURNAMENT_WINNERS = [
    # table 3, 1-1: sudden death goes on with Kim (her turn); Kim shows no 1, Lou does.
    [["Ann", "Cat"], ["Fay", "Hal"], ["Jo", "Lou"]],
    [["Cat", "Kim"], ["Fay", "Dee"], ["Eve", "Lou"]],
    [["Jo", "Kim"], ["Fay", "Ann"], ["Bea", "Lou"]],
    [["Jo", "Hal"], ["Ann", "Gus"], ["Bea", "Ivy"]],
    [["Hal", "Lou"], ["Eve", "Gus"], ["Bea", "Fay"]],
    [["Ivy", "Lou"], ["Eve", "Dee"], ["Fay", "Kim"]],
]
TOURNAMENT_CARDS = {
    "Ann": ("WLWWLL", 1, 1, 28),
    "Bea": ("LLWWWL", 1, 1, 31),  # 2 + 22 + 7
    "Cat": ("WWLLLL", 1, 0, 21),
    "Dee": ("LWLLLW", 0, 0, 0),
    "Eve": ("LWLLWW", 0, 0, 4),
    "Fay": ("WWWLWW", 0, 1, 13),  # 4 + 1 + 6 + 2
    "Gus": ("LLLWWL", 0, 0, 0),
    "Hal": ("WLLWWL", 1, 0, 21),
    "Ivy": ("LLLWLW", 1, 0, 22),
    "Jo": ("WLWWLL", 2, 0, 46),  # 1 + 22 + 23
    "Kim": ("LWWLLW", 0, 0, 0),
    "Lou": ("WWWLWW", 0, 0, 0),
}


def test_tournament_golden_night() -> None:
    report = night_report(golden("tournament"))
    check_rounds(report, TOURNAMENT_SEATING, TOURNAMENT_SCORES, TOURNAMENT_WINNERS)
    assert tie_breaks(report) == {(1, 3): "sudden_death"}
    check_cards(report, TOURNAMENT_CARDS)
    # No two partners two rounds running (004), checked on the seatings above.
    for before, after in itertools.pairwise(TOURNAMENT_SEATING):
        pairs = {frozenset((t[i], t[i + 2])) for t in before for i in (0, 1)}
        assert not pairs & {frozenset((t[i], t[i + 2])) for t in after for i in (0, 1)}
    # Verified (after the last round, by each group's checker): everyone but Jo; Bea only
    # after round 3 (0 Buncos, 0 Minis, 1 W). So Jo's two Buncos and Bea's R4 Bunco and R5
    # Mini do not count. Verified Buncos: Team 1 Ann 1, Cat 1 (a tie: roll-off, Ann rolls
    # a Bunco and wins); Team 2 Hal 1; Team 3 Ivy 1. Minis: Ann, Fay, nobody in Team 3.
    # Wins: Ann 3 (Cat 2, Dee 2, Bea 1), Fay 5, Lou 5 (Jo counts 0). Groups by verified
    # Buncos: Team 1 2, Team 2 1, Team 3 1.
    assert prize_rows(report) == [
        ("most_buncos", "Team 1", 1, ["Ann", "Cat"], ["Ann"], "roll_off"),
        ("most_buncos", "Team 2", 1, ["Hal"], ["Hal"], "outright"),
        ("most_buncos", "Team 3", 1, ["Ivy"], ["Ivy"], "outright"),
        ("most_mini_buncos", "Team 1", 1, ["Ann"], ["Ann"], "outright"),
        ("most_mini_buncos", "Team 2", 1, ["Fay"], ["Fay"], "outright"),
        ("most_mini_buncos", "Team 3", 0, [], [], "nobody"),
        ("most_wins", "Team 1", 3, ["Ann"], ["Ann"], "outright"),
        ("most_wins", "Team 2", 5, ["Fay"], ["Fay"], "outright"),
        ("most_wins", "Team 3", 5, ["Lou"], ["Lou"], "outright"),
        ("group_most_buncos", None, 2, ["Team 1"], ["Team 1"], "outright"),
    ]
    assert [p["label"] for p in report["prizes"]][3] == "Most Mini Buncos"
    assert (report["winner"], report["next"], report["phase"]) == (None, None, "over")


# -- scil -----------------------------------------------------------------------------------
# Winners move up (head winners stay), head losers go to the last table, other losers stay;
# nobody keeps a partner. Everyone rolls for high at every table each round; dice go right.
SCIL_SEATING: Seating = [
    [["Ann", "Bea", "Cat", "Dee"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lou"]],
    # R1 won by Ann&Cat (t1, 1&3), Fay&Hal (t2, 2&4), Ivy&Kim (t3, 1&3).
    # t1: Ann, Cat + Fay, Hal. t2: Eve, Gus stay + Ivy, Kim up.
    # t3: Jo, Lou stay (2&4) + Bea, Dee from the head table -> [Jo, Bea, Dee, Lou].
    [["Ann", "Cat", "Fay", "Hal"], ["Eve", "Gus", "Ivy", "Kim"], ["Jo", "Bea", "Dee", "Lou"]],
    # R2 won by Cat&Hal (t1, 2&4), Gus&Kim (t2, 2&4), Jo&Dee (t3, 1&3).
    [["Cat", "Gus", "Kim", "Hal"], ["Eve", "Ivy", "Jo", "Dee"], ["Bea", "Ann", "Fay", "Lou"]],
    # R3 won by Gus&Hal (t1, 2&4), Ivy&Dee (t2, 2&4), Ann&Lou (t3, 2&4).
    [["Gus", "Ivy", "Dee", "Hal"], ["Eve", "Jo", "Ann", "Lou"], ["Bea", "Fay", "Cat", "Kim"]],
    # R4 won by Gus&Dee (t1, 1&3), Jo&Lou (t2, 2&4), Bea&Cat (t3, 1&3).
    [["Gus", "Dee", "Jo", "Lou"], ["Eve", "Ann", "Bea", "Cat"], ["Fay", "Ivy", "Hal", "Kim"]],
    # R5 won by Gus&Jo (t1, 1&3), Ann&Cat (t2, 2&4), Fay&Hal (t3, 1&3).
    [["Gus", "Jo", "Ann", "Cat"], ["Eve", "Bea", "Fay", "Hal"], ["Ivy", "Dee", "Lou", "Kim"]],
]
SCIL_SCORES = [
    # R1: Ann's Bunco rings the bell, nobody rolls on; Fay 1 + Baby (turn ends); Ivy 2 v Lou 2.
    [(21, 0), (0, 6), (2, 2)],
    # R2: Hal's Bunco; Eve 1 v Kim 2; Jo 1 + Baby.
    [(0, 21), (1, 2), (6, 0)],
    # R3: Hal starts (high roll 18) and rolls a Bunco; Dee 2; Bea 1 v Lou's Baby.
    [(0, 21), (0, 2), (1, 5)],
    # R4: Gus 2 + Baby, Dee's Bunco; Eve 1 v Lou 2; Bea's Bunco at table 3.
    [(28, 0), (1, 2), (21, 0)],
    # R5: Gus's Bunco; Cat 2; Fay 1.
    [(21, 0), (0, 2), (1, 0)],
    # R6: Gus's Bunco; Eve 1 + Fay's Baby; Kim 2.
    [(21, 0), (6, 0), (0, 2)],
]
SCIL_WINNERS = [
    # table 3 tie: a session from the scorekeeper, to the right: Ivy, Lou, Kim (+1), Jo.
    [["Ann", "Cat"], ["Fay", "Hal"], ["Ivy", "Kim"]],
    [["Cat", "Hal"], ["Gus", "Kim"], ["Jo", "Dee"]],
    [["Gus", "Hal"], ["Ivy", "Dee"], ["Ann", "Lou"]],
    [["Gus", "Dee"], ["Jo", "Lou"], ["Bea", "Cat"]],
    [["Gus", "Jo"], ["Ann", "Cat"], ["Fay", "Hal"]],
    [["Gus", "Ann"], ["Eve", "Fay"], ["Dee", "Kim"]],
]
SCIL_CARDS = {
    "Ann": ("WLWLWW", 1, 0, 21),
    "Bea": ("LLLWLL", 1, 0, 22),
    "Cat": ("WWLWWL", 0, 0, 2),
    "Dee": ("LWWWLW", 1, 0, 23),
    "Eve": ("LLLLLW", 0, 0, 3),
    "Fay": ("WLLLWW", 0, 2, 12),  # 6 + 1 + 5
    "Gus": ("LWWWWW", 2, 1, 49),  # 7 + 21 + 21
    "Hal": ("WWWLWL", 2, 0, 42),
    "Ivy": ("WLWLLL", 0, 0, 2),
    "Jo": ("LWLWWL", 0, 1, 6),
    "Kim": ("WWLLLW", 0, 0, 4),  # the tie-break point of R1 is not a point of the round
    "Lou": ("LLWWLL", 0, 1, 9),  # 2 + 5 + 2
}


def test_scil_golden_night() -> None:
    report = night_report(golden("scil"))
    check_rounds(report, SCIL_SEATING, SCIL_SCORES, SCIL_WINNERS)
    assert tie_breaks(report) == {(1, 3): "sessions"}
    check_cards(report, SCIL_CARDS)
    # Prizes, ties rolled off (003): Buncos Gus 2 = Hal 2 (Hal wins the roll-off to 5);
    # Baby Buncos Fay 2; Wins Gus 5; Losses Bea 5 = Eve 5 (both roll 12 for high, roll
    # again, Eve starts, Bea's Bunco wins).
    assert prize_rows(report) == [
        ("most_buncos", None, 2, ["Gus", "Hal"], ["Hal"], "roll_off"),
        ("most_mini_buncos", None, 2, ["Fay"], ["Fay"], "outright"),
        ("most_wins", None, 5, ["Gus"], ["Gus"], "outright"),
        ("most_losses", None, 5, ["Bea", "Eve"], ["Bea"], "roll_off"),
    ]
    assert report["prizes"][1]["label"] == "Most Baby Buncos"
    assert (report["winner"], report["next"], report["phase"]) == (None, None, "over")


# -- winning-moves --------------------------------------------------------------------------
# Every table plays to 21; a true Bunco anywhere ends the round at every table. Winners stay,
# losers move k -> k+1 (t3 -> t1).
WM_SEATING: Seating = [
    [["Ann", "Bea", "Cat", "Dee"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lou"]],
    # R1 won by Ann&Cat (t1, 1&3), Fay&Hal (t2, 2&4), Ivy&Kim (t3, 1&3).
    # t1: Ann, Cat + Jo, Lou. t2: Fay, Hal + Bea, Dee -> [Fay, Bea, Dee, Hal].
    # t3: Ivy, Kim + Eve, Gus.
    [["Ann", "Cat", "Jo", "Lou"], ["Fay", "Bea", "Dee", "Hal"], ["Ivy", "Kim", "Eve", "Gus"]],
    # R2 won by Ann&Jo (t1, 1&3), Bea&Hal (t2, 2&4), Kim&Gus (t3, 2&4).
    [["Ann", "Jo", "Ivy", "Eve"], ["Bea", "Cat", "Lou", "Hal"], ["Kim", "Fay", "Dee", "Gus"]],
    # R3 won by Jo&Eve (t1, 2&4), Bea&Lou (t2, 1&3), Fay&Gus (t3, 2&4).
    [["Jo", "Kim", "Dee", "Eve"], ["Bea", "Lou", "Ann", "Ivy"], ["Fay", "Cat", "Hal", "Gus"]],
    # R4 won by Jo&Dee (t1, 1&3), Lou&Ivy (t2, 2&4), Cat&Gus (t3, 2&4).
    [["Jo", "Dee", "Fay", "Hal"], ["Lou", "Kim", "Eve", "Ivy"], ["Cat", "Bea", "Ann", "Gus"]],
    # R5 won by Jo&Fay (t1, 1&3), Kim&Ivy (t2, 2&4), Bea&Gus (t3, 2&4).
    [["Jo", "Fay", "Cat", "Ann"], ["Kim", "Dee", "Hal", "Ivy"], ["Bea", "Lou", "Eve", "Gus"]],
]
WM_SCORES = [
    # R1: Ivy's Bunco at table 3 ends the round everywhere; t1 2-1 and t2 0-2 on points.
    [(2, 1), (0, 2), (21, 0)],
    # R2: Ann's three Low Buncos (7 each) win t1 on its own; Bea's Bunco ends t2 and t3; t3 1-1.
    [(21, 0), (0, 21), (1, 1)],
    # R3: Ann 1 v Jo 2; Bea 1; Kim's Low Bunco v Fay's Bunco, which ends the round.
    [(1, 2), (1, 0), (7, 21)],
    # R4: Jo's Bunco; Bea 1 v Lou 2; Cat 1.
    [(21, 0), (1, 2), (0, 1)],
    # R5: Jo 2 + 7 + 7 + 1 and Fay's Low Bunco reach 24 first; Kim's Bunco; Bea 1 + High Bunco.
    [(24, 0), (0, 21), (0, 6)],
    # R6: Jo 2; Dee's Bunco; Lou 3.
    [(2, 0), (0, 21), (0, 3)],
]
WM_WINNERS = [
    [["Ann", "Cat"], ["Fay", "Hal"], ["Ivy", "Kim"]],
    # t3 roll-off to 5: all roll for high, Kim (17) starts: Kim 2, Eve 2 (then three 4's:
    # nothing in a roll-off, turn over), Gus 2 + 1 = 5 for Kim & Gus.
    [["Ann", "Jo"], ["Bea", "Hal"], ["Kim", "Gus"]],
    [["Jo", "Eve"], ["Bea", "Lou"], ["Fay", "Gus"]],
    [["Jo", "Dee"], ["Lou", "Ivy"], ["Cat", "Gus"]],
    [["Jo", "Fay"], ["Kim", "Ivy"], ["Bea", "Gus"]],
    [["Jo", "Cat"], ["Dee", "Ivy"], ["Lou", "Gus"]],
]
WM_CARDS = {
    "Ann": ("WWLLLL", 0, 3, 24),  # 2 + 21 + 1
    "Bea": ("LWWLWL", 1, 1, 30),  # 1 + 21 + 1 + 1 + 6
    "Cat": ("WLLWLW", 0, 0, 1),
    "Dee": ("LLLWLW", 1, 0, 21),
    "Eve": ("LLWLLL", 0, 0, 0),
    "Fay": ("WLWLWL", 1, 1, 30),  # 2 + 21 + 7
    "Gus": ("LWWWWW", 0, 0, 0),
    "Hal": ("WWLLLL", 0, 0, 0),
    "Ivy": ("WLLWWW", 1, 0, 22),
    "Jo": ("LWWWWW", 1, 2, 42),  # 2 + 21 + 17 + 2
    "Kim": ("WWLLWL", 1, 1, 29),  # 1 + 7 + 21
    "Lou": ("LLWWLW", 0, 0, 5),
}


def test_winning_moves_golden_night() -> None:
    night = golden("winning-moves")
    report = night_report(night)
    check_rounds(report, WM_SEATING, WM_SCORES, WM_WINNERS)
    assert tie_breaks(report) == {(2, 3): "roll_off_to_five"}
    check_cards(report, WM_CARDS)
    lows_highs = {n: (c["low_buncos"], c["high_buncos"]) for n, c in report["players"].items()}
    assert {n: v for n, v in lows_highs.items() if v != (0, 0)} == {
        "Ann": (3, 0),
        "Bea": (0, 1),
        "Fay": (1, 0),
        "Jo": (2, 0),
        "Kim": (1, 0),
    }
    # Master score sheet: a W per round won, a B beside it for a Bunco.
    rows = {
        row["player"]: (row["rounds"], row["wins"], row["buncos"]) for row in master_sheet(night, 1)
    }
    assert rows == {
        "Ann": (["W", "W", "", "", "", ""], 2, 0),
        "Bea": (["", "WB", "W", "", "W", ""], 3, 1),
        "Cat": (["W", "", "", "W", "", "W"], 3, 0),
        "Dee": (["", "", "", "W", "", "WB"], 2, 1),
        "Eve": (["", "", "W", "", "", ""], 1, 0),
        "Fay": (["W", "", "WB", "", "W", ""], 3, 1),
        "Gus": (["", "W", "W", "W", "W", "W"], 5, 0),
        "Hal": (["W", "W", "", "", "", ""], 2, 0),
        "Ivy": (["WB", "", "", "W", "W", "W"], 4, 1),
        "Jo": (["", "W", "W", "WB", "W", "W"], 5, 1),
        "Kim": (["W", "W", "", "", "WB", ""], 3, 1),
        "Lou": (["", "", "W", "W", "", "W"], 3, 0),
    }
    # Most W's: Gus and Jo 5; most B's among them: Jo 1, Gus 0 -> Jo wins the set.
    assert report["set_winners"] == [
        {
            "set": 1,
            "winner": "Jo",
            "settled_by": "buncos",
            "tied_on_wins": ["Gus", "Jo"],
            "tied_on_buncos": ["Jo"],
        }
    ]
    assert (report["winner"], report["prizes"], report["next"]) == ("Jo", [], None)


@pytest.mark.parametrize("preset", ["classic", "tournament", "scil", "winning-moves"])
def test_golden_logs_are_what_the_plans_say(preset: str) -> None:
    """The committed logs are exactly what build_golden.py writes (so the plans, with their
    comments, are the readable form of each log)."""
    from golden.build_golden import log_text

    assert (GOLDEN / f"{preset}-12.jsonl").read_text(encoding="utf-8") == log_text(preset)
