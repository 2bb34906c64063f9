"""The event store: append, read back, idempotency and the night's tokens.

Every call is one short transaction on a synchronous SQLAlchemy engine; the web
layer decides on which thread to run it. ``append`` commits before it returns,
so an event the server acknowledges is on disk.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    and_,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from bunco.store import advisory, notify
from bunco.store.db import make_engine, upgrade_database
from bunco.store.models import EventRow, NightRow, TokenRow

_EVENTS = cast(Table, EventRow.__table__)
_NIGHTS = cast(Table, NightRow.__table__)
_TOKENS = cast(Table, TokenRow.__table__)
ALL_TABLES: Any = object()
"""Sentinel of :meth:`EventStore.events`: no table filter."""
SERVER_CALLERS = frozenset({"bot", "clock", "server"})
"""The server's own callers: each has a space of command ids of its own. Every token of a
night (its tables' phones, its hosts, its players) shares one space: a command id is one
command of the night, whoever sends it."""


def command_scope(caller: str) -> str:
    """The space of ``caller``'s command ids: ``""`` for any token, else the server's
    caller itself.

    >>> command_scope("3f" * 16), command_scope("bot")
    ('', 'bot')
    """
    return caller if caller in SERVER_CALLERS else ""


class StoreError(Exception):
    """Base of the store's refusals."""


class SeqTaken(StoreError):
    """Another writer stored an event with this sequence number first."""


class NightGone(StoreError):
    """The night is not in the store (deleted meanwhile): nothing was stored."""


def names_no_night(exc: BaseException) -> bool:
    """Whether a database's integrity error is a missing night (the events' foreign key
    to ``nights``: the night was deleted), not a seq or a command id taken.

    >>> names_no_night(sqlite3.IntegrityError("FOREIGN KEY constraint failed"))
    True
    >>> names_no_night(sqlite3.IntegrityError("UNIQUE constraint failed: events.seq"))
    False
    """
    cause = getattr(exc, "orig", None) or exc
    return getattr(cause, "sqlstate", None) == "23503" or "FOREIGN KEY" in str(cause)


class DuplicateCommand(StoreError):
    """A command id that the night's log already holds; ``stored`` is its event."""

    def __init__(self, stored: StoredEvent) -> None:
        super().__init__(f"command {stored.command_id!r} is already event {stored.seq}")
        self.stored = stored


def dump(event: dict[str, Any]) -> str:
    """The compact JSON of an event, as stored and exported.

    >>> dump({"type": "roll", "table": 1, "dice": [1, 1, 4]})
    '{"type":"roll","table":1,"dice":[1,1,4]}'
    """
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of a night's log: the event (``body``) in its envelope (seq, table, whose
    command under which id, the request it stood for, when it was stored)."""

    night_id: str
    seq: int
    table: int | None
    command_id: str | None
    body: str
    created_at: datetime
    caller: str = ""
    request_hash: str | None = None

    @property
    def event(self) -> dict[str, Any]:
        """The event as a dict (parsed from ``body``)."""
        value: dict[str, Any] = json.loads(self.body)
        return value


@dataclass(frozen=True, slots=True)
class NightRecord:
    """A night's row: id, name, creation, server options."""

    id: str
    name: str
    created_at: datetime
    create_command_id: str | None
    options: dict[str, Any] = field(default_factory=dict)
    create_salt: str | None = None
    create_request: str | None = None


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """What one token (by its hash) lets its holder do at one night."""

    hash: str
    night_id: str
    role: str
    table: int | None = None
    player: str | None = None
    created_at: datetime | None = None
    revoked: bool = False


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def stored_event(row: Any) -> StoredEvent:
    """The :class:`StoredEvent` of a row of ``events`` (any row with its columns as
    attributes)."""
    return StoredEvent(
        row.night_id,
        row.seq,
        row.table_no,
        row.command_id,
        row.body,
        _utc(row.created_at),
        row.caller,
        row.request_hash,
    )


def _night(row: Any) -> NightRecord:
    return NightRecord(
        row.id,
        row.name,
        _utc(row.created_at),
        row.create_command_id,
        json.loads(row.options or "{}"),
        row.create_salt,
        row.create_request,
    )


def _token(row: Any) -> TokenRecord:
    return TokenRecord(
        row.hash,
        row.night_id,
        row.role,
        row.table_no,
        row.player,
        _utc(row.created_at),
        row.revoked_at is not None,
    )


class EventStore:
    """Nights, their append-only logs and their tokens, in one database."""

    def __init__(self, url_or_engine: str | Engine) -> None:
        self.engine = (
            make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
        )
        self._insert_event = insert(_EVENTS)
        self._raw: Any = None  # SQLite: one connection kept open for appends (see append)
        self._raw_lock = threading.Lock()

    @property
    def dialect(self) -> str:
        """``sqlite``, ``postgresql``, ..."""
        return self.engine.dialect.name

    def upgrade(self) -> None:
        """Create or upgrade the schema to the newest revision."""
        upgrade_database(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        with self._raw_lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = None
        self.engine.dispose()

    # nights ---------------------------------------------------------------

    def create_night(
        self,
        night_id: str,
        name: str,
        setup: dict[str, Any],
        *,
        command_id: str | None = None,
        options: dict[str, Any] | None = None,
        tokens: Iterable[TokenRecord] = (),
        salt: str | None = None,
        request_hash: str | None = None,
    ) -> None:
        """Store a new night with its setup line as event 0, and its tokens, atomically.

        ``command_id`` is what the creation is found under again (the web layer passes a
        hash of the client's id), ``salt`` and ``request_hash`` what it needs to answer a
        retry. Raises :class:`StoreError` when ``command_id`` already created a night (or
        a token hash exists).
        """
        created = now()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(_NIGHTS),
                    {
                        "id": night_id,
                        "name": name,
                        "created_at": created,
                        "create_command_id": command_id,
                        "options": dump(options or {}),
                        "create_salt": salt,
                        "create_request": request_hash,
                    },
                )
                conn.execute(
                    self._insert_event,
                    {
                        "night_id": night_id,
                        "seq": 0,
                        "table_no": None,
                        "command_id": None,
                        "body": dump(setup),
                        "created_at": created,
                    },
                )
                rows = [self._token_values(t, created) for t in tokens]
                if rows:
                    conn.execute(insert(_TOKENS), rows)
                    self._notify(conn, "t", night_id)
        except IntegrityError as exc:
            raise StoreError(f"night {night_id!r} or command {command_id!r} exists") from exc

    def night(self, night_id: str) -> NightRecord | None:
        """The night's row, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_NIGHTS).where(_NIGHTS.c.id == night_id)).first()
        return None if row is None else _night(row)

    def night_by_command(self, command_id: str) -> NightRecord | None:
        """The night that the creation command ``command_id`` made, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_NIGHTS).where(_NIGHTS.c.create_command_id == command_id)
            ).first()
        return None if row is None else _night(row)

    def nights(self, limit: int = 100) -> list[NightRecord]:
        """The newest nights first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_NIGHTS).order_by(_NIGHTS.c.created_at.desc()).limit(limit)
            ).all()
        return [_night(r) for r in rows]

    def set_options(self, night_id: str, options: dict[str, Any]) -> None:
        """Replace the night's server options (bots, pace, ...)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(_NIGHTS).where(_NIGHTS.c.id == night_id).values(options=dump(options))
            )
            self._notify(conn, "o", night_id)

    # events ---------------------------------------------------------------

    def append(
        self,
        night_id: str,
        seq: int,
        *,
        table: int | None,
        command_id: str | None,
        event: dict[str, Any] | None = None,
        body: str | None = None,
        caller: str = "",
        request_hash: str | None = None,
    ) -> StoredEvent:
        """Commit one event as ``seq`` of the night's log and return it.

        Raises :class:`DuplicateCommand` when the night already holds ``command_id`` in
        ``caller``'s space of ids (:func:`command_scope`) and :class:`SeqTaken` when ``seq`` is already stored (another writer
        won).
        """
        stored = StoredEvent(
            night_id,
            seq,
            table,
            command_id,
            dump(event or {}) if body is None else body,
            now(),
            caller,
            request_hash,
        )
        try:
            self.append_many(night_id, [stored])
        except SeqTaken:
            if command_id is not None:
                found = self.find_command(night_id, command_id, caller)
                if found is not None:
                    raise DuplicateCommand(found) from None
            raise
        return stored

    def append_many(self, night_id: str, events: Sequence[StoredEvent]) -> None:
        """Commit consecutive events of one night in one transaction (group commit).

        All or nothing: if any seq or command id is already stored (another process
        wrote first), nothing is stored and :class:`SeqTaken` is raised; the caller
        reads what it missed (:meth:`events`) and tries again. On PostgreSQL the same
        transaction notifies the other processes (:mod:`bunco.store.notify`).
        """
        if not events:
            return
        if self.dialect == "sqlite":
            self._append_sqlite(night_id, events)
            return
        with self.engine.begin() as conn:
            self.insert_events(conn, night_id, events)

    def insert_events(self, conn: Connection, night_id: str, events: Sequence[StoredEvent]) -> None:
        """Insert consecutive events of one night in ``conn``'s transaction and (PostgreSQL)
        announce them to the other processes when it commits. Raises :class:`SeqTaken`
        if a seq or command id is already stored (the transaction is then void)."""
        rows = [
            {
                "night_id": night_id,
                "seq": e.seq,
                "table_no": e.table,
                "caller": e.caller,
                "command_scope": command_scope(e.caller),
                "command_id": e.command_id,
                "request_hash": e.request_hash,
                "body": e.body,
                "created_at": e.created_at,
            }
            for e in events
        ]
        try:
            conn.execute(self._insert_event, rows)
        except IntegrityError as exc:
            if names_no_night(exc):
                raise NightGone(f"night {night_id!r} is not in the store") from exc
            raise SeqTaken(
                f"event {events[0].seq} (or a command id) of night {night_id!r} is already stored"
            ) from exc
        self._notify(conn, "e", night_id, events[-1].seq)

    def _notify(self, conn: Connection, kind: str, night_id: str, seq: int | None = None) -> None:
        """On PostgreSQL, announce a change to every process, inside ``conn``'s transaction."""
        if self.dialect == "postgresql":
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": notify.CHANNEL, "payload": notify.payload(kind, night_id, seq)},
            )

    def _append_sqlite(self, night_id: str, events: Sequence[StoredEvent]) -> None:
        """The SQLite append on a connection kept open: the hot path of a live night.

        Same rows as the SQLAlchemy insert (``created_at`` in SQLAlchemy's SQLite text
        form), without a pool checkout and statement compilation per event.
        """
        rows = [
            (
                night_id,
                e.seq,
                e.table,
                e.caller,
                command_scope(e.caller),
                e.command_id,
                e.request_hash,
                e.body,
                e.created_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"),
            )
            for e in events
        ]
        with self._raw_lock:
            if self._raw is None:
                self._raw = self.engine.raw_connection()
            raw = self._raw
            try:
                raw.executemany(
                    "INSERT INTO events (night_id, seq, table_no, caller, command_scope,"
                    " command_id, request_hash, body, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
                raw.commit()
                return
            except sqlite3.IntegrityError as exc:
                raw.rollback()
                if names_no_night(exc):
                    raise NightGone(f"night {night_id!r} is not in the store") from exc
            except BaseException:
                raw.rollback()
                raise
        raise SeqTaken(
            f"event {events[0].seq} (or a command id) of night {night_id!r} is already stored"
        )

    def events(
        self, night_id: str, *, after: int = -1, table: Any = ALL_TABLES
    ) -> list[StoredEvent]:
        """The night's events with ``seq > after`` in order.

        With ``table=N``: only events at table N and events of the whole night.
        """
        with self.engine.connect() as conn:
            return self.read_events(conn, night_id, after=after, table=table)

    @staticmethod
    def read_events(
        conn: Connection, night_id: str, *, after: int = -1, table: Any = ALL_TABLES
    ) -> list[StoredEvent]:
        """:meth:`events`, read on ``conn`` (in its transaction)."""
        query = select(_EVENTS).where(_EVENTS.c.night_id == night_id, _EVENTS.c.seq > after)
        if table is not ALL_TABLES:
            query = query.where(or_(_EVENTS.c.table_no == table, _EVENTS.c.table_no.is_(None)))
        rows = conn.execute(query.order_by(_EVENTS.c.seq)).all()
        return [stored_event(r) for r in rows]

    def last_seq(self, night_id: str) -> int:
        """The highest sequence number stored for the night (-1 for none)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(func.max(_EVENTS.c.seq)).where(_EVENTS.c.night_id == night_id)
            ).scalar()
        return -1 if value is None else int(value)

    def find_command(self, night_id: str, command_id: str, caller: str = "") -> StoredEvent | None:
        """The event that ``command_id`` produced in ``caller``'s space of ids (any token's
        of the night, or the server caller's own: :func:`command_scope`), or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_EVENTS)
                .where(
                    and_(
                        _EVENTS.c.night_id == night_id,
                        _EVENTS.c.command_id == command_id,
                        _EVENTS.c.caller == caller
                        if command_scope(caller)
                        else _EVENTS.c.caller.not_in(SERVER_CALLERS),
                    )
                )
                .order_by(_EVENTS.c.seq)
            ).first()
        return None if row is None else stored_event(row)

    # tokens ---------------------------------------------------------------

    @staticmethod
    def _token_values(token: TokenRecord, created: datetime) -> dict[str, Any]:
        return {
            "hash": token.hash,
            "night_id": token.night_id,
            "role": token.role,
            "table_no": token.table,
            "player": token.player,
            "created_at": token.created_at or created,
            "revoked_at": None,
        }

    def add_tokens(self, tokens: Sequence[TokenRecord]) -> None:
        """Store token hashes (raises :class:`StoreError` if a hash exists)."""
        if not tokens:
            return
        created = now()
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(_TOKENS), [self._token_values(t, created) for t in tokens])
                for night_id in sorted({t.night_id for t in tokens}):
                    self._notify(conn, "t", night_id)
        except IntegrityError as exc:
            raise StoreError("a token with this hash exists") from exc

    def claim_player(self, token: TokenRecord, *, shared: bool = False) -> bool:
        """Store ``token``, a player token, unless a live token of the same player of its
        night exists (``shared=True``: store it anyway); whether it was stored.

        Atomic across processes: on PostgreSQL the check and the insert hold the night's
        claim lock (:mod:`bunco.store.advisory`), so two claims of one name at once store
        one token. (SQLite is served by one process, whose claims do not interleave.)
        """
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                advisory.take(conn, advisory.NIGHT_CLAIMS, token.night_id)
            if not shared:
                taken = conn.execute(
                    select(_TOKENS.c.hash)
                    .where(
                        _TOKENS.c.night_id == token.night_id,
                        _TOKENS.c.role == token.role,
                        _TOKENS.c.player == token.player,
                        _TOKENS.c.revoked_at.is_(None),
                    )
                    .limit(1)
                ).first()
                if taken is not None:
                    return False
            conn.execute(insert(_TOKENS), self._token_values(token, now()))
            self._notify(conn, "t", token.night_id)
        return True

    def token(self, token_hash: str) -> TokenRecord | None:
        """The token with this hash (revoked ones included), or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_TOKENS).where(_TOKENS.c.hash == token_hash)).first()
        return None if row is None else _token(row)

    def tokens(self, night_id: str, role: str | None = None) -> list[TokenRecord]:
        """The night's tokens, optionally of one role."""
        query = select(_TOKENS).where(_TOKENS.c.night_id == night_id)
        if role is not None:
            query = query.where(_TOKENS.c.role == role)
        with self.engine.connect() as conn:
            return [_token(r) for r in conn.execute(query).all()]

    def revoke_tokens(
        self, night_id: str, role: str, *, table: int | None = None, player: str | None = None
    ) -> int:
        """Revoke the night's live tokens of ``role`` (and table/player); returns how many."""
        query = update(_TOKENS).where(
            _TOKENS.c.night_id == night_id,
            _TOKENS.c.role == role,
            _TOKENS.c.revoked_at.is_(None),
        )
        if table is not None:
            query = query.where(_TOKENS.c.table_no == table)
        if player is not None:
            query = query.where(_TOKENS.c.player == player)
        with self.engine.begin() as conn:
            count = int(conn.execute(query.values(revoked_at=now())).rowcount)
            self._notify(conn, "t", night_id)
            return count
