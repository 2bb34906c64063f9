"""The club pages: ``/club`` starts a club, ``/c/{id}`` is the organizer's page (roster,
nights to come and who is coming, dues, season standings, links), ``/c/{id}/me`` a
member's own page (their personal link: answer for the nights to come), and
``/c/{id}/shared`` what a share link shows (a night's results, or a season). Static
files, like the night's pages (see bunco.web.pages.night_pages)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from bunco.web.pages.night_pages import page

router = APIRouter(include_in_schema=False)


@router.get("/club")
async def new_club() -> Response:
    return page("club.html")


@router.get("/c/{club_id}")
async def club_page(club_id: str) -> Response:
    return page("club.html")


@router.get("/c/{club_id}/me")
async def member_page(club_id: str) -> Response:
    return page("club_member.html")


@router.get("/c/{club_id}/shared")
async def shared_page(club_id: str) -> Response:
    return page("club_shared.html")
