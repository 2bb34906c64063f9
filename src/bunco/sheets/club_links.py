"""The club's members' links on one printable sheet: each member's name, role and personal
link with its QR code (to cut out and hand over at a night), and the same as one message
to copy into an email or a group chat.

The sheet holds every member's secret link: it is the organizer's, like the club's page.

>>> links = [{"name": "Ann", "role": "regular", "url": "https://b.example/c/c1/me?token=t"}]
>>> print(links_message("Tuesday Club", links))
Tuesday Club: here is your own page for the club's nights. Open it to say whether you are coming (no account needed). Keep it to yourself: it answers for you.
<BLANKLINE>
Ann: https://b.example/c/c1/me?token=t
>>> links_sheet("Tuesday Club", links)[:4]
b'%PDF'
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import inch

from bunco.club.view_types import MemberLink
from bunco.sheets.pdfkit import GREY, Doc, text_width
from bunco.sheets.rulecard import draw_qr

CARD_HEIGHT = 1.55 * inch
QR = 1.3 * inch


def broken(text: str, width: float, size: float) -> list[str]:
    """A link broken into lines of ``width`` (anywhere: a link has no spaces).

    >>> broken("abcdef", 1000, 10)
    ['abcdef']
    """
    lines = [""]
    for ch in text:
        if lines[-1] and text_width(lines[-1] + ch, size) > width:
            lines.append("")
        lines[-1] += ch
    return lines


def links_message(club: str, links: Sequence[MemberLink]) -> str:
    """One message with every member's link, one line each."""
    head = (
        f"{club}: here is your own page for the club's nights. Open it to say whether you "
        "are coming (no account needed). Keep it to yourself: it answers for you."
    )
    return head + "\n\n" + "\n".join(f"{m['name']}: {m['url']}" for m in links if m.get("url"))


def links_sheet(club: str, links: Sequence[MemberLink], *, paper: str = "letter") -> bytes:
    """Every member's link and QR code, two columns of cards to cut out."""
    doc = Doc(paper, title=f"{club}: members' links")
    shown = [m for m in links if m.get("url")]
    page = doc.page()
    y = page.top
    per_row = 2
    card_w = page.inner_width / per_row
    for i, member in enumerate(shown):
        col = i % per_row
        if col == 0:
            if i == 0 or y - CARD_HEIGHT < page.left:
                if i:
                    page.footer(f"{club} · members' links")
                    page = doc.page()
                y = page.top
                page.text(page.left, y - 16, f"{club}: members' links", 16, bold=True)
                page.text(
                    page.left,
                    y - 32,
                    "Each member's own page: scan the code, or type the link. "
                    "Keep each one for its member.",
                    9,
                    color=GREY,
                    width=page.inner_width,
                )
                y -= 44
            y -= CARD_HEIGHT
        x = page.left + col * card_w
        page.cut_line(x, y, x + card_w, y)
        draw_qr(page, x + 6, y + (CARD_HEIGHT - QR) / 2, QR, str(member["url"]))
        tx = x + QR + 16
        tw = card_w - QR - 22
        page.text(tx, y + CARD_HEIGHT - 24, str(member["name"]), 15, bold=True, width=tw)
        page.text(tx, y + CARD_HEIGHT - 40, str(member.get("role", "")), 9, color=GREY, width=tw)
        line_y = y + CARD_HEIGHT - 56
        for part in broken(str(member["url"]), tw, 7.5):
            page.text(tx, line_y, part, 7.5)
            line_y -= 10
    page.footer(f"{club} · members' links")
    return doc.finish()
