"""The tournament kit on paper (seeds/004): team and staff-verification boxes on the score
cards, ``bunco sheets --groups``, and the prize and payout sheet filled from the night.
Text read back from the PDFs with pypdf."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sheet_helpers import GOLDEN_12, night_from, page_texts
from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.presets import get_rules
from bunco.sheets.blank import blank_sheets_pdf
from bunco.sheets.filled import filled_sheets_pdf
from bunco.sheets.payout_pdf import render_payout_sheet
from bunco.sheets.wording import rule_lines

CARD = "BUNCO SCORE CARD"
STAFF = "Verified: Buncos Minis Wins by"
runner = CliRunner()


def cards_of(pdf: bytes) -> list[str]:
    return " ".join(page_texts(pdf)).split(CARD)[1:]


def test_blank_tournament_cards_have_team_and_staff_boxes_and_no_traveler() -> None:
    names = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
    groups = {"Team 1": names[:4], "Team 2": names[4:]}
    cards = cards_of(blank_sheets_pdf(get_rules("tournament"), names, qr_url=None, groups=groups))
    assert len(cards) == 12  # eight and four spares
    for name in names:
        (card,) = [c for c in cards if f"Name: {name} " in c]
        team = "Team 1" if name in groups["Team 1"] else "Team 2"
        assert f"Team: {team}" in card and STAFF in card
    assert all("Team:" in c and STAFF in c and "Traveling" not in c for c in cards)


def test_filled_tournament_cards_name_the_team_and_who_verified() -> None:
    night = night_from(GOLDEN_12 / "tournament-12.jsonl")
    cards = cards_of(filled_sheets_pdf(night))
    ann = next(c for c in cards if "Name: Ann " in c)
    bea = next(c for c in cards if "Name: Bea " in c)
    assert "Team: Team 1" in ann and "Verified: ✓ Buncos ✓ Minis ✓ Wins by Staff 1" in ann
    assert "Team: Team 1" in bea and STAFF in bea  # changed since round 3: not ticked


def test_the_prize_and_payout_sheet_from_the_night() -> None:
    night = night_from(GOLDEN_12 / "tournament-money-12.jsonl")
    rendered = render_payout_sheet(night)
    text = " ".join(" ".join(page_texts(rendered.data)).split())
    assert "prizes and payouts" in text
    assert "Most Buncos (Team 1) 1 Ann, Cat (shared) $100.00 ($50.00 each) Bea: already won" in text
    assert "Best Costume (Team 2) Kim (judged, next in line) $25.00 Jo: already won" in text
    assert "To hand over: each person's total (sign when received)" in text
    assert "Jo $116.66" in text
    assert "Not final yet" not in text and "Provisional:" in text  # the night is not closed
    assert "Host's top-up: $479.96" in text
    assert (
        "Stays behind: Group with the most Buncos: $0.04 (Team 2's $100.00 among 6: "
        "$16.66 each)" in text
    )
    assert "Ann verified by Staff 1 at the end, after round 6" in text


def test_sheets_cli_groups_and_payouts(tmp_path: Path) -> None:
    names = tmp_path / "names.txt"
    names.write_text("Ann\nBea\nCat\nDee\n")
    groups = tmp_path / "teams.txt"
    groups.write_text("Team 1: Ann, Bea\nTeam 2: Cat, Zed\n")
    out = tmp_path / "cards.pdf"
    args = ["sheets", "--rules", "tournament", "--names", str(names), "--out", str(out)]
    bad = runner.invoke(app, [*args, "--groups", str(groups)])
    assert bad.exit_code != 0 and "line 2: 'Zed' is not one of the players" in bad.stderr
    groups.write_text("Team 1: Ann, Bea\nTeam 2: Cat, Dee\n")
    done = runner.invoke(app, [*args, "--groups", str(groups)])
    assert done.exit_code == 0, done.stderr
    assert "Name: Cat Team: Team 2" in " ".join(page_texts(out.read_bytes()))
    paid = tmp_path / "paid.pdf"
    done = runner.invoke(
        app,
        [
            "sheets",
            "--from",
            str(GOLDEN_12 / "tournament-money-12.jsonl"),
            "--payouts",
            "--out",
            str(paid),
        ],
    )
    assert done.exit_code == 0, done.stderr
    assert "Payout sheet" in " ".join(page_texts(paid.read_bytes()))
    wrong = runner.invoke(app, [*args, "--payouts"])
    assert wrong.exit_code != 0 and "--from LOG --payouts" in wrong.stderr


def test_the_staff_check_names_the_rules_three_of_a_kind() -> None:
    # scil with the staff's check as a house rule: its three of a kind is a Baby Bunco
    rules = dataclasses.replace(get_rules("scil"), verify_for_prizes=True)
    cards = cards_of(blank_sheets_pdf(rules, ["Ann", "Bea", "Cat", "Dee"], qr_url=None))
    assert len(cards) >= 4 and all("Verified: Buncos Babies Wins by" in c for c in cards)
    assert (
        "Buncos, Baby Buncos and Wins count for prizes once a checker has verified your card."
        in rule_lines(rules)
    )


def test_no_header_of_the_pdfs_breaks_a_word() -> None:
    """The prize table's narrow "Figure" column once printed "Figur / e" in both PDFs."""
    from bunco.sheets.night_report_page import render_report_pdf

    night = night_from(GOLDEN_12 / "tournament-money-12.jsonl")
    for rendered in (render_payout_sheet(night), render_report_pdf(night)):
        words = " ".join(page_texts(rendered.data)).split()
        assert "Figure" in words and "Figur" not in words
        assert "Passed" in words and "Pass" not in words
