"""How the command path stores a night's batch of events: one interface
(:class:`NightWriter`), one implementation per database.

A batch is planned against the night as this process holds it, at some seq. Another
process may have stored events after that seq meanwhile; the writer then hands the
events it missed to ``replan``, which applies them and plans the batch again, and
stores what ``replan`` returns instead. So a batch is never refused because another
process wrote.

- :class:`SqliteWriter`: one process serves an SQLite file, so the batch is inserted
  at once on a writer thread (the event loop does not wait for the database); if a
  writer that takes no lock stored a seq first (:class:`~bunco.store.SeqTaken`: nothing
  was stored), it reads what it missed, replans and tries again, at most
  :data:`MAX_ATTEMPTS` times (then :class:`WriteBusy`).
- :class:`PostgresWriter`: the night's write lock across processes
  (:mod:`bunco.store.night_lock`), on the event loop; what was missed is read under the
  lock, so one replan is enough.

A night's server options (bots, the dice, the door list, the room's calls...) are
changed through the same writer (:meth:`NightWriter.change_options`): a pure change
applied by compare-and-set on the stored options (:meth:`EventStore.change_options
<bunco.store.events.EventStore.change_options>`), on the SQLite writer thread (one
writer at a time with the batches), or on a thread of its own on PostgreSQL (the
compare-and-set keeps two processes from erasing each other's change); and so are its
tokens (:meth:`NightWriter.change_tokens`: revocations, new tokens, a player's claim and
the options changed with them, in one transaction).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from bunco.core.stored_event import StoredEvent
from bunco.store.events import (
    ChangedOptions,
    EventStore,
    OptionsChange,
    SeqTaken,
    StoreError,
)
from bunco.store.night_lock import NightWrites
from bunco.store.night_tokens import TokenChange, TokensChanged

Replan = Callable[[list[StoredEvent]], Awaitable[list[StoredEvent]]]
"""Given the events another process stored after the batch's seq (in seq order), apply
them and return the batch's events planned again after them."""

MAX_ATTEMPTS = 20
"""How often an SQLite batch is planned again after another writer stored a seq first."""


class WriteBusy(StoreError):
    """The night changed under the batch :data:`MAX_ATTEMPTS` times in a row."""


class NightWriter(Protocol):
    """Stores a night's batches and reads what other processes stored."""

    async def open(self) -> None:
        """Open connections now, not during the first burst of writes."""

    async def close(self) -> None:
        """Let the last batch finish, then close."""

    async def events_after(self, night_id: str, seq: int) -> list[StoredEvent]:
        """The night's stored events after ``seq``, in order."""

    async def commit(self, night_id: str, events: list[StoredEvent], replan: Replan) -> None:
        """Store ``events`` (the night's next, consecutive) in one transaction, all or
        nothing; see the module's docstring for ``replan``. Nothing to store: nothing
        happens (``replan`` may leave nothing)."""

    async def change_options(self, night_id: str, change: OptionsChange) -> ChangedOptions:
        """Apply ``change`` to the night's stored options, all or nothing, never over
        another change made meanwhile (:meth:`EventStore.change_options`)."""

    async def change_tokens(self, night_id: str, change: TokenChange) -> TokensChanged:
        """Make ``change`` to the night's tokens (and options), all or nothing
        (:meth:`EventStore.change_tokens`)."""


class SqliteWriter:
    """:class:`NightWriter` for SQLite: one thread commits (one writer at a time anyway)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="bunco-commit")

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        self.shutdown()

    def shutdown(self) -> None:
        """Stop the writer thread after the last batch (without an event loop)."""
        self._thread.shutdown(wait=True)

    async def events_after(self, night_id: str, seq: int) -> list[StoredEvent]:
        return self.store.events(night_id, after=seq)  # short and local: inline

    async def change_options(self, night_id: str, change: OptionsChange) -> ChangedOptions:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self.store.change_options, night_id, change)

    async def change_tokens(self, night_id: str, change: TokenChange) -> TokensChanged:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self.store.change_tokens, night_id, change)

    async def commit(self, night_id: str, events: list[StoredEvent], replan: Replan) -> None:
        loop = asyncio.get_running_loop()
        for _attempt in range(MAX_ATTEMPTS):
            if not events:
                return
            try:
                await loop.run_in_executor(self._thread, self.store.append_many, night_id, events)
                return
            except SeqTaken:  # nothing was stored
                events = await replan(await self.events_after(night_id, events[0].seq - 1))
        raise WriteBusy(f"the night changed under this batch {MAX_ATTEMPTS} times in a row")


class PostgresWriter:
    """:class:`NightWriter` for PostgreSQL: each batch under the night's write lock."""

    def __init__(self, writes: NightWrites, store: EventStore) -> None:
        self.writes = writes
        self.store = store

    async def open(self) -> None:
        await self.writes.pool()

    async def close(self) -> None:
        await self.writes.close()

    async def events_after(self, night_id: str, seq: int) -> list[StoredEvent]:
        return await self.writes.events(night_id, seq)  # one round trip on the event loop

    async def change_options(self, night_id: str, change: OptionsChange) -> ChangedOptions:
        # shielded as a batch's commit is: a change that reached the database is kept
        return await asyncio.shield(asyncio.to_thread(self.store.change_options, night_id, change))

    async def change_tokens(self, night_id: str, change: TokenChange) -> TokensChanged:
        return await asyncio.shield(asyncio.to_thread(self.store.change_tokens, night_id, change))

    async def commit(self, night_id: str, events: list[StoredEvent], replan: Replan) -> None:
        if not events:
            return
        lock = await self.writes.lock(night_id, events[0].seq - 1)
        try:
            if lock.missed:
                events = await replan(lock.missed)
        except BaseException:
            await asyncio.shield(lock.release())
            raise
        # the commit goes on if the caller is cancelled: its replies then say 503, and a
        # retry of a command that was stored finds it
        await asyncio.shield(lock.commit(events))


def writer_for(store: EventStore) -> NightWriter:
    """The :class:`NightWriter` of ``store``'s database."""
    if store.dialect == "postgresql":
        return PostgresWriter(NightWrites(store.engine.url), store)
    return SqliteWriter(store)
