"""One writer at a time per night, across server processes (PostgreSQL), on the event loop.

Several ``bunco serve`` processes may write the same night of one PostgreSQL
database. Each batch of a night's commands is stored in a transaction that first
takes the night's *write lock*, a transaction-level advisory lock
(``pg_advisory_xact_lock``) keyed by the night: a process that wants to write while
another one does waits for that transaction to end, instead of racing it for the next
seq and losing. Under the lock it reads the events the other processes stored since
the seq it holds (:attr:`NightLock.missed`); if there are any, it applies them and
checks its commands again while it holds the lock; then it inserts its events,
announces them (``pg_notify``, :mod:`bunco.store.notify`) and commits, which releases
the lock. So a write is never refused because another process wrote: processes queue
per night, and nights never wait for each other (a hash collision of two night ids only
makes them take turns).

The command path talks to PostgreSQL here with psycopg's asynchronous connections, on
the event loop, from a small pool (:class:`NightWrites`), in two round trips per batch
(pipeline mode): ``BEGIN``, the lock and the read of what was missed; then the insert,
the notice and ``COMMIT``. A worker thread per call would cost more than the database:
each of its round trips waits for the interpreter's lock while the event loop is busy
sending to the pages (up to the 5 ms switch interval, every time).

The lock is waited for at most 15 s, and a transaction left idle while holding it (a
process stopped half-way) is ended by PostgreSQL after 15 s, which releases the lock
for everyone else (:data:`bunco.store.db.POSTGRES_TIMEOUTS`).

SQLite needs none of this: one process serves an SQLite database, and its own writer
task per night already writes one batch at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bunco.core.stored_event import StoredEvent, command_scope
from bunco.store import notify
from bunco.store.advisory import NIGHT_WRITES
from bunco.store.db import POSTGRES_TIMEOUTS
from bunco.store.events import (
    NightGone,
    SeqTaken,
    names_no_night,
    stored_event,
)

_COLUMNS = "night_id, seq, table_no, caller, command_id, request_hash, body, created_at"
_LOCK = "SELECT pg_advisory_xact_lock(%s, hashtext(%s))"
_READ = f"SELECT {_COLUMNS} FROM events WHERE night_id = %s AND seq > %s ORDER BY seq"
_INSERT = (
    f"INSERT INTO events ({_COLUMNS}, command_scope) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
)
_NOTIFY = "SELECT pg_notify(%s, %s)"


class NightWrites:
    """The command path's connections to PostgreSQL: a pool of psycopg asynchronous
    connections (``psycopg_pool``; ``min_size`` of them kept open: a night's writer and
    its catch-ups each use one), opened on first use in the running event loop (the
    server opens it as it starts) and closed by :meth:`close`. ``url`` is the store's
    SQLAlchemy URL."""

    def __init__(self, url: Any, *, min_size: int = 2, max_size: int = 4) -> None:
        self.conninfo = notify.conninfo(url)
        self.min_size, self.max_size = min_size, max_size
        self._pool: Any = None
        self._opening: asyncio.Lock | None = None

    async def pool(self) -> Any:
        """The open pool (opened now if it is not)."""
        if self._pool is None:
            from psycopg.rows import namedtuple_row
            from psycopg_pool import AsyncConnectionPool

            self._opening = self._opening or asyncio.Lock()
            async with self._opening:
                if self._pool is None:
                    pool = AsyncConnectionPool(
                        self.conninfo,
                        min_size=self.min_size,
                        max_size=self.max_size,
                        open=False,
                        kwargs={"options": POSTGRES_TIMEOUTS, "row_factory": namedtuple_row},
                    )
                    await pool.open(wait=True)
                    self._pool = pool
        return self._pool

    async def close(self) -> None:
        """Close the pool's connections (nothing happens if it was never opened)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def lock(self, night_id: str, after: int) -> NightLock:
        """Begin a transaction, wait for the night's write lock and read the events stored
        after seq ``after`` (by other processes), in one round trip; see
        :class:`NightLock`. A connection found broken at this step (the database
        restarted) is dropped and the step tried once more on another one: nothing was
        stored yet."""
        pool = await self.pool()
        for attempt in (1, 2):
            conn = await pool.getconn()
            try:
                async with conn.pipeline():
                    await conn.execute(_LOCK, (NIGHT_WRITES, night_id))
                    cursor = await conn.execute(_READ, (night_id, after))
                missed = [stored_event(row) for row in await cursor.fetchall()]
            except BaseException as exc:
                await _put_back(pool, conn)
                if attempt == 2 or not conn.broken or not isinstance(exc, Exception):
                    raise
                continue
            return NightLock(self, night_id, conn, missed)
        raise AssertionError("unreachable")

    async def events(self, night_id: str, after: int) -> list[StoredEvent]:
        """The night's events with ``seq > after``, in order (one round trip)."""
        pool = await self.pool()
        async with pool.connection() as conn:
            cursor = await conn.execute(_READ, (night_id, after))
            return [stored_event(row) for row in await cursor.fetchall()]


class NightLock:
    """An open transaction holding one night's write lock, and what it read under it.

    Made by :meth:`NightWrites.lock`; ended by exactly one of :meth:`commit` (store
    events) or :meth:`release` (store nothing).
    """

    def __init__(
        self, writes: NightWrites, night_id: str, conn: Any, missed: list[StoredEvent]
    ) -> None:
        self.writes, self.night_id, self._conn = writes, night_id, conn
        self.missed = missed
        """The events stored after the seq given to :meth:`NightWrites.lock`, in seq
        order."""

    async def commit(self, events: Sequence[StoredEvent]) -> None:
        """Store ``events`` (consecutive, after the last missed one), announce them and
        commit (one round trip), which releases the lock; it returns once the commit is
        durable. Raises :class:`~bunco.store.SeqTaken` (nothing stored) if a writer that
        does not take the lock stored one of the seqs or command ids first, and
        :class:`~bunco.store.NightGone` if the night was deleted meanwhile."""
        import psycopg

        conn, self._conn = self._conn, None
        if conn is None:
            raise RuntimeError("the night's write lock was already given up")
        try:
            async with conn.pipeline():
                if events:
                    async with conn.cursor() as cursor:
                        await cursor.executemany(_INSERT, [_row(e) for e in events])
                    await conn.execute(
                        _NOTIFY,
                        (notify.CHANNEL, notify.payload("e", self.night_id, events[-1].seq)),
                    )
                await conn.commit()
        except psycopg.errors.IntegrityError as exc:
            if names_no_night(exc):
                raise NightGone(f"night {self.night_id!r} is not in the store") from exc
            raise SeqTaken(
                f"event {events[0].seq} (or a command id) of night "
                f"{self.night_id!r} is already stored"
            ) from exc
        finally:
            await _put_back(await self.writes.pool(), conn)

    async def release(self) -> None:
        """End the transaction without storing anything (the lock is released); nothing
        happens if it has ended already."""
        conn, self._conn = self._conn, None
        if conn is not None:
            await _put_back(await self.writes.pool(), conn)


def _row(e: StoredEvent) -> tuple[Any, ...]:
    return (
        e.night_id,
        e.seq,
        e.table,
        e.caller,
        e.command_id,
        e.request_hash,
        e.body,
        e.created_at,
        command_scope(e.caller),
    )


async def _put_back(pool: Any, conn: Any) -> None:
    """Return ``conn`` to ``pool``, its transaction (if one is still open) rolled back, so
    its locks are released; a broken connection is dropped by the pool."""
    try:
        if not conn.broken and conn.info.transaction_status != 0:  # not idle
            await conn.rollback()
    finally:
        await pool.putconn(conn)
