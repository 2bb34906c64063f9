"""HTTP API, part 5b: a club's month. Nights to come (date, time, host, address), the
hosting rotation, who is coming (answers through members' personal links, subs that take
the open seats), links to share, the standings rules, calendars and reminder emails.

Included in :mod:`bunco.web.api.club`'s router (``/api/clubs``). See docs/club.md.
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
from bunco.club.view_types import (
    AttendanceView,
    ClubView,
    LinksView,
    MailView,
    MemberView,
    RemindView,
    SharedView,
    ShareView,
    StandingsView,
)
from bunco.club.views import club_view, mail_shown, member_view, shared_view
from bunco.core.club_events import (
    ClubEvent,
    ClubLadderEvent,
    ClubMailEvent,
    ClubPlanEvent,
    ClubRemindedEvent,
    ClubRotationEvent,
    ClubRsvpEvent,
    ClubSwapHostsEvent,
    ClubUnlinkEvent,
    LinkKind,
)
from bunco.core.errors import BuncoError
from bunco.web.api.club_access import Loaded, change, load, notifier
from bunco.web.api.routing import send_file
from bunco.web.club.links import (
    issue_events,
    links_view,
    live_token,
    member_calendar_event,
    new_link_event,
)
from bunco.web.club.log import refused
from bunco.web.club.mail import MailError, send_all
from bunco.web.values import club_event_models as bodies
from bunco.web.values.club_event_models import DateText, body_event
from bunco.web.values.fields import Label, Name
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import (
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
from bunco.web.values.schemas import StrictModel

ClubId = Annotated[str, Path(min_length=1, max_length=32, description="the club's id")]
Day = Annotated[str, Path(min_length=10, max_length=10, description="YYYY-MM-DD")]
router = APIRouter()


class ShareIn(StrictModel):
    night: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    season: Label | None = None


class TokenIn(StrictModel):
    token: Annotated[str, Field(min_length=1, max_length=200)]


class MemberLinkIn(StrictModel):
    name: Name


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
async def plan(club_id: ClubId, body: bodies.PlanBody, request: Request) -> AttendanceView:
    """Plan a night (its host: the one given, else whose turn it is), or change one."""
    got = await load(request, club_id, nights=False)
    event = body_event(body, ClubPlanEvent)

    def planned(now: Loaded) -> list[ClubEvent]:
        deadline = event.get("deadline")
        if deadline is not None:
            try:  # the club's time zone: the club as it is stored against
                passed = local_time(now.club, deadline) <= notifier(request).now()
            except ValueError:
                passed = False  # a deadline no calendar has: the club's fold says so
            if passed:
                raise ServiceError(
                    422,
                    "invalid_setup",
                    f"the answers' deadline {deadline} has passed already",
                    "a deadline still to come (YYYY-MM-DDTHH:MM, the club's time)",
                )
        return [event]

    now = await change(request, club_id, got, planned)
    return attendance_view(now.club, event["date"])


@router.post("/{club_id}/plans/swap", response_model=ClubOut)
async def swap_hosts(club_id: ClubId, body: bodies.SwapBody, request: Request) -> ClubView:
    """Two planned nights swap their hosts (and so their addresses, unless set)."""
    got = await load(request, club_id)
    event = body_event(body, ClubSwapHostsEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return club_view(club_id, now.club, now.nights)


@router.post("/{club_id}/rotation", response_model=ClubOut)
async def rotation(club_id: ClubId, body: bodies.RotationBody, request: Request) -> ClubView:
    """The hosting order (each in turn hosts the next night planned without a host)."""
    got = await load(request, club_id)
    event = body_event(body, ClubRotationEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return club_view(club_id, now.club, now.nights)


@router.get("/{club_id}/plans/{date}", response_model=AttendanceOut)
async def coming(club_id: ClubId, date: Day, request: Request) -> AttendanceView:
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
async def rsvp_for(club_id: ClubId, body: bodies.RsvpBody, request: Request) -> AttendanceView:
    """The organizer records a member's answer (a phone call after all)."""
    got = await load(request, club_id, nights=False)
    event = body_event(body, ClubRsvpEvent)
    now = await change(request, club_id, got, lambda _: [event])
    return attendance_view(now.club, event["date"])


@router.get("/{club_id}/me", response_model=MemberOut)
async def me(club_id: ClubId, request: Request) -> MemberView:
    """A member's own page: their nights to come and their answers (their link's token)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    name = got.caller.subject
    assert name is not None
    own = calendar_token(got.caller.token)  # the member's calendar link: it reads, no more

    def calendar_link(now: Loaded) -> list[ClubEvent]:
        if now.club.link(token_hash(own)) == ("calendar", name):
            return []
        return [member_calendar_event(name, got.caller.token)]

    club = (await change(request, club_id, got, calendar_link)).club
    view = member_view(club, name)
    view["calendar"] = link_path(club_id, "calendar", own)
    view["calendar_files"] = {d: link_path(club_id, "calendar", own, d) for d in club.plans}
    view["phones"] = sum(1 for who, _, _ in club.phones.values() if who == name)
    return view


@router.post("/{club_id}/me/rsvp", response_model=MemberOut)
async def answer(club_id: ClubId, body: bodies.AnswerIn, request: Request) -> MemberView:
    """A member answers yes, no or maybe for a night to come (a sub's yes takes an open
    seat, or waits in line for the next)."""
    got = await load(request, club_id, allow=("member",), nights=False)
    assert got.caller.subject is not None
    event = body_event(body, ClubRsvpEvent, name=got.caller.subject)
    now = await change(request, club_id, got, lambda _: [event])
    return member_view(now.club, got.caller.subject)


@router.get("/{club_id}/links", response_model=LinksOut)
async def links(club_id: ClubId, request: Request) -> LinksView:
    """Every member's personal link, the calendar feed and the live share links."""
    got = await load(request, club_id, nights=False)
    return links_view(got.club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/links", response_model=LinksOut)
async def issue_links(club_id: ClubId, request: Request) -> LinksView:
    """Issue a personal link to every member who has none (and the calendar feed's)."""
    got = await load(request, club_id, nights=False)
    now = await change(
        request, club_id, got, lambda now: issue_events(now.club, club_id, got.caller.token)
    )
    return links_view(now.club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/links/member", response_model=LinksOut)
async def new_member_link(club_id: ClubId, body: MemberLinkIn, request: Request) -> LinksView:
    """A new personal link for a member (the old one stops working)."""
    got = await load(request, club_id, nights=False)

    def new_link(now: Loaded) -> list[ClubEvent]:
        event, token = new_link_event(now.club, club_id, got.caller.token, "member", body.name)
        return [event, member_calendar_event(body.name, token)]

    now = await change(request, club_id, got, new_link)
    return links_view(now.club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/links/revoke", response_model=LinksOut)
async def revoke(club_id: ClubId, body: TokenIn, request: Request) -> LinksView:
    """A link (a member's, a share, the calendar's) stops working."""
    got = await load(request, club_id, nights=False)
    event = ClubUnlinkEvent(type="unlink", hash=token_hash(body.token))
    now = await change(request, club_id, got, lambda _: [event])
    return links_view(now.club, club_id, got.caller.token, _base(request))


@router.post("/{club_id}/shares", status_code=201, response_model=ShareOut)
async def share(club_id: ClubId, body: ShareIn, request: Request) -> ShareView:
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
    kind: LinkKind = "night" if body.night else "season"
    subject = body.night or body.season
    assert subject is not None

    def new_share(now: Loaded) -> list[ClubEvent]:
        if live_token(now.club, club_id, got.caller.token, kind, subject) is not None:
            return []  # the same link while it lives
        return [new_link_event(now.club, club_id, got.caller.token, kind, subject)[0]]

    club = (await change(request, club_id, got, new_share)).club
    token = live_token(club, club_id, got.caller.token, kind, subject)
    assert token is not None  # the club after the command holds it
    path = link_path(club_id, kind, token)
    return ShareView(
        {"for": kind, "subject": subject, "token": token, "url": _base(request) + path}
    )


@router.get("/{club_id}/shared", response_model=SharedOut)
async def shared(club_id: ClubId, request: Request) -> SharedView:
    """What a share link shows: a night's results, or a season's standings and nights."""
    got = await load(request, club_id, allow=("night", "season"))
    assert got.caller.subject is not None
    return shared_view(got.club, got.nights, got.caller.kind, got.caller.subject)


@router.post("/{club_id}/ladder", response_model=ClubStandingsOut)
async def ladder(club_id: ClubId, body: bodies.LadderBody, request: Request) -> StandingsView:
    """The club's standings rules; replies with the standings under them."""
    from bunco.club.ladder import rule_text

    got = await load(request, club_id)
    event = body_event(body, ClubLadderEvent)
    now = await change(request, club_id, got, lambda _: [event])
    club = now.club
    return {
        "club": club_id,
        "season": club.season,
        "rule": rule_text(club.ladder),
        "rules": club.ladder,
        "standings": [r.as_dict() for r in season_standings(club, now.nights)],
    }


@router.post("/{club_id}/mail", response_model=MailOut)
async def mail(club_id: ClubId, body: bodies.MailBody, request: Request) -> MailView:
    """The SMTP server reminders go through (its password is never shown again)."""
    got = await load(request, club_id, nights=False)
    event = body_event(body, ClubMailEvent)
    club = (await change(request, club_id, got, lambda _: [event])).club
    return {"mail": mail_shown(club)}


@router.post("/{club_id}/reminders", response_model=RemindersOut)
async def remind(club_id: ClubId, body: ReminderIn, request: Request) -> RemindView:
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
    except BuncoError as exc:
        raise refused(exc) from None
    sent: list[str] = []
    failed: list[str] = []
    if names:
        linked = await change(  # every member's link, for the messages
            request, club_id, got, lambda now: issue_events(now.club, club_id, got.caller.token)
        )
        club = linked.club
        urls = links_view(club, club_id, got.caller.token, _base(request))["members"]
        by_name = {m["name"]: m["url"] for m in urls if m["url"]}
        names = [n for n in names if n in by_name]  # a member gone meanwhile is not written to
        try:
            messages = [reminder(club, body.date, n, by_name[n]) for n in names]
        except BuncoError as exc:
            raise refused(exc) from None
        try:
            failed = await asyncio.to_thread(send_all, club.mail, messages)
        except MailError as exc:
            raise ServiceError(
                502, "mail_failed", str(exc), "a reachable SMTP server (POST /api/clubs/{id}/mail)"
            ) from None
        sent = [n for n, m in zip(names, messages, strict=True) if str(m["To"]) not in failed]
        if sent:
            event = ClubRemindedEvent(type="reminded", date=body.date, names=sent)
            await change(request, club_id, linked, lambda _: [event])
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
