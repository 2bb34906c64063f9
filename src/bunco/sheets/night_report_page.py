"""The night report, as one self-contained HTML page or as a PDF.

Both say the same things, in this order: the night (rules, players, sets, where it
stands), the winners (set winners and prizes), the standings, three charts (points per
round, the Bunco timeline, wins per player; see :mod:`bunco.sheets.charts`) and every
round's tables (seats, score, winners, losers).

The HTML page has no outside references: its style is inline and the charts are SVG
images in ``data:`` URLs (an SVG shown through ``<img>`` cannot run scripts). Every
name from the party log is escaped.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "<b>"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> page = night_report_html(night)
>>> "&lt;b&gt;" in page and "<b>" not in page
True
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Set
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import (
    CondPageBreak,
    Image,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from bunco.core.night import Night
from bunco.core.round_results import TableResult
from bunco.party.night_report import night_title, progress
from bunco.party.winners import prize_name, prizes_status, winner_rows
from bunco.sheets.filled import SETTLED, standing_rows
from bunco.sheets.payouts import payout_section_html, payout_story
from bunco.sheets.pdfkit import (
    Rendered,
    build_numbered,
    flowing_document,
    font,
    head_widths,
    paper_size,
)
from bunco.sheets.verified import verified_section_html, verified_story
from bunco.sheets.wording import minis_header

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222;
       padding: 0 1em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ccc; padding-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; }
th { background: #eee; } td.n { text-align: right; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; }
.meta { color: #555; } .winner { font-size: 1.2em; font-weight: bold; }
@media print { body { margin: 0; max-width: none; } section { break-inside: avoid-page; } }
"""


def _names(names: tuple[str | None, ...] | list[str | None]) -> str:
    return " & ".join(n if n is not None else "ghost" for n in names)


def score_text(res: TableResult) -> str:
    """A table's final score in words: ``Ann & Cat 21 – 0 Bea & Dee`` or ``Ann 11, Bea 4``."""
    seats = res.seats
    if res.team:
        text = (
            f"{_names([seats[0], seats[2]])} {res.side_scores[0]} – {res.side_scores[1]} "
            f"{_names([seats[1], seats[3]])}"
        )
    else:
        text = ", ".join(f"{n or 'ghost'} {p}" for n, p in zip(seats, res.side_scores, strict=True))
    if res.tie_break:
        text += f" (tie broken: {res.tie_break['rule'].replace('_', ' ')})"
    return text


def meta_line(night: Night) -> str:
    sets = f"{night.sets} set" + ("s" if night.sets != 1 else "")
    return (
        f"Rules: {night.rules.name} · {len(night.roster)} players · {sets} · "
        f"{len(night.history)} rounds played · {progress(night)}"
    )


def winner_lines(night: Night) -> list[str]:
    """Set winners (where the rules name one), the traveler and pending roll-offs."""
    out = []
    for s in night.set_results:
        who = s.winner or "to be decided"
        out.append(f"Winner of set {s.set_no}: {who} (by {SETTLED[s.settled_by]})")
    if night.rolloff is not None:
        out.append(f"Roll-off due for {night.rolloff.purpose}: {', '.join(night.rolloff.players)}")
    return out


def prize_table(night: Night) -> tuple[list[str], list[list[str]], list[float]]:
    """Every prize as handed out (bunco.party.winners): the person paid, judged prizes too;
    the Amount column with money, Passed over when someone was. Heads, rows, widths."""
    rows = winner_rows(night)
    money = any(r.amount for r in rows)
    passing = any(r.passed_over for r in rows)
    heads = [
        "Prize",
        "Figure",
        "Won by",
        *(["Amount"] if money else []),
        *(["Passed over"] if passing else []),
    ]
    widths = [0.3, 0.08, 0.3, *([0.14] if money else []), *([0.3] if passing else [])]
    body = [
        [
            r.name,
            r.figure,
            r.who,
            *([r.amount] if money else []),
            *([r.passed_text] if passing else []),
        ]
        for r in rows
    ]
    if not rows and night.prizes:  # a prize roll-off is due: the prizes as the cards stand
        body = [
            [
                prize_name(p.label, p.group),
                "" if p.value is None else str(p.value),
                "roll-off due: " + ", ".join(p.candidates) if p.candidates else "nobody",
            ]
            for p in night.prizes
        ]
    total = sum(widths)
    return heads, body, [w / total for w in widths]


def standings_table(night: Night) -> tuple[list[str], list[list[str]]]:
    """The standings as printed: a header row and one row of text per player."""
    heads = ["#", "Player", "W", "L", "Buncos", minis_header(night.rules), "Points", "Prizes"]
    rows = [list(row) for row in standing_rows(night)]
    return heads, rows


def round_tables(night: Night) -> list[tuple[str, list[list[str]]]]:
    """For each round played: its heading and one row per table."""
    out = []
    for rnd in night.history:
        rows = [
            [
                str(t.table),
                ", ".join(n or "ghost" for n in t.seats),
                score_text(t),
                _names([w for w in t.winners if w is not None]),
                _names([w for w in t.losers if w is not None]),
            ]
            for t in rnd.tables
        ]
        out.append((f"Set {rnd.set_no}, round {rnd.round_no}", rows))
    return out


ROUND_HEADS = ["Table", "Seats (clockwise)", "Score", "Winners", "Losers"]


def _html_table(heads: list[str], rows: list[list[str]], numeric: Set[int] = frozenset()) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in heads)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{e(c)}</td>' if i in numeric else f"<td>{e(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def night_report_html(night: Night) -> str:
    """The report as one HTML page (UTF-8 text, no outside references)."""
    from bunco.sheets.charts import CHARTS, chart_svg

    e = html.escape
    title = night_title(night)
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}: night report</title><style>{STYLE}</style></head><body>",
        f'<header><h1>{e(title)}</h1><p class="meta">{e(meta_line(night))}</p></header>',
        '<section id="winners"><h2>Winners</h2>',
    ]
    parts += [f'<p class="winner">{e(line)}</p>' for line in winner_lines(night)]
    heads, prizes, _ = prize_table(night)
    if prizes:
        parts.append(_html_table(heads, prizes, {1}))
    elif not night.set_results:
        parts.append(f"<p>{e(prizes_status(night) or 'No prizes decided yet.')}</p>")
    parts.append("</section>")
    parts.append(payout_section_html(night, _html_table))  # '' without money
    parts.append(verified_section_html(night, _html_table))  # '' when no card is verified
    heads, rows = standings_table(night)
    parts.append('<section id="standings"><h2>Standings</h2>')
    parts.append(_html_table(heads, rows, {0, 2, 3, 4, 5, 6}))
    parts.append("</section>")
    parts.append('<section id="charts"><h2>Charts</h2>')
    for key, (caption, _) in CHARTS.items():
        data = base64.b64encode(chart_svg(night, key)).decode("ascii")
        parts.append(
            f'<figure id="chart-{key}"><img alt="{e(caption)}" '
            f'src="data:image/svg+xml;base64,{data}">'
            f"<figcaption>{e(caption)}</figcaption></figure>"
        )
    parts.append("</section>")
    parts.append('<section id="rounds"><h2>Rounds</h2>')
    for heading, table_rows in round_tables(night):
        parts.append(f"<h3>{e(heading)}</h3>")
        parts.append(_html_table(ROUND_HEADS, table_rows, {0}))
    if not night.history:
        parts.append("<p>No rounds played yet.</p>")
    parts.append("</section>")
    parts.append('<footer class="meta"><p>Made by bunco from the party log.</p></footer>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _styles() -> dict[str, ParagraphStyle]:
    regular, bold = font(False), font(True)
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=20, leading=24, spaceAfter=4),
        "h2": ParagraphStyle(
            "h2",
            fontName=bold,
            fontSize=14,
            leading=18,
            spaceBefore=10,
            spaceAfter=4,
            keepWithNext=1,
        ),
        "h3": ParagraphStyle(
            "h3",
            fontName=bold,
            fontSize=10.5,
            leading=13,
            spaceBefore=6,
            spaceAfter=2,
            keepWithNext=1,
        ),
        "body": ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=12),
        "meta": ParagraphStyle(
            "meta", fontName=regular, fontSize=9, leading=12, textColor=colors.HexColor("#555555")
        ),
        "winner": ParagraphStyle("winner", fontName=bold, fontSize=11.5, leading=15),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=8, leading=10),
        "head": ParagraphStyle("head", fontName=bold, fontSize=8, leading=10),
    }


def _pdf_table(
    heads: list[str], rows: list[list[str]], widths: list[float], styles: dict[str, ParagraphStyle]
) -> Table:
    cells = [[Paragraph(xml_escape(h), styles["head"]) for h in heads]]
    cells += [[Paragraph(xml_escape(c), styles["cell"]) for c in row] for row in rows]
    widths = head_widths(heads, widths, styles["head"].fontSize)  # no header breaks a word
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def render_report_pdf(night: Night, *, paper: str = "letter") -> Rendered:
    """The report as a PDF and its page count (see :func:`night_report_pdf`)."""
    from bunco.sheets.charts import CHARTS, render

    styles = _styles()
    size = paper_size(paper)
    buffer = io.BytesIO()
    title = night_title(night)
    doc, width = flowing_document(buffer, size, f"{title}: night report")
    p = xml_escape
    story: list[Any] = [
        Paragraph(p(title), styles["title"]),
        Paragraph(p(meta_line(night)), styles["meta"]),
    ]
    story.append(Paragraph("Winners", styles["h2"]))
    story += [Paragraph(p(line), styles["winner"]) for line in winner_lines(night)]
    heads, prizes, fractions = prize_table(night)
    if prizes:
        story.append(Spacer(1, 4))
        story.append(_pdf_table(heads, prizes, [width * f for f in fractions], styles))
    elif not night.set_results:
        story.append(Paragraph(p(prizes_status(night) or "No prizes decided yet."), styles["body"]))
    story += payout_story(night, width, styles, _pdf_table)  # [] without money
    story += verified_story(night, width, styles, _pdf_table)  # [] when no card is verified
    heads, rows = standings_table(night)
    # a heading never ends a page: room for it and the table's first rows, or a new page
    story.append(CondPageBreak(1.6 * inch))
    story.append(Paragraph("Standings", styles["h2"]))
    fractions = [0.06, 0.18, 0.05, 0.05, 0.1, 0.12, 0.08, 0.36]
    story.append(_pdf_table(heads, rows, [width * f for f in fractions], styles))
    section: list[Any] = [Paragraph("Charts", styles["h2"])]  # goes with the first chart
    for caption, make in CHARTS.values():
        fig = make(night)
        fig_w, fig_h = fig.get_size_inches()
        img_w = min(width, 7 * inch)
        img_h = img_w * fig_h / fig_w
        if img_h > 8.5 * inch:
            img_w, img_h = img_w * 8.5 * inch / img_h, 8.5 * inch
        image = Image(io.BytesIO(render(fig, "png", dpi=150)), width=img_w, height=img_h)
        story.append(KeepTogether([*section, Paragraph(p(caption), styles["h3"]), image]))
        section = []
    section = [Paragraph("Rounds", styles["h2"])]  # goes with the first round
    round_fractions = (0.07, 0.27, 0.32, 0.17, 0.17)
    for heading, table_rows in round_tables(night):
        story.append(
            KeepTogether(
                [
                    *section,
                    Paragraph(p(heading), styles["h3"]),
                    _pdf_table(
                        ROUND_HEADS, table_rows, [width * f for f in round_fractions], styles
                    ),
                ]
            )
        )
        section = []
    if not night.history:
        story += [*section, Paragraph("No rounds played yet.", styles["body"])]
    return build_numbered(doc, buffer, story, f"{title} · night report")


def night_report_pdf(night: Night, *, paper: str = "letter") -> bytes:
    """The report as a PDF: the same sections as the HTML page, charts as images."""
    return render_report_pdf(night, paper=paper).data
