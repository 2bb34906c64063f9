"""Seating guide cards (sheets/guide.py): one card per table, who sits where this round,
where winners and losers go, the later rounds known or a QR code to the players' page."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from bunco.core.night import Night
from bunco.sheets.guide import GuideError, guide_cards_pdf, later_seatings, table_guides

URL = "http://192.168.1.20:8000/n/abc/player?token=viewer-token-123"
TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]


def pdf_text(data: bytes, tmp_path: Path, layout: bool = False) -> str:
    path = tmp_path / "guide.pdf"
    path.write_bytes(data)
    args = ["pdftotext", *(["-layout"] if layout else []), str(path), "-"]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def pages(text: str) -> list[str]:
    return [p for p in text.split("\f") if p.strip()]


def test_one_card_per_table_with_seats_partners_and_moves(tmp_path: Path) -> None:
    night = Night.start({"players": TWELVE[:10], "rules": "classic"})
    text = pdf_text(guide_cards_pdf(night, URL), tmp_path)
    assert len(pages(text)) == 2  # three tables, two cards a page
    assert [text.count(f"Table {n} of 3") for n in (1, 2, 3)] == [1, 1, 1]
    assert "Table 1 of 3 · head table" in text
    assert "Seat 1 · Ann (keeps score)" in text and "Seat 4 · Dee" in text
    flat = " ".join(text.split())  # the notes wrap
    assert "Partners sit opposite: Ann & Cat against Bea & Dee." in flat
    assert "Seat 2 · Jon" in text  # table 3: two individuals
    assert "Each player plays for themselves at this table." in text
    # classic: winners up, losers down (RULES.md §6), in the words of the table signs
    assert "winners go to table 1, the losers to this table or table 3" in flat
    assert "winners go to this table, the losers to table 2" in flat
    assert text.count("Later rounds depend on who wins") == 3
    assert text.count("where you go next") == 3


def test_the_qr_code_opens_the_players_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import bunco.sheets.guide as guide

    drawn: list[tuple[str, float]] = []
    monkeypatch.setattr(guide, "draw_qr", lambda page, x, y, size, text: drawn.append((text, size)))
    night = Night.start({"players": TWELVE[:8], "rules": "scil"})
    placed: list[str] = []
    from reportlab.pdfgen.canvas import Canvas

    original = Canvas.doForm
    monkeypatch.setattr(
        Canvas, "doForm", lambda self, name: (placed.append(name), original(self, name))
    )
    guide_cards_pdf(night, URL)
    # drawn once, 1.9 inches (it scans from a seat), and placed on each card
    assert drawn == [(URL, guide.QR_SIZE)]
    assert placed == [guide.QR_FORM] * 2
    assert guide.QR_SIZE >= 1.5 * 72


def test_a_ghost_seat(tmp_path: Path) -> None:
    night = Night.start({"players": TWELVE[:7], "rules": "scil"})  # 4 + 3 and a ghost
    assert night.seating[1] == ("Eve", "Fay", "Gus", None)
    text = pdf_text(guide_cards_pdf(night, URL), tmp_path)
    assert "ghost (the partner rolls for it)" in text
    flat = " ".join(text.split())
    assert "Partners sit opposite: Eve & Gus against Fay & a ghost." in flat


def test_a_single_table_lists_every_round_left(tmp_path: Path) -> None:
    night = Night.start({"players": TWELVE[:4], "rules": "classic"})
    (guide,) = table_guides(night)
    assert [r.round_no for r in guide.later] == [2, 3, 4, 5, 6]
    text = pdf_text(guide_cards_pdf(night, URL), tmp_path)
    assert "Your table" in text
    assert "Round 2: seats 1 Ann, 2 Cat, 3 Dee, 4 Bea" in text
    assert "Later rounds depend on who wins" not in text
    # several tables: the results decide, nothing later is known
    assert (
        later_seatings(
            Night.start({"players": TWELVE[:8], "rules": "classic"}).seating, night.rules, 1
        )
        == []
    )


def test_readable_when_printed(tmp_path: Path) -> None:
    """The seats print at 18 pt, nothing on a card below 12 pt (the corner label aside)."""
    night = Night.start({"players": TWELVE, "rules": "winning-moves"})
    import io

    from pypdf import PdfReader

    sizes: dict[str, float] = {}

    def visit(text: str, cm, tm, font, size) -> None:
        if text.strip():
            scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            sizes[text.strip()] = min(sizes.get(text.strip(), 99), size * scale)

    reader = PdfReader(io.BytesIO(guide_cards_pdf(night, URL)))
    reader.pages[0].extract_text(visitor_text=visit)
    seat_sizes = [s for t, s in sizes.items() if t.startswith("Seat ")]
    assert seat_sizes and min(seat_sizes) >= 17.5
    card_sizes = [s for t, s in sizes.items() if not t.startswith("Bunco")]
    assert min(card_sizes) >= 12


def test_no_guide_once_the_night_is_over() -> None:
    night = Night.start({"players": TWELVE[:4], "rules": "classic"})
    night = dataclasses.replace(night, phase="over")
    with pytest.raises(GuideError):
        table_guides(night)
