"""Which cards the staff verified, and by whom, on paper: the night report (HTML and PDF)
and the prize and payout sheet print the same table (nothing on a night that does not
verify and where nobody verified a card).

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "tournament", "players": ["Ann", "Bea"]})
>>> verified_rows(night)[0]
['Ann', 'not verified']
"""

from __future__ import annotations

import html
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from bunco.core.night import Night
from bunco.core.verification import verification_report, verified_text

HEADS = ["Player", "Verified"]


def verified_rows(night: Night) -> list[list[str]]:
    """One row per player (name, verification in words); [] when the night neither
    verifies nor has a verified card."""
    check = verification_report(night)
    if not (check["required"] or check["cards"]):
        return []
    return [[name, verified_text(night, name)] for name in night.roster]


def closed_line(night: Night) -> str:
    """The host's closing of the cards in words ("" when the host did not close them)."""
    closed = verification_report(night)["closed_unverified"]
    if closed is None:
        return ""
    return (
        "The host closed the cards with these not verified: " + (", ".join(closed) or "none") + "."
    )


def verified_section_html(night: Night, table: Any) -> str:
    """The report's "Cards verified" section ('' when there is nothing to say);
    ``table(heads, rows, numeric)`` draws a table as the report does."""
    rows = verified_rows(night)
    if not rows:
        return ""
    closed = closed_line(night)
    return "\n".join(
        [
            '<section id="verified"><h2>Cards verified</h2>',
            table(HEADS, rows, set()),
            f'<p class="meta">{html.escape(closed)}</p>' if closed else "",
            "</section>",
        ]
    )


def verified_story(
    night: Night, width: float, styles: dict[str, ParagraphStyle], table: Any
) -> list[Any]:
    """The "Cards verified" section as PDF flowables ([] when there is nothing to say)."""
    rows = verified_rows(night)
    if not rows:
        return []
    story: list[Any] = [
        Paragraph("Cards verified", styles["h2"]),
        table(HEADS, rows, [width * 0.3, width * 0.7], styles),
    ]
    closed = closed_line(night)
    if closed:
        story.append(Paragraph(xml_escape(closed), styles["meta"]))
    return story
