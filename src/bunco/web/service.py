"""The live nights: the one command path between the API and the engine and store.

Every write goes through :meth:`NightService.submit`. Commands to one night wait in the
night's inbox; one writer task per night takes everything waiting (a *batch*) and, under
the night's lock, checks each command in order against the night as the batch leaves it:
idempotency (a command id the same caller already used for the same request returns
its first result; for another request it is refused as ``id_reused``), the caller's
rights at this moment, the table's version (``expected_seq``), then lets the engine
apply the event. The batch's events are committed to the store in one transaction on a
writer thread (group commit: the event loop never waits for the database, and rolls
that arrive together cost one commit), and only then is the in-memory night advanced,
each event published and each command answered. A refused command changes nothing.

The in-memory state of a night is rebuilt from the stored log the first time the
night is used after a start, so killing the server loses nothing acknowledged.

Several processes may serve one night from one PostgreSQL database. The store then
notifies every process of each commit (:mod:`bunco.store.notify`); a process that holds
the night reads the events it missed from the store, in seq order, applies them to its
night and publishes them to its own listeners (:mod:`bunco.web.follow`). Processes
writing one night take turns: each batch is stored holding the night's write lock
(:mod:`bunco.store.night_lock`), and checked again under it when another process
stored events first, so a command is never refused because another process wrote, and
is refused as ``stale`` only when its own table (or the night, for commands of the
whole night) changed since the ``expected_seq`` it sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.party.view import (
    live_view,
    player_tables,
    same_pages,
    table_page,
    table_pages,
    table_view,
)
from bunco.store import (
    EventStore,
    SeqTaken,
    StoredEvent,
    StoreError,
)
from bunco.store.events import dump, now
from bunco.store.night_lock import NightLock, store_unless_missed
from bunco.web.auth import NightSecrets, creation_lookup, night_root, night_secrets
from bunco.web.pubsub import NO_TABLE, InProcessPubSub, Message, PubSub

log = logging.getLogger("bunco.service")
TABLE_EVENTS = frozenset({"roll", "tally", "undo"})
MAX_BATCH = 512
"""The most commands one transaction stores."""
MAX_ATTEMPTS = 20
"""How often a batch is checked again after a writer that does not take the night's
write lock (SQLite: another process on the same file) stored a seq first."""
TRIES_UNLOCKED = 3
"""PostgreSQL: how often a batch is planned without holding the night's write lock
before it holds it while planned again (then it is stored at that try)."""


class ServiceError(Exception):
    """A refusal with an HTTP status, a code, a message and what is expected instead."""

    def __init__(
        self, status: int, code: str, message: str, expected: str | None = None,
        *, headers: dict[str, str] | None = None, **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.expected = expected
        self.headers = headers
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "expected": self.expected,
                **self.extra}


def not_found(night_id: str) -> ServiceError:
    return ServiceError(404, "no_such_night", f"there is no night {night_id!r}",
                        "the id of a night made with POST /api/nights")


def roll_for_me() -> list[int]:
    """Three dice drawn with the operating system's cryptographic generator."""
    return [secrets.randbelow(6) + 1 for _ in range(3)]


def event_table(event: Mapping[str, Any]) -> int | None:
    """The table an event happened at (``None`` for the whole night or a roll-off)."""
    table = event.get("table")
    return table if isinstance(table, int) and not isinstance(table, bool) else None


def fingerprint(*parts: Any) -> str:
    """The SHA-256 of a request (JSON values), stored beside its command id.

    >>> fingerprint("rolls", 1, {"dice": [1, 1, 4]}) == fingerprint("rolls", 1, {"dice": [1, 1, 4]})
    True
    """
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def at_of(stored: StoredEvent) -> str:
    """When the event was stored: UTC, ISO 8601 with milliseconds."""
    return stored.created_at.isoformat(timespec="milliseconds")


def envelope(stored: StoredEvent) -> str:
    """The JSON members of an event in its envelope (seq, table, command id, time, event),
    built around the stored event without re-parsing it."""
    table = "null" if stored.table is None else str(stored.table)
    command = "null" if stored.command_id is None else _json(stored.command_id)
    return (f'"seq":{stored.seq},"table":{table},"command_id":{command},'
            f'"at":"{at_of(stored)}","event":{stored.body}')


def envelope_dict(stored: StoredEvent) -> dict[str, Any]:
    """:func:`envelope` as a dict (for replies that are built as values)."""
    return {"seq": stored.seq, "table": stored.table, "command_id": stored.command_id,
            "at": at_of(stored), "event": stored.event}


def event_text(stored: StoredEvent, extra: str = "") -> str:
    """The WebSocket message of an event, built around its stored JSON without re-parsing."""
    return f'{{"type":"event",{envelope(stored)}{extra}}}'


def status_of(night: Night, *, expects: bool = True) -> dict[str, Any]:
    """The night's phase, set, round, bell and (with ``expects``) who may roll now."""
    status: dict[str, Any] = {
        "phase": night.phase, "set": night.set_no, "round": night.round_no, "bell": night.bell,
        "started": night.started,
        "bell_roll": night.bell_roll.as_dict() if night.bell_roll else None,
    }
    if expects:
        status["expects"] = [{"table": t, "player": p} for t, p in night.expected_rollers()]
    return status


def bump_versions(table_seq: dict[int | None, int], stored: StoredEvent, kind: str) -> None:
    """Note ``stored`` as the version of its table (``-1``: roll-offs; ``None``: the night)."""
    rolloff = stored.table is None and kind in TABLE_EVENTS
    table_seq[-1 if rolloff else stored.table] = stored.seq


def version_in(table_seq: dict[int | None, int], table: int | None) -> int:
    """The version a writer at ``table`` must send: its last event or the night's."""
    night_wide = table_seq.get(None, 0)
    if table is None:
        return max(night_wide, table_seq.get(-1, 0))
    return max(night_wide, table_seq.get(table, 0))


@dataclass
class LiveNight:
    """A night in memory: the engine's value, its stored log and its versions.

    Everything here is committed: the writer task of the night advances it only after
    the store took the events (``inbox`` holds the commands waiting for the next batch).
    ``heard`` is the highest seq another process announced (PostgreSQL notifications).
    """

    id: str
    name: str
    created_at: datetime
    night: Night
    log: list[StoredEvent]
    options: dict[str, Any]
    table_seq: dict[int | None, int] = field(default_factory=dict)
    commands: dict[tuple[str, str], int] = field(default_factory=dict)
    """(caller, command id) → the seq of its event."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    inbox: list[Command] = field(default_factory=list)
    writer: asyncio.Task[None] | None = None
    heard: int = -1
    options_stale: bool = False
    follower: asyncio.Task[None] | None = None
    _status: tuple[tuple[int, str], dict[str, Any]] | None = None
    _view: tuple[int, str] | None = None
    _view_build: tuple[int, asyncio.Future[str]] | None = None
    _pages: tuple[int, dict[int, TablePage]] | None = None
    _pushed: dict[int, TablePage] = field(default_factory=dict)
    """The page last pushed to each table's followers."""
    _paged: Night | None = None
    """The night the pages last pushed were built from."""
    _seated: tuple[Any, str, bool, dict[str, int]] | None = None
    """:meth:`player_tables` and the seating, phase and tables in play it was built for."""

    def status(self, *, expects: bool = True) -> dict[str, Any]:
        """:func:`status_of` the night now with its ``dice`` mode, computed once per seq
        (and dice mode); without ``expects`` for a table's phone (its table says whose
        turn it is)."""
        key = (self.seq, str(self.options.get("dice", "real")))
        if self._status is None or self._status[0] != key:
            self._status = (key, {**status_of(self.night), "dice": key[1]})
        full = self._status[1]
        return full if expects else {k: v for k, v in full.items() if k != "expects"}

    async def view_json(self) -> str:
        """The engine's live view (``Night.view``) as JSON, computed once per seq: every
        page's GET of the night between two events is served from it. It is built on a
        worker thread from the night as it stands (an immutable value), so the event loop
        goes on delivering rolls meanwhile (tens of ms at 1,000 players); GETs at the same
        seq share one build."""
        seq = self.seq
        if self._view is not None and self._view[0] == seq:
            return self._view[1]
        if self._view_build is None or self._view_build[0] != seq:
            night = self.night
            build = asyncio.ensure_future(asyncio.to_thread(lambda: _json(live_view(night))))
            self._view_build = (seq, build)
        text = await asyncio.shield(self._view_build[1])
        if self._view is None or self._view[0] < seq:
            self._view = (seq, text)
        return text

    def page(self, table: int) -> TablePage:
        """What the phones of ``table`` draw now (:func:`~bunco.party.view.table_page`),
        computed once per seq."""
        pages = self._pages_now()
        if table not in pages:
            pages[table] = TablePage.of(table_page(self.night, table))
        return pages[table]

    def pages(self) -> dict[int, TablePage]:
        """Every table's page now, computed once per seq."""
        pages = self._pages_now()
        missing = [n for n in range(1, len(self.night.tables) + 1) if n not in pages]
        if missing:
            for n, page in table_pages(self.night, missing).items():
                pages[n] = TablePage.of(page)
        return pages

    def player_tables(self) -> dict[str, int]:
        """The table whose page each player's phone follows now
        (:func:`~bunco.party.view.player_tables`), worked out again only when the
        seating, the phase or whether tables are in play changed."""
        night = self.night
        seated = self._seated
        if seated is None or seated[0] is not night.seating or seated[1] != night.phase \
                or seated[2] != bool(night.tables):
            seated = (night.seating, night.phase, bool(night.tables), player_tables(night))
            self._seated = seated
        return seated[3]

    def table_of(self, player: str) -> int | None:
        """The table whose page ``player``'s phone follows now (``None``: none)."""
        return self.player_tables().get(player)

    def _pages_now(self) -> dict[int, TablePage]:
        if self._pages is None or self._pages[0] != self.seq:
            self._pages = (self.seq, {})
        return self._pages[1]

    def versions(self, table: int | None = None) -> dict[str, int]:
        """The ``expected_seq`` to send at each table (``"1"``, ``"2"``, ...), for roll-offs
        (``"rolloff"``) and for the whole night (``"night"``); with ``table``, only the
        night's, the roll-offs' and that table's."""
        return {("night" if k is None else "rolloff" if k == -1 else str(k)): v
                for k, v in self.table_seq.items() if table is None or k in (None, -1, table)}

    @property
    def seq(self) -> int:
        """The last sequence number of the night."""
        return self.log[-1].seq

    @property
    def bots(self) -> list[str]:
        return list(self.options.get("bots", self.night.setup.get("bots", [])))

    def version(self, table: int | None) -> int:
        """The version a writer at ``table`` must send: its last event or the night's."""
        return version_in(self.table_seq, table)

    def since(self, after: int, table: int | None = None, *, whole: bool = False) -> list[
            StoredEvent]:
        """Stored events after ``after`` (all of them, or those of one table and the night)."""
        start = max(after + 1, 0)
        events = self.log[start:] if start < len(self.log) else []
        if whole:
            return events
        return [e for e in events if e.table is None or e.table == table]

    def record(self, stored: StoredEvent, kind: str) -> None:
        """Add a committed event: the log, the table's version, the command id."""
        self.log.append(stored)
        bump_versions(self.table_seq, stored, kind)
        if stored.command_id is not None:
            self.commands[stored.caller, stored.command_id] = stored.seq


@dataclass(frozen=True)
class TablePage:
    """One table's page as JSON: ``table`` its :func:`table_view` (``null`` when the table
    is not in play), ``rest`` everything else of :func:`table_page`."""

    table: str
    rest: str

    @classmethod
    def of(cls, page: dict[str, Any]) -> TablePage:
        return cls(_json(page.pop("table")), _json(page))

    def as_json(self) -> str:
        """The whole page (``rest`` with ``table``)."""
        return f'{{"table":{self.table},{self.rest[1:]}'


@dataclass(frozen=True)
class Ack:
    """The reply to an accepted (or already accepted) command."""

    stored: StoredEvent
    duplicate: bool
    status: dict[str, Any]
    table_view_json: str = "null"
    entry_json: str = ""  # ',"entry":{...}' (and ',"ended":{...}') for a roll or tally

    def as_json(self) -> str:
        """The reply body, built around the stored event's JSON without re-parsing it."""
        return (f'{{{envelope(self.stored)},'
                f'"duplicate":{"true" if self.duplicate else "false"},'
                f'"status":{_json(self.status)},"table_view":{self.table_view_json}'
                f'{self.entry_json}}}')

    def as_dict(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.as_json())
        return value


@dataclass
class Command:
    """One command waiting in a night's inbox, and the future its caller awaits."""

    event: dict[str, Any] | Callable[[LiveNight], dict[str, Any]]
    command_id: str
    expected_seq: int | None
    authorize: Callable[[LiveNight, dict[str, Any]], None] | None
    draw: bool
    reply: asyncio.Future[Ack]
    caller: str = ""
    """Whose ``command_id`` it is (a token's hash, ``bot``)."""
    request: str | None = None
    """The :func:`fingerprint` of the request the id stands for."""


@dataclass
class _Planned:
    """What a batch does with one command: a new event (with the night after it), the
    seq of an earlier event it repeats, or a refusal."""

    command: Command
    stored: StoredEvent | None = None
    after: Night | None = None
    kind: str = ""
    repeats: int | None = None
    refusal: ServiceError | None = None


class NightService:
    """Loads nights from the store, runs the command path, publishes what happened."""

    def __init__(self, store: EventStore, pubsub: PubSub | None = None) -> None:
        self.store = store
        self.pubsub: PubSub = pubsub or InProcessPubSub()
        self.nights: dict[str, LiveNight] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.inline_db = store.dialect == "sqlite"
        self.after_commit: list[Callable[[LiveNight], None]] = []
        self.on_tokens_changed: list[Callable[[str], None]] = []
        # one thread commits for SQLite (one writer at a time anyway); PostgreSQL commits
        # of different nights run side by side on the default pool
        self._committer = (ThreadPoolExecutor(1, thread_name_prefix="bunco-commit")
                           if self.inline_db else None)

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a store call: inline for SQLite (short, local), on a thread otherwise."""
        if self.inline_db:
            return fn(*args, **kwargs)
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def commit(self, night_id: str, events: list[StoredEvent]) -> None:
        """Store a batch of events on the writer thread: the event loop does not wait."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._committer, self.store.append_many, night_id, events)

    def close(self) -> None:
        """Stop the writer thread (after the last batch)."""
        if self._committer is not None:
            self._committer.shutdown(wait=True)

    # -- loading ------------------------------------------------------------------------------
    async def get(self, night_id: str, *, at_least: int = -1, fresh: bool = True
                  ) -> LiveNight:
        """The live night, rebuilt from the store on first use; 404 if there is none.

        The night is brought up to every seq another process announced, and to
        ``at_least`` (a seq a client has seen) if the store has it, before it is returned
        (not with ``fresh=False``: the command path catches up by itself).
        """
        live = self.nights.get(night_id)
        if live is None:
            lock = self._loading.setdefault(night_id, asyncio.Lock())
            async with lock:
                live = self.nights.get(night_id)
                if live is None:
                    live = await self._load(night_id)
                    self.nights[night_id] = live
                    for hook in self.after_commit:
                        hook(live)
        if fresh and max(live.heard, at_least) > live.seq:
            await self.catch_up(live)
        return live

    async def _load(self, night_id: str) -> LiveNight:
        if len(night_id) > 32:
            raise not_found(night_id)
        record = await self.db(self.store.night, night_id)
        if record is None:
            raise not_found(night_id)
        events: list[StoredEvent] = await self.db(self.store.events, night_id)
        stored = events[0]
        try:
            night = Night.start(stored.event)
            for stored in events[1:]:
                night = night.apply(stored.event)
        except BuncoError as exc:  # a log written by a bunco whose rules differ
            raise ServiceError(
                409, "log_error", f"the stored log of night {night_id!r} does not replay at "
                f"event {stored.seq}: {exc.message}",
                "a version of bunco whose rules read this night (its log stays in the "
                "database, untouched)") from None
        live = LiveNight(record.id, record.name, record.created_at, night, [events[0]],
                         record.options)
        live.table_seq[None] = 0
        for stored, event in zip(events[1:], night.events, strict=True):
            live.record(stored, event["type"])
        return live

    async def catch_up(self, live: LiveNight) -> None:
        """Read the events other processes stored after the night's seq, apply and publish
        them (under the night's lock), then wake the night's hooks (bots)."""
        async with live.lock:
            await self._catch_up_locked(live)
        for hook in self.after_commit:
            hook(live)

    async def _catch_up_locked(self, live: LiveNight) -> None:
        events: list[StoredEvent] = await self.db(self.store.events, live.id, after=live.seq)
        await self._apply_stored(live, events)

    async def _apply_stored(self, live: LiveNight, events: list[StoredEvent]) -> None:
        """Apply and publish events other processes stored after the night's seq."""
        for stored in events:
            if stored.seq <= live.seq:  # applied meanwhile (a notice's catch-up)
                continue
            if stored.seq != live.seq + 1:
                break
            try:
                after = live.night.apply(stored.event)
            except BuncoError:
                log.exception("night %s: event %s from the store does not apply; reloading",
                              live.id, stored.seq)
                await self.refresh(live)
                return
            self._advance(live, stored, after, after.events[-1]["type"])

    async def refresh(self, live: LiveNight) -> None:
        """Rebuild a night from the store in place; the caller holds its lock, which stays
        the same."""
        fresh = await self._load(live.id)
        live.night, live.log, live.options = fresh.night, fresh.log, fresh.options
        live.table_seq, live.commands = fresh.table_seq, fresh.commands
        live._status = live._view = live._view_build = live._pages = live._paged = None
        live._seated = None
        live._pushed.clear()

    # -- creating -------------------------------------------------------------------------------
    async def create(
        self,
        setup: dict[str, Any],
        *,
        name: str,
        options: dict[str, Any],
        key: bytes | None,
        request: str,
    ) -> tuple[LiveNight, NightSecrets]:
        """Check and store a new night (setup line as event 0) with its host, viewer and
        table secrets, in one transaction; return it with the secrets.

        ``key`` is the creation key of the client's command id (:func:`creation_key`), or
        ``None``. A creation already made with the same key and the same ``request`` is
        answered with that night and the same secrets; with another request it is
        refused (409 ``id_reused``).
        """
        try:
            night = Night.start(setup)
        except BuncoError as exc:
            raise ServiceError(422, exc.code, exc.message, exc.expected) from None
        lookup = None if key is None else creation_lookup(key)
        tables = len(night.seating)
        for _attempt in range(8):
            if lookup is not None:
                again = await self._created_before(lookup, key, request)
                if again is not None:
                    return again
            night_id = secrets.token_urlsafe(6)
            if await self.db(self.store.night, night_id) is not None:
                continue
            salt = secrets.token_hex(16)
            made = night_secrets(night_root(key, salt, night_id), tables)
            try:
                await self.db(self.store.create_night, night_id, name, night.setup,
                              command_id=lookup, options=options,
                              tokens=made.records(night_id), salt=salt, request_hash=request)
            except StoreError:  # the same creation meanwhile, or a code hash taken: again
                continue
            stored = (await self.db(self.store.events, night_id))[0]
            live = LiveNight(night_id, name, stored.created_at, night, [stored], options)
            live.table_seq[None] = 0
            self.nights[night_id] = live
            for hook in self.after_commit:
                hook(live)
            return live, made
        raise ServiceError(503, "busy", "the night could not be stored; nothing was created",
                           "the same request again")

    async def _created_before(self, lookup: str, key: bytes | None, request: str
                              ) -> tuple[LiveNight, NightSecrets] | None:
        """The night a creation with this key made, with its secrets, if any."""
        record = await self.db(self.store.night_by_command, lookup)
        if record is None or key is None or record.create_salt is None:
            return None
        if record.create_request != request:
            raise ServiceError(
                409, "id_reused", "this command_id already created a night with another "
                "request", "a new command_id for a new night (the same one only to retry the "
                "very same request)")
        live = await self.get(record.id)
        tables = len(Night.start(live.log[0].event).seating)
        return live, night_secrets(night_root(key, record.create_salt, record.id), tables)

    # -- the command path ---------------------------------------------------------------------
    async def submit(
        self,
        night_id: str,
        event: dict[str, Any] | Callable[[LiveNight], dict[str, Any]],
        *,
        command_id: str,
        caller: str = "",
        request: str | None = None,
        expected_seq: int | None = None,
        authorize: Callable[[LiveNight, dict[str, Any]], None] | None = None,
        draw: bool = False,
    ) -> Ack:
        """Apply one command; see the module docstring for the order of the checks.

        ``caller`` scopes ``command_id`` (a token's hash, ``bot`` for the bots);
        ``request`` is the :func:`fingerprint` of the request (by default: of the event,
        ``expected_seq`` and ``draw``). ``event`` may be a function of the live night,
        called under its lock once the command is known to be new.
        ``authorize(live, event)`` raises a :class:`ServiceError` when the caller may
        not do this now. ``draw=True`` draws the dice on the server ("roll for me").
        The reply comes once the event is committed (or the command refused).
        """
        # not caught up first: the writer checks the command against the night after
        # catching up with what the other processes stored itself
        live = await self.get(night_id, fresh=False)
        if request is None and not callable(event):
            request = fingerprint(event, expected_seq, draw)
        known = live.commands.get((caller, command_id))
        if known is not None:
            return self._again(live, live.log[known], request)
        reply: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
        reply.add_done_callback(_retrieved)
        live.inbox.append(Command(event, command_id, expected_seq, authorize, draw, reply,
                                  caller, request))
        if live.writer is None or live.writer.done():
            live.writer = asyncio.get_running_loop().create_task(self._write(live))
        # the writer answers even if this caller goes away (the command still counts)
        return await asyncio.shield(reply)

    async def _write(self, live: LiveNight) -> None:
        """The night's writer task: one batch after another while commands wait."""
        while live.inbox:
            batch, live.inbox = live.inbox[:MAX_BATCH], live.inbox[MAX_BATCH:]
            try:
                async with live.lock:
                    await self._commit_batch(live, batch)
            except BaseException as exc:  # the store failed: nothing of the batch counts
                failure = ServiceError(
                    503, "store_unavailable", f"the database did not take the event: {exc}",
                    "the same command (same command_id) again in a moment")
                for command in batch:
                    if not command.reply.done():
                        command.reply.set_exception(failure)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                log.exception("night %s: a batch of %d commands failed", live.id, len(batch))
            for hook in self.after_commit:
                hook(live)

    async def _commit_batch(self, live: LiveNight, batch: list[Command]) -> None:
        """Check, store and publish one batch; answer each of its commands."""
        for attempt in range(MAX_ATTEMPTS):
            try:
                stored = await self._store_batch(live, batch, hold=attempt >= TRIES_UNLOCKED)
            except SeqTaken:  # a writer that takes no write lock stored a seq first
                await self._catch_up_locked(live)
                continue
            if stored is not None:
                plan = stored
                break
        else:
            busy = ServiceError(503, "busy", "the night changed under this command "
                                f"{MAX_ATTEMPTS} times in a row (other server processes)",
                                "the same command (same command_id) again")
            for command in batch:
                command.reply.set_exception(busy)
            return
        acks: dict[int, Ack] = {}
        for planned in plan:  # everything is committed: advance, publish, answer in order
            if planned.stored is not None and planned.after is not None:
                acks[planned.stored.seq] = self._advance(live, planned.stored, planned.after,
                                                         planned.kind)
        for planned in plan:
            reply = planned.command.reply
            if reply.done():
                continue
            if planned.refusal is not None:
                reply.set_exception(planned.refusal)
            elif planned.stored is not None:
                reply.set_result(acks[planned.stored.seq])
            elif planned.repeats is not None:
                try:
                    reply.set_result(self._again(live, live.log[planned.repeats],
                                                 planned.command.request))
                except ServiceError as exc:
                    reply.set_exception(exc)

    async def _store_batch(self, live: LiveNight, batch: list[Command], *, hold: bool
                           ) -> list[_Planned] | None:
        """Plan the batch against the night as this process holds it (caught up first if
        it is known to be behind: a notice, or a client's ``expected_seq``) and store its
        events; ``None`` if another process stored events first (they are applied: plan
        the batch again).

        SQLite (one process) commits on the writer thread. On PostgreSQL, other processes
        may write the night too: the events are stored by one call on a worker thread
        that takes the night's write lock (:mod:`bunco.store.night_lock`) and stores them
        unless another process stored events since. With ``hold`` (after
        :data:`TRIES_UNLOCKED` such tries), this process then keeps the lock, catches up,
        plans the batch again and stores it, while the other processes wait: so no
        command is refused because another process wrote, and the lock is held across
        the event loop only when a batch lost that race several times in a row.
        """
        wanted = max([live.heard, *(c.expected_seq or -1 for c in batch)])
        if wanted > live.seq:  # another process wrote; a client saw it
            await self._catch_up_locked(live)
        plan = self._plan(live, batch)
        new = [p.stored for p in plan if p.stored is not None]
        if self.inline_db:
            await self.commit(live.id, new)  # raises SeqTaken if another writer was first
            return plan
        if not new:
            return plan
        lock = await self._locked(store_unless_missed, self.store, live.id, live.seq, new,
                                  hold)
        if lock is None:
            return plan
        if not hold:  # the lock is released: catch up and try again
            await self._apply_stored(live, lock.missed)
            return None
        try:
            await self._apply_stored(live, lock.missed)
            plan = self._plan(live, batch)
        except BaseException:
            await asyncio.shield(asyncio.to_thread(lock.release))
            raise
        await asyncio.shield(asyncio.to_thread(
            lock.commit, [p.stored for p in plan if p.stored is not None]))
        return plan

    async def _locked(self, fn: Callable[..., NightLock | None], *args: Any
                      ) -> NightLock | None:
        """``fn(*args)`` on a worker thread, which may return the night's write lock held;
        if this task is cancelled meanwhile, a lock it returns is released."""
        taking = asyncio.get_running_loop().run_in_executor(None, fn, *args)
        try:
            return await asyncio.shield(taking)
        except asyncio.CancelledError:
            taking.add_done_callback(_release_taken)
            raise

    def _plan(self, live: LiveNight, batch: list[Command]) -> list[_Planned]:
        """Check each command of the batch against the night as the batch leaves it, and
        apply it there; the committed night (``live``) is left as it was."""
        committed = live.night
        head, seq = committed, live.seq
        versions = dict(live.table_seq)
        ids: dict[tuple[str, str], int] = {}
        pending: list[StoredEvent] = []
        created = now()
        plan: list[_Planned] = []
        try:
            for command in batch:
                planned = _Planned(command)
                plan.append(planned)
                key = (command.caller, command.command_id)
                known = live.commands.get(key, ids.get(key))
                if known is not None:
                    planned.repeats = known
                    continue
                live.night = head  # what ``authorize`` looks at: the night before this command
                try:
                    stored, after = self._check(live, command, head, seq, versions, pending,
                                                created)
                except ServiceError as exc:
                    planned.refusal = exc
                    continue
                planned.stored, planned.after = stored, after
                planned.kind = after.events[-1]["type"]
                head, seq = after, stored.seq
                bump_versions(versions, stored, planned.kind)
                ids[key] = stored.seq
                pending.append(stored)
        finally:
            live.night = committed
        return plan

    def _check(self, live: LiveNight, command: Command, head: Night, seq: int,
               versions: dict[int | None, int], pending: list[StoredEvent],
               created: datetime) -> tuple[StoredEvent, Night]:
        """One command against the night ``head`` (at ``seq``): the new event and the night
        after it, or the :class:`ServiceError` refusing it."""
        event = command.event(live) if callable(command.event) else command.event
        if command.authorize is not None:
            command.authorize(live, event)
        table = event_table(event)
        night_wide = event.get("type") not in TABLE_EVENTS and table is None
        if command.expected_seq is not None:
            self._check_version(live, table, command.expected_seq, seq, versions, pending,
                                night_wide=night_wide)
        if command.draw:
            event = {**event, "dice": roll_for_me()}
        try:
            after = head.apply(event)
        except BuncoError as exc:
            raise ServiceError(_status_of(exc), exc.code, exc.message, exc.expected) from None
        normalized = after.events[-1]
        stored = StoredEvent(live.id, seq + 1, event_table(normalized), command.command_id,
                             dump(dict(normalized)), created, command.caller, command.request)
        return stored, after

    def _advance(self, live: LiveNight, stored: StoredEvent, after: Night, kind: str) -> Ack:
        """Make a committed event part of the live night, publish it, and its reply."""
        before = (live.night.phase, live.night.set_no, live.night.round_no, live.night.bell,
                  live.night.started)
        entry = entry_json(live.night, after, stored.table, kind)
        live.night = after
        live.record(stored, kind)
        ack = self._ack(live, stored, duplicate=False, entry=entry)
        self._publish(live, stored, before, ack)
        return ack

    def _again(self, live: LiveNight, stored: StoredEvent, request: str | None) -> Ack:
        """The reply to a command id the caller already used: the first reply if the
        request is the same, else 409 ``id_reused``."""
        if stored.request_hash is not None and request is not None \
                and stored.request_hash != request:
            raise ServiceError(
                409, "id_reused", f"command id {stored.command_id!r} was already used for "
                f"another request (event {stored.seq})",
                "a new command_id for each new command (the same one only to retry the very "
                "same request)", seq=stored.seq)
        return self._ack(live, stored, duplicate=True)

    def _check_version(self, live: LiveNight, table: int | None, expected: int, seq: int,
                       versions: dict[int | None, int], pending: list[StoredEvent], *,
                       night_wide: bool) -> None:
        current = seq if night_wide else version_in(versions, table)
        if expected == current:
            return
        if expected > seq or expected < 0:
            raise ServiceError(
                409, "stale", f"expected_seq {expected} is not a version of this night "
                f"(its last event is {seq})",
                f"expected_seq {current}, the seq of the last event you saw here",
                current_seq=current, missed=[])
        events = [*live.since(expected, None, whole=True),
                  *(e for e in pending if e.seq > expected)]
        missed = events if night_wide else [
            e for e in events if e.table is None or e.table == table]
        where = "the night" if table is None else f"table {table}"
        raise ServiceError(
            409, "stale",
            f"{where} changed since you last looked: {len(missed)} event(s) you have not seen",
            f"expected_seq {current} after looking at the missed events",
            current_seq=current,
            missed=[envelope_dict(e) for e in missed],
        )

    def _ack(self, live: LiveNight, stored: StoredEvent, *, duplicate: bool,
             entry: str = "") -> Ack:
        view = "null"
        if stored.table is not None and stored.table <= len(live.night.tables):
            view = _json(table_view(live.night.tables[stored.table - 1], live.night.rules))
        return Ack(stored, duplicate, status_of(live.night, expects=False), view, entry)

    def _publish(self, live: LiveNight, stored: StoredEvent, before: tuple[Any, ...],
                 ack: Ack) -> None:
        night = live.night
        view = "" if ack.table_view_json == "null" else ',"table_view":' + ack.table_view_json
        extra = f'{view},"status":{_json(ack.status)}{ack.entry_json}'
        self._deliver(Message(live.id, stored.seq, stored.table, event_text(stored, extra)))
        changed = (night.phase, night.set_no, night.round_no, night.bell) != before[:4]
        # a round started by its first roll at one table: every other table's phone learns
        # it from the status (its own results stop being "fresh", the start bell goes)
        if changed or stored.table is None or night.started != before[4]:
            for message in self.status_messages(live):
                self._deliver(message)
            self._push_pages(live)

    def _push_pages(self, live: LiveNight) -> None:
        """The ``table`` messages of the tables whose page changed, after moving each
        player's phone to the table its player sits at now; a phone that moved to a
        table whose page did not change gets that page by itself (and one that moved to
        no table a ``table`` message with ``"table": null``)."""
        moved = self.pubsub.reseat(live.id, live.player_tables())
        pushed = set()
        for message in self.table_messages(live):
            self._deliver(message)
            pushed.add(message.table)
        for number, followers in moved.items():
            if number in pushed:
                continue
            message = self.page_message(live, number)
            for follower in followers:
                follower.offer(message)

    def status_messages(self, live: LiveNight) -> list[Message]:
        """The status at the night's current seq: in full (who may roll at every table) for
        whole-night followers, without ``expects`` for table followers (their ``table``
        message says whose turn it is)."""
        full, brief = live.status(), live.status(expects=False)
        return [
            Message(live.id, live.seq, None, _json(
                {"type": "status", "seq": live.seq, "status": full}), "status", "night"),
            Message(live.id, live.seq, None, _json(
                {"type": "status", "seq": live.seq, "status": brief}), "status", "tables"),
        ]

    def publish_options(self, live: LiveNight) -> None:
        """Tell every page of ``live`` its options changed (the dice mode): the status
        messages again, which every listener takes although their seq is not new."""
        for message in self.status_messages(live):
            self._deliver(replace(message, kind="options"))

    def table_messages(self, live: LiveNight) -> list[Message]:
        """A ``table`` message for each table whose page changed since the last one pushed
        (sent after a change of round, set, phase or bell, and after an event of the whole
        night): ``table_view``, the table's view, and ``view``, the rest of what its phones
        draw (:func:`~bunco.party.view.table_page`), so no phone reloads the night."""
        if live._paged is not None and same_pages(live._paged, live.night):
            return []  # nothing any table shows changed (a verification, say)
        live._paged = live.night
        out = []
        for number, page in live.pages().items():
            if live._pushed.get(number) == page:
                continue
            live._pushed[number] = page
            out.append(_page_message(live, number, page))
        return out

    def page_message(self, live: LiveNight, number: int) -> Message:
        """The ``table`` message with table ``number``'s page now (for :data:`NO_TABLE`:
        ``{"type": "table", "seq", "table": null}``, no page)."""
        if number == NO_TABLE:
            return Message(live.id, live.seq, None,
                           f'{{"type":"table","seq":{live.seq},"table":null}}', kind="table")
        return _page_message(live, number, live.page(number))

    def _deliver(self, message: Message) -> None:
        if isinstance(self.pubsub, InProcessPubSub):
            self.pubsub.publish_nowait(message)
        else:
            asyncio.get_running_loop().create_task(self.pubsub.publish(message))


def _page_message(live: LiveNight, number: int, page: TablePage) -> Message:
    return Message(live.id, live.seq, number,
                   f'{{"type":"table","seq":{live.seq},"table":{number},'
                   f'"table_view":{page.table},"view":{page.rest}}}', kind="table")


def _release_taken(taking: asyncio.Future[NightLock | None]) -> None:
    """Release a night's write lock taken for a writer that was cancelled meanwhile."""
    if not taking.cancelled() and taking.exception() is None:
        lock = taking.result()
        if lock is not None:
            lock.release()


def _retrieved(reply: asyncio.Future[Ack]) -> None:
    """Take a refusal from a reply whose caller went away (so asyncio does not warn)."""
    if not reply.cancelled():
        reply.exception()


def entry_json(before: Night, after: Night, table: int | None, kind: str) -> str:
    """``,"entry":{...}``: what a roll or tally at ``table`` scored (even when it ended the
    round, so the table's view is already the next round's), and ``,"ended":{...}`` when
    it ended the round (:class:`~bunco.core.night.RoundEnding`, with the round's number).

    >>> n = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
    >>> entry_json(n, n.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]}), 1, "roll")
    ',"entry":{"table":1,"player":"Ann","credited":"Ann","dice":[1,1,4],"points":2,"kind":"points","phase":"play"}'
    """
    if kind not in ("roll", "tally") or table is None:
        return ""
    ended = ""
    if len(after.history) > len(before.history):
        result = after.history[-1]
        rolls = result.tables[table - 1].rolls if table <= len(result.tables) else ()
        if result.ended_by is not None:
            ended = ',"ended":' + _json(result.ended_by.as_dict())
    else:
        rolls = after.tables[table - 1].rolls if table <= len(after.tables) else ()
    if not rolls:
        return ended
    r = rolls[-1]
    entry = {"table": table, "player": r.roller, "credited": r.credited, "dice": list(r.dice),
             "points": r.points, "kind": r.kind.value, "phase": r.phase.value}
    return ',"entry":' + _json(entry) + ended


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _status_of(exc: BuncoError) -> int:
    """409 for a command that does not fit the night now; 422 for a malformed one."""
    if exc.code in ("not_your_turn", "round_over", "not_allowed_now"):
        return 409
    return 422
