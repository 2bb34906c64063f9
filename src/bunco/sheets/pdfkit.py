"""Drawing helpers shared by every printed sheet: paper, fonts, text that fits, grids.

The sheets draw with ReportLab's canvas. Text uses DejaVu Sans (shipped with
matplotlib, so names in any Latin, Greek or Cyrillic script print, and arrows too);
when that font cannot be found the PDF falls back to Helvetica.

>>> doc = Doc("letter", title="test")
>>> page = doc.page()
>>> page.text(72, 700, "Hello")
>>> doc.pages, doc.finish()[:5]
(1, b'%PDF-')
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate

from bunco.core.errors import BuncoError

PAPERS: dict[str, tuple[float, float]] = {"letter": LETTER, "a4": A4}
MARGIN: float = 0.5 * inch
INK = (0.1, 0.1, 0.1)
GREY = (0.55, 0.55, 0.55)
LIGHT = (0.88, 0.88, 0.88)

_FONTS: dict[bool, str] = {}


class PaperError(BuncoError):
    """An unknown paper size."""

    code = "invalid_paper"


def paper_size(name: str) -> tuple[float, float]:
    """Width and height in points of ``letter`` or ``a4``; raises :class:`PaperError`.

    >>> paper_size("A4")
    (595.2755905511812, 841.8897637795277)
    """
    key = name.strip().lower()
    if key not in PAPERS:
        raise PaperError(f"unknown paper size {name!r}", expected="letter or a4")
    return PAPERS[key]


def font(bold: bool = False) -> str:
    """The name of the registered text font (regular or bold)."""
    if not _FONTS:
        _register_fonts()
    return _FONTS[bold]


def _register_fonts() -> None:
    try:
        import matplotlib

        folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
        pdfmetrics.registerFont(TTFont("BuncoSans", str(folder / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(TTFont("BuncoSans-Bold", str(folder / "DejaVuSans-Bold.ttf")))
        _FONTS.update({False: "BuncoSans", True: "BuncoSans-Bold"})
    except Exception:  # no matplotlib or no font file: the standard PDF fonts still work
        _FONTS.update({False: "Helvetica", True: "Helvetica-Bold"})


def text_width(text: str, size: float, bold: bool = False) -> float:
    return float(pdfmetrics.stringWidth(text, font(bold), size))


def fit_size(
    text: str, width: float, size: float, bold: bool = False, smallest: float = 5
) -> float:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` (not below
    ``smallest``).

    >>> fit_size("Bunco", 1000, 12)
    12
    """
    wide = text_width(text, size, bold)
    if wide <= width or wide == 0:
        return size
    return max(smallest, size * width / wide * 0.995)


def head_widths(
    heads: Sequence[str], widths: Sequence[float], size: float, pad: float = 12.0
) -> list[float]:
    """Column widths in which no header breaks inside a word ("Figur / e"): a column
    narrower than its header's longest word (bold, at ``size``, plus ``pad`` of cell
    padding) takes what it needs from the columns with the most room to spare.

    >>> [round(w) for w in head_widths(["Prize", "Figure"], [200, 20], 8)]
    [179, 41]
    """
    need = [
        max((text_width(word, size, True) for word in head.split()), default=0.0) + pad
        for head in heads
    ]
    out = list(widths)
    for i, wanted in enumerate(need):
        short = wanted - out[i]
        if short <= 0:
            continue
        out[i] = wanted
        while short > 1e-6:
            spare = [(out[j] - need[j], j) for j in range(len(out)) if j != i]
            room, j = max(spare, default=(0.0, -1))
            if room <= 1e-6:
                break
            take = min(room, short)
            out[j] -= take
            short -= take
    return out


def clip(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text`` cut short with an ellipsis so that it fits ``width`` at ``size``."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (a long word gets a line of its own).

    >>> wrap("one two three", 10_000, 10)
    ['one two three']
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines or [""]


@dataclass
class Page:
    """One page being drawn: the canvas and the page size."""

    canvas: Canvas
    width: float
    height: float

    @property
    def left(self) -> float:
        return MARGIN

    @property
    def right(self) -> float:
        return self.width - MARGIN

    @property
    def top(self) -> float:
        return self.height - MARGIN

    @property
    def inner_width(self) -> float:
        return self.width - 2 * MARGIN

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 10,
        *,
        bold: bool = False,
        align: str = "left",
        width: float | None = None,
        color: tuple[float, float, float] = INK,
    ) -> None:
        """Draw one line; with ``width`` the font shrinks (then the text is clipped) to fit."""
        if not text:
            return
        if width is not None:
            size = fit_size(text, width, size, bold)
            text = clip(text, width, size, bold)
        c = self.canvas
        c.setFillColorRGB(*color)
        c.setFont(font(bold), size)
        if align == "center":
            c.drawCentredString(x, y, text)
        elif align == "right":
            c.drawRightString(x, y, text)
        else:
            c.drawString(x, y, text)

    def paragraph(
        self,
        x: float,
        y: float,
        text: str,
        width: float,
        size: float = 10,
        *,
        bold: bool = False,
        leading: float | None = None,
    ) -> float:
        """Draw wrapped text from baseline ``y`` down; returns the baseline after the last line."""
        step = leading or size * 1.3
        for line in wrap(text, width, size, bold):
            self.text(x, y, line, size, bold=bold)
            y -= step
        return y

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        width: float = 0.6,
        color: tuple[float, float, float] = INK,
    ) -> None:
        c = self.canvas
        c.setStrokeColorRGB(*color)
        c.setLineWidth(width)
        c.line(x1, y1, x2, y2)

    def cut_line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A thin grey dashed line to cut along."""
        self.canvas.saveState()
        self.canvas.setDash(3, 3)
        self.line(x1, y1, x2, y2, width=0.4, color=GREY)
        self.canvas.restoreState()

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        width: float = 0.8,
        fill: tuple[float, float, float] | None = None,
        radius: float = 0,
    ) -> None:
        """A rectangle with its lower-left corner at (x, y)."""
        c = self.canvas
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(width)
        if fill is not None:
            c.setFillColorRGB(*fill)
        if radius:
            c.roundRect(x, y, w, h, radius, stroke=1, fill=int(fill is not None))
        else:
            c.rect(x, y, w, h, stroke=1, fill=int(fill is not None))

    def banded_box(self, x: float, y: float, w: float, h: float, band: float) -> None:
        """A card with rounded corners and a dark band ``band`` high across its top (a
        badge's, a name tag's), its lower-left corner at (x, y)."""
        self.box(x, y, w, h, width=1.2, radius=8)
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(*INK)
        c.roundRect(x, y + h - band, w, band, 8, stroke=0, fill=1)
        c.restoreState()

    def grid(
        self,
        x: float,
        y_top: float,
        widths: Sequence[float],
        rows: Sequence[Sequence[str]],
        row_height: float,
        *,
        size: float = 9,
        header_rows: int = 1,
        bold_rows: Sequence[int] = (),
        align: Sequence[str] | None = None,
    ) -> float:
        """A ruled table from ``y_top`` down; returns the y of its bottom edge.

        The first ``header_rows`` rows are bold on a light background; every cell's text
        shrinks to fit its column.
        """
        total_w = sum(widths)
        n = len(rows)
        bottom = y_top - n * row_height
        for r in range(header_rows):
            self.box(x, y_top - (r + 1) * row_height, total_w, row_height, fill=LIGHT, width=0.4)
        for r in range(n + 1):
            yy = y_top - r * row_height
            self.line(x, yy, x + total_w, yy, width=0.9 if r in (0, header_rows, n) else 0.4)
        xx = x
        for c_w in [0.0, *widths]:
            xx += c_w
            self.line(xx, y_top, xx, bottom, width=0.4)
        self.line(x, y_top, x, bottom, width=0.9)
        self.line(x + total_w, y_top, x + total_w, bottom, width=0.9)
        for r, row in enumerate(rows):
            bold = r < header_rows or r in bold_rows
            base = y_top - (r + 1) * row_height + row_height * 0.32
            xx = x
            for c, (cell, c_w) in enumerate(zip(row, widths, strict=False)):
                how = align[c] if align else ("left" if c == 0 else "center")
                pad = 3.0
                if how == "center":
                    self.text(
                        xx + c_w / 2,
                        base,
                        cell,
                        size,
                        bold=bold,
                        align="center",
                        width=c_w - 2 * pad,
                    )
                elif how == "right":
                    self.text(
                        xx + c_w - pad,
                        base,
                        cell,
                        size,
                        bold=bold,
                        align="right",
                        width=c_w - 2 * pad,
                    )
                else:
                    self.text(xx + pad, base, cell, size, bold=bold, width=c_w - 2 * pad)
                xx += c_w
        return bottom

    def poster_title(self, text: str) -> float:
        """A word in 110-point capitals across the top of a sign or round card; returns
        its baseline."""
        y = self.top - 1.3 * inch
        self.text(self.width / 2, y, text, 110, bold=True, align="center", width=self.inner_width)
        return float(y)

    def bell(self, x: float, y: float, size: float) -> None:
        """A hand bell ``size`` tall standing on (x, y) (the middle of its rim)."""
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(*INK)
        c.translate(x, y)
        s = size
        path = c.beginPath()
        path.moveTo(-0.36 * s, 0.16 * s)
        path.curveTo(-0.36 * s, 0.6 * s, -0.26 * s, 0.84 * s, 0, 0.84 * s)
        path.curveTo(0.26 * s, 0.84 * s, 0.36 * s, 0.6 * s, 0.36 * s, 0.16 * s)
        path.lineTo(0.46 * s, 0.07 * s)
        path.lineTo(-0.46 * s, 0.07 * s)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        c.circle(0, 0.9 * s, 0.08 * s, stroke=0, fill=1)
        c.circle(0, 0.04 * s, 0.09 * s, stroke=0, fill=1)
        c.restoreState()

    def footer(self, text: str) -> None:
        self.text(self.width / 2, MARGIN * 0.5, text, 7, align="center", color=GREY)


class Doc:
    """A PDF under construction: call :meth:`page` for each new page, then :meth:`finish`."""

    def __init__(
        self, paper: str = "letter", *, title: str = "Bunco", landscape_pages: bool = False
    ):
        size = paper_size(paper)
        self.paper = paper
        self.portrait = size
        self.landscape = landscape(size)
        self._buffer = io.BytesIO()
        first = self.landscape if landscape_pages else self.portrait
        self.canvas = Canvas(self._buffer, pagesize=first, invariant=1, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("bunco")
        self.canvas.setCreator("bunco")
        self.pages = 0
        self._open = False

    def page(self, *, turned: bool = False) -> Page:
        """Start a new page (``turned`` for landscape)."""
        if self._open:
            self.canvas.showPage()
        size = self.landscape if turned else self.portrait
        self.canvas.setPageSize(size)
        self.pages += 1
        self._open = True
        return Page(self.canvas, size[0], size[1])

    def finish(self) -> bytes:
        """The finished PDF (an empty document gets one blank page)."""
        if not self._open:
            self.page()
        self.canvas.showPage()
        self.canvas.save()
        self._open = False
        return self._buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Rendered:
    """A finished PDF and its number of pages."""

    data: bytes
    pages: int


FLOW_MARGIN = 0.6 * inch
"""The margin of the flowing documents (report, payout sheet, season report)."""


def flowing_document(
    buffer: io.BytesIO, size: tuple[float, float], title: str
) -> tuple[SimpleDocTemplate, float]:
    """A flowing document of pages of ``size`` written to ``buffer``, with ``title`` in its
    properties and the same margins everywhere, and the width its text may take.

    >>> doc, width = flowing_document(io.BytesIO(), LETTER, "Night: report")
    >>> doc.title, round(width / inch, 2)
    ('Night: report', 7.3)
    """
    doc = SimpleDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=FLOW_MARGIN,
        rightMargin=FLOW_MARGIN,
        topMargin=FLOW_MARGIN,
        bottomMargin=FLOW_MARGIN,
        title=title,
        author="bunco",
        creator="bunco",
        invariant=1,
    )
    return doc, size[0] - 2 * FLOW_MARGIN


def build_numbered(doc: Any, buffer: io.BytesIO, story: list[Any], footer: str) -> Rendered:
    """Build a platypus ``doc`` (writing to ``buffer``) from ``story``, each page footed "``footer`` · page N"
    in small grey type; the finished PDF and its page count."""
    pages: list[int] = []

    def count(canvas: Any, _doc: Any) -> None:
        pages.append(canvas.getPageNumber())
        canvas.setFont(font(False), 7)
        canvas.setFillColor(colors.HexColor("#888888"))
        canvas.drawCentredString(
            doc.pagesize[0] / 2, 0.35 * inch, f"{footer} · page {canvas.getPageNumber()}"
        )

    doc.build(story, onFirstPage=count, onLaterPages=count)
    return Rendered(buffer.getvalue(), len(pages))
