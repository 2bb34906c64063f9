"""The prize and payout sheet of a night on paper: every prize as handed out (the person
paid, who was passed over and why, judged prizes too), the payouts with a line to sign for
each person paid, the pot and every amount that stays behind, and which cards the staff
verified. ``bunco sheets --from LOG --payouts`` prints it.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "classic", "players": ["Ann", "Bea"], '
...                   '"money": {"buy_in": "2"}}'])
>>> render_payout_sheet(night).pages
1
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import Paragraph

from bunco.core.night import Night
from bunco.party.night_report import night_title
from bunco.sheets.night_report_page import _pdf_table, _styles, meta_line, prize_table
from bunco.sheets.payouts import payout_story
from bunco.sheets.pdfkit import Rendered, build_numbered, flowing_document, paper_size
from bunco.sheets.verified import verified_story


def render_payout_sheet(
    night: Night,
    *,
    paper: str = "letter",
    money_notes: Sequence[str] = (),
    closed_at: str | None = None,
) -> Rendered:
    """The prize and payout sheet as a PDF and its page count; ``money_notes``: lines about
    where the money comes from (a club's night: how much of the pot is dues not yet
    collected), printed under the payouts; ``closed_at``, when the host closed the night, in
    words (the sheet then says it is final, and since when)."""
    styles = _styles()
    size = paper_size(paper)
    title = night_title(night)
    buffer = io.BytesIO()
    doc, width = flowing_document(buffer, size, f"{title}: prizes and payouts")
    story: list[Any] = [
        Paragraph(escape(f"{title}: prizes and payouts"), styles["title"]),
        Paragraph(escape(meta_line(night)), styles["meta"]),
        Paragraph("Prizes", styles["h2"]),
    ]
    heads, rows, fractions = prize_table(night)
    if rows:
        story.append(_pdf_table(heads, rows, [width * f for f in fractions], styles))
    else:
        story.append(Paragraph("No prizes decided yet.", styles["body"]))
    story += payout_story(night, width, styles, _pdf_table, closed_at)
    story += [Paragraph(escape(line), styles["body"]) for line in money_notes]
    story += verified_story(night, width, styles, _pdf_table)
    return build_numbered(doc, buffer, story, f"{title} · prizes and payouts")
