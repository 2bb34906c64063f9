"""The night on paper and as files: printable sheets, the night report, CSV standings.

The plain API (the web app's downloads and ``bunco sheets``/``report``/``export`` use it):

- :func:`blank_sheets_pdf` — blank, print-ready sheets for a rule set and a player list;
- :func:`filled_sheets_pdf` — a played night's sheets, filled in as by hand;
- :func:`night_report_html` / :func:`night_report_pdf` — the night report;
- :func:`standings_csv` — the standings as CSV.

See docs/sheets.md.
"""

from __future__ import annotations

from bunco.sheets.blank import blank_sheets_pdf
from bunco.sheets.export import standings_csv
from bunco.sheets.filled import filled_sheets_pdf
from bunco.sheets.report import night_report_html, night_report_pdf

__all__ = [
    "blank_sheets_pdf",
    "filled_sheets_pdf",
    "night_report_html",
    "night_report_pdf",
    "standings_csv",
]
