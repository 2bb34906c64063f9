"""Door badges: one printed card per player, six to a page with lines to cut along, for
the check-in at the door (docs/room.md).

A badge shows the night's name, the player's name large, where they sit in round 1, and
their own door card's QR code: the host (or a co-host) scans it with the phone's camera
app, which opens the card's address on the server and checks that player in. The
address names the player by a card id, not a credential (:mod:`bunco.web.room.door_cards`),
so the badge is safe to hand out and to wear.

>>> from bunco.core.night import Night
>>> night = Night.start({"players": ["Ann", "Bea", "Cat", "Dee", "Eve"], "rules": "classic"})
>>> [(b.player, b.where) for b in night_badges(night, {"Ann": "u1", "Eve": "u5"})]
[('Ann', 'Table 1 · seat 1'), ('Eve', 'Table 2 · seat 2')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import segno
from reportlab.lib.units import inch

from bunco.core.night import Night
from bunco.sheets.pdfkit import GREY, Doc, Page

ACROSS, DOWN = 2, 3
GAP: float = 0.25 * inch
QR_SIZE: float = 1.55 * inch
"""A QR code a phone's camera reads from an arm's length away."""


@dataclass(frozen=True, slots=True)
class Badge:
    """One player's badge: their name, where they sit in round 1, and the address of
    their card."""

    player: str
    table: int
    seat: int
    url: str

    @property
    def where(self) -> str:
        """``Table 2 · seat 1``."""
        return f"Table {self.table} · seat {self.seat}"


def night_badges(night: Night, urls: Mapping[str, str]) -> list[Badge]:
    """A badge for each seated player that ``urls`` gives a card address, in the order of
    the seating (the order the door list shows)."""
    out = []
    for number, seats in enumerate(night.seating, start=1):
        for seat, name in enumerate(seats, start=1):
            if name is not None and name in urls:
                out.append(Badge(name, number, seat, urls[name]))
    return out


def draw_qr(page: Page, x: float, y: float, size: float, text: str) -> None:
    """A QR code of ``text``, lower-left corner at (x, y): each row's runs of dark
    squares as one rectangle, all in one path (a night's badges draw hundreds of codes)."""
    rows = [list(r) for r in segno.make(text, error="m").matrix_iter(border=0)]
    cell = size / len(rows)
    c = page.canvas
    path = c.beginPath()
    for r, row in enumerate(rows):
        top = y + size - (r + 1) * cell
        col = 0
        while col < len(row):
            if not row[col]:
                col += 1
                continue
            start = col
            while col < len(row) and row[col]:
                col += 1
            path.rect(x + start * cell, top, (col - start) * cell, cell)
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()


def draw_badge(
    page: Page, x: float, y: float, w: float, h: float, badge: Badge, title: str
) -> None:
    """One badge with its lower-left corner at (x, y)."""
    band = 0.45 * inch
    page.banded_box(x, y, w, h, band)
    pad = 0.15 * inch
    page.text(
        x + w / 2,
        y + h - band + 0.15 * inch,
        title,
        15,
        bold=True,
        align="center",
        color=(1, 1, 1),
        width=w - 2 * pad,
    )
    page.text(
        x + w / 2,
        y + h - band - 0.5 * inch,
        badge.player,
        34,
        bold=True,
        align="center",
        width=w - 2 * pad,
    )
    qr_x = x + w - pad - QR_SIZE
    qr_y = y + pad + 0.05 * inch
    draw_qr(page, qr_x, qr_y, QR_SIZE, badge.url)
    text_w = qr_x - x - 2 * pad
    line_y = qr_y + QR_SIZE - 12
    page.text(x + pad, line_y, "Round 1", 13, color=GREY, width=text_w)
    page.text(x + pad, line_y - 21, badge.where, 17, bold=True, width=text_w)
    page.paragraph(
        x + pad,
        line_y - 44,
        "At the door: the host scans this code to check you in.",
        text_w,
        12,
    )


def draw_badges(doc: Doc, badges: Sequence[Badge], title: str) -> None:
    """Every badge, six to a page."""
    per_page = ACROSS * DOWN
    for start in range(0, len(badges), per_page):
        page = doc.page()
        w = (page.inner_width - (ACROSS - 1) * GAP) / ACROSS
        h = (page.top - page.left - 0.2 * inch - (DOWN - 1) * GAP) / DOWN
        for k, badge in enumerate(badges[start : start + per_page]):
            row, col = divmod(k, ACROSS)
            draw_badge(
                page,
                page.left + col * (w + GAP),
                page.top - (row + 1) * h - row * GAP,
                w,
                h,
                badge,
                title,
            )
        mid = page.left + w + GAP / 2
        page.cut_line(mid, page.top + 0.1 * inch, mid, page.left + 0.1 * inch)
        for row in range(1, DOWN):
            yy = page.top - row * h - (row - 0.5) * GAP
            page.cut_line(page.left - 0.3 * inch, yy, page.right + 0.3 * inch, yy)
        page.footer(f"{title} · door badges · page {start // per_page + 1}")


def badges_pdf(night: Night, name: str, urls: Mapping[str, str], *, paper: str = "letter") -> bytes:
    """The night's door badges (PDF): one per seated player in ``urls`` (player → the
    address of their door card); ``name`` is the night's name, printed on each."""
    title = name.strip() or "Bunco night"
    doc = Doc(paper, title=f"{title}: door badges")
    badges = night_badges(night, urls)
    if not badges:
        page = doc.page()
        page.text(page.left, page.top - 20, "Nobody is seated tonight.", 16, color=GREY)
    draw_badges(doc, badges, title)
    return doc.finish()
