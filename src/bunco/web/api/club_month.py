"""HTTP API, part 5c: the club's month, changed, and its money on paper. A night started
and never played taken back; a planned night cancelled or moved; members' phones that ask
for notifications; the organizer's recovery code; the club's time zone; the members' links
on one sheet, and a club night's payout sheet with the dues it has not collected.

Included in :mod:`bunco.web.api.club`'s router (``/api/clubs``). See docs/club.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field

from bunco.club.club import Club
from bunco.club.ledger import collection_notes, season_ledger, take_back, take_back_on
from bunco.club.links import token_hash
from bunco.club.plans import attendance_view
from bunco.club.view_types import AttendanceView, ClubView, MemberView
from bunco.club.views import club_view, member_view
from bunco.core.club_events import (
    ClubCancelPlanEvent,
    ClubEvent,
    ClubMovePlanEvent,
    ClubPushEvent,
    ClubPushKeysEvent,
    ClubTimezoneEvent,
    ClubUnpushEvent,
)
from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.sheets.club_links import links_message
from bunco.web.api.access import client_key, guard, too_many
from bunco.web.api.club_access import Loaded, change, clubs, load
from bunco.web.api.routing import send_file, service
from bunco.web.club import push as club_push
from bunco.web.club.links import links_view
from bunco.web.club.log import command_key, refused
from bunco.web.club.recovery import new_recovery, request_seed, unseal
from bunco.web.files.downloads import (
    Downloads,
    content_key,
    log_lines,
    make_club_payouts,
    make_links_sheet,
)
from bunco.web.values import club_event_models as bodies
from bunco.web.values.club_event_models import body_event
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import AttendanceOut, ClubOut, MemberOut, Reply, file_reply
from bunco.web.values.schemas import StrictModel

ClubId = Annotated[str, Path(min_length=1, max_length=32, description="the club's id")]
Day = Annotated[str, Path(min_length=10, max_length=10, description="YYYY-MM-DD")]
NightId = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="a night's id")
]
router = APIRouter()


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


_Taken = TypeVar("_Taken")


def refusing(
    take: Callable[[Club, dict[str, Night], str], _Taken], got: Loaded, what: str
) -> _Taken:
    """``take(club, nights, what)`` (taking back a night never played), its refusal as a
    422 naming what was wrong (``night_played``)."""
    try:
        return take(got.club, got.nights, what)
    except BuncoError as exc:
        raise refused(exc) from None


@router.post("/{club_id}/nights/{night_id}/cancel", response_model=ClubOut)
async def cancel_night(club_id: ClubId, night_id: NightId, request: Request) -> ClubView:
    """Take back a night started from the club and never played: no dues, no pot, no
    standings; its planned date is a night to come again (cancel or move it next, if it
    will not be played)."""
    got = await load(request, club_id)

    def taken_back(now: Loaded) -> list[ClubEvent]:
        if not any(n.night == night_id for n in now.club.nights):
            raise ServiceError(
                404,
                "no_such_night",
                f"night {night_id!r} is not a night of {now.club.name}",
                "a night of the club",
            )
        return [refusing(take_back, now, night_id)]

    now = await change(request, club_id, got, taken_back)
    return club_view(club_id, now.club, now.nights)


@router.post("/{club_id}/plans/{date}/cancel", response_model=AttendanceOut)
async def cancel_plan(club_id: ClubId, date: Day, request: Request) -> AttendanceView:
    """Call off a planned night (a night started on it and not played is taken back): it
    stays in the calendar as cancelled, and every member is told."""
    got = await load(request, club_id)
    now = await change(
        request,
        club_id,
        got,
        lambda now: [
            *refusing(take_back_on, now, date),
            ClubCancelPlanEvent(type="cancel_plan", date=date),
        ],
    )
    return attendance_view(now.club, date)


@router.post("/{club_id}/plans/{date}/move", response_model=AttendanceOut)
async def move_plan(
    club_id: ClubId, date: Day, body: bodies.MoveIn, request: Request
) -> AttendanceView:
    """Move a planned night to another date (and time; a night started on it and not
    played is taken back): its answers go with it, the calendar event moves, every member
    is told."""
    got = await load(request, club_id)
    event = body_event(body, ClubMovePlanEvent, date=date)
    now = await change(
        request, club_id, got, lambda now: [*refusing(take_back_on, now, date), event]
    )
    return attendance_view(now.club, event["to"])


@router.post("/{club_id}/timezone", response_model=ClubOut)
async def timezone(club_id: ClubId, body: bodies.ZoneBody, request: Request) -> ClubView:
    """The club's time zone (its calendar's times and its deadlines)."""
    got = await load(request, club_id)
    event = body_event(body, ClubTimezoneEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return club_view(club_id, now.club, now.nights)


@router.get("/{club_id}/me/push", response_model=PushKeyOut)
async def push_key(club_id: ClubId, request: Request) -> PushKeyOut:
    """The club's public key for phone notifications (made the first time it is asked)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    club = got.club
    if club.push_keys is None:
        keys = await asyncio.to_thread(club_push.new_keys)
        event = ClubPushKeysEvent(
            type="push_keys", public=keys["public"], private=keys["private"], contact=_base(request)
        )
        # made once: a club that has keys by now (another phone asked meanwhile) keeps them
        club = (
            await change(request, club_id, got, lambda now: [] if now.club.push_keys else [event])
        ).club
    assert club.push_keys is not None
    return PushKeyOut(public_key=club.push_keys["public"])


@router.post("/{club_id}/me/push", response_model=MemberOut)
async def push_on(club_id: ClubId, body: PushIn, request: Request) -> MemberView:
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
    event = ClubPushEvent(
        type="push",
        name=got.caller.subject,
        endpoint=body.endpoint,
        p256dh=body.keys.p256dh,
        auth=body.keys.auth,
    )
    club = (await change(request, club_id, got, lambda _: [event])).club
    return _with_phones(club, got.caller.subject)


@router.post("/{club_id}/me/push/stop", response_model=MemberOut)
async def push_off(club_id: ClubId, body: EndpointIn, request: Request) -> MemberView:
    """This phone is told nothing more."""
    got = await load(request, club_id, allow=("member",), nights=False)
    name = got.caller.subject
    assert name is not None

    def stop(now: Loaded) -> list[ClubEvent]:
        if now.club.phones.get(body.endpoint, ("",))[0] != name:
            return []  # not a phone of theirs (or forgotten already)
        return [ClubUnpushEvent(type="unpush", endpoint=body.endpoint)]

    club = (await change(request, club_id, got, stop)).club
    return _with_phones(club, name)


def _with_phones(club: Club, name: str) -> MemberView:
    """A member's page, with how many of their phones are told."""
    view = member_view(club, name)
    view["phones"] = sum(1 for who, _, _ in club.phones.values() if who == name)
    return view


@router.post("/{club_id}/recover", response_model=RecoveredOut)
async def recover(club_id: ClubId, body: CodeIn, request: Request) -> RecoveredOut:
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
    return RecoveredOut(
        club=club_id, token=token, url=f"{_base(request)}/c/{club_id}?token={token}"
    )


@router.post("/{club_id}/recovery", response_model=RecoveryOut)
async def new_code(club_id: ClubId, request: Request) -> RecoveryOut:
    """A new recovery code for the organizer (shown once; the old one stops working)."""
    got = await load(request, club_id, nights=False)
    key = command_key(request)  # sent again, the same code (the one the first try stored)
    seed = None if key is None else request_seed(got.caller.token, club_id, key)
    code, event = new_recovery(got.caller.token, club_id, seed)
    await change(request, club_id, got, lambda _: [event])
    return RecoveryOut(code=code)


@router.get(
    "/{club_id}/download/links.pdf",
    response_class=Response,
    responses=file_reply("application/pdf", "every member's link and QR code (PDF)"),
)
async def links_pdf(club_id: ClubId, request: Request) -> Response:
    """Every member's personal link with its QR code, on one sheet to print."""
    got = await load(request, club_id, nights=False)
    members = links_view(got.club, club_id, got.caller.token, _base(request))["members"]
    downloads: Downloads = request.app.state.downloads
    key = (f"club {club_id}", 0, "links.pdf", content_key(got.club.name, members))
    caller = token_hash(got.caller.token)[:32]
    pdf = await downloads.obtain(key, caller, make_links_sheet, got.club.name, members)
    return send_file(pdf, "application/pdf", f"bunco-club-{club_id}-links.pdf")


@router.get("/{club_id}/links/message", response_model=LinksMessageOut)
async def links_text(club_id: ClubId, request: Request) -> LinksMessageOut:
    """Every member's personal link as one message to copy."""
    got = await load(request, club_id, nights=False)
    members = links_view(got.club, club_id, got.caller.token, _base(request))["members"]
    return LinksMessageOut(text=links_message(got.club.name, members))


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
    svc = service(request)
    stored = await svc.db(svc.store.events, night_id)
    lines = log_lines(stored)
    downloads: Downloads = request.app.state.downloads
    key = (night_id, stored[-1].seq, "club-payouts.pdf", content_key(notes))
    caller = token_hash(got.caller.token)[:32]
    pdf = await downloads.obtain(key, caller, make_club_payouts, lines, notes)
    return send_file(pdf, "application/pdf", f"bunco-club-{club_id}-{night_id}-payouts.pdf")
