"""One writer at a time per night, across server processes (PostgreSQL).

Several ``bunco serve`` processes may write the same night of one PostgreSQL
database. Each batch of a night's commands is stored in a transaction that first
takes the night's *write lock*, a transaction-level advisory lock
(``pg_advisory_xact_lock``) keyed by the night: a process that wants to write while
another one does waits for that transaction to end, instead of racing it for the next
seq and losing. Under the lock it reads the events the other processes stored since
the seq it holds (:attr:`NightLock.missed`), checks its commands against the night
with them, inserts its events and commits; the commit releases the lock. So a write
is never refused because another process wrote: processes queue per night, and
nights never wait for each other (a hash collision of two night ids only makes them
take turns). A process plans its batch first and stores it with
:func:`store_unless_missed`: only when another process wrote meanwhile, several times
in a row, is the lock kept while it checks its batch again.

The lock is waited for at most 15 s, and a transaction left idle while holding it (a
process stopped half-way) is ended by PostgreSQL after 15 s, which releases the lock
for everyone else (:data:`bunco.store.db.POSTGRES_TIMEOUTS`).

SQLite needs none of this: one process serves an SQLite database, and its own writer
task per night already writes one batch at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from bunco.store.advisory import NIGHT_WRITES, take
from bunco.store.events import EventStore, StoredEvent


class NightLock:
    """An open transaction holding one night's write lock, and what it read under it.

    Made by :func:`lock_night`; ended by exactly one of :meth:`commit` (store events)
    or :meth:`release` (store nothing). Both are blocking calls, for a worker thread.
    """

    def __init__(self, store: EventStore, night_id: str, conn: Connection,
                 missed: list[StoredEvent]) -> None:
        self.store, self.night_id, self._conn = store, night_id, conn
        self.missed = missed
        """The events stored after the seq given to :func:`lock_night`, in seq order."""

    def commit(self, events: Sequence[StoredEvent]) -> None:
        """Store ``events`` (consecutive, after the last missed one), announce them and
        commit, which releases the lock. Raises :class:`~bunco.store.SeqTaken` (nothing
        stored) if a writer that does not take the lock stored one of the seqs first."""
        try:
            if events:
                self.store.insert_events(self._conn, self.night_id, events)
            self._conn.commit()
        finally:
            self._conn.close()

    def release(self) -> None:
        """End the transaction without storing anything (the lock is released); nothing
        happens if it has ended already."""
        self._conn.close()


def lock_night(store: EventStore, night_id: str, after: int) -> NightLock:
    """Begin a transaction, wait for the night's write lock and read the events stored
    after seq ``after`` (by other processes); see :class:`NightLock`. PostgreSQL only."""
    conn = store.engine.connect()
    try:
        conn.begin()
        take(conn, NIGHT_WRITES, night_id)
        missed = store.read_events(conn, night_id, after=after)
    except BaseException:
        conn.close()
        raise
    return NightLock(store, night_id, conn, missed)


def store_unless_missed(store: EventStore, night_id: str, after: int,
                        events: Sequence[StoredEvent], hold: bool = True) -> NightLock | None:
    """Store ``events`` (planned after seq ``after``) holding the night's write lock if
    no other process stored events after ``after``, and return ``None``. Else store
    nothing and return what was missed (:attr:`NightLock.missed`) in the transaction,
    still holding the lock (to plan again and :meth:`NightLock.commit`), or, without
    ``hold``, ended (to catch up and try again). PostgreSQL only.

    In the usual case (no other process wrote meanwhile) the lock is held only for the
    database's work: lock, one read, the insert and the commit.
    """
    lock = lock_night(store, night_id, after)
    if not lock.missed:
        lock.commit(events)
        return None
    if not hold:
        lock.release()
    return lock
