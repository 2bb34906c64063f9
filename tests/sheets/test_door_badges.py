"""Door badges (sheets/badges.py): one badge per seated player, the name large, the
night's name, where they sit in round 1, and their own door card's QR code, which a
phone's camera reads back as the card's address."""

from __future__ import annotations

import subprocess
from pathlib import Path

import zxingcpp
from PIL import Image

from bunco.core.night import Night
from bunco.sheets.badges import badges_pdf, night_badges

BASE = "http://192.168.1.20:8000/n/AbCd12/door/"
NAMES = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Maximiliana Featherstonehaugh"]


def urls_of(names: list[str]) -> dict[str, str]:
    return {name: f"{BASE}{k:016d}" for k, name in enumerate(names)}


def test_every_player_has_a_badge_whose_qr_code_opens_their_card(tmp_path: Path) -> None:
    night = Night.start({"players": NAMES[:7], "rules": "scil"})  # 4 + 3 and a ghost
    urls = urls_of(NAMES[:7])
    path = tmp_path / "badges.pdf"
    path.write_bytes(badges_pdf(night, "Friday at Ann's", urls))
    text = subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) == 2  # six to a page
    for name in NAMES[:7]:
        assert text.count(f"\n{name}\n") == 1, name
    assert text.count("Friday at Ann's") == 7 + 2  # each badge, and each page's footer
    assert "Table 2 · seat 3" in text and "Table 2 · seat 4" not in text  # the ghost's seat
    # the QR codes, read from the printed pages as a phone's camera reads them
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(path), str(tmp_path / "p")], check=True)
    read = [
        found.text
        for image in sorted(tmp_path.glob("p-*.png"))
        for found in zxingcpp.read_barcodes(Image.open(image))
        if found.format == zxingcpp.BarcodeFormat.QRCode
    ]
    assert sorted(read) == sorted(urls.values())


def test_badges_follow_the_seating_and_long_names_fit() -> None:
    night = Night.start({"players": NAMES, "rules": "classic"})
    badges = night_badges(night, urls_of(NAMES))
    assert [(b.player, b.where) for b in badges][-1] == (NAMES[-1], "Table 2 · seat 4")
    # a player with no card address (not seated any more) gets no badge
    assert [b.player for b in night_badges(night, urls_of(NAMES[1:]))] == NAMES[1:]
    from io import BytesIO

    from pypdf import PdfReader

    sizes: dict[str, float] = {}

    def visit(text: str, cm, tm, font, size) -> None:  # the printed size of each line
        if text.strip():
            scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            sizes[text.strip()] = size * scale

    reader = PdfReader(BytesIO(badges_pdf(night, "Club night", urls_of(NAMES))))
    for page in reader.pages:
        page.extract_text(visitor_text=visit)
    assert sizes["Ann"] >= 30  # the name large
    assert 12 <= sizes[NAMES[-1]] < 30  # shrunk to fit the badge, never below 12 pt
