"""HTTP API, part 3: the printable downloads of a night (issue 8's end-of-night files).

Filled score sheets (PDF), the night report (HTML and PDF) and the blank sheets for the
night's preset and players, made by :mod:`bunco.sheets` from the night as it stands.
Making them takes CPU time: they are made once per night version, in a process of their
own, and limited per token (:mod:`bunco.web.files.downloads`; 429 ``too_many_downloads``).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from bunco.sheets import standings_csv
from bunco.web.api.access import require_host, require_read, tokens
from bunco.web.api.routing import ERRORS, send_file, service
from bunco.web.files.downloads import Downloads, log_lines
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import file_reply

NightId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the night's id"),
]

router = APIRouter(prefix="/api", responses=ERRORS, tags=["downloads"])
BUSY: dict[int | str, dict[str, Any]] = {
    429: {"description": "too many files being made (too_many_downloads, Retry-After)"}
}


def closed_time(live: LiveNight) -> str:
    """When the host closed the night, in the words of the server's clock ("22:41 on
    28 Nov 2026"), or "" while it is open."""
    closed = live.closed_at()
    if closed is None:
        return ""
    at = closed.astimezone()
    return f"{at:%H:%M} on {at.day} {at:%b %Y}"


async def _made(
    request: Request, night_id: str, kind: str, qr_url: str = "", *, host: bool = False
) -> tuple[str, bytes]:
    """The night's id and the file ``kind`` for its current version (see
    :mod:`bunco.web.files.downloads`: cached, made in a process of its own, limited per token);
    ``host``: for the night's hosts only."""
    if host:
        who = await require_host(request, night_id, "printing the seating guide")
    else:
        who = await require_read(request, night_id)
    live = await service(request).get(night_id)
    if kind == "guide.pdf" and live.night.phase == "over":
        raise ServiceError(
            409,
            "night_over",
            "the night is over: nobody sits at a table any more",
            "the guide cards before or during the night; the results are on the end page",
        )
    downloads: Downloads = request.app.state.downloads
    lines = log_lines(live.log)  # nothing awaits between the version and its log
    data = await downloads.get((live.id, live.seq, kind, qr_url), lines, who.caller)
    return live.id, data


@router.get(
    "/nights/{night_id}/download/sheets.pdf",
    response_class=Response,
    responses={**BUSY, **file_reply("application/pdf", "the filled sheets (PDF)")},
)
async def filled_sheets(night_id: NightId, request: Request) -> Response:
    """Every score card and table tally as written by hand, plus the master sheet (PDF)."""
    night, pdf = await _made(request, night_id, "sheets.pdf")
    return send_file(pdf, "application/pdf", f"bunco-{night}-sheets.pdf")


@router.get(
    "/nights/{night_id}/download/blank-sheets.pdf",
    response_class=Response,
    responses={**BUSY, **file_reply("application/pdf", "the blank sheets (PDF)")},
)
async def blank_sheets(night_id: NightId, request: Request) -> Response:
    """Blank score cards, tallies, table signs and the house-rules card for this night (PDF)."""
    url = f"{str(request.base_url).rstrip('/')}/night/{night_id}"
    night, pdf = await _made(request, night_id, "blank-sheets.pdf", url)
    return send_file(pdf, "application/pdf", f"bunco-{night}-blank-sheets.pdf")


@router.get(
    "/nights/{night_id}/download/report.html",
    response_class=Response,
    responses={**BUSY, **file_reply("text/html", "the night report (HTML)")},
)
async def report_html(night_id: NightId, request: Request) -> Response:
    """The night report: standings, prizes, every round's tables and charts (one HTML page)."""
    night, html = await _made(request, night_id, "report.html")
    return send_file(html, "text/html; charset=utf-8", f"bunco-{night}-report.html", inline=True)


@router.get(
    "/nights/{night_id}/download/report.pdf",
    response_class=Response,
    responses={**BUSY, **file_reply("application/pdf", "the night report (PDF)")},
)
async def report_pdf(night_id: NightId, request: Request) -> Response:
    """The night report as a PDF."""
    night, pdf = await _made(request, night_id, "report.pdf")
    return send_file(pdf, "application/pdf", f"bunco-{night}-report.pdf")


@router.get(
    "/nights/{night_id}/download/payouts.pdf",
    response_class=Response,
    responses={**BUSY, **file_reply("application/pdf", "the prize and payout sheet (PDF)")},
)
async def payout_sheet_pdf(night_id: NightId, request: Request) -> Response:
    """The prize and payout sheet (PDF): every prize as handed out, the payouts with a line
    to sign, the pot and every amount that stays behind, and which cards were verified;
    final (with the time the host closed the night) or provisional."""
    live = await service(request).get(night_id)
    night, pdf = await _made(request, night_id, "payouts.pdf", closed_time(live))
    return send_file(pdf, "application/pdf", f"bunco-{night}-payouts.pdf")


@router.get(
    "/nights/{night_id}/download/standings.csv",
    response_class=Response,
    responses=file_reply("text/csv", "the standings with prizes (CSV)"),
)
async def standings_with_prizes(night_id: NightId, request: Request) -> Response:
    """Standings with the prizes each player won, as `bunco export` writes them (CSV)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return send_file(
        standings_csv(live.night), "text/csv; charset=utf-8", f"bunco-{live.id}-results.csv"
    )


ViewerToken = Annotated[
    str,
    Query(
        min_length=16,
        max_length=200,
        pattern=r"^[A-Za-z0-9_=-]+$",
        description="a viewer token of the night: the cards' QR codes open the players' page "
        "with it (the host page's Big screen link carries one; POST .../viewer-links makes one)",
    ),
]


@router.get(
    "/nights/{night_id}/download/guide.pdf",
    response_class=Response,
    responses={
        **BUSY,
        **file_reply("application/pdf", "the seating guide cards (PDF)"),
        409: {"description": "the night is over (night_over)"},
    },
)
async def guide_cards(night_id: NightId, viewer: ViewerToken, request: Request) -> Response:
    """A seating guide card per table (host): who sits where this round, seat by seat with
    the partners, where winners and losers go next, and a QR code to the players' page for
    the later rounds, which depend on the results (PDF, two cards a page)."""
    record = await asyncio.to_thread(tokens(request).lookup, viewer)
    if record is None or record.revoked or record.role != "viewer" or record.night_id != night_id:
        raise ServiceError(
            422,
            "invalid_viewer",
            "viewer is not a live viewer token of this night",
            "the viewer token of the host page's Big screen link (POST .../viewer-links makes one)",
        )
    public: str | None = getattr(request.app.state, "public_base", None)
    base = public or str(request.base_url).rstrip("/")
    url = f"{base}/n/{night_id}/player?token={viewer}"
    night, pdf = await _made(request, night_id, "guide.pdf", url, host=True)
    return send_file(pdf, "application/pdf", f"bunco-{night}-guide-cards.pdf")
