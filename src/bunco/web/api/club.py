"""HTTP API, part 5: clubs and their seasons.

A club is made with ``POST /api/clubs``; the reply holds the club's secret token (shown
only then; the server keeps its hash). Every other call of the club carries it as
``Authorization: Bearer <token>``. A night made from the club (``POST
/api/clubs/{id}/nights``) is an ordinary night, created as ``POST /api/nights`` makes one
(its reply has the night's host and viewer tokens and the tables' codes), with the club's
roster (substitutes swapped in), rules and money (the dues as buy-in, the pot carried
over); the club's log records it.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import Field, ValidationError

from bunco.club.club import Club, roster_for_night
from bunco.club.ladder import rule_text
from bunco.club.ledger import open_nights
from bunco.club.nights import night_setup
from bunco.club.plans import attendance, upcoming
from bunco.club.season import pot_to_carry, season_ledger, season_standings
from bunco.club.view_types import ClubMadeView, ClubView, LedgerView, StandingsView
from bunco.club.views import club_view
from bunco.core.club_events import (
    ClubEvent,
    ClubHostEvent,
    ClubLeaveClubEvent,
    ClubMemberEvent,
    ClubNightEvent,
    ClubPaymentEvent,
    ClubSeasonEvent,
)
from bunco.core.errors import BuncoError, InvalidSetup
from bunco.core.night import Night
from bunco.sheets.season import season_csv
from bunco.web.api import club_month as api_club_month
from bunco.web.api import club_plans as api_club_plans
from bunco.web.api.club_access import Loaded, change, clubs, load
from bunco.web.api.nights import create_night
from bunco.web.api.routing import ERRORS, send_file
from bunco.web.api.season_files import season_file, wanted_season
from bunco.web.club import log as club_log
from bunco.web.club.creation import club_secrets, creation_key_ok
from bunco.web.club.links import issue_events
from bunco.web.club.log import refused
from bunco.web.club.recovery import new_recovery
from bunco.web.values import club_event_models as bodies
from bunco.web.values.club_event_models import body_event
from bunco.web.values.fields import Label, Name, Title, Word
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import (
    ClubMadeOut,
    ClubOut,
    ClubStandingsOut,
    LedgerOut,
    file_reply,
)
from bunco.web.values.schemas import CreatedOut, NightCreate, StrictModel

ClubId = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the club's id")
]
Season = Annotated[str | None, Query(max_length=60, description="a season (default: the current)")]
router = APIRouter(
    prefix="/api/clubs",
    responses=ERRORS,
    tags=["clubs"],
    dependencies=[Depends(club_log.idempotency_key)],  # declared: a write's retry key
)


class ClubCreate(StrictModel):
    """A new club: its name, rules, dues per night, payouts and members."""

    name: Title
    rules: Word = "classic"
    currency: Annotated[Word, Field(max_length=8)] = "$"
    dues: Word | int = Field("0", description='dues per player per night, e.g. "5"')
    sub_fee: Word | int | None = Field(None, description="what a substitute owes for a seat")
    payouts: list[dict[str, Any]] = Field(default_factory=list, max_length=50)
    prizes: list[Word] | None = Field(None, max_length=20)
    prize_ties: Word | None = None
    one_prize_per_person: bool | None = None
    must_be_present: bool | None = None
    judged: list[Label] | None = Field(None, max_length=20)
    regulars: list[Name] = Field(default_factory=list, max_length=200)
    substitutes: list[Name] = Field(default_factory=list, max_length=200)
    season: Label | None = None
    timezone: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="the club's time zone, e.g. America/Chicago (calendar, deadlines)"
    )


class ClubNightIn(StrictModel):
    """A night of the club: the regulars, with substitutes swapped in (out → in)."""

    date: Annotated[Word, Field(max_length=10, description="YYYY-MM-DD")] | None = None
    name: Title | None = None
    substitutes: dict[Name, Name] = Field(default_factory=dict, max_length=100)
    bots: list[Name] = Field(default_factory=list, max_length=200)
    bot_pace: float = Field(1.0, ge=0, le=60)


@router.post("", status_code=201, response_model=ClubMadeOut)
async def create_club(body: ClubCreate, request: Request) -> ClubMadeView:
    """Create a club; the reply's ``token`` is the club's secret (shown only here). Sent
    with an ``Idempotency-Key`` (at least 16 random characters: it stands for the club's
    secrets), the same request sent again (its reply lost) makes no other club: the reply
    is the first one's, with the same token and recovery code; the same key with another
    request is refused (409 ``id_reused``)."""
    setup = body.model_dump(exclude={"regulars", "substitutes", "season"}, exclude_none=True)
    setup["type"] = "club"
    events: list[ClubEvent] = [
        ClubMemberEvent(type="member", name=n, role="regular") for n in body.regulars
    ]
    events += [ClubMemberEvent(type="member", name=n, role="substitute") for n in body.substitutes]
    if body.season:
        events.append(ClubSeasonEvent(type="season", name=body.season))
    try:
        club = Club.start(setup).apply_all(events)
    except BuncoError as exc:
        raise refused(exc) from None
    key = club_log.command_key(request)
    if key is None:
        token, club_id, seed = secrets.token_urlsafe(24), secrets.token_urlsafe(6), None
    else:  # the same request sent again (its reply lost) makes the same club, once
        creation_key_ok(key)
        made = await asyncio.to_thread(club_secrets, key)
        token, club_id, seed = made.token, made.club_id, made.recovery_seed
    links = issue_events(club, club_id, token)
    code, recovery = new_recovery(token, club_id, seed)
    club = club.apply_all([*links, recovery])
    await club_log.create(clubs(request), club_id, club, token, [*events, *links, recovery])
    return {
        "club": club_id,
        "token": token,
        "recovery_code": code,
        "url": f"{str(request.base_url).rstrip('/')}/c/{club_id}?token={token}",
        **club_view(club_id, club, {}),
    }


@router.get("/{club_id}", response_model=ClubOut)
async def get_club(club_id: ClubId, request: Request) -> ClubView:
    """The club: members, seasons, nights, hosts and the pot carried over."""
    got = await load(request, club_id)
    return club_view(club_id, got.club, got.nights)


@router.post("/{club_id}/members", response_model=ClubOut)
async def member(club_id: ClubId, body: bodies.MemberIn, request: Request) -> ClubView:
    """Add a member or change their role (``regular``, ``substitute``); ``gone`` removes them."""
    got = await load(request, club_id)
    given = body.model_dump(exclude_none=True)
    event: ClubEvent = (
        body_event(body, ClubLeaveClubEvent)
        if given.get("role") == "gone"
        else body_event(body, ClubMemberEvent)
    )
    now = await change(request, club_id, got, lambda _: [event])
    now = await change(  # the new member's link
        request, club_id, now, lambda now: issue_events(now.club, club_id, got.caller.token)
    )
    return club_view(club_id, now.club, now.nights)


@router.post("/{club_id}/seasons", response_model=ClubOut)
async def new_season(club_id: ClubId, body: bodies.SeasonBody, request: Request) -> ClubView:
    """Begin a new season: later nights belong to it."""
    got = await load(request, club_id)
    event = body_event(body, ClubSeasonEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return club_view(club_id, now.club, now.nights)


@router.post("/{club_id}/hosts", response_model=ClubOut)
async def host(club_id: ClubId, body: bodies.HostBody, request: Request) -> ClubView:
    """Who hosts which month."""
    got = await load(request, club_id)
    event = body_event(body, ClubHostEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return club_view(club_id, now.club, now.nights)


@router.post("/{club_id}/payments", response_model=LedgerOut)
async def payment(club_id: ClubId, body: bodies.PaymentBody, request: Request) -> LedgerView:
    """A member pays dues; the ledger's balance goes down."""
    got = await load(request, club_id)
    event = body_event(body, ClubPaymentEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return season_ledger(now.club, now.nights)


@router.post("/{club_id}/nights", status_code=201, response_model=CreatedOut)
async def club_night(club_id: ClubId, body: ClubNightIn, request: Request) -> CreatedOut:
    """A night of the club, made from its roster: the reply is that of POST /api/nights.
    Sent again with the same ``Idempotency-Key`` (its reply was lost), it makes no other
    night: the reply is the first one's, with the same tokens."""
    got = await load(request, club_id)
    key = club_log.command_key(request)
    first = await club_log.retried(request, clubs(request), club_id)
    club, nights = first or got.club, got.nights  # a retry decides as its first try did
    none_open(club, nights)
    try:
        players = planned_roster(club, body.date, body.substitutes)
        setup = night_setup(
            club.setup,
            players,
            carried_over=pot_to_carry(club, nights),
            name=body.name,
            date=body.date,
        )
        club.apply(
            {"type": "night", "night": "check", **({"date": body.date} if body.date else {})}
        )
    except BuncoError as exc:
        raise refused(exc) from None
    fields: dict[str, Any] = {  # the party line's fields NightCreate takes
        k: setup[k]
        for k in (
            "rules",
            "players",
            "house_rules",
            "prizes",
            "prize_ties",
            "judged",
            "must_be_present",
            "one_prize_per_person",
            "money",
        )
        if k in setup
    }
    try:
        night_body = NightCreate(
            name=setup["name"],
            bots=body.bots,
            bot_pace=body.bot_pace,
            command_id=None
            if key is None
            else club_log.night_command_id(got.caller.token, club_id, key),
            **fields,
        )
    except ValidationError as exc:
        raise ServiceError(
            422,
            "invalid_setup",
            f"the club's night cannot be made: {exc}",
            "a club whose rules and members a night accepts",
        ) from None
    created = await create_night(night_body, request)
    event: ClubNightEvent = {"type": "night", "night": created.night}
    if body.date:
        event["date"] = body.date

    def record_night(now: Loaded) -> list[ClubEvent]:
        none_open(now.club, now.nights)  # the club read again: another night made meanwhile
        return [event]

    await change(request, club_id, replace(got, club=club), record_night)
    return created


def none_open(club: Club, nights: dict[str, Night]) -> None:
    """Refuse a new night while one of the club's is not over (422 ``night_open``)."""
    busy = open_nights(club, nights)
    if busy:
        raise ServiceError(
            422,
            "night_open",
            f"the night {busy[0].date or busy[0].night} of {club.name} is not over: its pot "
            "is not settled",
            "play that night to its end, or cancel it if it was never played, first",
        )


@router.get("/{club_id}/standings", response_model=ClubStandingsOut)
async def standings(club_id: ClubId, request: Request, season: Season = None) -> StandingsView:
    """The season's standings under the club's rules (shown as ``rule``): rank (none for a
    player short of the nights to qualify), score, nights counted and dropped, W, L,
    Buncos, Minis, points, prizes, money won."""
    got = await load(request, club_id)
    club = got.club
    return {
        "club": club_id,
        "season": season or club.season,
        "rule": rule_text(club.ladder),
        "rules": club.ladder,
        "standings": [r.as_dict() for r in season_standings(club, got.nights, season)],
    }


@router.get("/{club_id}/ledger", response_model=LedgerOut)
async def ledger(club_id: ClubId, request: Request, season: Season = None) -> LedgerView:
    """Dues owed and paid, each night's pot and payouts, the pot carried over, the hosts."""
    got = await load(request, club_id)
    return season_ledger(got.club, got.nights, season)


BUSY: dict[int | str, dict[str, str]] = {
    429: {"description": "too many files being made (too_many_downloads, Retry-After)"}
}
NO_SEASON: dict[int | str, dict[str, str]] = {
    404: {"description": "no such club (no_such_club), or season (no_such_season)"}
}


@router.get(
    "/{club_id}/download/standings.csv",
    response_class=Response,
    responses={**NO_SEASON, **file_reply("text/csv", "the season's standings (CSV)")},
)
async def standings_csv(club_id: ClubId, request: Request, season: Season = None) -> Response:
    """The season's standings as CSV (a season the club does not have: 404)."""
    got = await load(request, club_id)
    return send_file(
        season_csv(got.club, got.nights, wanted_season(got.club, season)),
        "text/csv; charset=utf-8",
        f"bunco-club-{club_id}-standings.csv",
    )


@router.get(
    "/{club_id}/download/season.html",
    response_class=Response,
    responses={**BUSY, **NO_SEASON, **file_reply("text/html", "the season (HTML)")},
)
async def season_html(club_id: ClubId, request: Request, season: Season = None) -> Response:
    """The season report as a web page (also through the season's share link); made in
    the download process, like the night's reports."""
    got = await load(request, club_id, allow=("organizer", "season"), nights=False)
    season = got.caller.subject if got.caller.kind == "season" else season
    page = await season_file(request, club_id, got, "season.html", season)
    return send_file(
        page, "text/html; charset=utf-8", f"bunco-club-{club_id}-season.html", inline=True
    )


@router.get(
    "/{club_id}/download/season.pdf",
    response_class=Response,
    responses={**BUSY, **NO_SEASON, **file_reply("application/pdf", "the season (PDF)")},
)
async def season_pdf(club_id: ClubId, request: Request, season: Season = None) -> Response:
    """The season report as a PDF (also through the season's share link); made in the
    download process, like the night's PDFs."""
    got = await load(request, club_id, allow=("organizer", "season"), nights=False)
    season = got.caller.subject if got.caller.kind == "season" else season
    pdf = await season_file(request, club_id, got, "season.pdf", season)
    return send_file(pdf, "application/pdf", f"bunco-club-{club_id}-season.pdf")


def planned_roster(club: Club, date: str | None, swaps: dict[str, str]) -> list[str]:
    """Tonight's players: for a planned night (and no swaps given), the roster its answers
    made (subs in the seats of the regulars who said no); else the regulars with the
    substitutes the organizer chose."""
    if date and date in club.plans and date in upcoming(club) and not swaps:
        roster = attendance(club, date).roster
        if len(roster) < 2:
            raise InvalidSetup(
                f"only {len(roster)} player(s) hold a seat on {date}",
                expected="at least two players coming",
            )
        return roster
    return roster_for_night(club, swaps)


router.include_router(api_club_plans.router)
router.include_router(api_club_month.router)
