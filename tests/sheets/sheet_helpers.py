"""Drivers shared by the sheets tests: nights from logs or random dice, PDF text read back."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from bunco.core.night import Night
from bunco.core.party_log import read_log

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]
GOLDEN_12 = ROOT / "tests" / "party" / "golden"


def night_from(path: Path) -> Night:
    return read_log(path.read_text(encoding="utf-8").splitlines())


def hand_night() -> Night:
    """tests/sheets/data/classic8_hand.jsonl: the classic night whose standings are worked
    out by hand in test_sheets_filled.py."""
    return night_from(DATA / "classic8_hand.jsonl")


def party(rules: str, players: list[str], **extra: Any) -> Night:
    return Night.start({"type": "party", "rules": rules, "players": players, **extra})


def play_randomly(night: Night, seed: int, stop_after: int | None = None) -> Night:
    """Roll random dice (``random.Random(seed)``) for whoever may roll until the night is
    over, or until ``stop_after`` rolls."""
    rng = random.Random(seed)
    count = 0
    while night.phase != "over" and (stop_after is None or count < stop_after):
        table, _ = rng.choice(night.expected_rollers())
        event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        if table is not None:
            event["table"] = table
        night = night.apply(event)
        count += 1
    return night


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text, with runs of white space squeezed to one space."""
    reader = PdfReader(io.BytesIO(pdf))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def pages_with(texts: list[str], needle: str) -> list[int]:
    """Indexes of the pages whose text contains ``needle`` (white space squeezed)."""
    needle = " ".join(needle.split())
    return [i for i, t in enumerate(texts) if needle in t]


def one_page(texts: list[str], needle: str) -> str:
    found = pages_with(texts, needle)
    assert len(found) == 1, f"{needle!r} on pages {found}, expected exactly one"
    return texts[found[0]]


def count(text: str, needle: str) -> int:
    return len(re.findall(re.escape(needle), text))
