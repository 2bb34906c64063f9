"""HTTP API: deleting a night (its host), a club or a member's personal data (the club's
organizer), as ``bunco delete`` does from the command line (:mod:`bunco.store.deletion`,
:mod:`bunco.store.erasure`).

- ``DELETE /api/nights/{id}``: the night, its log, tokens, join codes and phone reports,
  in one transaction. The night's host (or a co-host) only; any other token of the night
  is refused (403). In this process the night is let go at once
  (:meth:`~bunco.web.night.service.NightService.drop`): the commands waiting for it are answered
  404, its bots and timer stop, its tokens are forgotten (every link of it is refused
  with 401 from the next request) and its WebSockets are closed with 4401. Other
  processes on the same PostgreSQL database do the same when the deletion's ``d`` notice
  reaches them (:mod:`bunco.web.night.follow`).
- ``DELETE /api/clubs/{id}?nights=true``: the club and its log; with ``nights``, also the
  nights its log names (except those another club names too), let go as above.
- ``DELETE /api/clubs/{id}/members/{name}?as=NAME``: the member's name replaced in the
  club's log and every night of the club (``Former member 1`` by default), their email
  and address taken out; the standings keep their row under the new name. The nights this
  process holds are read again (other processes: the ``r`` notice).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field

from bunco.club.load import fold_club
from bunco.core.errors import BuncoError
from bunco.store.deletion import (
    DeletionError,
    club_nights,
    clubs_naming,
    delete_club,
    delete_nights,
    nights_of_other_clubs,
)
from bunco.store.erasure import erase_member
from bunco.store.json_values import JsonObject
from bunco.web.api.access import require, tokens
from bunco.web.api.club_access import load
from bunco.web.api.routing import ERRORS, NightId, service
from bunco.web.values.fields import Name
from bunco.web.values.replies import ServiceError

router = APIRouter(responses=ERRORS)
ClubId = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the club's id")
]


class NightDeletedOut(BaseModel):
    """What deleting a night took out of the database."""

    night: str
    deleted: dict[str, int] = Field(description="rows deleted per table (events, tokens, ...)")
    clubs: list[str] = Field(
        description="the clubs whose logs named the night: their standings no longer count it"
    )


class ClubDeletedOut(BaseModel):
    """What deleting a club took out of the database."""

    club: str
    deleted: dict[str, int] = Field(description="rows deleted per table")
    nights: list[str] = Field(description="the nights deleted with it (with ?nights=true)")
    kept_nights: list[str] = Field(description="the club's nights kept")


class MemberErasedOut(BaseModel):
    """What erasing a member's personal data changed."""

    club: str
    name: str = Field(description="the member's name as the club spelled it")
    replacement: str = Field(description="the name that stands in its place now")
    nights: list[str] = Field(description="the nights whose logs named the member")
    events: int = Field(description="events of those nights rewritten")
    club_events: int = Field(description="events of the club's log rewritten")


@router.delete("/api/nights/{night_id}", tags=["nights"], response_model=NightDeletedOut)
async def delete_night(night_id: NightId, request: Request) -> NightDeletedOut:
    """Delete the night for good (host): its log, tokens, join codes and phone reports.
    Every link and join code of it stops working at once, on every server process."""
    await require(request, night_id, "host", what="deleting the night")
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    engine = svc.store.engine

    def delete() -> tuple[dict[str, int], list[str]]:
        with engine.connect() as conn:
            clubs = clubs_naming(conn, night_id)
        return delete_nights(engine, [night_id]), clubs

    async with live.lock:  # after the batch being stored; the commands waiting get 404
        deleted, clubs = await asyncio.to_thread(delete)
        svc.drop(night_id)
    return NightDeletedOut(night=night_id, deleted=deleted, clubs=clubs)


@router.delete("/api/clubs/{club_id}", tags=["clubs"], response_model=ClubDeletedOut)
async def delete_club_route(
    club_id: ClubId,
    request: Request,
    nights: Annotated[
        bool, Query(description="delete the club's nights too (not those of another club)")
    ] = False,
) -> ClubDeletedOut:
    """Delete the club for good (its organizer): members, seasons, plans, dues and links;
    with ``nights=true`` its nights too."""
    await load(request, club_id, nights=False)
    svc = service(request)
    engine = svc.store.engine

    def delete() -> tuple[dict[str, int], list[str], list[str]]:
        with engine.connect() as conn:
            named = club_nights(conn, club_id)
            shared = nights_of_other_clubs(conn, club_id) if nights else set()
        gone = [n for n in named if n not in shared] if nights else []
        try:
            deleted = delete_club(engine, club_id, with_nights=nights)
        except DeletionError as exc:  # deleted meanwhile
            raise ServiceError(404, "no_such_club", exc.message, exc.expected) from None
        return deleted, gone, [n for n in named if n not in gone]

    deleted, gone, kept = await asyncio.to_thread(delete)
    for night_id in gone:
        svc.drop(night_id)
    return ClubDeletedOut(club=club_id, deleted=deleted, nights=gone, kept_nights=kept)


def _club_folds(_before: list[JsonObject], after: list[JsonObject]) -> None:
    """Refuse an erasure after which the club's log does not fold."""
    try:
        fold_club(after)
    except BuncoError as exc:
        raise DeletionError(
            f"the club's log does not fold with the name replaced ({exc.message})",
            expected="another name for the member: ?as=NAME",
        ) from None


@router.delete(
    "/api/clubs/{club_id}/members/{name}", tags=["clubs"], response_model=MemberErasedOut
)
async def erase_member_route(
    club_id: ClubId,
    name: Annotated[str, Path(min_length=1, max_length=200, description="the member's name")],
    request: Request,
    as_name: Annotated[
        Name | None,
        Query(alias="as", description="the name to put in its place (default: Former member 1)"),
    ] = None,
) -> MemberErasedOut:
    """Erase a member's personal data (the club's organizer): their name is replaced in the
    club's log and in every night of the club, their email and address are taken out; the
    standings keep their row under the new name. Nothing changes (422) if a night would
    not keep its results."""
    await load(request, club_id, nights=False)
    svc = service(request)
    try:
        done = await asyncio.to_thread(
            erase_member,
            svc.store.engine,
            club_id,
            name,
            replacement=as_name,
            check=_club_folds,
        )
    except DeletionError as exc:
        code = (
            "no_such_club"
            if exc.message.startswith("there is no club")
            else "no_such_player"
            if "is not a member" in exc.message
            else "invalid_request"
        )
        status = 422 if code == "invalid_request" else 404
        raise ServiceError(status, code, exc.message, exc.expected) from None
    tokens(request).forget()  # the names claimed under the member's name changed
    for night_id in done.nights:
        await svc.reload(night_id)
    return MemberErasedOut(
        club=club_id,
        name=done.name,
        replacement=done.replacement,
        nights=done.nights,
        events=done.events,
        club_events=done.club_events,
    )
