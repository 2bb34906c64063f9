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
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import Field, ValidationError

from bunco.club.club import Club, roster_for_night
from bunco.club.ladder import rule_text
from bunco.club.ledger import open_nights
from bunco.club.nights import night_setup
from bunco.club.plans import attendance, upcoming
from bunco.club.season import pot_to_carry, season_ledger, season_standings
from bunco.club.views import club_view
from bunco.core.errors import BuncoError, InvalidSetup
from bunco.sheets.season import season_csv, season_report_html, season_report_pdf
from bunco.web import api_club_month, api_club_plans
from bunco.web.api_nights import create_night
from bunco.web.club_access import append, clubs, load, refused
from bunco.web.club_links import issue_events
from bunco.web.club_recovery import new_recovery
from bunco.web.fields import Label, Name, Title, Word
from bunco.web.replies import ServiceError
from bunco.web.reply_models import ClubMadeOut, ClubOut, ClubStandingsOut, LedgerOut, file_reply
from bunco.web.routing import ERRORS, send_file
from bunco.web.schemas import CreatedOut, NightCreate, StrictModel

ClubId = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the club's id")
]
Season = Annotated[str | None, Query(max_length=60, description="a season (default: the current)")]
router = APIRouter(prefix="/api/clubs", responses=ERRORS, tags=["clubs"])


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


class MemberIn(StrictModel):
    name: Name
    role: Word = Field("regular", description="regular, substitute, or gone (leaves the club)")
    email: Annotated[str, Field(max_length=254)] | None = None
    address: Annotated[str, Field(max_length=300)] | None = None


class SeasonIn(StrictModel):
    name: Label


class HostIn(StrictModel):
    month: Annotated[Word, Field(min_length=7, max_length=7, description="YYYY-MM")]
    host: Name


class PaymentIn(StrictModel):
    player: Name
    amount: Word | int
    note: Title | None = None


class ClubNightIn(StrictModel):
    """A night of the club: the regulars, with substitutes swapped in (out → in)."""

    date: Annotated[Word, Field(max_length=10, description="YYYY-MM-DD")] | None = None
    name: Title | None = None
    substitutes: dict[Name, Name] = Field(default_factory=dict, max_length=100)
    bots: list[Name] = Field(default_factory=list, max_length=200)
    bot_pace: float = Field(1.0, ge=0, le=60)


@router.post("", status_code=201, response_model=ClubMadeOut)
async def create_club(body: ClubCreate, request: Request) -> dict[str, Any]:
    """Create a club; the reply's ``token`` is the club's secret (shown only here)."""
    setup = body.model_dump(exclude={"regulars", "substitutes", "season"}, exclude_none=True)
    setup["type"] = "club"
    events = [{"type": "member", "name": n, "role": "regular"} for n in body.regulars]
    events += [{"type": "member", "name": n, "role": "substitute"} for n in body.substitutes]
    if body.season:
        events.append({"type": "season", "name": body.season})
    try:
        club = Club.start(setup).apply_all(events)
    except BuncoError as exc:
        raise refused(exc) from None
    token = secrets.token_urlsafe(24)
    club_id = secrets.token_urlsafe(6)
    links = issue_events(club, club_id, token)
    code, recovery = new_recovery(token, club_id)
    club = club.apply_all([*links, recovery])
    store = clubs(request)
    await asyncio.to_thread(store.create, club_id, club.name, club.setup, token)
    for event in [*events, *links, recovery]:
        await asyncio.to_thread(store.append, club_id, event)
    return {
        "club": club_id,
        "token": token,
        "recovery_code": code,
        "url": f"{str(request.base_url).rstrip('/')}/c/{club_id}?token={token}",
        **club_view(club_id, club, {}),
    }


@router.get("/{club_id}", response_model=ClubOut)
async def get_club(club_id: ClubId, request: Request) -> dict[str, Any]:
    """The club: members, seasons, nights, hosts and the pot carried over."""
    got = await load(request, club_id)
    return club_view(club_id, got.club, got.nights)


@router.post("/{club_id}/members", response_model=ClubOut)
async def member(club_id: ClubId, body: MemberIn, request: Request) -> dict[str, Any]:
    """Add a member or change their role (``regular``, ``substitute``); ``gone`` removes them."""
    got = await load(request, club_id)
    event: dict[str, Any] = (
        {"type": "leave_club", "name": body.name}
        if body.role == "gone"
        else {"type": "member", "name": body.name, "role": body.role}
    )
    if body.role != "gone":
        event.update(
            {k: v for k, v in (("email", body.email), ("address", body.address)) if v is not None}
        )
    club = await append(request, club_id, got.club, event)
    club = await append(
        request, club_id, club, *issue_events(club, club_id, got.caller.token)
    )  # the new member's link
    return club_view(club_id, club, got.nights)


@router.post("/{club_id}/seasons", response_model=ClubOut)
async def new_season(club_id: ClubId, body: SeasonIn, request: Request) -> dict[str, Any]:
    """Begin a new season: later nights belong to it."""
    got = await load(request, club_id)
    event = {"type": "season", "name": body.name}
    return club_view(club_id, await append(request, club_id, got.club, event), got.nights)


@router.post("/{club_id}/hosts", response_model=ClubOut)
async def host(club_id: ClubId, body: HostIn, request: Request) -> dict[str, Any]:
    """Who hosts which month."""
    got = await load(request, club_id)
    event = {"type": "host", "month": body.month, "host": body.host}
    return club_view(club_id, await append(request, club_id, got.club, event), got.nights)


@router.post("/{club_id}/payments", response_model=LedgerOut)
async def payment(club_id: ClubId, body: PaymentIn, request: Request) -> dict[str, Any]:
    """A member pays dues; the ledger's balance goes down."""
    got = await load(request, club_id)
    event: dict[str, Any] = {"type": "payment", "player": body.player, "amount": body.amount}
    if body.note:
        event["note"] = body.note
    club = await append(request, club_id, got.club, event)
    return season_ledger(club, got.nights)


@router.post("/{club_id}/nights", status_code=201, response_model=CreatedOut)
async def club_night(club_id: ClubId, body: ClubNightIn, request: Request) -> CreatedOut:
    """A night of the club, made from its roster: the reply is that of POST /api/nights."""
    got = await load(request, club_id)
    club, nights = got.club, got.nights
    busy = open_nights(club, nights)
    if busy:
        raise ServiceError(
            422,
            "night_open",
            f"the night {busy[0].date or busy[0].night} of {club.name} is not over: its pot "
            "is not settled",
            "play that night to its end, or cancel it if it was never played, first",
        )
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
    fields = {
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
            name=setup["name"], bots=body.bots, bot_pace=body.bot_pace, **fields
        )
    except ValidationError as exc:
        raise ServiceError(
            422,
            "invalid_setup",
            f"the club's night cannot be made: {exc}",
            "a club whose rules and members a night accepts",
        ) from None
    created = await create_night(night_body, request)
    event: dict[str, Any] = {"type": "night", "night": created.night}
    if body.date:
        event["date"] = body.date
    await append(request, club_id, club, event)
    return created


@router.get("/{club_id}/standings", response_model=ClubStandingsOut)
async def standings(club_id: ClubId, request: Request, season: Season = None) -> dict[str, Any]:
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
async def ledger(club_id: ClubId, request: Request, season: Season = None) -> dict[str, Any]:
    """Dues owed and paid, each night's pot and payouts, the pot carried over, the hosts."""
    got = await load(request, club_id)
    return season_ledger(got.club, got.nights, season)


@router.get(
    "/{club_id}/download/standings.csv",
    response_class=Response,
    responses=file_reply("text/csv", "the season's standings (CSV)"),
)
async def standings_csv(club_id: ClubId, request: Request, season: Season = None) -> Response:
    got = await load(request, club_id)
    return send_file(
        season_csv(got.club, got.nights, season),
        "text/csv; charset=utf-8",
        f"bunco-club-{club_id}-standings.csv",
    )


@router.get(
    "/{club_id}/download/season.html",
    response_class=Response,
    responses=file_reply("text/html", "the season (HTML)"),
)
async def season_html(club_id: ClubId, request: Request, season: Season = None) -> Response:
    """The season report as a web page (also through the season's share link)."""
    got = await load(request, club_id, allow=("organizer", "season"))
    season = got.caller.subject if got.caller.kind == "season" else season
    page = await asyncio.to_thread(season_report_html, got.club, got.nights, season)
    return send_file(
        page, "text/html; charset=utf-8", f"bunco-club-{club_id}-season.html", inline=True
    )


@router.get(
    "/{club_id}/download/season.pdf",
    response_class=Response,
    responses=file_reply("application/pdf", "the season (PDF)"),
)
async def season_pdf(club_id: ClubId, request: Request, season: Season = None) -> Response:
    """The season report as a PDF (also through the season's share link)."""
    got = await load(request, club_id, allow=("organizer", "season"))
    season = got.caller.subject if got.caller.kind == "season" else season
    pdf = await asyncio.to_thread(season_report_pdf, got.club, got.nights, season)
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
