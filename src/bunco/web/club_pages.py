"""The club pages: ``/club`` starts a club, ``/c/{id}`` is the club's page (roster, nights,
dues, season standings). Static files, like the night's pages (see bunco.web.pages)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from bunco.web.pages import page

router = APIRouter(include_in_schema=False)


@router.get("/club")
async def new_club() -> Response:
    return page("club.html")


@router.get("/c/{club_id}")
async def club_page(club_id: str) -> Response:
    return page("club.html")
