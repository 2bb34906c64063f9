"""A club's season on paper: the season report (HTML, PDF) and the standings CSV.

The report has the club and season, the standings (nights played, W, L, Buncos, Minis,
points, prizes and money won), a chart of the standings over the season (each player's
wins so far after every night, drawn with matplotlib), every night with its pot and
payouts, the dues ledger (owed, paid, balance) and who hosts which month.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club", "dues": "5"}).apply(
...     {"type": "member", "name": "Ann"})
>>> print(season_csv(club, {}), end="")
rank,player,role,nights,wins,losses,buncos,mini_buncos,points,prizes,won
1,Ann,regular,0,0,0,0,0,0,0,0.00
"""

from __future__ import annotations

import base64
import csv
import html
import io
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict
from xml.sax.saxutils import escape as xml_escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Image, KeepTogether, Paragraph, Spacer

from bunco.club.club import DEFAULT_LADDER, Club
from bunco.club.ladder import rule_text
from bunco.club.ledger import pot_words
from bunco.club.season import season_ledger, season_progress, season_standings
from bunco.core.night import Night
from bunco.sheets.charts import COLORS, TOP_PLAYERS, new_figure, render
from bunco.sheets.export import safe_cell
from bunco.sheets.night_report_page import STYLE, _html_table, _pdf_table, _styles
from bunco.sheets.pdfkit import flowing_document, font, paper_size

if TYPE_CHECKING:
    from matplotlib.figure import Figure

HEADS = ["#", "Player", "Nights", "W", "L", "Buncos", "Minis", "Points", "Prizes", "Won"]
CSV_COLUMNS = (
    "rank",
    "player",
    "role",
    "nights",
    "wins",
    "losses",
    "buncos",
    "mini_buncos",
    "points",
    "prizes",
    "won",
)


def season_csv(club: Club, nights: Mapping[str, Night], season: str | None = None) -> str:
    """The season's standings as CSV, best first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in season_standings(club, nights, season):
        d = dict(row.as_dict())
        writer.writerow([safe_cell(str(d[k])) if k == "player" else d[k] for k in CSV_COLUMNS])
    return out.getvalue()


def standings_chart(club: Club, nights: Mapping[str, Night], season: str | None = None) -> Figure:
    """Each player's wins so far after every night of the season (the best ten)."""
    labels, series = season_progress(club, nights, season)
    fig = new_figure(8, 4.2)
    ax = fig.add_subplot()
    if not labels:
        ax.axis("off")
        ax.text(0.5, 0.5, "No nights played yet", ha="center", va="center", color="#555555")
        return fig
    best = sorted(series, key=lambda p: -series[p][-1])[:TOP_PLAYERS]
    for i, player in enumerate(best):
        ax.plot(
            range(1, len(labels) + 1),
            series[player],
            marker="o",
            color=COLORS[i % len(COLORS)],
            label=player,
        )
    ax.set_xticks(range(1, len(labels) + 1), labels)
    ax.set_ylabel("Wins so far")
    ax.set_title("Standings over the season")
    ax.legend(loc="upper left", fontsize=8, ncols=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _ruled(club: Club) -> bool:
    """Whether the club ranks by rules of its own (the standings then show the score)."""
    return club.ladder != DEFAULT_LADDER


def standings_heads(club: Club) -> list[str]:
    return [*HEADS[:3], "Score", *HEADS[3:]] if _ruled(club) else HEADS


class SeasonRows(TypedDict):
    """The season report's tables as text: the standings, the nights, the dues and the
    hosts, the money in one sentence, the season and its standings rule in words."""

    standings: list[list[str]]
    nights: list[list[str]]
    dues: list[list[str]]
    summary: str
    hosts: list[list[str]]
    season: str
    rule: str


def _rows(club: Club, nights: Mapping[str, Night], season: str | None) -> SeasonRows:
    c = club.currency
    ledger = season_ledger(club, nights, season)
    standings = []
    for r in season_standings(club, nights, season):
        row = [
            str(r.rank) if r.rank else "–",
            r.player + (" (sub)" if r.role == "substitute" else ""),
            str(r.nights),
            str(r.wins),
            str(r.losses),
            str(r.buncos),
            str(r.minis),
            str(r.points),
            str(r.prizes),
            c + str(r.as_dict()["won"]),
        ]
        if _ruled(club):
            row.insert(3, r.score + (f" ({r.counted} counted)" if r.dropped else ""))
        standings.append(row)
    night_rows = []
    for n in ledger["nights"]:
        if not n["played"]:
            continue  # started and never played: no dues, no pot, no results
        paid = "; ".join(f"{p['player']} {c}{p['amount']} ({p['label']})" for p in n["payouts"])
        if Decimal(n["paid_from_owed"]):
            paid += f" ({c}{n['paid_from_owed']} of it from dues not yet collected)"
        night_rows.append(
            [
                n["date"] or "",
                n["name"] or n["night"],
                str(n["players"]),
                c + n.get("pot", n["dues"]),
                c + n["pot_collected"],
                c + n.get("paid_out", "0.00"),
                c + n.get("left_in_pot", "0.00"),
                paid or "—",
            ]
        )
    dues = [
        [
            m["player"],
            str(m["nights"]),
            c + m["owed"],
            c + m["paid"],
            c + m["balance"],
            c + m["won"],
        ]
        for m in ledger["members"]
    ]
    t = ledger["totals"]
    summary = (
        f"Dues {c}{ledger['dues']} a night · owed {c}{t['dues_owed']} · paid "
        f"{c}{t['dues_paid']} · outstanding {c}{t['outstanding']} · paid out "
        f"{c}{t['paid_out']} · in the {pot_words(t, c)}"
    )
    hosts = [[h["month"], h["host"]] for h in ledger["hosts"]]
    rule = (
        "Ranked by "
        + rule_text(club.ladder)
        + (
            "; players short of the nights to qualify are listed last, unranked (–)"
            if club.ladder.get("min_nights")
            else ""
        )
    )
    return {
        "standings": standings,
        "nights": night_rows,
        "dues": dues,
        "summary": summary,
        "hosts": hosts,
        "season": ledger["season"],
        "rule": rule,
    }


PADDING = 12 + 2  # a table cell's left and right padding, and a little air


def fit_widths(
    heads: list[str],
    rows: list[list[str]],
    total: float,
    styles: dict[str, ParagraphStyle],
    flex: int,
) -> list[float]:
    """Column widths from what the cells hold, so no cell wraps: each column as wide as its
    widest text; column ``flex`` (a name or a free text) takes what is left, and wraps
    only if the others leave it too little."""

    def text_width(text: str, style: ParagraphStyle) -> float:
        return stringWidth(text, style.fontName, style.fontSize) + PADDING

    widths = [
        max([text_width(h, styles["head"])] + [text_width(r[i], styles["cell"]) for r in rows])
        for i, h in enumerate(heads)
    ]
    others = sum(w for i, w in enumerate(widths) if i != flex)
    if others + widths[flex] <= total:
        spare = total - others - widths[flex]
        widths[flex] += spare  # the table spans the page
    else:
        widths[flex] = max(total - others, 0.18 * total)
    return widths


NIGHT_HEADS = ["Date", "Night", "Players", "Pot", "Collected", "Paid out", "Left", "Payouts"]
DUES_HEADS = ["Member", "Nights", "Owed", "Paid", "Balance", "Won"]


def season_report_html(club: Club, nights: Mapping[str, Night], season: str | None = None) -> str:
    """The season report as one self-contained HTML page (the chart inline as SVG)."""
    e = html.escape
    data = _rows(club, nights, season)
    title = f"{club.name}: {data['season']}"
    chart = base64.b64encode(render(standings_chart(club, nights, season), "svg")).decode()
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(title)}: season report</title><style>{STYLE}</style></head><body>",
        f'<header><h1>{e(title)}</h1><p class="meta">{len(data["nights"])} nights · '
        f"{e(data['summary'])}</p></header>",
        '<section id="standings"><h2>Season standings</h2>',
        f'<p class="meta" id="rule">{e(data["rule"])}</p>',
        _html_table(
            standings_heads(club), data["standings"], {0, *range(2, len(standings_heads(club)))}
        ),
        "</section>",
        f'<section id="chart"><figure><img alt="Standings over the season" '
        f'src="data:image/svg+xml;base64,{chart}"><figcaption>Wins so far after each night'
        "</figcaption></figure></section>",
        '<section id="nights"><h2>Nights</h2>',
        _html_table(NIGHT_HEADS, data["nights"], {2, 3, 4, 5, 6}),
        "</section>",
        '<section id="ledger"><h2>Dues ledger</h2>',
        _html_table(DUES_HEADS, data["dues"], {1, 2, 3, 4, 5}),
        "</section>",
    ]
    if data["hosts"]:
        parts += [
            '<section id="hosts"><h2>Hosts</h2>',
            _html_table(["Month", "Host"], data["hosts"]),
            "</section>",
        ]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def season_report_pdf(
    club: Club, nights: Mapping[str, Night], season: str | None = None, *, paper: str = "letter"
) -> bytes:
    """The season report as a PDF: the same sections as the HTML page."""
    styles = _styles()
    data = _rows(club, nights, season)
    title = f"{club.name}: {data['season']}"
    size = paper_size(paper)
    buffer = io.BytesIO()
    doc, width = flowing_document(buffer, size, f"{title}: season report")
    p = xml_escape
    story: list[Any] = [
        Paragraph(p(title), styles["title"]),
        Paragraph(p(f"{len(data['nights'])} nights · {data['summary']}"), styles["meta"]),
        Paragraph("Season standings", styles["h2"]),
        Paragraph(p(data["rule"]), styles["meta"]),
        Spacer(1, 4),
    ]
    heads = standings_heads(club)
    story.append(
        _pdf_table(
            heads, data["standings"], fit_widths(heads, data["standings"], width, styles, 1), styles
        )
    )
    png = render(standings_chart(club, nights, season), "png", dpi=150)
    chart_width = min(width, 7 * inch)
    # the chart below the table, never over its last line: a gap, and kept whole
    story.append(Spacer(1, 14))
    story.append(
        KeepTogether([Image(io.BytesIO(png), width=chart_width, height=chart_width * 4.2 / 8)])
    )
    story.append(Paragraph("Nights", styles["h2"]))
    story.append(
        _pdf_table(
            NIGHT_HEADS,
            data["nights"],
            fit_widths(NIGHT_HEADS, data["nights"], width, styles, 7),
            styles,
        )
    )
    story.append(Paragraph("Dues ledger", styles["h2"]))
    story.append(
        _pdf_table(
            DUES_HEADS, data["dues"], fit_widths(DUES_HEADS, data["dues"], width, styles, 0), styles
        )
    )
    if data["hosts"]:
        story.append(Paragraph("Hosts", styles["h2"]))
        story.append(
            _pdf_table(
                ["Month", "Host"],
                data["hosts"],
                fit_widths(["Month", "Host"], data["hosts"], width, styles, 1),
                styles,
            )
        )

    def footer(canvas: Any, _doc: Any) -> None:
        canvas.setFont(font(False), 7)
        canvas.drawCentredString(
            size[0] / 2, 0.35 * inch, f"{title} · season report · page {canvas.getPageNumber()}"
        )

    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
