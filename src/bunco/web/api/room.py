"""HTTP API, the room at a glance (docs/room.md): the host's dashboard, announcements to
every page, and the tables' "call the host".

* ``GET .../room``: the announcement shown now and the tables calling the host (any
  token of the night: every page draws them);
* ``POST .../announcements`` (host): a line every phone and screen shows at once
  ("5 minutes to the break"); ``POST .../announcements/clear`` takes it down;
* ``POST .../tables/{n}/call`` (the table's own phone, or the host): the table calls the
  host; ``POST .../calls/{n}/clear`` (host): answered;
* ``GET .../dashboard`` (host): per table its state, its last entry, the entries waiting
  on its phone, and flags for what needs a person (:mod:`bunco.web.room.room_watch`).

The announcement and the calls are kept with the night (its options, in the database),
so a restart or a page opened later shows them; each change goes to every page of the
night at once as a ``{"type": "room", "seq", "room"}`` message on the live stream.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field, StringConstraints

from bunco.core.server_options import Room
from bunco.store.events import OptionsChange
from bunco.store.phone_reports import PhoneReports
from bunco.web.api.access import require, require_host, require_read
from bunco.web.api.routing import DECIMAL, ERRORS, NightId, TableNo, service
from bunco.web.decision.night_options import (
    announced,
    announcement_cleared,
    call_cleared,
    host_called,
    room_of,
)
from bunco.web.live.pubsub import Message
from bunco.web.night.command_path import round_began
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.room.room_watch import RoomLog, flags, phone_flag, round_start
from bunco.web.values.replies import ServiceError, json_text
from bunco.web.values.schemas import CommandBody
from bunco.web.values.socket_messages import room_message

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["room"])

Line = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=140)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)]


class AnnouncementIn(CommandBody):
    """A line for every phone and screen of the night."""

    text: Line = Field(description="what every page shows, 1 to 140 characters")


class CallIn(CommandBody):
    """A table calls the host."""

    note: Note | None = Field(None, description="why, in a few words (optional)")


class AnnouncementOut(BaseModel):
    id: str = Field(description="changes with each announcement (pages show a new one)")
    text: str
    at: str = Field(description="when the host made it (UTC, ISO 8601)")


class CallOut(BaseModel):
    table: int
    at: str = Field(description="when the table called (UTC, ISO 8601)")
    note: str | None = None


class RoomOut(BaseModel):
    """What every page of the night draws of the room: the announcement, the calls."""

    night: str
    announcement: AnnouncementOut | None
    calls: list[CallOut]


class FlagOut(BaseModel):
    kind: Literal["silent", "too_fast", "implausible", "call", "refused", "phone"]
    text: str


class TableRoomOut(BaseModel):
    table: int
    status: str = Field(description="first_roll, playing, finishing, tie_break or done")
    players: list[str | None]
    rolls: int = Field(description="entries this round")
    last_entry_ago: float | None = Field(
        description="seconds since its last entry (null: none since this server started)"
    )
    waiting: int = Field(description="entries waiting on its phone (its outbox)")
    heard_ago: float | None = Field(description="seconds since its phone was last heard")
    flags: list[FlagOut]


class DashboardOut(BaseModel):
    """The room at a glance, for the host."""

    night: str
    round: int
    set: int
    phase: str
    silent_minutes: float
    announcement: AnnouncementOut | None
    calls: list[CallOut]
    flagged: int = Field(description="tables with at least one flag")
    tables: list[TableRoomOut]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _out(night_id: str, room: Room) -> RoomOut:
    calls = sorted(room["calls"].values(), key=lambda c: c["at"])
    shown = room["announcement"]
    return RoomOut(
        night=night_id,
        announcement=None if shown is None else AnnouncementOut(**shown),
        calls=[CallOut(**c) for c in calls],
    )


async def _change(request: Request, live: LiveNight, change: OptionsChange) -> RoomOut:
    """Change the room kept with the night by ``change`` and tell every page of it."""
    svc = service(request)
    changed = await svc.change_options(live, change)
    out = _out(live.id, room_of(changed.after))
    if changed.after != changed.before:
        text = json_text(room_message(live.seq, out.model_dump(mode="json")))
        svc.publisher.deliver(Message(live.id, live.seq, None, text, kind="options"))
    return out


@router.get("/room", response_model=RoomOut)
async def room(night_id: NightId, request: Request) -> RoomOut:
    """The announcement shown now and the tables calling the host."""
    await require_read(request, night_id)
    live = await service(request).get(night_id, fresh=False)
    return _out(night_id, room_of(live.options))


@router.post("/announcements", response_model=RoomOut)
async def announce(night_id: NightId, body: AnnouncementIn, request: Request) -> RoomOut:
    """Show ``text`` on every phone and screen of the night (replacing the last one)."""
    await require_host(request, night_id, "announcing")
    live = await service(request).get(night_id, fresh=False)
    return await _change(request, live, announced(body.command_id, body.text, _now()))


@router.post("/announcements/clear", response_model=RoomOut)
async def clear_announcement(night_id: NightId, body: CommandBody, request: Request) -> RoomOut:
    """Take the announcement down (nothing to take down: the room as it is)."""
    await require_host(request, night_id, "taking an announcement down")
    live = await service(request).get(night_id, fresh=False)
    return await _change(request, live, announcement_cleared)


def _table_count(live: LiveNight) -> int:
    return max(len(live.night.seating), len(live.night.tables))


@router.post("/tables/{table}/call", response_model=RoomOut)
async def call_host(night_id: NightId, table: TableNo, body: CallIn, request: Request) -> RoomOut:
    """Table ``table`` calls the host (a second call while one waits keeps the first's
    time, with the newer note)."""
    who = await require(request, night_id, "host", "table", what="calling the host")
    if who.role == "table" and who.table != table:
        raise ServiceError(
            403,
            "forbidden",
            f"this phone scores table {who.table}, not table {table}",
            f"table {who.table}'s own call",
        )
    live = await service(request).get(night_id, fresh=False)
    if table > _table_count(live):
        raise ServiceError(
            404,
            "no_such_table",
            f"night {night_id!r} has no table {table}",
            f"a table from 1 to {_table_count(live)}",
        )
    return await _change(request, live, host_called(table, body.note, _now()))


@router.post("/calls/{table}/clear", response_model=RoomOut)
async def clear_call(
    night_id: NightId, table: TableNo, body: CommandBody, request: Request
) -> RoomOut:
    """The host answered table ``table``'s call: it leaves the dashboard and the table's
    page."""
    await require_host(request, night_id, "answering a call")
    live = await service(request).get(night_id, fresh=False)
    return await _change(request, live, call_cleared(table))


_logs: dict[str, RoomLog] = {}
"""Each night's :class:`RoomLog`, read on from the seq it reached (this process's memory)."""


async def _room_log(request: Request, live: LiveNight) -> RoomLog:
    svc = service(request)
    log = _logs.get(live.id)
    if log is None or log.seq > live.seq:  # new here, or the night was made again
        log = _logs[live.id] = RoomLog()
    if log.seq < live.seq:
        for stored in await svc.db(svc.store.events, live.id, after=log.seq):
            at = stored.created_at.timestamp()
            log.read(stored.seq, stored.table, stored.event, at, stored.command_id)
    return log


@router.get("/dashboard", response_model=DashboardOut)
async def dashboard(
    night_id: NightId,
    request: Request,
    silent: Annotated[
        float,
        DECIMAL,
        Query(
            ge=0.05,
            le=120,
            description=("minutes without an entry after which a playing table is flagged silent"),
        ),
    ] = 5,
) -> DashboardOut:
    """Every table at a glance: its state, last entry, its phone's waiting entries, and
    what needs a person (docs/room.md)."""
    await require_host(request, night_id, "reading the dashboard")
    live = await service(request).get(night_id, fresh=False)
    night = live.night  # read as it stands (no view built: a poll costs the new entries only)
    log = await _room_log(request, live)
    now = time.time()
    started = round_start(
        {t.number: (log.tables.get(t.number), len(t.rolls)) for t in night.tables}
    )
    room = room_of(live.options)
    reports = await asyncio.to_thread(PhoneReports(service(request).store.engine).load, night_id)
    live.phones.merge(reports, now)
    began = round_began(live.state)
    tables = []
    for table in night.tables:
        number = table.number
        status, rolls = table.status.value, len(table.rolls)
        times = log.tables.get(number)
        stored = reports.get(number)
        report = stored.report if stored else {}
        heard = [h for h in (live.heard_from.get(number), stored.heard if stored else None) if h]
        heard_ago = (
            (now - max(datetime.fromisoformat(h) for h in heard).timestamp()) if heard else None
        )
        playing = night.phase == "playing" and status != "done"
        found = flags(
            times, rolls=rolls, playing=playing, now=now, silent_after=silent * 60, started=started
        )
        call = room["calls"].get(str(number))
        if call:
            found.insert(
                0,
                {
                    "kind": "call",
                    "text": "calls the host" + (f": {call['note']}" if call.get("note") else ""),
                },
            )
        if night.phase == "playing" and number not in night.decided:
            oldest = report.get("oldest_age")
            since = (now - datetime.fromisoformat(stored.heard).timestamp()) if stored else 0.0
            phone = phone_flag(
                holds=live.phones.holds(number, night.set_no, night.round_no),
                oldest_age=None if oldest is None else oldest + since,
                silent=live.phones.silent(number, now=now, began=began),
                heard_ago=heard_ago,
                awaited=number in night.awaited,
            )
            if phone is not None:
                found.insert(1 if call else 0, phone)
        if report.get("refused"):
            found.append(
                {
                    "kind": "refused",
                    "text": f"{len(report['refused'])} refused entries wait for a person",
                }
            )
        tables.append(
            TableRoomOut(
                table=number,
                status=status,
                players=list(table.seats),
                rolls=rolls,
                last_entry_ago=None
                if times is None or times.last is None
                else round(now - times.last, 1),
                waiting=int(report.get("waiting", 0)),
                heard_ago=None if heard_ago is None else round(heard_ago, 1),
                flags=[FlagOut.model_validate(f) for f in found],
            )
        )
    out = _out(night_id, room)
    return DashboardOut(
        night=night_id,
        round=night.round_no,
        set=night.set_no,
        phase=night.phase,
        silent_minutes=silent,
        announcement=out.announcement,
        calls=out.calls,
        flagged=sum(1 for t in tables if t.flags),
        tables=tables,
    )
