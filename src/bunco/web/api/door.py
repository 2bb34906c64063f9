"""HTTP API, the door cards (docs/room.md): check-in by scanning a player's own QR code.

Each seated player has a door card (:mod:`bunco.web.room.door_cards`): printed on the badges
(``GET .../download/badges.pdf``, the hosts') and shown on the player's own page once they
picked their name. Its QR code opens ``/n/<night>/door/<card>``; on a host's (or a
co-host's) phone that page checks the player in (``POST .../door/<card>``, the same mark
as a tap on the name in the door list); on any other phone it only says whose card it is
and where that player sits (``GET .../door/<card>``), and checks in nobody.

That reading needs no token, so it says nothing about what it was not given: a card of a
night that does not exist and a card that names nobody get the same 404, and each such
miss counts as a failed guess of the client (429 past its failures, as unknown tokens).
"""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from bunco.web.api.access import missed, require_host
from bunco.web.api.routing import ERRORS, NightId, send_file, service
from bunco.web.files.downloads import Downloads, log_lines
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.room.door_cards import cards_of, door_key, door_url, player_of, public_base
from bunco.web.room.door_list import before_play, mark, require_door_open
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import file_reply
from bunco.web.values.schemas import CommandBody

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["room"])

CardId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        description="the card id in the door card's QR code (16 letters and digits)",
    ),
]


class DoorCardOut(BaseModel):
    """Whose door card this is, for any phone that opens it (it grants nothing)."""

    night: str
    name: str = Field(description="the night's name")
    player: str
    open: bool = Field(description="true until round 1's first roll: the door list is open")
    table: int | None = Field(description="the player's table this round")
    seat: int | None = Field(description="the seat there (1-based)")


class DoorScanOut(BaseModel):
    """A scanned card at the door: who is checked in, since when, and how many are here."""

    night: str
    player: str
    already: bool = Field(
        description="true when the player was checked in before this scan (at says when)"
    )
    at: str = Field(description="when the player was first marked here (UTC, ISO 8601)")
    table: int | None = Field(description="the player's table in round 1")
    seat: int | None
    here: int = Field(description="players here now")
    players: int = Field(description="players on the door list")


def _seat_of(live: LiveNight, player: str) -> tuple[int | None, int | None]:
    for number, seats in enumerate(live.night.seating, start=1):
        for seat, name in enumerate(seats, start=1):
            if name == player:
                return number, seat
    return None, None


def _no_card(card: str) -> ServiceError:
    return ServiceError(
        404,
        "no_such_card",
        f"the door card {card!r} names nobody seated at this night",
        "the QR code of a door card of this night (a player who left the seating, or a "
        "card of another night, names nobody)",
    )


async def _player(request: Request, night_id: str, card: str) -> tuple[LiveNight, str]:
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    key = await door_key(svc, live)
    player = player_of(key, live, card)
    if player is None:
        raise _no_card(card)
    return live, player


async def _anyone_reads(request: Request, night_id: str, card: str) -> tuple[LiveNight, str]:
    """:func:`_player` for a reader without a token: no such night and no such card are
    one answer, and a counted miss."""
    try:
        return await _player(request, night_id, card)
    except ServiceError as exc:
        if exc.status != 404:
            raise
        raise await missed(request, _no_card(card), "door cards") from None


@router.get("/door/{card}", response_model=DoorCardOut)
async def door_card(night_id: NightId, card: CardId, request: Request) -> DoorCardOut:
    """Whose card this is and where they sit (no token needed: the card grants nothing).
    A night that does not exist and a card that names nobody are the same 404, counted as
    a failed guess (429 past the client's failures)."""
    live, player = await _anyone_reads(request, night_id, card)
    table, seat = _seat_of(live, player)
    return DoorCardOut(
        night=night_id,
        name=live.name,
        player=player,
        open=before_play(live.night),
        table=table,
        seat=seat,
    )


@router.post("/door/{card}", response_model=DoorScanOut)
async def scan_card(
    night_id: NightId, card: CardId, body: CommandBody, request: Request
) -> DoorScanOut:
    """Check in the card's player (a host or co-host), before round 1's first roll. A card
    scanned again is answered with the first mark's time (``already``); the same request
    sent again (its ``command_id``) gets the first reply."""
    await require_host(request, night_id, "checking players in")
    svc = service(request)
    live, player = await _player(request, night_id, card)
    async with live.lock:
        if player not in live.night.seated:  # left the seating while the key was read
            raise _no_card(card)
        require_door_open(live.night)
        changed = await mark(svc, live, player, here=True, command_id=body.command_id)
        before = dict(changed.before.get("checkin") or {})
        ids = dict(changed.before.get("checkin_ids") or {})
        already = player in before and ids.get(player) != body.command_id
        marks = dict(changed.after.get("checkin") or {})
        here = sum(1 for name in live.night.seated if name in marks)
    table, seat = _seat_of(live, player)
    return DoorScanOut(
        night=night_id,
        player=player,
        already=already,
        at=str(marks[player]),
        table=table,
        seat=seat,
        here=here,
        players=len(live.night.seated),
    )


@router.get(
    "/download/badges.pdf",
    response_class=Response,
    responses=file_reply("application/pdf", "the door badges (PDF)"),
)
async def badges(night_id: NightId, request: Request) -> Response:
    """A badge per seated player (hosts): the name large, the night's name, where they sit
    in round 1 and their door card's QR code (PDF, eight to a page)."""
    who = await require_host(request, night_id, "printing the door badges")
    svc = service(request)
    live = await svc.get(night_id)
    if live.night.phase == "over":
        raise ServiceError(
            409,
            "night_over",
            "the night is over: nobody checks in any more",
            "the badges before round 1",
        )
    key = await door_key(svc, live)
    base = public_base(request)
    urls = {name: door_url(base, live.id, card) for name, card in cards_of(key, live).items()}
    detail = json.dumps({"name": live.name, "urls": urls}, ensure_ascii=False)
    downloads: Downloads = request.app.state.downloads
    lines = log_lines(live.log)  # nothing awaits between the version and its log
    data = await downloads.get((live.id, live.seq, "badges.pdf", detail), lines, who.caller)
    return send_file(data, "application/pdf", f"bunco-{live.id}-badges.pdf")
