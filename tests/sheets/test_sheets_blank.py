"""Blank sheets: read the PDF back and check each page's names, numbers and labels.

Expected moves come from RULES.md §6 (the table of 5-12 players for winning-moves, the
movement rules of each preset), not from the code.
"""

from __future__ import annotations

import pytest
from sheet_helpers import count, one_page, page_texts, pages_with

from bunco.core.errors import InvalidSetup
from bunco.core.presets import get_rules
from bunco.sheets import blank_sheets_pdf
from bunco.sheets.pdfkit import PaperError
from bunco.sheets.signs import table_signs

TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


@pytest.fixture(scope="module")
def classic12() -> list[str]:
    return page_texts(blank_sheets_pdf(get_rules("classic"), TWELVE, qr_url=None))


def test_classic_twelve_has_every_kind_of_page(classic12: list[str]) -> None:
    # 12 cards at 6 a page, 3 tally pages (one a table), the host's sheet, 3 signs,
    # 6 round cards, the house-rules card.
    assert len(classic12) == 2 + 3 + 1 + 3 + 6 + 1
    assert pages_with(classic12, "BUNCO SCORE CARD") == [0, 1]
    assert [count(classic12[i], "BUNCO SCORE CARD") for i in (0, 1)] == [6, 6]
    assert [len(pages_with(classic12, f"Table {k} tally")) for k in (1, 2, 3)] == [1, 1, 1]
    assert len(pages_with(classic12, "Host's sheet, set 1")) == 1
    assert [len(pages_with(classic12, f"TABLE {k}")) for k in (1, 2, 3)] == [1, 1, 1]
    assert len(pages_with(classic12, "House rules: classic")) == 1


def test_classic_score_cards(classic12: list[str]) -> None:
    cards = classic12[0] + " " + classic12[1]
    for name in TWELVE:
        assert count(cards, f"Name: {name} ") == 1, name
    assert count(classic12[0], "Round Table W / L Buncos Mini Buncos Points 1 2 3 4 5 6 Total") == 6
    # round 1: Ann-Dee at table 1, Eve-Hal at table 2, Ivy-Lou at table 3
    assert count(classic12[0], "Round 1: table 1") == 4
    assert count(classic12[0], "Round 1: table 2") == 2
    assert count(classic12[1], "Round 1: table 2") == 2
    assert count(classic12[1], "Round 1: table 3") == 4


def test_classic_tallies_are_us_and_them(classic12: list[str]) -> None:
    page = one_page(classic12, "Table 2 tally")
    for r in range(1, 7):
        assert f"Round {r}: roll {r}s play to 21 Us seats 1 & 3 Them seats 2 & 4" in page
    assert count(page, "Winners:") == 6


def test_classic_host_sheet_lists_players_and_prizes(classic12: list[str]) -> None:
    page = one_page(classic12, "Host's sheet, set 1")
    rounds = " ".join(f"Round {r}" for r in range(1, 7))
    assert (
        f"{rounds} The set Player"
        + " Table W / L" * 6
        + " W L Buncos Mini Buncos "
        + " ".join(TWELVE)
    ) in page
    for prize in (
        "Most Buncos",
        "Most Wins",
        "Most Losses",
        "Half Wins and Half Losses",
        "Last Bunco",
    ):
        assert f"{prize}: ____" in page


def test_classic_signs_say_winners_up_losers_down(classic12: list[str]) -> None:
    head = one_page(classic12, "TABLE 1")
    assert "HEAD TABLE" in head
    assert "Winners stay at this table" in head and "Losers go to table 2" in head
    assert "Round 1: Ann (scorekeeper), Bea, Cat, Dee" in head
    assert "ring the bell" in head
    middle = one_page(classic12, "TABLE 2")
    assert "Winners go to table 1" in middle and "Losers go to table 3" in middle
    assert "HEAD TABLE" not in middle
    last = one_page(classic12, "TABLE 3")
    assert "Winners go to table 2" in last and "Losers stay at this table" in last
    assert "Round 1: Ivy (scorekeeper), Jo, Kim, Lou" in last


def test_classic_rules_card(classic12: list[str]) -> None:
    card = one_page(classic12, "House rules: classic")
    assert "Any other three of a kind is a Mini Bunco: 5 points, roll again." in card
    assert "keeps rolling until a roll scores nothing" in card
    assert "pass the dice to the left (clockwise)" in card
    assert (
        "Prizes: Most Buncos, Most Wins, Most Losses, Half Wins and Half Losses, Last Bunco" in card
    )
    assert "Scan to follow the night" not in card
    assert "Changed from the preset" not in card


# RULES.md §6, winning-moves with 5 to 12 players: (winners go to, losers go to) per table.
WM_MOVES = {
    5: [((1,), (2,)), ((1,), (1,))],
    6: [((1,), (2,)), ((1,), (1,))],
    7: [((1,), (2,)), ((2,), (1,))],
    8: [((1,), (2,)), ((2,), (1,))],
    9: [((1,), (2,)), ((2,), (3,)), ((1,), (1,))],
    10: [((1,), (2,)), ((2,), (3,)), ((1,), (1,))],
    11: [((1,), (2,)), ((2,), (3,)), ((3,), (1,))],
    12: [((1,), (2,)), ((2,), (3,)), ((3,), (1,))],
}


@pytest.mark.parametrize("players", sorted(WM_MOVES))
def test_winning_moves_signs_follow_the_rules_table(players: int) -> None:
    signs = table_signs(get_rules("winning-moves"), players)
    assert [(s.winners_to, s.losers_to) for s in signs] == WM_MOVES[players]


def test_winning_moves_nine_players_pdf() -> None:
    names = [f"P{i}" for i in range(1, 10)]
    texts = page_texts(blank_sheets_pdf(get_rules("wm"), names, qr_url=None))
    # 9 cards and 3 spares on 2 pages, tables 4 + 3 + 2, master sheet, 3 signs, 6 round
    # cards, the house-rules card
    assert len(texts) == 2 + 3 + 1 + 3 + 6 + 1
    t1 = one_page(texts, "TABLE 1")
    assert "Team table" in t1 and "play to 21" in t1
    assert "Winners stay at this table" in t1 and "Losers go to table 2" in t1
    assert "A Bunco at any table ends the round at once" in t1
    # the bell is at table 1 (seeds/000), but every table plays to its own target
    assert "HEAD TABLE" in t1 and "ring it to start each round" in t1
    assert "When a team here reaches" not in t1 and "After the bell" not in t1
    t2 = one_page(texts, "TABLE 2")
    assert "3 players, each for themselves · play to 11" in t2
    assert "Winner stays at this table" in t2 and "Losers go to table 3" in t2
    t3 = one_page(texts, "TABLE 3")
    assert "2 players, each for themselves · play to 11" in t3
    assert "Winner goes to table 1" in t3 and "Loser goes to table 1" in t3
    tally3 = one_page(texts, "Table 3 tally")
    assert count(tally3, "Seat 1 name: Seat 2 name:") == 6 and "Us" not in tally3
    assert count(texts[0], "Low/High Buncos") == 6
    master = one_page(texts, "Master score sheet, set 1")
    assert "Player 1 2 3 4 5 6 Total W Total B " + " ".join(names) in master
    assert "Winner of set 1: ____" in master
    card = one_page(texts, "House rules: winning-moves")
    assert "Three of a kind below the round's number is a Low Bunco: 7 points, roll again." in card
    assert "Three of a kind above it is a High Bunco: 5 points, roll again." in card
    assert "a roll-off until one side scores 5" in card


def test_scil_ten_players_ghosts_and_baby_buncos() -> None:
    texts = page_texts(blank_sheets_pdf(get_rules("scil"), [""] * 10, qr_url=None))
    # RULES.md §6: scil fills the gaps with ghosts (4 + 4 + 4, two ghost seats); head losers
    # go to the last table, other losers stay; winners move up.
    t1, t2, t3 = (one_page(texts, f"TABLE {k}") for k in (1, 2, 3))
    assert "ghost" not in t1 and "ghost seat" in t2 and "ghost seat" in t3
    assert "Winners stay at this table" in t1 and "Losers go to table 3" in t1
    assert "Winners go to table 1" in t2 and "Losers stay at this table" in t2
    assert "Winners go to table 2" in t3 and "Losers stay at this table" in t3
    assert "Round 1:" not in t1  # no names given
    cards = [i for i in pages_with(texts, "BUNCO SCORE CARD")]
    # 10 cards and 2 spares for late arrivals fill two pages
    assert [count(texts[i], "BUNCO SCORE CARD") for i in cards] == [6, 6]
    assert count(texts[cards[1]], "Spare card for a late arrival") == 2
    assert all("Baby Buncos" in texts[i] for i in cards)
    assert count(texts[cards[0]], "Name: Set 1") == 6  # blank name lines
    rules = one_page(texts, "House rules: scil")
    assert "Any other three of a kind is a Baby Bunco: 5 points, the turn ends." in rules
    assert "pass the dice to the right" in rules
    assert "Empty seats are ghosts" in rules


def test_tournament_two_sets_prizes_and_breaks() -> None:
    texts = page_texts(
        blank_sheets_pdf(get_rules("tournament"), [f"T{i}" for i in range(8)], qr_url=None, sets=2)
    )
    assert len(pages_with(texts, "Table 1 tally")) == 2  # one page per set
    assert len(pages_with(texts, "set 2")) >= 2
    assert count(texts[0], "Set 1") == 4 and count(texts[0], "Set 2") == 4  # 4 cards a page
    sheets = pages_with(texts, "Host's sheet, set")
    assert len(sheets) == 2
    last = texts[sheets[-1]]
    for prize in ("Most Buncos", "Most Mini Buncos", "Most Wins", "Group with the most Buncos"):
        assert f"{prize}: ____" in last
    assert "Most Wins:" not in texts[sheets[0]]  # prizes are for the night: on the last sheet
    rules = one_page(texts, "House rules: tournament")
    assert "sudden death" in rules and "Breaks after rounds 2, 4, 6." in rules
    assert "verified your card" in rules


def test_house_rules_and_qr_code_on_the_card() -> None:
    rules = get_rules("classic", {"wipeout": True, "team_target": 11})
    texts = page_texts(
        blank_sheets_pdf(
            rules, ["A", "B", "C", "D", "E", "F", "G", "H"], qr_url="http://192.168.1.20:8000/n/abc"
        )
    )
    card = one_page(texts, "House rules: classic")
    assert "Changed from the preset tonight" in card
    assert "Points a team needs at a table of four: 11." in card
    assert (
        "Three 1's outside round 1 wipe the roller's team's points for the round and end "
        "the turn: yes." in card
    )
    assert "team_target" not in card and "true" not in card
    assert "Wipeout: three 1's after round 1" in card
    assert "partners at a table of four play to 11" in card
    assert "Scan to follow the night http://192.168.1.20:8000/n/abc" in card
    assert "play to 11" in one_page(texts, "TABLE 2")
    assert "classic + house rules" in texts[0]


def test_names_in_other_scripts_print() -> None:
    names = ["Zoë", "José", "Łukasz", "Ωmega", "Дарья", "O'Neil"]
    texts = page_texts(blank_sheets_pdf(get_rules("classic"), names, qr_url=None))
    for name in names:
        assert f"Name: {name}" in texts[0]
    assert "Round 1: Zoë (scorekeeper), José, Łukasz, Ωmega" in one_page(texts, "TABLE 1")


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (["Ann"], {}, "at least 2 players"),
        (["Ann", "Bea", "Ann"], {}, "'Ann' is listed twice"),
        (["Ann", "Bea"], {"sets": 5}, "sets 5 is not allowed"),
        ("Ann,Bea", {}, "must be a list of names"),
    ],
)
def test_bad_input_is_refused(players: list[str], kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(InvalidSetup, match=message) as info:
        blank_sheets_pdf(get_rules("classic"), players, qr_url=None, **kwargs)  # type: ignore[arg-type]
    assert info.value.expected


def test_unknown_paper_is_refused() -> None:
    with pytest.raises(PaperError, match="a5") as info:
        blank_sheets_pdf(get_rules("classic"), ["A", "B"], qr_url=None, paper="a5")
    assert info.value.expected == "letter or a4"


def test_a4_pages_are_a4() -> None:
    import io

    from pypdf import PdfReader

    pdf = blank_sheets_pdf(get_rules("classic"), ["A", "B", "C", "D"], qr_url=None, paper="a4")
    sizes = {
        (round(float(p.mediabox.width)), round(float(p.mediabox.height)))
        for p in PdfReader(io.BytesIO(pdf)).pages
    }
    assert sizes == {(595, 842), (842, 595)}  # portrait sheets, landscape signs
