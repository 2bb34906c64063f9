"""HTTP API, part 5: the tables' phones as the host sees them (docs/outbox.md).

A table's page keeps every entry in an outbox on the phone until the server answers it.
It tells the server what it holds (``POST .../tables/{n}/outbox``: how many entries wait,
since when, and the entries the server refused that wait for a person's decision) each
time that changes and every 15 s while it is connected; every request of the table's
token counts as being heard too. The host reads it all in ``GET .../phones``: per table,
the time since its phone was last heard, the entries waiting and the refused ones.

A refused entry is never dropped by the server or the page: the table's phone asks its
scorekeeper, who discards it or sends it to the host (``POST .../tables/{n}/set-aside``:
kept with the night, in the database, until the host marks it handled with
``POST .../set-aside/{id}/handled``).

What a phone reports is stored with the night (:mod:`bunco.store.phone_reports`), so
with several server processes (``bunco serve --workers N`` on PostgreSQL) the host sees
every table's phone whichever process each phone talks to, and a restart forgets
nothing; the entries sent to the host are stored with the night's options.

While a table's phone holds entries of the round, or fell silent since it was heard this
round, the round does not end without it (:mod:`bunco.web.phone_book`): the room waits
for it (``wait_for_phone``), and goes on once its report says it holds no more, or by the
host's decision (``POST .../tables/{n}/go-on``: go on without it, or with who won there,
from the table's paper tally).
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field, StringConstraints

from bunco.store.phone_reports import PhoneReports, StoredReport
from bunco.web.access import require
from bunco.web.command_path import go_on_command, round_began
from bunco.web.fields import Label, Name
from bunco.web.live_night import LiveNight
from bunco.web.replies import ServiceError
from bunco.web.reply_models import HandledOut, HeardOut, PhonesOut, SetAsideOut
from bunco.web.routing import ERRORS, NightId, TableNo, night_command, service
from bunco.web.schemas import AckOut, CommandBody, StrictModel, TappedIn

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["phones"])

Text = Annotated[str, StringConstraints(min_length=1, max_length=300)]
EntryId = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
]
MAX_HELD = 500
"""The most entries a night keeps set aside for its host."""


class RefusedIn(StrictModel):
    """An entry the server refused, as the phone holds it until a person decides."""

    id: EntryId = Field(description="its command id")
    label: Label = Field(description="the entry in words, as the page shows it")
    code: Label = Field(description="the refusal's error code (round_closed, stale, ...)")
    message: Text = Field(description="the refusal's message")
    tapped: TappedIn | None = None


class RoundWaitingIn(StrictModel):
    """The entries waiting on a phone that were tapped in one round."""

    set: int = Field(ge=1, le=1_000)
    round: int = Field(ge=1, le=1_000)
    waiting: int = Field(ge=0, le=100_000)


class OutboxIn(StrictModel):
    """What a table's phone holds now."""

    waiting: int = Field(ge=0, le=100_000, description="entries not sent yet")
    first: EntryId | None = Field(
        None,
        description="the command id of the first entry waiting (a report that crossed its "
        "entries on the way, which the server stored already, says nothing of them)",
    )
    rounds: list[RoundWaitingIn] = Field(
        default_factory=list,
        max_length=50,
        description="the entries waiting, per round they were tapped in (the room waits "
        "for a phone that holds entries of the round in play)",
    )
    oldest: Annotated[str, StringConstraints(max_length=40)] | None = Field(
        None, description="when the oldest of them was tapped (the phone's clock, ISO 8601)"
    )
    oldest_age: float | None = Field(
        None, ge=0, le=10**9, description="how long ago (s), by the phone's clock"
    )
    refused: list[RefusedIn] = Field(default_factory=list, max_length=MAX_HELD)
    mode: Literal["offline-ready", "outbox-only"] | None = Field(
        None,
        description="offline-ready: a service worker keeps the page (secure origin); "
        "outbox-only: plain http, the outbox alone survives",
    )


class GoOnIn(CommandBody):
    """The host's decision about a table whose phone the room waits for."""

    winner: Name | None = Field(
        None,
        description="who won at that table, from its paper tally (their side wins; a "
        "tie-break there is dropped); without it, the room goes on without the phone",
    )


class SetAsideIn(CommandBody):
    """Refused entries a table's scorekeeper sends to the host."""

    entries: list[RefusedIn] = Field(min_length=1, max_length=100)


async def _table_phone(request: Request, night_id: str, table: int, what: str) -> LiveNight:
    """The night, if the caller is the host or table ``table``'s phone."""
    who = await require(request, night_id, "host", "table", what=what)
    if who.role == "table" and who.table != table:
        raise ServiceError(
            403,
            "forbidden",
            f"this phone scores table {who.table}, not table {table}",
            f"table {who.table}'s own outbox only",
        )
    live = await service(request).get(night_id, fresh=False)
    if table > max(len(live.night.seating), len(live.night.tables)):
        raise ServiceError(
            404,
            "no_such_table",
            f"night {night_id!r} has no table {table}",
            f"a table from 1 to {len(live.night.seating)}",
        )
    return live


@router.post("/tables/{table}/outbox", response_model=HeardOut)
async def report_outbox(
    night_id: NightId, table: TableNo, body: OutboxIn, request: Request
) -> dict[str, Any]:
    """A table's phone says what its outbox holds (entries waiting, since when, and the
    refused ones waiting for a person); the host page shows it."""
    live = await _table_phone(request, night_id, table, "reporting its outbox")
    heard = _now()
    report = body.model_dump(mode="json")
    crossed = body.first is not None and (
        live.phones.crossed(table, body.first) or live.state.known("", body.first) is not None
    )
    if crossed:  # it crossed its entries on the way: what they said (``more``) is newer
        report["crossed"] = True
    await asyncio.to_thread(_reports(request).save, night_id, table, heard, report)
    live.phones.note_report(table, datetime.fromisoformat(heard).timestamp(), report)
    if not crossed:
        await _release(request, live, table)
    return {"night": night_id, "table": table, "heard": heard}


async def _release(request: Request, live: LiveNight, table: int) -> None:
    """The room waits for table ``table``'s phone, which now says it holds no entry of the
    round: it goes on (the server's ``go_on``, written once whoever asks)."""
    night = live.night
    if table not in night.awaited or live.phones.holds(table, night.set_no, night.round_no):
        return
    # refused if released meanwhile (the phone's last entry said so), or the round moved on
    with contextlib.suppress(ServiceError):
        await service(request).path.send(live.id, go_on_command(live.state, table, "sent"))


@router.post("/tables/{table}/go-on", response_model=AckOut)
async def go_on(night_id: NightId, table: TableNo, body: GoOnIn, request: Request) -> Response:
    """The host's decision about table ``table``'s phone, which the room waits for (or
    whose table's result the host has from its paper tally): go on without it, or with
    ``winner``, who won there. The round ends once every table has settled and no phone
    is waited for (docs/outbox.md)."""
    event: dict[str, Any] = {"type": "go_on", "of_table": table, "why": "host"}
    if body.winner is not None:
        event["winner"] = body.winner
    return await night_command(request, night_id, event, body, "deciding about a table's phone")


@router.post("/tables/{table}/set-aside", response_model=SetAsideOut)
async def set_aside(
    night_id: NightId, table: TableNo, body: SetAsideIn, request: Request
) -> dict[str, Any]:
    """Refused entries sent to the host by a person at the table: kept with the night
    until the host marks them handled (a retry with the same entries adds nothing)."""
    live = await _table_phone(request, night_id, table, "sending entries to the host")
    svc = service(request)
    async with live.lock:
        held = list(live.options.get("set_aside", []))
        known = {(h["table"], h["id"]) for h in held}
        fresh = [
            {**e.model_dump(mode="json"), "table": table, "sent": _now(), "handled": False}
            for e in body.entries
            if (table, e.id) not in known
        ]
        if len(held) + len(fresh) > MAX_HELD:
            raise ServiceError(
                409,
                "too_many",
                f"the host already holds {len(held)} entries set aside",
                "the host marks some handled first",
            )
        if fresh:
            options = {**live.options, "set_aside": held + fresh}
            await svc.db(svc.store.set_options, night_id, options)
            live.options = options
    stored = (await asyncio.to_thread(_reports(request).load, night_id)).get(table)
    if stored is not None:  # the phone holds them no more
        sent = {e.id for e in body.entries}
        refused = [r for r in stored.report.get("refused", []) if r["id"] not in sent]
        await asyncio.to_thread(
            _reports(request).save, night_id, table, _now(), {**stored.report, "refused": refused}
        )
    return {"night": night_id, "table": table, "added": len(fresh), "held": len(held) + len(fresh)}


@router.post("/set-aside/{table}/{entry}/handled", response_model=HandledOut)
async def handled(
    night_id: NightId,
    table: TableNo,
    entry: Annotated[str, Path(min_length=1, max_length=64)],
    request: Request,
) -> dict[str, Any]:
    """The host has dealt with an entry a table sent (entered it by hand, or decided it
    does not count): it leaves the list."""
    await require(request, night_id, "host", what="handling entries set aside")
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    async with live.lock:
        held = list(live.options.get("set_aside", []))
        match = [h for h in held if h["table"] == table and h["id"] == entry]
        if not match:
            raise ServiceError(
                404,
                "no_such_entry",
                f"table {table} sent no entry {entry!r}",
                "an entry listed in GET .../phones (set_aside)",
            )
        options = {**live.options, "set_aside": [h for h in held if h not in match]}
        await svc.db(svc.store.set_options, night_id, options)
        live.options = options
    return {"night": night_id, "table": table, "id": entry, "handled": True}


@router.get("/phones", response_model=PhonesOut)
async def phones(night_id: NightId, request: Request) -> dict[str, Any]:
    """The tables' phones as the host sees them: per table, seconds since its phone was
    last heard (``null``: never), entries waiting on it and
    since when, the refused entries waiting for a person there; and the entries sent to
    the host (``set_aside``)."""
    await require(request, night_id, "host", what="reading the tables' phones")
    live = await service(request).get(night_id, fresh=False)
    stored = await asyncio.to_thread(_reports(request).load, night_id)
    now = datetime.now(UTC)
    live.phones.merge(stored, now.timestamp())
    tables = []
    for number in range(1, max(len(live.night.seating), len(live.night.tables)) + 1):
        phone = _phone(number, stored.get(number), live.heard_from.get(number), now)
        tables.append({**phone, **_round_word(live, number, now.timestamp())})
    return {
        "night": night_id,
        "tables": tables,
        "set_aside": list(live.options.get("set_aside", [])),
    }


def _round_word(live: LiveNight, table: int, now: float) -> dict[str, Any]:
    """What table ``table``'s phone means for the round in play: the entries of it it
    holds (``holds``), whether it fell ``silent`` since it was heard this round, whether
    the room waits for it (``awaited``: true, with ``awaiting`` the entries it said it
    holds, null when it fell silent), the table's ``status`` and its ``sides`` (who won
    there is one of them, for the host's decision)."""
    night, book = live.night, live.phones
    playing = night.phase == "playing" and table <= len(night.tables)
    if not playing:
        return {
            "holds": 0,
            "silent": False,
            "awaited": False,
            "awaiting": None,
            "status": None,
            "sides": [],
        }
    current = night.tables[table - 1]
    sides = [
        [current.seats[i] for i in current.side_seats(side) if current.seats[i]]
        for side in current.sides
    ]
    return {
        "holds": book.holds(table, night.set_no, night.round_no),
        "silent": table not in night.decided
        and book.silent(table, now=now, began=round_began(live.state)),
        "awaited": table in night.awaited,
        "awaiting": night.awaited.get(table),
        "status": current.status.value,
        "sides": sides,
    }


def _phone(
    number: int, stored: StoredReport | None, heard: str | None, now: datetime
) -> dict[str, Any]:
    """Table ``number``'s phone as the host sees it: its last report (any process's) and
    the last time this process heard it (an entry, an undo), whichever is later."""
    report = stored.report if stored else {}
    last = max(filter(None, [heard, stored.heard if stored else None]), default=None)
    ago = None if last is None else (now - datetime.fromisoformat(last)).total_seconds()
    since_report = (
        0.0 if stored is None else (now - datetime.fromisoformat(stored.heard)).total_seconds()
    )
    oldest_age = report.get("oldest_age")
    return {
        "table": number,
        "heard_ago": None if ago is None else round(ago, 1),
        "waiting": int(report.get("waiting", 0)),
        "oldest_age": None if oldest_age is None else round(oldest_age + since_report, 1),
        "refused": list(report.get("refused", [])),
        "mode": report.get("mode"),
    }


def _reports(request: Request) -> PhoneReports:
    """The phones' reports, in the night store's database."""
    return PhoneReports(service(request).store.engine)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
