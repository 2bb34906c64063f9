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
round, the round does not end without it (:mod:`bunco.web.night.phone_book`): the room waits
for it (``wait_for_phone``), and goes on once its report says it holds no more, or by the
host's decision (``POST .../tables/{n}/go-on``: go on without it, or with the table's score
entered from its paper tally: each player's points, Buncos and Mini Buncos, and who won
there when the totals tie; :func:`bunco.core.late_entries.paper_table`).
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Annotated, Literal, cast

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field, Strict, StringConstraints

from bunco.core.late_entries import MAX_COUNT, MAX_POINTS, GoOnEvent
from bunco.core.server_options import RefusedEntry
from bunco.core.table import Status
from bunco.store.phone_reports import PhoneReport, PhoneReports, StoredReport
from bunco.web.api.access import require
from bunco.web.api.routing import ERRORS, NightId, TableNo, night_command, service
from bunco.web.decision.night_options import MAX_HELD
from bunco.web.decision.night_options import handled as handled_entry
from bunco.web.decision.night_options import set_aside as entries_set_aside
from bunco.web.night.command_path import go_on_command, round_began
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.values.fields import Label, Name
from bunco.web.values.night_replies import PhoneShown, RoundWord, TablePhone
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import HandledOut, HeardOut, PhonesOut, SetAsideOut
from bunco.web.values.schemas import AckOut, CommandBody, StrictModel, TappedIn

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["phones"])

Text = Annotated[str, StringConstraints(min_length=1, max_length=300)]
EntryId = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
]
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


PaperPoints = Annotated[int, Strict(), Field(ge=0, le=MAX_POINTS)]
PaperCount = Annotated[int, Strict(), Field(ge=0, le=MAX_COUNT)]


class GoOnIn(CommandBody):
    """The host's decision about a table whose phone the room waits for: go on without
    it, or enter the table's score from its paper tally (``points``, with ``buncos``,
    ``minis`` and, when the totals tie, ``winner``)."""

    points: dict[Name, PaperPoints] | None = Field(
        None,
        max_length=8,
        description="the table's score from its paper tally: each player seated there this "
        "round → the round's points they scored (whole numbers, 0 to 10,000); the team "
        "totals (a player's own, at a table of individuals) decide who won there. It "
        "replaces the entries the server had of that round at that table",
        examples=[{"Eve": 6, "Fay": 23, "Gus": 2, "Hal": 1}],
    )
    buncos: dict[Name, PaperCount] | None = Field(
        None,
        max_length=8,
        description="with points: the Buncos each player rolled there (leave a player out "
        "for none)",
    )
    minis: dict[Name, PaperCount] | None = Field(
        None,
        max_length=8,
        description="with points: the Mini Buncos (the preset's three of a kind that is "
        "not a Bunco: Baby Bunco, ...) each player rolled there",
    )
    winner: Name | None = Field(
        None,
        description="with points: who won there when the totals tie (a player of the side "
        "that won the tie-break; refused when the points say otherwise). Alone (older "
        "clients): who won there, the table's points left as entered",
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
) -> HeardOut:
    """A table's phone says what its outbox holds (entries waiting, since when, and the
    refused ones waiting for a person); the host page shows it."""
    live = await _table_phone(request, night_id, table, "reporting its outbox")
    heard = _now()
    report = cast(PhoneReport, body.model_dump(mode="json"))  # OutboxIn: its shape
    crossed = _stored_already(live, table, body.first)
    if crossed:  # it crossed its entries on the way: what they said (``more``) is newer
        report["crossed"] = True
    await asyncio.to_thread(_reports(request).save, night_id, table, heard, report)
    live.phones.note_report(table, datetime.fromisoformat(heard).timestamp(), report)
    if not crossed:
        await _release(request, live, table)
    return HeardOut(night=night_id, table=table, heard=heard)


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
    """The host's decision about table ``table``'s phone, which the room waits for: go on
    without it, or enter the table's score from its paper tally (``points``, ``buncos``,
    ``minis``; ``winner`` when the totals tie), which replaces the entries the server had
    of that round there. The round ends once every table has settled and no phone is
    waited for (docs/outbox.md)."""
    event: GoOnEvent = {"type": "go_on", "of_table": table, "why": "host"}
    if body.points is not None:
        event["points"] = dict(body.points)
    if body.buncos is not None:
        event["buncos"] = dict(body.buncos)
    if body.minis is not None:
        event["minis"] = dict(body.minis)
    if body.winner is not None:
        event["winner"] = body.winner
    return await night_command(request, night_id, event, body, "deciding about a table's phone")


@router.post("/tables/{table}/set-aside", response_model=SetAsideOut)
async def set_aside(
    night_id: NightId, table: TableNo, body: SetAsideIn, request: Request
) -> SetAsideOut:
    """Refused entries sent to the host by a person at the table: kept with the night
    until the host marks them handled (a retry with the same entries adds nothing)."""
    live = await _table_phone(request, night_id, table, "sending entries to the host")
    svc = service(request)
    entries = [cast(RefusedEntry, e.model_dump(mode="json")) for e in body.entries]
    changed = await svc.change_options(live, entries_set_aside(table, entries, _now()))
    before = len(changed.before.get("set_aside") or [])
    now_held = len(changed.after.get("set_aside") or [])
    # the phone holds them no more: out of its report, in one transaction that never
    # overwrites a report the phone sends meanwhile (bunco.store.phone_reports)
    sent = {e.id for e in body.entries}
    await asyncio.to_thread(_reports(request).drop_refused, night_id, table, sent)
    return SetAsideOut(night=night_id, table=table, added=now_held - before, held=now_held)


@router.post("/set-aside/{table}/{entry}/handled", response_model=HandledOut)
async def handled(
    night_id: NightId,
    table: TableNo,
    entry: Annotated[str, Path(min_length=1, max_length=64)],
    request: Request,
) -> HandledOut:
    """The host has dealt with an entry a table sent (entered it by hand, or decided it
    does not count): it leaves the list."""
    await require(request, night_id, "host", what="handling entries set aside")
    svc = service(request)
    live = await svc.get(night_id, fresh=False)
    await svc.change_options(live, handled_entry(table, entry))
    return HandledOut(night=night_id, table=table, id=entry, handled=True)


@router.get("/phones", response_model=PhonesOut)
async def phones(night_id: NightId, request: Request) -> PhonesOut:
    """The tables' phones as the host sees them: per table, seconds since its phone was
    last heard (``null``: never), entries waiting on it and
    since when, the refused entries waiting for a person there; and the entries sent to
    the host (``set_aside``)."""
    await require(request, night_id, "host", what="reading the tables' phones")
    live = await service(request).get(night_id, fresh=False)
    stored = await asyncio.to_thread(_reports(request).load, night_id)
    now = datetime.now(UTC)
    live.phones.merge(stored, now.timestamp())
    tables: list[TablePhone] = []
    for number in range(1, max(len(live.night.seating), len(live.night.tables)) + 1):
        waiting = _waiting(live, number, stored.get(number))
        phone = _phone(number, stored.get(number), live.heard_from.get(number), now, waiting)
        tables.append({**phone, **_round_word(live, number, now.timestamp())})
    return PhonesOut.model_validate(
        {
            "night": night_id,
            "tables": tables,
            "set_aside": list(live.options.get("set_aside", [])),
            "paper_minis": live.night.rules.mini_label,
        }
    )


def _waiting(live: LiveNight, table: int, stored: StoredReport | None) -> int:
    """The entries table ``table``'s phone holds by its latest word: an entry it sent
    after its last report says what it still holds (more than the report, when entries
    were tapped since); else the report, where a first entry waiting that is stored
    already (it crossed it on the way, or the entry came after) counts no more (the
    phone sends its entries in the order they were tapped, and reports again once they
    are sent)."""
    report: PhoneReport = stored.report if stored else {}
    reported = int(report.get("waiting", 0))
    if reported and _stored_already(live, table, report.get("first")):
        reported -= 1
    return live.phones.waiting(table, reported)


def _stored_already(live: LiveNight, table: int, first: str | None) -> bool:
    """Whether ``first``, the entry a phone's report names first of those waiting, is
    stored already: the report crossed it on the way (this process took it from the
    phone, or the night holds its command id)."""
    return first is not None and (
        live.phones.crossed(table, first) or live.state.known("", first) is not None
    )


def _round_word(live: LiveNight, table: int, now: float) -> RoundWord:
    """What table ``table``'s phone means for the round in play: the entries of it it
    holds (``holds``), whether it fell ``silent`` since it was heard this round, whether
    the room waits for it (``awaited``: true, with ``awaiting`` the entries it said it
    holds, null when it fell silent), whether the table has not finished since the bell
    with nothing entered there this round or its phone silent (``unsettled``: the host may
    enter its score from the paper), the table's ``status``, its ``sides`` (who won
    there is one of them) and its ``players`` in seat order, for the host's decision
    (the table's score from the paper: a line for each of them)."""
    night, book = live.night, live.phones
    playing = night.phase == "playing" and table <= len(night.tables)
    if not playing:
        return {
            "holds": 0,
            "silent": False,
            "awaited": False,
            "awaiting": None,
            "unsettled": False,
            "status": None,
            "sides": [],
            "players": [],
        }
    current = night.tables[table - 1]
    sides = [
        [seat for i in current.side_seats(side) if (seat := current.seats[i])]
        for side in current.sides
    ]
    silent = table not in night.decided and book.silent(
        table, now=now, began=round_began(live.state)
    )
    return {
        "holds": book.holds(table, night.set_no, night.round_no),
        "silent": silent,
        "awaited": table in night.awaited,
        "awaiting": night.awaited.get(table),
        "unsettled": night.bell
        and current.status is not Status.DONE
        and table not in night.awaited
        and not night.from_paper(night.set_no, night.round_no, table)
        and (not current.rolls or silent),
        "status": current.status.value,
        "sides": sides,
        "players": [p for p in current.seats if p],
    }


def _phone(
    number: int, stored: StoredReport | None, heard: str | None, now: datetime, waiting: int
) -> PhoneShown:
    """Table ``number``'s phone as the host sees it: its last report (any process's) and
    the last time this process heard it (an entry, an undo), whichever is later, holding
    ``waiting`` entries by its latest word (:func:`_waiting`)."""
    report: PhoneReport = stored.report if stored else {}
    last = max(filter(None, [heard, stored.heard if stored else None]), default=None)
    ago = None if last is None else (now - datetime.fromisoformat(last)).total_seconds()
    since_report = (
        0.0 if stored is None else (now - datetime.fromisoformat(stored.heard)).total_seconds()
    )
    oldest_age = report.get("oldest_age")
    return {
        "table": number,
        "heard_ago": None if ago is None else round(ago, 1),
        "waiting": waiting,
        "oldest_age": None
        if oldest_age is None or not waiting
        else round(oldest_age + since_report, 1),
        "refused": list(report.get("refused", [])),
        "mode": report.get("mode"),
    }


def _reports(request: Request) -> PhoneReports:
    """The phones' reports, in the night store's database."""
    return PhoneReports(service(request).store.engine)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
