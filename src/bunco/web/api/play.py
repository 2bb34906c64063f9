"""HTTP API, part 2: the commands of play. Each becomes one event of the party log.

Every command carries a ``command_id`` made by the client (a retry with the same id is
applied once) and may carry ``expected_seq``, the last seq the client saw at that table
(a mismatch is a 409 listing the events it missed). The reply is the stored event with
its seq, the night's status and the table's view after it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import cast

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from bunco.core.errors import BuncoError
from bunco.core.events import Event, RollEvent, ScoringEvent, SeatEvent, VerifyEvent
from bunco.core.undo import undo_effect
from bunco.web.api.access import (
    host_only,
    host_or_head_table,
    own_turn,
    require,
    seating_writer,
    table_writer,
    undo_writer,
)
from bunco.web.api.routing import (
    ERRORS,
    CommandEnvelope,
    NightId,
    TableNo,
    ack_reply,
    command_of,
    named_refusal,
    night_command,
    service,
)
from bunco.web.decision.commands import Credited, Given, Intent, MyTurnRoll, RollForMe
from bunco.web.decision.entry_rules import Tapped
from bunco.web.decision.frozen_state import Asked, DicelessRoll, HeldState, event_table
from bunco.web.decision.refusals import Refused
from bunco.web.decision.rights import Check
from bunco.web.gate.principal import Principal
from bunco.web.night.command_path import refused_error
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService
from bunco.web.values.replies import Ack, ServiceError
from bunco.web.values.reply_models import UndoPreviewOut
from bunco.web.values.schemas import (
    AckOut,
    CommandBody,
    DiceIn,
    EventIn,
    PlayerIn,
    RollIn,
    SeatIn,
    SubstituteIn,
    TappedIn,
    UndoIn,
    VerifyIn,
    name_key,
)

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["play"])
WRITERS = ("host", "table", "player")
_PLAIN = frozenset({"passed", "more"})
_ALWAYS_OMITTED = frozenset({"more"})
"""What a retry may say otherwise: how many entries the phone still holds after this one."""


def heard(
    live: LiveNight, who: Principal, more: int | None = None, command_id: str | None = None
) -> None:
    """Note that a table's phone was heard now (the host page shows how long ago), holding
    ``more`` entries after this one (``command_id``;
    :class:`~bunco.web.night.phone_book.PhoneBook`)."""
    if who.role == "table" and who.table is not None:
        moment = datetime.now(UTC)
        live.heard_from[who.table] = moment.isoformat(timespec="milliseconds")
        live.phones.note_entry(who.table, moment.timestamp(), more, command_id)


def tapped_of(given: TappedIn | None) -> Tapped | None:
    """The decision module's :class:`Tapped` of a request's ``tapped``."""
    if given is None:
        return None
    return Tapped(
        given.set, given.round, given.table, given.roller, given.based_on, given.at, given.stage
    )


def roll_envelope(who: Principal, body: RollIn, table: int) -> CommandEnvelope:
    """The envelope of an entry at ``table`` (:func:`~bunco.web.api.routing.command_of`): a
    plain entry's request is fingerprinted without ``passed``, as before there was
    ``passed`` (a retry of an entry sent to an earlier server is still the same request)."""
    return command_of(who, body, "rolls", table, omit=_ALWAYS_OMITTED if body.passed else _PLAIN)


def _entry(table: int, body: RollIn, player: str | None) -> ScoringEvent:
    """The entry ``body`` makes at ``table``: a quick tally's outcome, a total for high, or
    three faces (exactly one of them: :class:`~bunco.web.values.schemas.RollIn`)."""
    entry: ScoringEvent
    if body.outcome is not None:
        entry = {"type": "tally", "table": table, "outcome": body.outcome}
    elif body.total is not None:
        entry = {"type": "tally", "table": table, "total": body.total}
    else:
        entry = {"type": "roll", "table": table, "dice": list(body.dice or [])}
    if player is not None:
        entry["player"] = player
    return entry


def _asked_roll(table: int | None, player: str | None) -> DicelessRoll:
    """A roll whose dice the server draws, at ``table`` (``None``: the roll-off)."""
    asked: DicelessRoll = {"type": "roll"}
    if table is not None:
        asked["table"] = table
    if player is not None:
        asked["player"] = player
    return asked


def _player_for(who_role: str, who_player: str | None, given: str | None) -> str | None:
    if who_role != "player":
        return given
    if given is not None and given != who_player:
        raise ServiceError(
            403, "forbidden", f"player {who_player} cannot roll for {given}", "your own rolls only"
        )
    return who_player


@router.post("/tables/{table}/rolls", response_model=AckOut)
async def roll(night_id: NightId, table: TableNo, body: RollIn, request: Request) -> Response:
    """Enter a roll at a table: three faces, a quick tally, or "roll for me" (the server
    draws the dice with a cryptographic generator and records them). Also the rolls after
    the bell and a table's tie-break."""
    return ack_reply(await enter_roll(service(request), request, night_id, table, body))


async def enter_roll(
    svc: NightService, conn: HTTPConnection, night_id: str, table: int, body: RollIn
) -> Ack:
    """The command behind ``POST .../tables/{table}/rolls`` (also used by the fast path)."""
    who = await require(conn, night_id, *WRITERS, what="entering rolls")
    # 404 first; the writer catches up
    heard(await svc.get(night_id, fresh=False), who, body.more, body.command_id)
    player = _player_for(who.role, who.player, body.player)
    intent: Intent
    if body.roll_for_me:
        intent = RollForMe(_asked_roll(table, player))
    elif body.passed:  # the turns passed as misses, then the entry: one command
        intent = Credited(_entry(table, body, player), body.passed)
    else:
        intent = Given(_entry(table, body, player))
    try:
        return await svc.submit(
            night_id,
            intent,
            **roll_envelope(who, body, table),
            expected_seq=body.expected_seq,
            authorize=table_writer(who, table),
            tapped=tapped_of(body.tapped),
            more=body.more if who.role == "table" else None,
        )
    except ServiceError as exc:
        raise await named_refusal(svc, night_id, exc) from None


@router.post("/tables/{table}/undo", response_model=AckOut)
async def undo(night_id: NightId, table: TableNo, body: UndoIn, request: Request) -> Response:
    """Correct a mistake: remove the last roll or tally entered at the table.

    A table's phone undoes its own entries of the round in play only; an undo that would
    reopen a finished round, cancel the bell for the room or change another table is the
    host's (403 for a table's phone). ``GET`` on this path says which, first."""
    svc = service(request)
    who = await require(request, night_id, "host", "table", what="undoing entries")
    heard(await svc.get(night_id, fresh=False), who)  # 404 first; the writer catches up
    try:
        ack = await svc.submit(
            night_id,
            {"type": "undo", "table": table},
            **command_of(who, body, "undo", table),
            expected_seq=body.expected_seq,
            authorize=undo_writer(who, table),
            tapped=tapped_of(body.tapped),
        )
    except ServiceError as exc:
        raise await named_refusal(svc, night_id, exc) from None
    return ack_reply(ack)


@router.get("/tables/{table}/undo", response_model=UndoPreviewOut)
async def undo_preview(night_id: NightId, table: TableNo, request: Request) -> UndoPreviewOut:
    """What an undo at the table would do, before doing it: the entry it removes
    (``what``, ``player``, ``kind``, ``dice``), what else it changes (``reopens`` a
    finished round, ``cancels`` its new seating or roll-off or prizes, ``unrings`` the
    bell for the room, ``other_tables``), ``host_only``, the ``question`` the host page
    asks, and ``allowed`` (whether your token may do it); ``expected_seq`` to send."""
    who = await require(request, night_id, "host", "table", what="undoing entries")
    if who.role == "table" and who.table != table:
        raise ServiceError(
            403,
            "forbidden",
            f"this phone scores table {who.table}, not table {table}",
            f"entries at table {who.table} only",
        )
    live = await service(request).get(night_id)
    try:
        effect = undo_effect(live.night, table)
    except BuncoError as exc:
        raise refused_error(Refused.of_engine(exc)) from None
    return UndoPreviewOut.model_validate(
        {
            "night": live.id,
            "seq": live.seq,
            "expected_seq": live.version(table),
            **effect.as_dict(),
            "allowed": who.role == "host" or not effect.host_only,
        }
    )


@router.post("/rolloff", response_model=AckOut)
async def rolloff(night_id: NightId, body: DiceIn, request: Request) -> Response:
    """A roll in the roll-off between players at no table (a set's winner, a prize)."""
    svc = service(request)
    who = await require(request, night_id, "host", "player", what="rolling in a roll-off")
    await svc.get(night_id, fresh=False)  # 404 first; the writer catches up itself
    player = _player_for(who.role, who.player, body.player)
    intent: Intent
    if body.roll_for_me:
        intent = RollForMe(_asked_roll(None, player))
    else:
        roll: RollEvent = {"type": "roll", "dice": list(body.dice or [])}
        if player is not None:
            roll["player"] = player
        intent = Given(roll)
    ack = await svc.submit(
        night_id,
        intent,
        **command_of(who, body, "rolloff"),
        expected_seq=body.expected_seq,
        authorize=table_writer(who, None),
    )
    return ack_reply(ack)


@router.post("/me/roll", response_model=AckOut)
async def my_roll(night_id: NightId, body: DiceIn, request: Request) -> Response:
    """A player's own roll on their turn, wherever they sit (online play)."""
    svc = service(request)
    who = await require(request, night_id, "player", what="rolling as a player")
    await svc.get(night_id, fresh=False)  # 404 first; the writer catches up itself
    if body.player is not None and body.player != who.player:
        raise ServiceError(
            403,
            "forbidden",
            f"player {who.player} cannot roll for {body.player}",
            "your own rolls only",
        )

    ack = await svc.submit(
        night_id,
        MyTurnRoll(who.player or "", body.dice),
        **command_of(who, body, "me/roll"),
        expected_seq=body.expected_seq,
        authorize=own_turn(who),
    )
    return ack_reply(ack)


def new_name(name: str) -> Callable[[Principal], Check]:
    """The host's check of a command that brings ``name`` into the night: no player may
    have the same name but for case or spacing (a claim could not tell them apart)."""

    def allowed(who: Principal) -> Check:
        host = host_only(who)

        def check(state: HeldState, asked: Asked) -> None:
            host(state, asked)
            wanted = name_key(name)
            same = next((p for p in state.night.cards if p != name and name_key(p) == wanted), None)
            if same is not None:
                raise Refused(
                    "conflict",
                    "name_taken",
                    f"{name!r} and the player {same!r} are the same name but for case or spacing",
                    "a name that differs from every player's",
                )

        return check

    return allowed


@router.post("/substitutes", response_model=AckOut)
async def substitute(night_id: NightId, body: SubstituteIn, request: Request) -> Response:
    """Between rounds, a substitute takes over a player's seat (host)."""
    return await night_command(
        request,
        night_id,
        {"type": "substitute", "out": body.out, "in": body.in_},
        body,
        "substitutions",
        allowed=new_name(body.in_),
    )


@router.post("/arrivals", response_model=AckOut)
async def arrival(night_id: NightId, body: PlayerIn, request: Request) -> Response:
    """Between rounds, a late arrival joins the night (host)."""
    return await night_command(
        request,
        night_id,
        {"type": "join", "player": body.player},
        body,
        "seating late arrivals",
        allowed=new_name(body.player),
    )


@router.post("/departures", response_model=AckOut)
async def departure(night_id: NightId, body: PlayerIn, request: Request) -> Response:
    """Between rounds, a player leaves the night (host)."""
    return await night_command(
        request, night_id, {"type": "leave", "player": body.player}, body, "departures"
    )


@router.post("/verifications", response_model=AckOut)
async def verify(night_id: NightId, body: VerifyIn, request: Request) -> Response:
    """A checker verifies a player's Buncos, Minis and Wins so far (tournament; host)."""
    event: VerifyEvent = {"type": "verify", "player": body.player}
    if body.checker is not None:
        event["checker"] = body.checker
    return await night_command(request, night_id, event, body, "verifying cards")


@router.post("/start", response_model=AckOut)
async def start_round(night_id: NightId, body: CommandBody, request: Request) -> Response:
    """Between rounds, the head table rings the bell to start the round (the host or the
    head table's scorekeeper): the round begins at every table. The night's first round
    also starts with its first roll; later ones begin table by table with ``.../seated``."""
    return await night_command(
        request,
        night_id,
        {"type": "start_round"},
        body,
        "starting a round",
        roles=("host", "table"),
        allowed=host_or_head_table,
    )


@router.post("/tables/{table}/seated", response_model=AckOut)
async def seated(
    night_id: NightId, table: TableNo, body: CommandBody, request: Request
) -> Response:
    """Between rounds, a table confirms its new seating: everyone sits at their new seat,
    and the round begins there (the host, that table's scorekeeper, or a player seated there). Until then, or
    until the head table's bell (``POST .../start``), the table's entries of the round are
    refused (409 ``not_seated``; ``seating_changed`` after the host reseated the room).
    The night's first round and a night of one table need none (:mod:`bunco.core.seating_confirm`)."""
    svc = service(request)
    who = await require(request, night_id, *WRITERS, what="confirming a seating")
    heard(await svc.get(night_id, fresh=False), who)  # 404 first; the writer catches up
    try:
        ack = await svc.submit(
            night_id,
            {"type": "seated", "table": table},
            **command_of(who, body, "seated", table),
            expected_seq=body.expected_seq,
            authorize=seating_writer(who, table),
        )
    except ServiceError as exc:
        raise await named_refusal(svc, night_id, exc) from None
    return ack_reply(ack)


@router.post("/end", response_model=AckOut)
async def end_night(night_id: NightId, body: CommandBody, request: Request) -> Response:
    """Between rounds, the host ends the night early: the rounds played so far are the
    night, the set under way gets its winner, and the prizes are decided (host)."""
    return await night_command(request, night_id, {"type": "end_night"}, body, "ending the night")


@router.post("/seating", response_model=AckOut)
async def seat(night_id: NightId, body: SeatIn, request: Request) -> Response:
    """Seat everyone by hand before a round starts (host)."""
    event: SeatEvent = {"type": "seat", "tables": body.tables}
    if body.overrides:
        event["overrides"] = list(body.overrides)
    return await night_command(request, night_id, event, body, "seating")


@router.post("/events", response_model=AckOut)
async def any_event(night_id: NightId, body: EventIn, request: Request) -> Response:
    """Any event of the party-log format. The host may send every type; a table's
    scorekeeper rolls, tallies and undos at its own table."""
    svc = service(request)
    who = await require(request, night_id, "host", "table", what="sending events")
    await svc.get(night_id, fresh=False)  # 404 first; the writer catches up itself
    event = cast(Event, body.event_dict())  # checked by the event's model (EventIn)
    ack = await svc.submit(
        night_id,
        event,
        **command_of(who, body, "events"),
        expected_seq=body.expected_seq,
        authorize=table_writer(who, event_table(event)),
    )
    return ack_reply(ack)
