"""HTTP API, the door check-in (docs/room.md): before round 1 the host (or a co-host at
the door) marks who has arrived, so the no-shows are known before the first roll and can
be seated as ghosts (``POST .../departures``) or replaced by substitutes
(``POST .../substitutes``) while nothing is scored yet. A player who scanned the night's
player QR and picked their name checks themselves in from their own phone ("I'm here");
each mark goes to the night's pages as a ``checkin`` message, so the host's list follows.
A host who scans a player's door card checks them in with the same mark
(:mod:`bunco.web.api.door`).

The marks are kept with the night (its options): they are a door list, not part of the
score record, so they are no event of the party log.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from bunco.web.api.access import require, require_host
from bunco.web.api.routing import ERRORS, NightId, service
from bunco.web.room.door_cards import card_id, door_key, door_url, public_base
from bunco.web.room.door_list import (
    CheckInOut,
    before_play,
    door_list,
    mark,
    marks_of,
    require_door_open,
)
from bunco.web.values.fields import Name
from bunco.web.values.replies import ServiceError
from bunco.web.values.schemas import CommandBody, name_key

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["room"])


class CheckInIn(CommandBody):
    """One player at the door: here (``true``) or not (``false``, a mark taken back)."""

    player: Name
    here: bool = True


class MyCheckInOut(BaseModel):
    """A player's own mark, for their phone's "I'm here"."""

    night: str
    player: str
    open: bool = Field(description="true until round 1's first roll")
    seated: bool = Field(description="the player has a seat in round 1")
    here: bool
    at: str | None = Field(description="when the player was marked here (UTC, ISO 8601)")
    door_url: str | None = Field(
        description="the address of the player's door card (its QR code, to show the host "
        "at the door), while they are seated"
    )


@router.get("/checkin", response_model=CheckInOut)
async def checkin_list(night_id: NightId, request: Request) -> CheckInOut:
    """Every seated player and whether they are here."""
    await require_host(request, night_id, "reading the door list")
    live = await service(request).get(night_id, fresh=False)
    return door_list(live)


@router.get("/checkin/me", response_model=MyCheckInOut)
async def my_checkin(night_id: NightId, request: Request) -> MyCheckInOut:
    """The calling player's own mark (a player's token)."""
    who = await require(request, night_id, "player", what="reading your check-in")
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    player = who.player or ""
    at = marks_of(live).get(player)
    door = None
    if player in live.night.seated:
        card = card_id(await door_key(svc, live), live.id, player)
        door = door_url(public_base(request), live.id, card)
    return MyCheckInOut(
        night=night_id,
        player=player,
        open=before_play(live.night),
        seated=player in live.night.seated,
        here=at is not None,
        at=at,
        door_url=door,
    )


@router.post("/checkin", response_model=CheckInOut)
async def check_in(night_id: NightId, body: CheckInIn, request: Request) -> CheckInOut:
    """Mark ``player`` here (or take the mark back), before round 1's first roll: the
    host or a co-host for anyone, a player from their own phone for themselves."""
    who = await require(request, night_id, "host", "player", what="checking players in")
    if who.role == "player" and name_key(body.player) != name_key(who.player or ""):
        raise ServiceError(
            403,
            "forbidden",
            f"this phone follows {who.player!r}: it checks in only that player",
            f"player: {who.player!r} (the host checks in the others)",
        )
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    async with live.lock:
        if who.role == "player":
            body = body.model_copy(update={"player": who.player})
        if body.player not in live.night.seated:
            raise ServiceError(
                404,
                "no_such_player",
                f"{body.player!r} is not seated tonight",
                "a seated player: " + ", ".join(live.night.seated[:20]),
            )
        require_door_open(live.night)
        await mark(svc, live, body.player, here=body.here)
        out = door_list(live)
        if who.role == "player":  # a player's phone reads its own row only
            out.players = [p for p in out.players if p.player == body.player]
        return out
