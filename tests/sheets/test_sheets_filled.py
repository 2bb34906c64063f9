"""Filled sheets read back from the PDF.

The hand-written log (data/classic8_hand.jsonl): classic, eight players, two tables, one
set. The host seats everyone by hand between rounds (``seat`` events) as the classic
movement would, with the staying pair split; every round follows one of two scripts:

- odd rounds: table 2 seat 1 rolls +1 then misses, seat 2 rolls a Mini (+5, rolls on);
  table 1 seat 1 rolls a Bunco (21: the bell), misses; table 2 seat 2 misses.
  Table 1: seats 1&3 win 21-0. Table 2: seats 2&4 win 5-1.
- even rounds: table 2 seat 1 rolls +2, a Mini (+5), misses; seat 2 rolls +1 (rolls on);
  table 1 seat 1 misses, seat 2 rolls a Bunco (the bell), +1 after it, misses; table 2
  seat 2 misses. Table 1: seats 2&4 win 22-0. Table 2: seats 1&3 win 7-1.

Seats by round (table 1 | table 2), worked out by hand:

  R1 Ann Bea Cat Dee | Eve Fay Gus Hal  -> W Ann Cat (Ann B 21) | Fay Hal (Fay mini 5), Eve 1
  R2 Ann Cat Fay Hal | Eve Gus Bea Dee  -> W Cat Hal (Cat B 22) | Eve Bea (Eve 7, mini), Gus 1
  R3 Cat Hal Eve Bea | Gus Dee Ann Fay  -> W Cat Eve (Cat B 21) | Dee Fay (Dee mini 5), Gus 1
  R4 Cat Eve Dee Fay | Gus Ann Hal Bea  -> W Eve Fay (Eve B 22) | Gus Hal (Gus 7, mini), Ann 1
  R5 Eve Fay Gus Hal | Ann Bea Cat Dee  -> W Eve Gus (Eve B 21) | Bea Dee (Bea mini 5), Ann 1
  R6 Eve Gus Bea Dee | Ann Cat Fay Hal  -> W Gus Dee (Gus B 22) | Ann Fay (Ann 7, mini), Cat 1

Totals (W, L, Buncos, Minis, points): Ann 2 4 1 1 30, Bea 2 4 0 1 5, Cat 3 3 2 0 44,
Dee 3 3 0 1 5, Eve 4 2 2 1 51, Fay 4 2 0 1 5, Gus 3 3 1 1 31, Hal 3 3 0 0 0.
Prizes (ties shared): Most Buncos 2 Cat, Eve; Most Wins 4 Eve, Fay; Most Losses 4 Ann, Bea;
half and half Cat, Dee, Gus, Hal; Last Bunco Gus (R6).
Standings (W, then Buncos, then points): Eve, Fay, Cat, Gus, Dee, Hal, Ann, Bea.
"""

from __future__ import annotations

import pytest
from sheet_helpers import (
    GOLDEN_12,
    count,
    hand_night,
    night_from,
    one_page,
    page_texts,
    pages_with,
    party,
    play_randomly,
)

from bunco.core.night import Night
from bunco.party.night_report import night_report
from bunco.sheets import filled_sheets_pdf

HAND_STANDINGS = [
    # rank, player, W, L, Buncos, Mini Buncos, points, prizes
    ("1", "Eve", 4, 2, 2, 1, 51, "Most Buncos (shared); Most Wins (shared)"),
    ("2", "Fay", 4, 2, 0, 1, 5, "Most Wins (shared)"),
    ("3", "Cat", 3, 3, 2, 0, 44, "Most Buncos (shared); Half Wins and Half Losses (shared)"),
    ("4", "Gus", 3, 3, 1, 1, 31, "Half Wins and Half Losses (shared); Last Bunco"),
    ("5", "Dee", 3, 3, 0, 1, 5, "Half Wins and Half Losses (shared)"),
    ("6", "Hal", 3, 3, 0, 0, 0, "Half Wins and Half Losses (shared)"),
    ("7", "Ann", 2, 4, 1, 1, 30, "Most Losses (shared)"),
    ("8", "Bea", 2, 4, 0, 1, 5, "Most Losses (shared)"),
]
HAND_MARKS = {  # the host's sheet: W/L per round, a B per Bunco
    "Ann": "WB L L L L W",
    "Bea": "L W L L W L",
    "Cat": "W WB WB L L L",
    "Dee": "L L W L W W",
    "Eve": "L W W WB WB L",
    "Fay": "W L W W L W",
    "Gus": "L L L W W WB",
    "Hal": "W W L W L L",
}
HAND_TABLES = {  # the host's sheet: the table of each round, from the seats above
    "Ann": "1 1 2 2 2 2",
    "Bea": "1 2 1 2 2 1",
    "Cat": "1 1 1 1 2 2",
    "Dee": "1 2 2 1 2 1",
    "Eve": "2 2 1 1 1 1",
    "Fay": "2 1 2 1 1 2",
    "Gus": "2 2 2 2 1 1",
    "Hal": "2 1 1 2 1 2",
}


@pytest.fixture(scope="module")
def hand() -> list[str]:
    return page_texts(filled_sheets_pdf(hand_night()))


def test_hand_log_page_kinds(hand: list[str]) -> None:
    # host's sheet, standings, 8 cards (4 + 4: never a page of one or two), two table tallies
    assert len(hand) == 1 + 1 + 2 + 2
    assert pages_with(hand, "BUNCO SCORE CARD") == [2, 3]
    assert [count(hand[i], "BUNCO SCORE CARD") for i in (2, 3)] == [4, 4]


def test_hand_log_standings(hand: list[str]) -> None:
    page = one_page(hand, "Standings")
    assert "# Player W L Buncos Mini Buncos Points Prizes" in page
    rows = [" ".join(map(str, row)) for row in HAND_STANDINGS]
    assert " ".join(rows) in page  # every row, in this order
    assert "Most Buncos [2]: Cat, Eve (shared)" in page
    assert "Most Wins [4]: Eve, Fay (shared)" in page
    assert "Most Losses [4]: Ann, Bea (shared)" in page
    assert "Half Wins and Half Losses: Cat, Dee, Gus, Hal (shared)" in page
    assert "Last Bunco: Gus" in page
    assert "Where the night stands" not in page


def test_hand_log_host_sheet(hand: list[str]) -> None:
    page = one_page(hand, "Host's sheet, set 1")
    for name, marks in HAND_MARKS.items():
        row = next(r for r in HAND_STANDINGS if r[1] == name)
        w, lo, b, m = row[2], row[3], row[4], row[5]
        rounds = " ".join(
            f"{t} {mark}" for t, mark in zip(HAND_TABLES[name].split(), marks.split(), strict=True)
        )
        assert f"{name} {rounds} {w} {lo} {b} {m}" in page, name


def test_hand_log_score_cards(hand: list[str]) -> None:
    cards = hand[2] + " " + hand[3]
    # Eve's card, round by round: table, W/L, Buncos, Minis (blank when none), points
    eve = (
        "Name: Eve Set 1 Round Table W / L Buncos Mini Buncos Points "
        "1 2 L 1 2 2 W 1 7 3 1 W 0 4 1 W 1 22 5 1 W 1 21 6 1 L 0 Total 4 / 2 2 1 51"
    )
    assert eve in cards
    for _, name, w, lo, b, m, pts, _ in HAND_STANDINGS:
        assert f"Night: {w} W · {lo} L · {b} Buncos · {m} Mini Buncos · {pts} points" in cards, name
        assert f"Total {w} / {lo} {b} {m} {pts}" in cards, name


def test_hand_log_tallies(hand: list[str]) -> None:
    t1 = one_page(hand, "Table 1 tally")
    # round 1: Ann's turn scored 21 (Bunco, then a miss); round 2: Cat's 22 for Them.
    # each column: its head, the partners, the points of each scoring turn, the total
    assert "Round 1: roll 1s Us Ann & Cat 21 21 Them Bea & Dee 0 Winners: Ann & Cat" in t1
    assert "Round 2: roll 2s Us Ann & Fay 0 Them Cat & Hal 22 22 Winners: Cat & Hal" in t1
    assert "Round 6: roll 6s Us Eve & Bea 0 Them Gus & Dee 22 22 Winners: Gus & Dee" in t1
    t2 = one_page(hand, "Table 2 tally")
    # odd rounds: Us 1, Them 5; even rounds: Us 7 (one turn: +2, Mini, miss), Them 1
    assert "Round 1: roll 1s Us Eve & Gus 1 1 Them Fay & Hal 5 5 Winners: Fay & Hal" in t2
    assert "Round 2: roll 2s Us Eve & Bea 7 7 Them Gus & Dee 1 1 Winners: Eve & Bea" in t2
    assert count(t2, "Winners:") == 6


# -- winning-moves: seeds/000's master score sheet ----------------------------------------


def _win_round(night: Night, winner: str, bunco: bool) -> Night:
    """Everyone else misses; ``winner`` rolls a Bunco or gathers 21 from +2 rolls."""
    r = night.round_no
    miss, other = (1 if r != 1 else 2), (3 if r != 3 else 4)
    while night.round_no == r and night.phase == "playing":
        roller = night.tables[0].roller
        hit = [r, r, r] if bunco else [r, r, other]
        dice = hit if roller == winner else [miss, miss, other]
        night = night.apply({"type": "roll", "table": 1, "dice": dice})
    return night


def test_winning_moves_master_sheet_of_seeds_000() -> None:
    # 000: Andy 2 W, Laura 2 W + 1 B, Paul 1 W, Suzi 1 W + 1 B -> Laura wins.
    night = party("winning-moves", ["Andy", "Laura", "Paul", "Suzi"], name="Box of Bunco")
    plan = [
        ("Laura", False),
        ("Suzi", True),
        ("Paul", False),
        ("Andy", False),
        ("Andy", False),
        ("Laura", True),
    ]
    for winner, bunco in plan:
        night = _win_round(night, winner, bunco)
    texts = page_texts(filled_sheets_pdf(night))
    sheet = one_page(texts, "Master score sheet, set 1")
    assert "Player 1 2 3 4 5 6 Total W Total B" in sheet
    assert "Andy W W 2 0 Laura W WB 2 1 Paul W 1 0 Suzi WB 1 1" in sheet
    assert "Winner of set 1: Laura (by most B's among those tied on W's)" in sheet
    assert "Tied on W's: Andy, Laura" in sheet
    standings = one_page(texts, "Standings")
    assert "1 Laura 2 4 1 0" in standings and "Winner of set 1" in standings
    cards = " ".join(texts[i] for i in pages_with(texts, "BUNCO SCORE CARD"))
    assert "Low/High Buncos" in cards and count(cards, "BUNCO SCORE CARD") == 4


# -- golden 12-player logs of tests/party/golden (standings worked out there by hand) ------

WM12 = [
    # rank, player, W, L, Buncos, Low/High Buncos, points (cards of test_party_golden.py;
    # Jo won the set, then W's, Buncos and points decide; Bea and Fay are level)
    "1 Jo 5 1 1 2 42",
    "2 Gus 5 1 0 0 0",
    "3 Ivy 4 2 1 0 22",
    "4 Bea 3 3 1 1 30",
    "4 Fay 3 3 1 1 30",
    "6 Kim 3 3 1 1 29",
    "7 Lou 3 3 0 0 5",
    "8 Cat 3 3 0 0 1",
    "9 Dee 2 4 1 0 21",
    "10 Ann 2 4 0 3 24",
    "11 Hal 2 4 0 0 0",
    "12 Eve 1 5 0 0 0",
]


@pytest.mark.skipif(
    not (GOLDEN_12 / "winning-moves-12.jsonl").exists(),
    reason="tests/party/golden/winning-moves-12.jsonl is not there",
)
def test_golden_winning_moves_12() -> None:
    texts = page_texts(filled_sheets_pdf(night_from(GOLDEN_12 / "winning-moves-12.jsonl")))
    standings = one_page(texts, "Standings")
    for row in WM12:
        assert row in standings, row
    assert standings.index(WM12[0]) < standings.index(WM12[-1])
    sheet = one_page(texts, "Master score sheet, set 1")
    assert "Jo W W WB W W 5 1" in sheet and "Gus W W W W W 5 0" in sheet
    assert "Winner of set 1: Jo (by most B's among those tied on W's)" in sheet
    assert len(pages_with(texts, "tally")) == 3


@pytest.mark.skipif(
    not (GOLDEN_12 / "classic-12.jsonl").exists(),
    reason="tests/party/golden/classic-12.jsonl is not there",
)
def test_golden_classic_12() -> None:
    texts = page_texts(filled_sheets_pdf(night_from(GOLDEN_12 / "classic-12.jsonl")))
    standings = one_page(texts, "Standings")
    # Cat 5 W 3 B 74, Ann 5 W 2 B 67 (cards of test_party_golden.py)
    assert "1 Cat 5 1 3 2 74" in standings and "2 Ann 5 1 2 3 67" in standings
    assert "Most Buncos [3]: Cat" in standings
    assert "Most Wins [5]: Ann, Cat (shared)" in standings
    assert "Traveling: Gus" in standings
    t3 = one_page(texts, "Table 3 tally")
    # a tie at 1-1, broken by extra turns (1-0): the Tie-break row, and said under the block
    assert (
        "Round 2: roll 2s Us Jo & Gus 1 1 1 Them Eve & Lou 1 1 0 "
        "Winners: Jo & Gus (tie broken by extra turns)"
    ) in t3


# -- nights from random dice -----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "sets", "seed"),
    [
        ("classic", 13, 1, 1),
        ("scil", 10, 2, 2),
        ("tournament", 8, 1, 3),
        ("winning-moves", 7, 2, 4),
    ],
)
def test_random_nights_cards_agree_with_the_engine(
    rules: str, players: int, sets: int, seed: int
) -> None:
    names = [f"Player{i:02d}" for i in range(1, players + 1)]
    night = play_randomly(party(rules, names, sets=sets, prize_ties="shared"), seed)
    texts = page_texts(filled_sheets_pdf(night))
    cards = " ".join(texts[i] for i in pages_with(texts, "BUNCO SCORE CARD"))
    assert count(cards, "BUNCO SCORE CARD") == players
    mini = night.rules.mini_label + "s"
    for name in names:
        c = night.cards[name]
        assert (
            f"Night: {c.wins} W · {c.losses} L · {c.buncos} Buncos · {c.minis} {mini} · "
            f"{c.points} points"
        ) in cards, name
    tallies = pages_with(texts, "tally")
    assert len(tallies) == sets * len(night.history[0].tables)
    # every table's final score is on its tally page, under its round
    report = night_report(night)
    for rnd in report["rounds"]:
        for table in rnd["tables"]:
            page = [
                texts[i]
                for i in tallies
                if f"Table {table['table']} tally" in texts[i] and f"set {rnd['set']}" in texts[i]
            ]
            assert len(page) == 1
            winners = " & ".join(table["winners"])
            assert f"Winner{'s' if len(table['winners']) > 1 else ''}: {winners}" in page[0]


def test_a_night_in_progress_prints_what_is_played() -> None:
    night = play_randomly(party("classic", [f"P{i}" for i in range(8)]), 5, stop_after=300)
    assert night.phase == "playing" and 0 < len(night.history) < 6
    texts = page_texts(filled_sheets_pdf(night))
    standings = one_page(texts, "Standings")
    assert "Where the night stands: in progress" in standings
    t1 = one_page(texts, "Table 1 tally")
    assert count(t1, "not played") == 6 - len(night.history)


def test_names_that_look_like_markup_print_as_they_are() -> None:
    names = ["<b>Ann</b>", "Bea & Co", "=SUM(A1)", "Zoë"]
    night = play_randomly(party("classic", names, prize_ties="shared"), 9)
    texts = page_texts(filled_sheets_pdf(night))
    everything = " ".join(texts)
    for name in names:
        assert f"Name: {name}" in everything


def test_party_log_example_with_substitute_leave_and_join() -> None:
    """The example night of docs/party-log.md (its story is told there line by line)."""
    import re

    from sheet_helpers import ROOT

    from bunco.core.party_log import read_log

    text = (ROOT / "docs" / "party-log.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```jsonl\n(.*?)^```", text, flags=re.S | re.M)
    if len(blocks) != 1:
        pytest.skip("docs/party-log.md has no single example log")
    texts = page_texts(filled_sheets_pdf(read_log(blocks[0].splitlines())))
    tally = one_page(texts, "Table 1 tally")
    # R1: Ann +2 (turn 1), Bea 1, Cat's Bunco (21) and a miss: Ann & Cat win 23 to 1
    assert "Round 1: roll 1s Us Ann & Cat 2 21 23 Them Bea & Dee 1 1 Winners: Ann & Cat" in tally
    # R2: Eve substitutes for Dee; Ann's Bunco: Ann & Bea win 21 to 0
    assert "Round 2: roll 2s Us Ann & Bea 21 21 Them Eve & Cat 0 Winners: Ann & Bea" in tally
    # R3: three individuals; Ann's Bunco and one more point: 22
    assert "Round 3: roll 3s Ann seat 1 22 22 Bea seat 2 0 Cat seat 3 0 Winner: Ann" in tally
    cards = " ".join(texts[i] for i in pages_with(texts, "BUNCO SCORE CARD"))
    assert "Name: Eve Set 1 Round Table W / L Buncos Mini Buncos Points 1 2 1 L 0" in cards
    assert "Traveling: Bea" in one_page(texts, "Standings")
