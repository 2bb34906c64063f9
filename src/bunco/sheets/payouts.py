"""The payout sheet on paper and in files: HTML section, PDF flowables, CSV.

Who gets how much for what, each person's total with a line to sign, the pot and what
is left (see :mod:`bunco.party.payouts`).

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "classic", "players": ["Ann", "Bea"], '
...                   '"money": {"buy_in": "2"}}'])
>>> print(payouts_csv(night), end="")
player,prize,group,amount,currency
"""

from __future__ import annotations

import csv
import html
import io
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from bunco.core.night import Night
from bunco.core.settlement import prize_money
from bunco.party.payouts import PayoutSheet, notes, payout_sheet
from bunco.sheets.export import safe_cell

PAYOUT_HEADS = ["Player", "Prize", "Amount"]
SIGN_HEADS = ["Player", "Total to hand over", "Signature"]
TOTALS_TITLE = "To hand over: each person's total (sign when received)"
SIGN_LINE = "_" * 28


def payouts_csv(night: Night) -> str:
    """One row per person paid for a prize: player, prize key, group, amount, currency."""
    data = prize_money(night)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player", "prize", "group", "amount", "currency"])
    currency = data["money"]["currency"] if data["money"] else ""
    for p in data["payouts"]:
        writer.writerow(
            [safe_cell(p["player"]), p["prize"], safe_cell(p["group"] or ""), p["amount"], currency]
        )
    return out.getvalue()


def _rows(sheet: PayoutSheet) -> tuple[list[list[str]], list[list[str]]]:
    lines = [[line.player, line.prize, line.amount] for line in sheet.lines]
    signs = [[name, total, SIGN_LINE] for name, total in sheet.totals]
    return lines, signs


def payout_section_html(night: Night, table: Any, closed_at: str | None = None) -> str:
    """The report's payout sheet as an HTML section ('' for a night without money);
    ``table(heads, rows, numeric)`` draws a table as the report does; ``closed_at``, when
    the host closed the night, in words."""
    sheet = payout_sheet(night)
    if sheet is None:
        return ""
    e = html.escape
    lines, signs = _rows(sheet)
    parts = ['<section id="payouts"><h2>Payout sheet</h2>']
    parts.append(f'<p class="status">{e(sheet.status(closed_at))}</p>')
    if signs:
        parts.append(f"<h3>{e(TOTALS_TITLE)}</h3>")
        parts.append(table(SIGN_HEADS, signs, {1}))
    parts.append("<h3>Each prize paid</h3>")
    parts.append(table(PAYOUT_HEADS, lines, {2}) if lines else "<p>Nobody is paid yet.</p>")
    parts += [f'<p class="meta">{e(line)}</p>' for line in notes(sheet)]
    parts.append("</section>")
    return "\n".join(parts)


def payout_story(
    night: Night,
    width: float,
    styles: dict[str, ParagraphStyle],
    table: Any,
    closed_at: str | None = None,
) -> list[Any]:
    """The report's payout sheet as PDF flowables ([] for a night without money): first
    whether it is final (``closed_at``: when the host closed the night, in words), then
    each person's total to hand over with a line to sign, then each prize paid."""
    sheet = payout_sheet(night)
    if sheet is None:
        return []
    lines, signs = _rows(sheet)
    story: list[Any] = [
        Paragraph("Payout sheet", styles["h2"]),
        Paragraph(f"<b>{xml_escape(sheet.status(closed_at))}</b>", styles["body"]),
    ]
    if signs:
        story.append(Paragraph(xml_escape(TOTALS_TITLE), styles["h3"]))
        signed: Table = table(SIGN_HEADS, signs, [width * 0.3, width * 0.25, width * 0.45], styles)
        signed.setStyle(TableStyle([("TOPPADDING", (0, 1), (-1, -1), 10)]))
        story.append(signed)
    story.append(Paragraph("Each prize paid", styles["h3"]))
    if lines:
        story.append(table(PAYOUT_HEADS, lines, [width * 0.3, width * 0.5, width * 0.2], styles))
    else:
        story.append(Paragraph("Nobody is paid yet.", styles["body"]))
    story += [Paragraph(xml_escape(line), styles["meta"]) for line in notes(sheet)]
    story.append(Spacer(1, 6))
    return story
