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
from dataclasses import dataclass, field, replace
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

from bunco.core.events import Event
from bunco.core.party_setup import PartySetup
from bunco.core.server_options import NightOptions
from bunco.core.stored_event import SERVER_CALLERS, StoredEvent, command_scope
from bunco.store import notify
from bunco.store.db import make_engine, upgrade_database
from bunco.store.models import EventRow, NightRow, TokenRow
from bunco.store.night_tokens import (
    Revoke,
    TokenChange,
    TokenRecord,
    TokensChanged,
    revoke,
    token_values,
    write_tokens,
)
from bunco.store.option_changes import ChangedOptions as ChangedOptions
from bunco.store.option_changes import OptionsChange as OptionsChange

_EVENTS = cast(Table, EventRow.__table__)
_NIGHTS = cast(Table, NightRow.__table__)
_TOKENS = cast(Table, TokenRow.__table__)
ALL_TABLES: Any = object()
"""Sentinel of :meth:`EventStore.events`: no table filter."""


class StoreError(Exception):
    """Base of the store's refusals."""


class OptionsBusy(StoreError):
    """A night's options changed under every try of :meth:`EventStore.change_options`."""


OPTION_TRIES = 20
"""How often :meth:`EventStore.change_options` decides again on options written meanwhile."""


class _Moved(Exception):
    """The options moved under a change of tokens: its transaction is rolled back."""


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


def dump(event: object) -> str:
    """The compact JSON of an event (or of any value the store keeps as JSON: a night's
    options, a phone's report), as stored and exported.

    >>> dump({"type": "roll", "table": 1, "dice": [1, 1, 4]})
    '{"type":"roll","table":1,"dice":[1,1,4]}'
    """
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def _no_options() -> NightOptions:
    return {}


def options_of(text: str | None) -> NightOptions:
    """A night's options as stored (JSON the store wrote from :data:`OptionsChange`'s
    results; ``None``: none)."""
    return cast(NightOptions, json.loads(text or "{}"))


@dataclass(frozen=True, slots=True)
class NightRecord:
    """A night's row: id, name, creation, server options."""

    id: str
    name: str
    created_at: datetime
    create_command_id: str | None
    options: NightOptions = field(default_factory=_no_options)
    create_salt: str | None = None
    create_request: str | None = None


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
        options_of(row.options),
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
        setup: PartySetup,
        *,
        command_id: str | None = None,
        options: NightOptions | None = None,
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
                rows = [token_values(t, created) for t in tokens]
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

    def change_options(self, night_id: str, change: OptionsChange) -> ChangedOptions:
        """Change the night's server options (bots, the dice, the door list, the room's
        calls...) by ``change``, a pure function of the options as stored that returns the
        new ones (it may raise to refuse: nothing is written). Compare-and-set: the new
        options are written only if the stored ones are still those ``change`` was given
        (another process may have written meanwhile); else ``change`` runs again on the
        fresh ones, at most :data:`OPTION_TRIES` times (then :class:`OptionsBusy`). So
        two changes at once never erase each other. Raises :class:`NightGone` for a night
        that is not stored.

        >>> store = EventStore("sqlite://"); store.upgrade()
        >>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
        ...                                     "players": ["Ann", "Bea"]})
        >>> store.change_options("n1", lambda o: {**o, "dice": "phones"}).after
        {'dice': 'phones'}
        >>> store.change_options("n1", lambda o: {**o, "bots": ["Bea"]}).after
        {'dice': 'phones', 'bots': ['Bea']}
        """
        for _try in range(OPTION_TRIES):
            with self.engine.begin() as conn:
                changed = self._write_options(conn, night_id, change)
                if changed is not None:
                    return changed
        raise OptionsBusy(f"night {night_id!r}'s options changed under {OPTION_TRIES} tries")

    def change_tokens(self, night_id: str, change: TokenChange) -> TokensChanged:
        """Make ``change`` to the night's tokens (revocations, new tokens, a player's
        claim) and, with it, to its options, in one transaction: all of it or nothing (a
        table's new join code never leaves the table without one). The options are
        written by compare-and-set as in :meth:`change_options` (the whole change made
        again when they moved). A claim of a name a live token follows stores nothing
        (``claimed`` false), unless ``shared``; on PostgreSQL the claim holds the night's
        claim lock, so two claims of one name at once store one token. A ``numbered``
        token's number is decided in the transaction (on PostgreSQL under the night's
        numbering lock): two processes adding at once never hand out one number twice.

        >>> store = EventStore("sqlite://"); store.upgrade()
        >>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
        ...                                     "players": ["Ann", "Bea"]})
        >>> ann = TokenRecord("h-ann", "n1", "player", player="Ann")
        >>> store.change_tokens("n1", TokenChange(claim=ann)).claimed
        True
        >>> again = TokenRecord("h-ann-2", "n1", "player", player="Ann")
        >>> store.change_tokens("n1", TokenChange(claim=again)).claimed
        False
        >>> store.change_tokens("n1", TokenChange(revoke=(Revoke("player", player="Ann"),)))
        TokensChanged(revoked=(1,), claimed=None, options=None, numbered=None, number=None)
        >>> def named(number: int) -> str:
        ...     return f"co-host {number}"
        >>> def number_of(label: str | None) -> int | None:
        ...     return int(label.split()[-1]) if label and label.startswith("co-host") else None
        >>> from bunco.store.night_tokens import Numbered
        >>> bea = Numbered(TokenRecord("h-bea", "n1", "host"), number_of, named)
        >>> done = store.change_tokens("n1", TokenChange(numbered=bea))
        >>> done.number, done.numbered.player
        (1, 'co-host 1')
        """
        for _try in range(OPTION_TRIES):
            try:
                with self.engine.begin() as conn:
                    done = write_tokens(conn, night_id, self.dialect, change, now())
                    options = None
                    if change.options is not None:
                        options = self._write_options(conn, night_id, change.options)
                        if options is None:
                            raise _Moved
                    self._notify(conn, "t", night_id)
                    return replace(done, options=options)
            except IntegrityError as exc:
                raise StoreError("a token with this hash exists") from exc
            except _Moved:
                continue
        raise OptionsBusy(f"night {night_id!r}'s options changed under {OPTION_TRIES} tries")

    def _write_options(
        self, conn: Connection, night_id: str, change: OptionsChange
    ) -> ChangedOptions | None:
        """``change`` applied to the stored options on ``conn`` (their write announced);
        ``None`` when they were written meanwhile (nothing written)."""
        row = conn.execute(select(_NIGHTS.c.options).where(_NIGHTS.c.id == night_id)).first()
        if row is None:
            raise NightGone(f"night {night_id!r} is not stored")
        before = options_of(row.options)
        after = change(options_of(row.options))  # its own copy to change
        if after == before:
            return ChangedOptions(before, before)
        same = (
            _NIGHTS.c.options.is_(None) if row.options is None else _NIGHTS.c.options == row.options
        )
        done = conn.execute(
            update(_NIGHTS).where(_NIGHTS.c.id == night_id, same).values(options=dump(after))
        )
        if done.rowcount != 1:
            return None
        self._notify(conn, "o", night_id)
        return ChangedOptions(before, after)

    # events ---------------------------------------------------------------

    def append(
        self,
        night_id: str,
        seq: int,
        *,
        table: int | None,
        command_id: str | None,
        event: Event | None = None,
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

    def add_tokens(self, tokens: Sequence[TokenRecord]) -> None:
        """Store token hashes (raises :class:`StoreError` if a hash exists)."""
        if not tokens:
            return
        created = now()
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(_TOKENS), [token_values(t, created) for t in tokens])
                for night_id in sorted({t.night_id for t in tokens}):
                    self._notify(conn, "t", night_id)
        except IntegrityError as exc:
            raise StoreError("a token with this hash exists") from exc

    def claim_player(self, token: TokenRecord, *, shared: bool = False) -> bool:
        """Store ``token``, a player token, unless a live token of the same player of its
        night exists (``shared=True``: store it anyway); whether it was stored
        (:meth:`change_tokens`)."""
        done = self.change_tokens(token.night_id, TokenChange(claim=token, shared=shared))
        return bool(done.claimed)

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
        with self.engine.begin() as conn:
            count = revoke(conn, night_id, Revoke(role, table, player), now())
            self._notify(conn, "t", night_id)
            return count
