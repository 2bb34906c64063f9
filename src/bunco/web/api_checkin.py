"""HTTP API, the door check-in (docs/room.md): before round 1 the host (or a co-host at
the door) marks who has arrived, so the no-shows are known before the first roll and can
be seated as ghosts (``POST .../departures``) or replaced by substitutes
(``POST .../substitutes``) while nothing is scored yet. A player who scanned the night's
player QR and picked their name checks themselves in from their own phone ("I'm here");
each mark goes to the night's pages as a ``checkin`` message, so the host's list follows.
A host who scans a player's door card checks them in with the same mark
(:mod:`bunco.web.api_door`).

The marks are kept with the night (its options): they are a door list, not part of the
score record, so they are no event of the party log.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from bunco.core.night import Night
from bunco.web.access import require, require_host
from bunco.web.door_cards import card_id, door_key, door_url, public_base
from bunco.web.fields import Name
from bunco.web.live_night import LiveNight
from bunco.web.pubsub import Message
from bunco.web.replies import ServiceError, json_text
from bunco.web.routing import ERRORS, NightId, service
from bunco.web.schemas import CommandBody, name_key
from bunco.web.service import NightService

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["room"])


class CheckInIn(CommandBody):
    """One player at the door: here (``true``) or not (``false``, a mark taken back)."""

    player: Name
    here: bool = True


class CheckedOut(BaseModel):
    player: str
    table: int | None = Field(description="the table the player sits at in round 1")
    seat: int | None = Field(description="the seat there (1-based)")
    here: bool
    at: str | None = Field(description="when the player was marked here (UTC, ISO 8601)")


class CheckInOut(BaseModel):
    """The door list: every seated player, here or not yet, in the order of the seating."""

    night: str
    open: bool = Field(
        description="true until round 1's first roll: no-shows may still "
        "be seated as ghosts or replaced without touching a score"
    )
    here: int
    missing: int
    players: list[CheckedOut]


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


def before_play(night: Night) -> bool:
    """True while nothing of the night is scored: round 1 of set 1, not started, no roll at
    any table (rolling for high or order included)."""
    if night.phase != "playing" or night.set_no != 1 or night.round_no != 1 or night.started:
        return False
    return all(len(t.rolls) == 0 and not t.first_rolls for t in night.tables)


def _marks(live: LiveNight) -> dict[str, str]:
    return dict(live.options.get("checkin") or {})


def _list(night_id: str, live: LiveNight) -> CheckInOut:
    marks = _marks(live)
    players = []
    for number, seats in enumerate(live.night.seating, start=1):
        for seat, name in enumerate(seats, start=1):
            if name is not None:
                players.append(
                    CheckedOut(
                        player=name, table=number, seat=seat, here=name in marks, at=marks.get(name)
                    )
                )
    here = sum(1 for p in players if p.here)
    return CheckInOut(
        night=night_id,
        open=before_play(live.night),
        here=here,
        missing=len(players) - here,
        players=players,
    )


@router.get("/checkin", response_model=CheckInOut)
async def checkin_list(night_id: NightId, request: Request) -> CheckInOut:
    """Every seated player and whether they are here."""
    await require_host(request, night_id, "reading the door list")
    live = await service(request).get(night_id, fresh=False)
    return _list(night_id, live)


@router.get("/checkin/me", response_model=MyCheckInOut)
async def my_checkin(night_id: NightId, request: Request) -> MyCheckInOut:
    """The calling player's own mark (a player's token)."""
    who = await require(request, night_id, "player", what="reading your check-in")
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    player = who.player or ""
    at = _marks(live).get(player)
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
        if not before_play(live.night):
            raise ServiceError(
                409,
                "too_late",
                "round 1 is under way: the door list is closed",
                "a late arrival joins between rounds (POST .../arrivals)",
            )
        out = await mark(svc, live, body.player, here=body.here)
        if who.role == "player":  # a player's phone reads its own row only
            out.players = [p for p in out.players if p.player == body.player]
        return out


async def mark(
    svc: NightService, live: LiveNight, player: str, *, here: bool, command_id: str | None = None
) -> CheckInOut:
    """Mark ``player`` (seated, the list open: the caller checked both under the night's
    lock, which it holds) here or take the mark back; store the door list with the night,
    tell the night's pages (a ``checkin`` message) and return the list. The first mark's
    time stays; ``command_id`` (a scanned card's) is kept beside it, so the same scan sent
    again is known as that scan."""
    marks = _marks(live)
    ids: dict[str, str] = dict(live.options.get("checkin_ids") or {})
    if here:
        if player not in marks:
            marks[player] = datetime.now(UTC).isoformat(timespec="seconds")
            if command_id is not None:
                ids[player] = command_id
    else:
        marks.pop(player, None)
        ids.pop(player, None)
    options: dict[str, Any] = {**live.options, "checkin": marks, "checkin_ids": ids}
    await svc.db(svc.store.set_options, live.id, options)
    live.options = options
    out = _list(live.id, live)
    # the host's list follows (the counts only: who is here is the hosts' to read)
    news = {"type": "checkin", "seq": live.seq, "here": out.here, "missing": out.missing}
    svc.publisher.deliver(Message(live.id, live.seq, None, json_text(news), kind="options"))
    return out
