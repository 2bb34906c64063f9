"""Who is calling a club's API, and the club as they may see it.

Four kinds of callers, each by the token they carry (``Authorization: Bearer``, or
``?token=`` on downloads, calendars and links opened from a message):

- the organizer: the club's secret token (made with the club; the server keeps its hash);
  every call;
- a member: their personal link (a ``link`` for a member in the club's log): their own
  page and answers, and who is coming to a night they host;
- a night's or a season's share link: reading that night's results, or the season's
  standings, archive and report, and never writing anything;
- a calendar link (the club's feed, or a member's own): reading the calendar, nothing else.

Every link a page shows or a command prints carries the token of its own kind, so a link
forwarded reads only what it is for (docs/club.md, "Links").

A valid link used for a call it does not open is refused with 403 ``read_only`` (share
links) or ``organizer_only`` (members), never with the club's data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from fastapi import Request

from bunco.club.club import Club
from bunco.club.events import Raw
from bunco.club.links import token_hash
from bunco.club.load import fold_club, fold_nights
from bunco.core.club_events import ClubEvent
from bunco.core.night import Night
from bunco.store import ClubStore
from bunco.web.api.routing import service
from bunco.web.club.log import decide_and_record, read_club
from bunco.web.club.notify import ClubNotifier
from bunco.web.values.replies import ServiceError


@dataclass(frozen=True, slots=True)
class Caller:
    kind: str  # organizer, member, night, season
    subject: str | None = None  # the member's name, the night's id, the season's name
    token: str = ""


@dataclass(frozen=True, slots=True)
class Loaded:
    club: Club
    nights: dict[str, Night]
    caller: Caller
    with_nights: bool = True  # the nights' logs were read (read again with the club)


def clubs(request: Request) -> ClubStore:
    return ClubStore(service(request).store.engine)


def given_token(request: Request) -> str:
    given = request.headers.get("authorization", "").partition(" ")[2].strip()
    return given or request.query_params.get("token", "")


async def load(
    request: Request, club_id: str, *, allow: tuple[str, ...] = ("organizer",), nights: bool = True
) -> Loaded:
    """The club and its nights, folded, after checking that the caller's token opens this
    call (``allow``: the kinds of callers it is for)."""
    store = clubs(request)
    record = await asyncio.to_thread(store.club, club_id)
    if record is None:
        raise ServiceError(
            404,
            "no_such_club",
            f"there is no club {club_id!r}",
            "the id of a club made with POST /api/clubs",
        )
    given = given_token(request)
    if not given:
        raise ServiceError(
            401,
            "unauthorized",
            "this club needs its token",
            "Authorization: Bearer <the club's token, or a link's token>",
        )
    log = await asyncio.to_thread(store.events, club_id)
    club = await notifier(request).keep_time(club_id, fold_club(log))
    if await asyncio.to_thread(store.token_matches, club_id, given):
        caller = Caller("organizer", None, given)
    else:
        found = club.link(token_hash(given))
        if found is None:
            raise ServiceError(
                401,
                "unauthorized",
                "this token does not open this club",
                "the club's token, or a link the club has issued",
            )
        caller = Caller(found[0], found[1], given)
    if caller.kind not in allow:
        if caller.kind in ("night", "season", "calendar"):
            raise ServiceError(
                403,
                "read_only",
                "a share link only reads what it shares"
                if caller.kind != "calendar"
                else "a calendar link only reads the calendar",
                "the club's token for this call",
            )
        raise ServiceError(
            403,
            "organizer_only",
            "a member's link answers for its member only",
            "the club's token for this call",
        )
    return Loaded(club, await night_logs(request, club) if nights else {}, caller, nights)


async def night_logs(request: Request, club: Club) -> dict[str, Night]:
    svc = service(request)
    logs: dict[str, list[Raw]] = {}
    for ref in club.nights:
        stored = await svc.db(svc.store.events, ref.night)
        if stored:
            logs[ref.night] = [e.event for e in stored]
    return await asyncio.to_thread(fold_nights, logs)


async def change(
    request: Request,
    club_id: str,
    got: Loaded,
    decide: Callable[[Loaded], Sequence[ClubEvent]],
) -> Loaded:
    """One command of the request (:func:`bunco.web.club.log.decide_and_record`):
    ``decide`` makes its events from the club as loaded (its checks first, raising the
    route's refusals); when another change was stored first, the club (and its nights'
    logs, if they were read) is read again and ``decide`` runs again on it. Returns the
    club after the command (with the nights it was decided with); the members it
    concerns are told, once."""
    store = clubs(request)
    now = got

    async def reread() -> Club:
        nonlocal now
        club = await asyncio.to_thread(read_club, store, club_id)
        nights = await night_logs(request, club) if got.with_nights else {}
        now = replace(got, club=club, nights=nights)
        return club

    before, done = await decide_and_record(
        request, store, club_id, got.club, lambda _club: decide(now), reread
    )
    if not done.replayed:
        notifier(request).after_change(club_id, before, done.club)
    return replace(now, club=done.club)


def notifier(request: Request) -> ClubNotifier:
    """The server's club notices and clock (:mod:`bunco.web.club.notify`)."""
    value: ClubNotifier = request.app.state.club_notifier
    return value
