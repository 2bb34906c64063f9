"""HTTP API, part 5c: the club's month, changed, and its money on paper. A night started
and never played taken back; a planned night cancelled or moved; members' phones that ask
for notifications; the organizer's recovery code; the club's time zone; the members' links
on one sheet, and a club night's payout sheet with the dues it has not collected.

Included in :mod:`bunco.web.api_club`'s router (``/api/clubs``). See docs/club.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field

from bunco.club.ledger import collection_notes, season_ledger, take_back, take_back_on
from bunco.club.plans import attendance_view
from bunco.club.views import club_view, member_view
from bunco.core.errors import BuncoError
from bunco.sheets.club_links import links_message, links_sheet
from bunco.sheets.payout_pdf import render_payout_sheet
from bunco.web import club_push
from bunco.web.access import client_key, guard, too_many
from bunco.web.club_access import Loaded, append, clubs, load, refused
from bunco.web.club_links import links_view
from bunco.web.club_recovery import new_recovery, unseal
from bunco.web.fields import Word
from bunco.web.replies import ServiceError
from bunco.web.reply_models import AttendanceOut, ClubOut, MemberOut, Reply, file_reply
from bunco.web.routing import send_file
from bunco.web.schemas import StrictModel

ClubId = Annotated[str, Path(min_length=1, max_length=32, description="the club's id")]
Day = Annotated[str, Path(min_length=10, max_length=10, description="YYYY-MM-DD")]
NightId = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="a night's id")
]
DateText = Annotated[Word, Field(min_length=10, max_length=10, description="YYYY-MM-DD")]
router = APIRouter()


class MoveIn(StrictModel):
    to: DateText
    time: Annotated[Word, Field(max_length=5, description="HH:MM")] | None = None
    deadline: Annotated[Word, Field(max_length=16, description="YYYY-MM-DDTHH:MM")] | None = None


class PushKeys(StrictModel):
    p256dh: Annotated[str, Field(min_length=1, max_length=200)]
    auth: Annotated[str, Field(min_length=1, max_length=200)]


class PushIn(StrictModel):
    """A phone's push subscription, as the browser gives it."""

    endpoint: Annotated[str, Field(min_length=8, max_length=1000)]
    keys: PushKeys


class EndpointIn(StrictModel):
    endpoint: Annotated[str, Field(min_length=8, max_length=1000)]


class CodeIn(StrictModel):
    code: Annotated[str, Field(min_length=1, max_length=60)]


class ZoneIn(StrictModel):
    zone: Annotated[str, Field(min_length=1, max_length=64, description="e.g. America/Chicago")]


class RecoveredOut(Reply):
    """The club's link, given back for its recovery code."""

    club: str
    token: str
    url: str


class RecoveryOut(Reply):
    """A new recovery code (shown once)."""

    code: str


class PushKeyOut(Reply):
    """The club's public key for phone notifications (the page's applicationServerKey)."""

    public_key: str


class LinksMessageOut(Reply):
    """Every member's link as one message to copy."""

    text: str


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def refusing(take: Callable[..., Any], got: Loaded, what: str) -> Any:
    """``take(club, nights, what)`` (taking back a night never played), its refusal as a
    422 naming what was wrong (``night_played``)."""
    try:
        return take(got.club, got.nights, what)
    except BuncoError as exc:
        raise refused(exc) from None


@router.post("/{club_id}/nights/{night_id}/cancel", response_model=ClubOut)
async def cancel_night(club_id: ClubId, night_id: NightId, request: Request) -> dict[str, Any]:
    """Take back a night started from the club and never played: no dues, no pot, no
    standings; its planned date is a night to come again (cancel or move it next, if it
    will not be played)."""
    got = await load(request, club_id)
    if not any(n.night == night_id for n in got.club.nights):
        raise ServiceError(
            404,
            "no_such_night",
            f"night {night_id!r} is not a night of {got.club.name}",
            "a night of the club",
        )
    club = await append(request, club_id, got.club, refusing(take_back, got, night_id))
    return club_view(club_id, club, got.nights)


@router.post("/{club_id}/plans/{date}/cancel", response_model=AttendanceOut)
async def cancel_plan(club_id: ClubId, date: Day, request: Request) -> dict[str, Any]:
    """Call off a planned night (a night started on it and not played is taken back): it
    stays in the calendar as cancelled, and every member is told."""
    got = await load(request, club_id)
    events = [*refusing(take_back_on, got, date), {"type": "cancel_plan", "date": date}]
    club = await append(request, club_id, got.club, *events)
    return attendance_view(club, date)


@router.post("/{club_id}/plans/{date}/move", response_model=AttendanceOut)
async def move_plan(club_id: ClubId, date: Day, body: MoveIn, request: Request) -> dict[str, Any]:
    """Move a planned night to another date (and time; a night started on it and not
    played is taken back): its answers go with it, the calendar event moves, every member
    is told."""
    got = await load(request, club_id)
    event = {"type": "move_plan", "date": date, **body.model_dump(exclude_none=True)}
    events = [*refusing(take_back_on, got, date), event]
    club = await append(request, club_id, got.club, *events)
    return attendance_view(club, body.to)


@router.post("/{club_id}/timezone", response_model=ClubOut)
async def timezone(club_id: ClubId, body: ZoneIn, request: Request) -> dict[str, Any]:
    """The club's time zone (its calendar's times and its deadlines)."""
    got = await load(request, club_id)
    club = await append(request, club_id, got.club, {"type": "timezone", "zone": body.zone})
    return club_view(club_id, club, got.nights)


@router.get("/{club_id}/me/push", response_model=PushKeyOut)
async def push_key(club_id: ClubId, request: Request) -> dict[str, Any]:
    """The club's public key for phone notifications (made the first time it is asked)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    club = got.club
    if club.push_keys is None:
        keys = await asyncio.to_thread(club_push.new_keys)
        event = {"type": "push_keys", **keys, "contact": _base(request)}
        club = await append(request, club_id, club, event)
    assert club.push_keys is not None
    return {"public_key": club.push_keys["public"]}


@router.post("/{club_id}/me/push", response_model=MemberOut)
async def push_on(club_id: ClubId, body: PushIn, request: Request) -> dict[str, Any]:
    """This phone is told (a seat opened, you have a seat, answer by, cancelled or moved)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    assert got.caller.subject is not None
    if not club_push.endpoint_ok(body.endpoint):
        raise ServiceError(
            422,
            "invalid_endpoint",
            "the phone's notification address is not https",
            "the https address the browser's push service gave",
        )
    event = {
        "type": "push",
        "name": got.caller.subject,
        "endpoint": body.endpoint,
        "p256dh": body.keys.p256dh,
        "auth": body.keys.auth,
    }
    club = await append(request, club_id, got.club, event)
    return {**member_view(club, got.caller.subject), "phones": _phones(club, got.caller.subject)}


@router.post("/{club_id}/me/push/stop", response_model=MemberOut)
async def push_off(club_id: ClubId, body: EndpointIn, request: Request) -> dict[str, Any]:
    """This phone is told nothing more."""
    got = await load(request, club_id, allow=("member",), nights=False)
    name = got.caller.subject
    assert name is not None
    club = got.club
    if club.phones.get(body.endpoint, ("",))[0] == name:
        club = await append(request, club_id, club, {"type": "unpush", "endpoint": body.endpoint})
    return {**member_view(club, name), "phones": _phones(club, name)}


def _phones(club: Any, name: str) -> int:
    return sum(1 for who, _, _ in club.phones.values() if who == name)


@router.post("/{club_id}/recover", response_model=RecoveredOut)
async def recover(club_id: ClubId, body: CodeIn, request: Request) -> dict[str, Any]:
    """The club's link again, for its recovery code (no token needed: the code is the
    proof). Wrong codes count as guesses of the client's address."""
    store = clubs(request)
    record = await asyncio.to_thread(store.club, club_id)
    limits, client = guard(request), client_key(request)
    wait = await asyncio.to_thread(limits.admit, client)
    if wait is not None:
        raise too_many(wait, "too many wrong recovery codes from here", f"wait {wait} s")
    token = None
    if record is not None:
        from bunco.club.load import fold_club

        club = fold_club(await asyncio.to_thread(store.events, club_id))
        if club.recovery is not None:
            token = unseal(club.recovery, club_id, body.code)
    if token is None:
        await asyncio.to_thread(limits.failed, client)
        raise ServiceError(
            401,
            "unauthorized",
            "that is not this club's recovery code",
            "the recovery code shown when the club was made (or made since on its page)",
        )
    return {"club": club_id, "token": token, "url": f"{_base(request)}/c/{club_id}?token={token}"}


@router.post("/{club_id}/recovery", response_model=RecoveryOut)
async def new_code(club_id: ClubId, request: Request) -> dict[str, Any]:
    """A new recovery code for the organizer (shown once; the old one stops working)."""
    got = await load(request, club_id, nights=False)
    code, event = new_recovery(got.caller.token, club_id)
    await append(request, club_id, got.club, event)
    return {"code": code}


@router.get(
    "/{club_id}/download/links.pdf",
    response_class=Response,
    responses=file_reply("application/pdf", "every member's link and QR code (PDF)"),
)
async def links_pdf(club_id: ClubId, request: Request) -> Response:
    """Every member's personal link with its QR code, on one sheet to print."""
    got = await load(request, club_id, nights=False)
    members = links_view(got.club, club_id, got.caller.token, _base(request))["members"]
    pdf = await asyncio.to_thread(links_sheet, got.club.name, members)
    return send_file(pdf, "application/pdf", f"bunco-club-{club_id}-links.pdf")


@router.get("/{club_id}/links/message", response_model=LinksMessageOut)
async def links_text(club_id: ClubId, request: Request) -> dict[str, Any]:
    """Every member's personal link as one message to copy."""
    got = await load(request, club_id, nights=False)
    members = links_view(got.club, club_id, got.caller.token, _base(request))["members"]
    return {"text": links_message(got.club.name, members)}


@router.get(
    "/{club_id}/download/payouts/{night_id}.pdf",
    response_class=Response,
    responses=file_reply("application/pdf", "a club night's prizes and payouts (PDF)"),
)
async def payouts_pdf(club_id: ClubId, night_id: NightId, request: Request) -> Response:
    """A night's payout sheet, with the club's dues of that night collected and not yet
    collected, and how much it pays from dues not yet collected."""
    got = await load(request, club_id)
    ref = next((n for n in got.club.nights if n.night == night_id), None)
    night = got.nights.get(night_id)
    if ref is None or night is None:
        raise ServiceError(
            404,
            "no_such_night",
            f"night {night_id!r} is not a night of {got.club.name}",
            "a night of the club",
        )
    try:
        ledger = season_ledger(got.club, got.nights, ref.season)
    except BuncoError as exc:
        raise refused(exc) from None
    row = next(r for r in ledger["nights"] if r["night"] == night_id)
    notes = collection_notes(row, got.club.currency)
    if not row["played"]:
        notes = ["This night has not been played: it owes no dues and holds no pot."]
    pdf = await asyncio.to_thread(lambda: render_payout_sheet(night, money_notes=notes).data)
    return send_file(pdf, "application/pdf", f"bunco-club-{club_id}-{night_id}-payouts.pdf")
