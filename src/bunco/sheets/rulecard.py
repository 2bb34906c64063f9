"""The house-rules card: every rule of the night in plain words, the rules changed from
the preset (what each rule says and its value tonight, no identifiers), and optionally a
QR code that opens the night on a phone (``bunco serve``).
"""

from __future__ import annotations

import segno
from reportlab.lib.units import inch

from bunco.core.rules import RuleSet
from bunco.sheets.pdfkit import GREY, INK, Page, wrap
from bunco.sheets.wording import house_changes, rule_lines, summary

QR_SIZE = 1.7 * inch


def draw_qr(page: Page, x: float, y: float, size: float, text: str) -> None:
    """A QR code of ``text`` as vector squares, lower-left corner at (x, y)."""
    qr = segno.make(text, error="m")
    rows = [list(r) for r in qr.matrix_iter(border=0)]
    cell = size / len(rows)
    c = page.canvas
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(rows):
        for col, dark in enumerate(row):
            if dark:
                c.rect(x + col * cell, y + size - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    c.setFillColorRGB(*INK)


def change_text(value: str, doc: str) -> str:
    """One changed rule in words: what the rule says, then its value tonight.

    >>> change_text("11", "Points a team needs at a table of four.")
    'Points a team needs at a table of four: 11.'
    """
    return f"{doc.rstrip('.')}: {value}."


def _body_height(rules: RuleSet, width: float, size: float) -> float:
    lines = sum(len(wrap(t, width - 0.18 * inch, size)) for t in rule_lines(rules))
    height = lines * size * 1.3 + 3 * len(rule_lines(rules))
    changes = house_changes(rules)
    if changes:
        small = size * 0.85
        height += 0.34 * inch + sum(
            len(wrap(change_text(v, d), width, small)) * small * 1.3 + 2 for _, v, d in changes
        )
    return height


def draw_rules_card(page: Page, rules: RuleSet, title: str, qr_url: str | None) -> None:
    """The card on one portrait page, in a box; the text is as large as the page allows."""
    x, w = page.left, page.inner_width
    top = page.top
    page.box(x, page.left, w, top - page.left, width=1.5, radius=8)
    pad = 0.25 * inch
    y = top - 0.45 * inch
    page.text(x + pad, y, f"House rules: {rules.name}", 22, bold=True, width=w - 2 * pad)
    y -= 0.3 * inch
    line = summary(rules)
    text_w = w - 2 * pad - (QR_SIZE + 0.2 * inch if qr_url else 0)
    if line:
        y = page.paragraph(x + pad, y, line[0].upper() + line[1:] + ".", text_w, 11)
    if qr_url:
        qr_y = top - 0.3 * inch - QR_SIZE
        draw_qr(page, x + w - pad - QR_SIZE, qr_y, QR_SIZE, qr_url)
        page.text(
            x + w - pad - QR_SIZE / 2,
            qr_y - 0.15 * inch,
            "Scan to follow the night",
            8,
            bold=True,
            align="center",
            width=QR_SIZE + 0.2 * inch,
        )
        page.text(
            x + w - pad - QR_SIZE / 2,
            qr_y - 0.3 * inch,
            qr_url,
            6,
            align="center",
            color=GREY,
            width=QR_SIZE + 0.2 * inch,
        )
        y = min(y, qr_y - 0.45 * inch)
    y -= 0.15 * inch
    body_w = w - 2 * pad
    room = y - page.left - 0.2 * inch
    size = next(
        (s for s in (16, 15, 14, 13, 12, 11, 10, 9, 8) if _body_height(rules, body_w, s) <= room), 7
    )
    for text in rule_lines(rules):
        page.text(x + pad, y, "•", size)
        y = page.paragraph(x + pad + 0.18 * inch, y, text, body_w - 0.18 * inch, size) - 3
    changes = house_changes(rules)
    if changes:
        small = size * 0.85
        y -= 0.12 * inch
        page.text(x + pad, y, "Changed from the preset tonight", size, bold=True)
        y -= 0.22 * inch
        for _, value, doc in changes:
            y = page.paragraph(x + pad, y, change_text(value, doc), body_w, small) - 2
    page.footer(f"{title} · house rules")
