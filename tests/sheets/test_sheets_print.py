"""What printed Bunco sheets carry (score cards, tallies, signs, round cards, name tags),
read back from the PDF: cards and pages counted, words found where a player looks.

What the sheets should carry comes from the rule documents: seeds/001 (score cards with
Buncos counted per round, the traveling prize, a table tally per table, the bell on the
head table, "roll until they score no points" after the bell), seeds/000 (one winner at a
table of individuals, the bell at the head table) and seeds/003 (Baby Buncos end the turn,
nobody rolls on after the bell).
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from sheet_helpers import (
    GOLDEN_12,
    count,
    night_from,
    one_page,
    page_texts,
    pages_with,
    party,
    play_randomly,
)

from bunco.core.errors import InvalidSetup
from bunco.core.presets import PRESETS, get_rules
from bunco.sheets import blank_sheets_pdf, filled_sheets_pdf

CARD = "BUNCO SCORE CARD"
SPARE = "Spare card for a late arrival"
TRAVEL = "Traveling prize: held the traveler at the end of the night"


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(1, n + 1)]


def card_counts(texts: list[str]) -> list[int]:
    return [count(texts[i], CARD) for i in pages_with(texts, CARD)]


def landscape(pdf: bytes) -> list[bool]:
    return [
        float(p.mediabox.width) > float(p.mediabox.height) for p in PdfReader(io.BytesIO(pdf)).pages
    ]


# -- score cards -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sets", "pages", "per_page"),
    [
        (2, 1, 1, 6),
        (7, 1, 2, 6),
        (12, 1, 2, 6),
        (13, 1, 3, 6),
        (5, 2, 2, 4),
        (9, 2, 3, 4),
        (3, 3, 2, 2),
        (7, 4, 4, 2),
    ],
)
def test_blank_cards_fill_the_last_page_with_spares(
    players: int, sets: int, pages: int, per_page: int
) -> None:
    texts = page_texts(
        blank_sheets_pdf(get_rules("classic"), names(players), qr_url=None, sets=sets)
    )
    assert card_counts(texts) == [per_page] * pages
    cards = " ".join(texts[i] for i in pages_with(texts, CARD))
    assert all(count(cards, f"Name: {name} ") == 1 for name in names(players))
    assert count(cards, SPARE) == pages * per_page - players
    assert count(cards, TRAVEL) == 0  # classic awards no traveling prize unless asked


def test_the_traveling_box_only_when_the_night_has_traveling() -> None:
    rules = get_rules("classic", {"traveling": "123"})
    texts = page_texts(blank_sheets_pdf(rules, names(4), qr_url=None))
    cards = " ".join(texts[i] for i in pages_with(texts, CARD))
    assert count(cards, TRAVEL) == count(cards, CARD) == 6  # on every card, spares too


def test_spares_asks_for_at_least_that_many() -> None:
    rules = get_rules("wm")
    counts = {
        spares: card_counts(
            page_texts(blank_sheets_pdf(rules, names(12), qr_url=None, spares=spares))
        )
        for spares in (0, 1, 6, 7)
    }
    assert counts == {0: [6, 6], 1: [6, 6, 6], 6: [6, 6, 6], 7: [6, 6, 6, 6]}


@pytest.mark.parametrize("spares", [-1, 49, True, "2"])
def test_bad_spare_counts_are_refused(spares: object) -> None:
    with pytest.raises(InvalidSetup, match="spares") as info:
        blank_sheets_pdf(get_rules("wm"), names(4), qr_url=None, spares=spares)  # type: ignore[arg-type]
    assert info.value.expected == "0 to 48 spare score cards"


def test_cards_have_tally_boxes_a_traveler_box_and_cut_lines() -> None:
    texts = page_texts(blank_sheets_pdf(get_rules("scil"), names(8), qr_url=None, sets=2))
    for i in pages_with(texts, CARD):
        assert "cut along the dashed lines" in texts[i]
        # per set: a row per round with a box for Buncos and one for Baby Buncos, a total
        assert count(
            texts[i], "Round Table W / L Buncos Baby Buncos Points 1 2 3 4 5 6 Total"
        ) == 2 * count(texts[i], CARD)


@pytest.mark.parametrize(
    ("rules", "players", "sets", "seed", "per_page"),
    # 7 cards: 4 + 3, not 6 + 1; 3 cards of three sets (two a page): 2 + 1 and a spare
    [
        ("classic", 7, 1, 11, [4, 3]),
        ("winning-moves", 3, 3, 12, [2, 2]),
        ("scil", 8, 1, 13, [4, 4]),
    ],
)
def test_filled_cards_never_leave_one_card_on_a_page(
    rules: str, players: int, sets: int, seed: int, per_page: list[int]
) -> None:
    night = play_randomly(party(rules, names(players), sets=sets), seed)
    texts = page_texts(filled_sheets_pdf(night))
    assert card_counts(texts) == per_page
    cards = " ".join(texts[i] for i in pages_with(texts, CARD))
    assert all(count(cards, f"Name: {name} ") == 1 for name in names(players))
    assert count(cards, SPARE) == sum(per_page) - players


@pytest.mark.skipif(
    not (GOLDEN_12 / "classic-12.jsonl").exists(),
    reason="tests/party/golden/classic-12.jsonl is not there",
)
def test_filled_card_ticks_the_travelers_box() -> None:
    night = night_from(GOLDEN_12 / "classic-12.jsonl")
    assert night.traveler == "Gus"
    texts = page_texts(filled_sheets_pdf(night))
    cards = " ".join(texts[i] for i in pages_with(texts, CARD)).split(CARD)[1:]
    ticked = [card for card in cards if f"✓ {TRAVEL}" in card]
    assert len(ticked) == 1 and "Name: Gus " in ticked[0]
    assert all(TRAVEL in card for card in cards)


# -- tallies -----------------------------------------------------------------------------


def test_tallies_total_and_tie_break_rows_and_the_head_table() -> None:
    texts = page_texts(blank_sheets_pdf(get_rules("classic"), names(12), qr_url=None))
    for k in (1, 2, 3):
        page = one_page(texts, f"Table {k} tally")
        assert count(page, "Total Tie-break") == 6  # every round's block, labelled
        assert count(page, "Winners: ____") == 6
        assert ("HEAD TABLE" in page) is (k == 1)
    head = one_page(texts, "Table 1 tally")
    assert (
        "HEAD TABLE The bell is here. When a team here reaches 21, ring the bell: the "
        "round ends at every table." in head
    )


def test_one_table_has_no_head_table() -> None:
    texts = page_texts(blank_sheets_pdf(get_rules("classic"), names(4), qr_url=None))
    assert "HEAD TABLE" not in one_page(texts, "Table 1 tally")
    assert "HEAD TABLE" not in one_page(texts, "TABLE 1")


def test_tallies_of_individuals_have_one_winner() -> None:
    texts = page_texts(blank_sheets_pdf(get_rules("wm"), names(9), qr_url=None))
    teams, three, two = (one_page(texts, f"Table {k} tally") for k in (1, 2, 3))
    assert count(teams, "Winners: ____") == 6
    for page in (three, two):
        assert count(page, "Winner: ____") == 6 and "Winners" not in page
        assert "Us" not in page and "partner" not in page
    assert (
        "The bell is here: ring it to start each round, and three times when a Bunco "
        "ends the round." in teams
    )


def test_filled_tally_of_the_head_table() -> None:
    night = play_randomly(party("classic", names(8)), 21)
    texts = page_texts(filled_sheets_pdf(night))
    assert "HEAD TABLE" in one_page(texts, "Table 1 tally")
    assert "HEAD TABLE" not in one_page(texts, "Table 2 tally")


# -- signs -------------------------------------------------------------------------------


def test_signs_say_what_to_do_after_the_bell() -> None:
    classic = page_texts(blank_sheets_pdf(get_rules("classic"), names(12), qr_url=None))
    roll_on = (
        "After the bell, finish your turn: keep rolling until a roll scores nothing, then stop."
    )
    for k in (1, 2, 3):
        assert roll_on in one_page(classic, f"TABLE {k}")
    assert "When the head table rings the bell, the round ends here too." in one_page(
        classic, "TABLE 3"
    )
    scil = page_texts(blank_sheets_pdf(get_rules("scil"), names(12), qr_url=None))
    assert "At the bell, stop rolling: nobody rolls on." in one_page(scil, "TABLE 1")
    assert "finish your turn" not in " ".join(scil)
    wm = page_texts(blank_sheets_pdf(get_rules("wm"), names(12), qr_url=None))
    assert "After the bell" not in one_page(wm, "TABLE 1")  # every table plays to 21


def test_signs_of_individuals_speak_of_one_winner_and_no_partners() -> None:
    texts = page_texts(blank_sheets_pdf(get_rules("classic"), names(5), qr_url=None))
    head, two = one_page(texts, "TABLE 1"), one_page(texts, "TABLE 2")
    assert "3 players, each for themselves" in head
    assert "When a player here reaches 21, ring the bell" in head
    for sign in (head, two):
        assert "No partners here: one winner, everyone else loses." in sign
        assert "new partner" not in sign and "team" not in sign.lower()
        assert "Winner " in sign and "Winners" not in sign


# -- the house-rules card, the host's sheet ----------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_house_rules_card_in_plain_words(preset: str) -> None:
    rules = get_rules(preset, {"prize_ties": "shared", "traveling": "mini_bunco"})
    texts = page_texts(blank_sheets_pdf(rules, names(8), qr_url=None))
    card = one_page(texts, f"House rules: {preset}")
    assert "seeds" not in " ".join(texts)
    assert "_" not in card  # no identifiers such as prize_ties or mini_bunco
    assert "Changed from the preset tonight" in card
    assert "A tie for a prize is rolled off or shared: shared." in card


def test_host_sheet_is_landscape_with_a_table_column_per_round() -> None:
    pdf = blank_sheets_pdf(get_rules("tournament"), names(8), qr_url=None)
    texts = page_texts(pdf)
    (host,) = pages_with(texts, "Host's sheet, set 1")
    assert landscape(pdf)[host]
    assert count(texts[host], "Table W / L") == 6


# -- round cards and name tags -----------------------------------------------------------


def test_a_round_card_per_round() -> None:
    pdf = blank_sheets_pdf(get_rules("wm"), names(6), qr_url=None)
    texts = page_texts(pdf)
    for r in range(1, 7):
        (i,) = pages_with(texts, f"ROUND {r} We're rolling for {r}s")
        assert landscape(pdf)[i]
        assert f"Three {r}s: BUNCO! 21 points" in texts[i]
    four = one_page(texts, "ROUND 4")
    assert "Three 1s to 3s: a Low Bunco, 7 points" in four
    assert "Three 5s or 6s: a High Bunco, 5 points" in four
    assert "Low Bunco" not in one_page(texts, "ROUND 1")
    scil = page_texts(blank_sheets_pdf(get_rules("scil"), names(6), qr_url=None))
    assert "Any other three of a kind: a Baby Bunco, 5 points" in one_page(scil, "ROUND 2")


def test_name_tags_are_optional_and_fill_their_last_page() -> None:
    rules = get_rules("classic")
    assert not pages_with(page_texts(blank_sheets_pdf(rules, names(9), qr_url=None)), "HELLO")
    texts = page_texts(blank_sheets_pdf(rules, names(9), qr_url=None, name_tags=True))
    tags = pages_with(texts, "HELLO my name is")
    assert tags == [len(texts) - 2, len(texts) - 1]  # after everything else
    assert [count(texts[i], "HELLO my name is") for i in tags] == [8, 8]
    every = " ".join(texts[i] for i in tags)
    assert count(every, "HELLO my name is Bunco") == 7  # blank tags fill the page
    for k, name in enumerate(names(9)):
        table = 1 if k < 4 else 2 if k < 7 else 3  # tables of 4, 3 and 2 (RULES.md §6)
        assert count(every, f"{name} Round 1: table ") == 1
        assert f"{name} Round 1: table {table}" in every
