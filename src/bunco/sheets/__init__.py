"""The night on paper and as files: printable sheets, the night report, CSV standings.

The plain API (the web app's downloads and ``bunco sheets``/``report``/``export`` use it):

- :func:`blank_sheets_pdf` — blank, print-ready sheets for a rule set and a player list;
- :func:`filled_sheets_pdf` — a played night's sheets, filled in as by hand;
- :func:`night_report_html` / :func:`night_report_pdf` — the night report;
- :func:`standings_csv` — the standings as CSV.

See docs/sheets.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bunco.sheets.blank import blank_sheets_pdf
    from bunco.sheets.export import standings_csv
    from bunco.sheets.filled import filled_sheets_pdf
    from bunco.sheets.night_report_page import night_report_html, night_report_pdf

__all__ = [
    "blank_sheets_pdf",
    "filled_sheets_pdf",
    "night_report_html",
    "night_report_pdf",
    "standings_csv",
]

_HOMES = {
    "blank_sheets_pdf": "blank",
    "filled_sheets_pdf": "filled",
    "night_report_html": "night_report_page",
    "night_report_pdf": "night_report_page",
    "standings_csv": "export",
}


def __getattr__(name: str) -> Any:
    """The plain API, imported on first use: importing a light module of the package
    (``bunco.sheets.wording``, for ``bunco score``) does not load ReportLab."""
    if name in _HOMES:
        return getattr(importlib.import_module(f"bunco.sheets.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'bunco.sheets' has no attribute {name!r}")
