"""Page images of the sheets and the report, for a person to look at.

Written with pdftoppm (Debian: poppler-utils) to artifacts/sheets/<name>/ at the top of
the repository (a folder git ignores); each test checks that every page became an image
with ink on it. The QR code on the house-rules card is read back from its image and
compared, module by module, with the symbol segno makes for the same URL.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import segno
from PIL import Image
from sheet_helpers import ROOT, hand_night, page_texts

from bunco.core.presets import get_rules
from bunco.sheets import blank_sheets_pdf, filled_sheets_pdf, night_report_pdf

PDFTOPPM = shutil.which("pdftoppm")
pytestmark = pytest.mark.skipif(
    PDFTOPPM is None,
    reason="pdftoppm is not installed (Debian/Ubuntu: apt-get install poppler-utils)",
)
ARTIFACTS = ROOT / "artifacts" / "sheets"
QR_URL = "http://192.168.1.20:8000/nights/7f3a"


def page_images(pdf: bytes, name: str, dpi: int = 50, first: int | None = None) -> list[Path]:
    """Render ``pdf`` to artifacts/sheets/<name>/page-N.png; returns the images in order."""
    folder = ARTIFACTS / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    source = folder / f"{name}.pdf"
    source.write_bytes(pdf)
    command = [str(PDFTOPPM), "-r", str(dpi), "-png"]
    if first is not None:
        command += ["-f", str(first), "-l", str(first)]
    subprocess.run([*command, str(source), str(folder / "page")], check=True, timeout=120)
    return sorted(folder.glob("page-*.png"))


def has_ink(path: Path) -> bool:
    with Image.open(path) as image:
        darkest, _ = image.convert("L").getextrema()
    return darkest < 100


@pytest.mark.parametrize(
    ("name", "make"),
    [
        (
            "blank-classic-12",
            lambda: blank_sheets_pdf(
                get_rules("classic"), [f"Player {i}" for i in range(1, 13)], qr_url=QR_URL
            ),
        ),
        (
            "blank-winning-moves-7",
            lambda: blank_sheets_pdf(get_rules("wm"), [""] * 7, qr_url=None, sets=2),
        ),
        (
            "blank-classic-7-name-tags",
            lambda: blank_sheets_pdf(
                get_rules("classic"),
                [f"Player {i}" for i in range(1, 8)],
                qr_url=None,
                name_tags=True,
            ),
        ),
        ("filled-classic-8", lambda: filled_sheets_pdf(hand_night())),
        ("report-classic-8", lambda: night_report_pdf(hand_night())),
    ],
)
def test_every_page_becomes_an_image(name: str, make) -> None:  # type: ignore[no-untyped-def]
    pdf = make()
    images = page_images(pdf, name)
    assert len(images) == len(page_texts(pdf)) > 0
    assert all(has_ink(p) for p in images)


def test_qr_code_on_the_card_reads_back() -> None:
    pdf = blank_sheets_pdf(get_rules("classic"), ["A", "B", "C", "D"], qr_url=QR_URL)
    last = len(page_texts(pdf))
    (image_path,) = page_images(pdf, "qr-card", dpi=150, first=last)
    expected = [list(row) for row in segno.make(QR_URL, error="m").matrix_iter(border=0)]
    n = len(expected)
    with Image.open(image_path) as image:
        gray = image.convert("L")
        w, h = gray.size
        # the code sits in the top right corner of the card, inside its border
        box = (int(0.6 * w), int(0.06 * h), int(0.93 * w), int(0.3 * h))
        region = gray.crop(box)
        rw, rh = region.size
        pixels = region.load()
        dark = [[pixels[x, y] < 128 for x in range(rw)] for y in range(rh)]
    top = next(y for y in range(rh) if any(dark[y]))
    left = dark[top].index(True)
    right = rw - 1 - dark[top][::-1].index(True)
    module = (right - left + 1) / n
    assert module > 4  # a printable size
    got = [
        [dark[int(top + (r + 0.5) * module)][int(left + (c + 0.5) * module)] for c in range(n)]
        for r in range(n)
    ]
    assert got == [[bool(v) for v in row] for row in expected]
