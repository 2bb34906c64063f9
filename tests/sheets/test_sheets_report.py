"""The night report (HTML and PDF) and its charts, for the hand-written classic night.

Expected figures are the hand-worked ones of test_sheets_filled.py.
"""

from __future__ import annotations

import base64
import io
import re
from html.parser import HTMLParser

import pytest
from pypdf import PdfReader
from sheet_helpers import hand_night, page_texts, party

from bunco.core.night import Night
from bunco.core.rules import RollKind
from bunco.sheets import night_report_html, night_report_pdf
from bunco.sheets.charts import bunco_events, chart_png, chart_svg


class Tables(HTMLParser):
    """Every <table> of a page as rows of cell texts, and every <img> src."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.images: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img":
            self.images.append(dict(attrs).get("src") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def night() -> Night:
    return hand_night()


@pytest.fixture(scope="module")
def page(night: Night) -> Tables:
    parser = Tables()
    parser.feed(night_report_html(night))
    return parser


def test_html_prizes_and_standings(page: Tables) -> None:
    prizes, standings = page.tables[0], page.tables[1]
    assert prizes == [
        ["Prize", "Figure", "Won by"],
        ["Most Buncos", "2", "Cat, Eve (shared)"],
        ["Most Wins", "4", "Eve, Fay (shared)"],
        ["Most Losses", "4", "Ann, Bea (shared)"],
        ["Half Wins and Half Losses", "", "Cat, Dee, Gus, Hal (shared)"],
        ["Last Bunco", "", "Gus"],
    ]
    assert standings[0] == ["#", "Player", "W", "L", "Buncos", "Mini Buncos", "Points", "Prizes"]
    assert [row[:7] for row in standings[1:]] == [
        ["1", "Eve", "4", "2", "2", "1", "51"],
        ["2", "Fay", "4", "2", "0", "1", "5"],
        ["3", "Cat", "3", "3", "2", "0", "44"],
        ["4", "Gus", "3", "3", "1", "1", "31"],
        ["5", "Dee", "3", "3", "0", "1", "5"],
        ["6", "Hal", "3", "3", "0", "0", "0"],
        ["7", "Ann", "2", "4", "1", "1", "30"],
        ["8", "Bea", "2", "4", "0", "1", "5"],
    ]


def test_html_rounds(page: Tables) -> None:
    rounds = page.tables[2:]
    assert len(rounds) == 6
    assert rounds[0] == [
        ["Table", "Seats (clockwise)", "Score", "Winners", "Losers"],
        ["1", "Ann, Bea, Cat, Dee", "Ann & Cat 21 – 0 Bea & Dee", "Ann & Cat", "Bea & Dee"],
        ["2", "Eve, Fay, Gus, Hal", "Eve & Gus 1 – 5 Fay & Hal", "Fay & Hal", "Eve & Gus"],
    ]
    assert rounds[5][1] == [
        "1",
        "Eve, Gus, Bea, Dee",
        "Eve & Bea 0 – 22 Gus & Dee",
        "Gus & Dee",
        "Eve & Bea",
    ]


def test_html_charts_are_inline_svg(page: Tables) -> None:
    assert len(page.images) == 3
    for src in page.images:
        prefix = "data:image/svg+xml;base64,"
        assert src.startswith(prefix)
        svg = base64.b64decode(src[len(prefix) :]).decode("utf-8")
        assert "<svg" in svg


def test_html_has_no_outside_references(night: Night) -> None:
    text = night_report_html(night)
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", text)
    assert "<script" not in text.lower()


def test_html_escapes_names() -> None:
    from sheet_helpers import play_randomly

    night = play_randomly(party("classic", ["<script>x</script>", "A&B", "Cat", "Dee"]), 3)
    text = night_report_html(night)
    assert "<script>" not in text and "&lt;script&gt;x&lt;/script&gt;" in text
    assert "A&amp;B" in text


def test_bunco_timeline_data(night: Night) -> None:
    events = bunco_events(night)
    buncos = [(int(x + 0.5), who) for x, who, kind in events if kind is RollKind.BUNCO]
    minis = [(int(x + 0.5), who) for x, who, kind in events if kind is RollKind.MINI_BUNCO]
    assert buncos == [(1, "Ann"), (2, "Cat"), (3, "Cat"), (4, "Eve"), (5, "Eve"), (6, "Gus")]
    assert sorted(minis) == [(1, "Fay"), (2, "Eve"), (3, "Dee"), (4, "Gus"), (5, "Bea"), (6, "Ann")]


def test_charts_render(night: Night) -> None:
    for name in ("points", "timeline", "wins"):
        assert chart_png(night, name).startswith(b"\x89PNG\r\n\x1a\n")
    assert b"<svg" in chart_svg(night, "timeline")


def test_pdf_report(night: Night) -> None:
    pdf = night_report_pdf(night)
    texts = page_texts(pdf)
    everything = " ".join(texts)
    assert texts[0].startswith("Hand-written classic night · night report · page 1 ")  # footer
    assert (
        "Hand-written classic night Rules: classic · 8 players · 1 set · 6 rounds played · "
        "the night is over"
    ) in texts[0]
    assert "Most Buncos 2 Cat, Eve (shared)" in everything
    assert "1 Eve 4 2 2 1 51" in everything and "8 Bea 2 4 0 1 5" in everything
    for caption in ("Points per round", "Bunco timeline", "Wins per player"):
        assert caption in everything
    assert "Set 1, round 6" in everything and "Eve & Bea 0 – 22 Gus & Dee" in everything
    images = sum(len(p.images) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert images == 3


def test_report_of_a_night_not_started() -> None:
    night = party("winning-moves", ["Ann", "Bea", "Cat"])
    parser = Tables()
    text = night_report_html(night)
    parser.feed(text)
    assert "No rounds played yet" in text and len(parser.images) == 3
    assert "0 rounds played" in " ".join(page_texts(night_report_pdf(night)))


# -- the PDF's page breaks: no heading alone at the foot of a page -------------------------

HEADINGS = re.compile(
    r"(Winners|Standings|Charts|Rounds|Points per round|Bunco timeline|"
    r"Wins per player|Set \d+, round \d+)"
)


def page_items(pdf: bytes) -> list[list[tuple[float, str]]]:
    """Per page, every text run and image as (y of its baseline or lower edge, text), the
    page footer left out; an image's text is ""."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        items: list[tuple[float, str]] = []

        def operand(
            op: bytes,
            args: object,
            cm: list[float],
            tm: list[float],
            items: list[tuple[float, str]] = items,
        ) -> None:
            if op == b"Do":
                items.append((cm[5], ""))

        def text(
            t: str,
            cm: list[float],
            tm: list[float],
            font: object,
            size: object,
            items: list[tuple[float, str]] = items,
        ) -> None:
            if t.strip():
                items.append((tm[5] * cm[3] + cm[5], t.strip()))

        page.extract_text(visitor_operand_before=operand, visitor_text=text)
        pages.append([(y, t) for y, t in items if y > 0.5 * 72])  # the footer is lower
    return pages


@pytest.mark.parametrize(
    ("rules", "players", "sets", "seed"),
    [
        ("classic", 12, 1, 1),
        ("scil", 16, 2, 4),
        ("winning-moves", 9, 3, 3),
        ("tournament", 40, 1, 5),
    ],
)
def test_report_pdf_leaves_no_heading_at_the_foot_of_a_page(
    rules: str, players: int, sets: int, seed: int
) -> None:
    from sheet_helpers import play_randomly

    night = play_randomly(party(rules, [f"P{i:02d}" for i in range(players)], sets=sets), seed)
    pages = page_items(night_report_pdf(night))
    assert len(pages) > 2
    for number, items in enumerate(pages[:-1], start=1):
        lowest = min(items)
        assert not HEADINGS.fullmatch(lowest[1]), f"page {number} ends with {lowest[1]!r}"
    # every heading is followed on its page by what it heads
    for items in pages:
        for y, t in items:
            if HEADINGS.fullmatch(t):
                assert any(other < y for other, _ in items), t
