"""HTTP API, part 3: the printable downloads of a night (issue 8's end-of-night files).

Filled score sheets (PDF), the night report (HTML and PDF) and the blank sheets for the
night's preset and players, made by :mod:`bunco.sheets` from the night as it stands.
Building a PDF takes CPU time, so it runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from bunco.sheets import (
    blank_sheets_pdf,
    filled_sheets_pdf,
    night_report_html,
    night_report_pdf,
    standings_csv,
)
from bunco.web.access import require_read
from bunco.web.api_nights import ERRORS, service

NightId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$",
                                 description="the night's id")]

router = APIRouter(prefix="/api", responses=ERRORS, tags=["downloads"])


def _file(body: bytes | str, media_type: str, filename: str, *, inline: bool = False) -> Response:
    how = "inline" if inline else "attachment"
    return Response(body, media_type=media_type,
                    headers={"content-disposition": f'{how}; filename="{filename}"'})


@router.get("/nights/{night_id}/download/sheets.pdf")
async def filled_sheets(night_id: NightId, request: Request) -> Response:
    """Every score card and table tally as written by hand, plus the master sheet (PDF)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    pdf = await asyncio.to_thread(filled_sheets_pdf, live.night)
    return _file(pdf, "application/pdf", f"bunco-{live.id}-sheets.pdf")


@router.get("/nights/{night_id}/download/blank-sheets.pdf")
async def blank_sheets(night_id: NightId, request: Request) -> Response:
    """Blank score cards, tallies, table signs and the house-rules card for this night (PDF)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    night = live.night
    url = f"{str(request.base_url).rstrip('/')}/night/{live.id}"
    pdf = await asyncio.to_thread(
        blank_sheets_pdf, night.rules, list(night.roster), qr_url=url, sets=night.sets
    )
    return _file(pdf, "application/pdf", f"bunco-{live.id}-blank-sheets.pdf")


@router.get("/nights/{night_id}/download/report.html")
async def report_html(night_id: NightId, request: Request) -> Response:
    """The night report: standings, prizes, every round's tables and charts (one HTML page)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    html = await asyncio.to_thread(night_report_html, live.night)
    return _file(html, "text/html; charset=utf-8", f"bunco-{live.id}-report.html", inline=True)


@router.get("/nights/{night_id}/download/report.pdf")
async def report_pdf(night_id: NightId, request: Request) -> Response:
    """The night report as a PDF."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    pdf = await asyncio.to_thread(night_report_pdf, live.night)
    return _file(pdf, "application/pdf", f"bunco-{live.id}-report.pdf")


@router.get("/nights/{night_id}/download/standings.csv")
async def standings_with_prizes(night_id: NightId, request: Request) -> Response:
    """Standings with the prizes each player won, as `bunco export` writes them (CSV)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return _file(standings_csv(live.night), "text/csv; charset=utf-8", f"bunco-{live.id}-results.csv")
