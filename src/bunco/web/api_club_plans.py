"""HTTP API, part 5b: a club's month. Nights to come (date, time, host, address), the
hosting rotation, who is coming (answers through members' personal links, subs that take
the open seats), links to share, the standings rules, calendars and reminder emails.

Included in :mod:`bunco.web.api_club`'s router (``/api/clubs``). See docs/club.md.
"""

from __future__ import annotations

import asyncio
from datetime import date as Date
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field

from bunco.club.calendar import club_calendar, night_calendar
from bunco.club.links import calendar_token, link_path, token_hash
from bunco.club.month import local_time
from bunco.club.notices import please_answer
from bunco.club.plans import attendance_view
from bunco.club.reminders import reminder, to_remind
from bunco.club.season import season_standings
from bunco.club.views import club_view, member_view, shared_view
from bunco.core.errors import BuncoError
from bunco.web.club_access import append, load, notifier, refused
from bunco.web.club_links import (
    issue_events,
    links_view,
    live_token,
    member_calendar_event,
    new_link_event,
)
from bunco.web.club_mail import MailError, send_all
from bunco.web.fields import Label, Name, Word
from bunco.web.replies import ServiceError
from bunco.web.reply_models import (
    AttendanceOut,
    ClubOut,
    ClubStandingsOut,
    LinksOut,
    MailOut,
    MemberOut,
    RemindersOut,
    SharedOut,
    ShareOut,
    file_reply,
)
from bunco.web.routing import send_file
from bunco.web.schemas import StrictModel

ClubId = Annotated[str, Path(min_length=1, max_length=32, description="the club's id")]
Day = Annotated[str, Path(min_length=10, max_length=10, description="YYYY-MM-DD")]
DateText = Annotated[Word, Field(min_length=10, max_length=10, description="YYYY-MM-DD")]
router = APIRouter()


class PlanIn(StrictModel):
    """A night to come, or a change to one (only the fields given change)."""

    date: DateText
    time: Annotated[Word, Field(max_length=5, description="HH:MM")] | None = None
    address: Annotated[str, Field(max_length=300)] | None = None
    host: Name | None = Field(None, description="default: whose turn it is")
    seats: int | None = Field(None, ge=2, le=200)
    deadline: Annotated[Word, Field(max_length=16)] | None = Field(
        None, description="answer by then (YYYY-MM-DDTHH:MM, the club's time)"
    )


class SwapIn(StrictModel):
    dates: list[DateText] = Field(min_length=2, max_length=2)


class RotationIn(StrictModel):
    order: list[Name] = Field(min_length=1, max_length=200)


class AnswerIn(StrictModel):
    date: DateText
    answer: Word = Field(description="yes, no or maybe")


class RsvpIn(AnswerIn):
    name: Name


class ShareIn(StrictModel):
    night: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    season: Label | None = None


class TokenIn(StrictModel):
    token: Annotated[str, Field(min_length=1, max_length=200)]


class MemberLinkIn(StrictModel):
    name: Name


class LadderIn(StrictModel):
    measure: Word = "wins"
    average: bool = False
    min_nights: int = Field(0, ge=0, le=100)
    best: int | None = Field(None, ge=1, le=100)
    drop: int | None = Field(None, ge=0, le=100)
    place_points: list[int] | None = Field(None, max_length=100)


class MailIn(StrictModel):
    host: Annotated[str, Field(min_length=1, max_length=253)]
    port: int = Field(25, ge=1, le=65535)
    sender: Annotated[str, Field(min_length=3, max_length=254)]
    username: Annotated[str, Field(max_length=200)] | None = None
    password: Annotated[str, Field(max_length=200)] | None = None
    starttls: bool = False


class ReminderIn(StrictModel):
    date: DateText


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def _plan(club: Any, date: str) -> None:
    if date not in club.plans:
        raise ServiceError(
            404,
            "no_such_night",
            f"there is no night planned on {date}",
            "the date of a planned night: " + (", ".join(club.plans) or "none"),
        )


@router.post("/{club_id}/plans", status_code=201, response_model=AttendanceOut)
async def plan(club_id: ClubId, body: PlanIn, request: Request) -> dict[str, Any]:
    """Plan a night (its host: the one given, else whose turn it is), or change one."""
    got = await load(request, club_id, nights=False)
    event = {"type": "plan", **body.model_dump(exclude_none=True)}
    if body.deadline is not None:
        try:
            passed = local_time(got.club, body.deadline) <= notifier(request).now()
        except ValueError:
            passed = False  # a malformed deadline: the club's fold says what is wrong
        if passed:
            raise ServiceError(
                422,
                "invalid_setup",
                f"the answers' deadline {body.deadline} has passed already",
                "a deadline still to come (YYYY-MM-DDTHH:MM, the club's time)",
            )
    club = await append(request, club_id, got.club, event)
    return attendance_view(club, body.date)


@router.post("/{club_id}/plans/swap", response_model=ClubOut)
async def swap_hosts(club_id: ClubId, body: SwapIn, request: Request) -> dict[str, Any]:
    """Two planned nights swap their hosts (and so their addresses, unless set)."""
    got = await load(request, club_id)
    club = await append(request, club_id, got.club, {"type": "swap_hosts", "dates": body.dates})
    return club_view(club_id, club, got.nights)


@router.post("/{club_id}/rotation", response_model=ClubOut)
async def rotation(club_id: ClubId, body: RotationIn, request: Request) -> dict[str, Any]:
    """The hosting order (each in turn hosts the next night planned without a host)."""
    got = await load(request, club_id)
    club = await append(request, club_id, got.club, {"type": "rotation", "order": body.order})
    return club_view(club_id, club, got.nights)


@router.get("/{club_id}/plans/{date}", response_model=AttendanceOut)
async def coming(club_id: ClubId, date: Day, request: Request) -> dict[str, Any]:
    """Who is coming: answers, the count against the seats and tables, who has not
    answered, the subs in, waiting and offered, the roster (organizer, or the host)."""
    got = await load(request, club_id, allow=("organizer", "member"), nights=False)
    _plan(got.club, date)
    if got.caller.kind == "member" and got.club.plans[date].host != got.caller.subject:
        raise ServiceError(
            403,
            "organizer_only",
            "only the organizer and the night's host see who is coming",
            "the club's token, or the host's link",
        )
    return attendance_view(got.club, date)


@router.post("/{club_id}/rsvps", response_model=AttendanceOut)
async def rsvp_for(club_id: ClubId, body: RsvpIn, request: Request) -> dict[str, Any]:
    """The organizer records a member's answer (a phone call after all)."""
    got = await load(request, club_id, nights=False)
    event = {"type": "rsvp", "date": body.date, "name": body.name, "answer": body.answer}
    club = await append(request, club_id, got.club, event)
    return attendance_view(club, body.date)


@router.get("/{club_id}/me", response_model=MemberOut)
async def me(club_id: ClubId, request: Request) -> dict[str, Any]:
    """A member's own page: their nights to come and their answers (their link's token)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    name = got.caller.subject
    assert name is not None
    club = got.club
    own = calendar_token(got.caller.token)  # the member's calendar link: it reads, no more
    if club.link(token_hash(own)) != ("calendar", name):
        club = await append(request, club_id, club, member_calendar_event(name, got.caller.token))
    view = member_view(club, name)
    view["calendar"] = link_path(club_id, "calendar", own)
    view["calendar_files"] = {d: link_path(club_id, "calendar", own, d) for d in club.plans}
    view["phones"] = sum(1 for who, _, _ in club.phones.values() if who == name)
    return view


@router.post("/{club_id}/me/rsvp", response_model=MemberOut)
async def answer(club_id: ClubId, body: AnswerIn, request: Request) -> dict[str, Any]:
    """A member answers yes, no or maybe for a night to come (a sub's yes takes an open
    seat, or waits in line for the next)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    assert got.caller.subject is not None
    event = {"type": "rsvp", "date": body.date, "name": got.caller.subject, "answer": body.answer}
    club = await append(request, club_id, got.club, event)
    return member_view(club, got.caller.subject)


@router.get("/{club_id}/links", response_model=LinksOut)
async def links(club_id: ClubId, request: Request) -> dict[str, Any]:
    """Every member's personal link, the calendar feed and the live share links."""
    got = await load(request, club_id, nights=False)
    return links_view(got.club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/links", response_model=LinksOut)
async def issue_links(club_id: ClubId, request: Request) -> dict[str, Any]:
    """Issue a personal link to every member who has none (and the calendar feed's)."""
    got = await load(request, club_id, nights=False)
    club = await append(
        request, club_id, got.club, *issue_events(got.club, club_id, got.caller.token)
    )
    return links_view(club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/links/member", response_model=LinksOut)
async def new_member_link(club_id: ClubId, body: MemberLinkIn, request: Request) -> dict[str, Any]:
    """A new personal link for a member (the old one stops working)."""
    got = await load(request, club_id, nights=False)
    event, token = new_link_event(got.club, club_id, got.caller.token, "member", body.name)
    club = await append(request, club_id, got.club, event, member_calendar_event(body.name, token))
    return links_view(club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/links/revoke", response_model=LinksOut)
async def revoke(club_id: ClubId, body: TokenIn, request: Request) -> dict[str, Any]:
    """A link (a member's, a share, the calendar's) stops working."""
    got = await load(request, club_id, nights=False)
    club = await append(
        request, club_id, got.club, {"type": "unlink", "hash": token_hash(body.token)}
    )
    return links_view(club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/shares", status_code=201, response_model=ShareOut)
async def share(club_id: ClubId, body: ShareIn, request: Request) -> dict[str, Any]:
    """A read-only link to one night's results or to a season (standings, every night
    with its results, the report). Asking again gives the same link while it lives."""
    got = await load(request, club_id, nights=False)
    if (body.night is None) == (body.season is None):
        raise ServiceError(
            422,
            "invalid_setup",
            "a share is of a night or of a season",
            '{"night": "<night id>"} or {"season": "2026"}',
        )
    kind, subject = ("night", body.night) if body.night else ("season", body.season)
    assert subject is not None
    club = got.club
    token = live_token(club, club_id, got.caller.token, kind, subject)
    if token is None:
        try:
            event, token = new_link_event(club, club_id, got.caller.token, kind, subject)
        except BuncoError as exc:
            raise refused(exc) from None
        club = await append(request, club_id, club, event)
    path = link_path(club_id, kind, token)
    return {"for": kind, "subject": subject, "token": token, "url": _base(request) + path}


@router.get("/{club_id}/shared", response_model=SharedOut)
async def shared(club_id: ClubId, request: Request) -> dict[str, Any]:
    """What a share link shows: a night's results, or a season's standings and nights."""
    got = await load(request, club_id, allow=("night", "season"))
    assert got.caller.subject is not None
    return shared_view(got.club, got.nights, got.caller.kind, got.caller.subject)


@router.post("/{club_id}/ladder", response_model=ClubStandingsOut)
async def ladder(club_id: ClubId, body: LadderIn, request: Request) -> dict[str, Any]:
    """The club's standings rules; replies with the standings under them."""
    from bunco.club.ladder import rule_text

    got = await load(request, club_id)
    event = {"type": "ladder", **body.model_dump(exclude_none=True)}
    club = await append(request, club_id, got.club, event)
    return {
        "club": club_id,
        "season": club.season,
        "rule": rule_text(club.ladder),
        "rules": club.ladder,
        "standings": [r.as_dict() for r in season_standings(club, got.nights)],
    }


@router.post("/{club_id}/mail", response_model=MailOut)
async def mail(club_id: ClubId, body: MailIn, request: Request) -> dict[str, Any]:
    """The SMTP server reminders go through (its password is never shown again)."""
    got = await load(request, club_id, nights=False)
    event = {"type": "mail", **body.model_dump(exclude_none=True)}
    club = await append(request, club_id, got.club, event)
    return {"mail": {k: v for k, v in (club.mail or {}).items() if k != "password"}}


@router.post("/{club_id}/reminders", response_model=RemindersOut)
async def remind(club_id: ClubId, body: ReminderIn, request: Request) -> dict[str, Any]:
    """Email every regular who has not answered for the night, with their personal link;
    their phones that asked to be told are told too (``phones``)."""
    got = await load(request, club_id, nights=False)
    club = got.club
    try:
        waiting = [n for pair in to_remind(club, body.date) for n in pair]
    except BuncoError as exc:
        raise refused(exc) from None
    phones = [
        n for n in club.regulars if n in waiting and n in {w for w, _, _ in club.phones.values()}
    ]
    if phones:
        notifier(request).send(club_id, [please_answer(club, body.date, phones)], email=False)
    if club.mail is None:
        if phones:
            return {
                "date": body.date,
                "sent": [],
                "refused": [],
                "no_email": waiting,
                "phones": phones,
            }
        raise ServiceError(
            422,
            "no_mail_server",
            f"{club.name} has no mail server, and no phone of theirs asked to be told",
            "the club's SMTP server first: POST /api/clubs/{id}/mail",
        )
    try:
        names, no_email = to_remind(club, body.date)
        club = club.apply_all(issue_events(club, club_id, got.caller.token))
        urls = links_view(club, club_id, got.caller.token, _base(request))["members"]
        by_name = {m["name"]: m["url"] for m in urls}
        messages = [reminder(club, body.date, n, by_name[n]) for n in names]
    except BuncoError as exc:
        raise refused(exc) from None
    if names:
        await append(request, club_id, got.club, *issue_events(got.club, club_id, got.caller.token))
        try:
            failed = await asyncio.to_thread(send_all, club.mail or {}, messages)
        except MailError as exc:
            raise ServiceError(
                502, "mail_failed", str(exc), "a reachable SMTP server (POST /api/clubs/{id}/mail)"
            ) from None
        sent = [n for n, m in zip(names, messages, strict=True) if str(m["To"]) not in failed]
        if sent:
            await append(
                request, club_id, club, {"type": "reminded", "date": body.date, "names": sent}
            )
    else:
        sent, failed = [], []
    return {
        "date": body.date,
        "sent": sent,
        "refused": failed,
        "no_email": no_email,
        "phones": phones,
    }


@router.get(
    "/{club_id}/calendar.ics",
    response_class=Response,
    responses=file_reply("text/calendar", "the club's calendar feed (iCalendar)"),
)
async def calendar(club_id: ClubId, request: Request) -> Response:
    """The club's nights as an iCalendar feed (subscribe with the club's calendar link, or
    a member's own calendar link: ``?token=``; neither opens anything else)."""
    got = await load(request, club_id, allow=("organizer", "calendar"), nights=False)
    text = club_calendar(got.club, club_id)
    return send_file(text, "text/calendar; charset=utf-8", f"bunco-club-{club_id}.ics", inline=True)


@router.get(
    "/{club_id}/calendar/{date}.ics",
    response_class=Response,
    responses=file_reply("text/calendar", "one night (iCalendar)"),
)
async def night_ics(club_id: ClubId, date: Day, request: Request) -> Response:
    """One planned night as a calendar file."""
    got = await load(request, club_id, allow=("organizer", "calendar"), nights=False)
    try:
        Date.fromisoformat(date)
    except ValueError:
        raise ServiceError(422, "invalid_date", f"date {date!r}", "YYYY-MM-DD") from None
    _plan(got.club, date)
    return send_file(
        night_calendar(got.club, club_id, date),
        "text/calendar; charset=utf-8",
        f"bunco-club-{club_id}-{date}.ics",
    )
