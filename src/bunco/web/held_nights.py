"""The nights this process holds: each rebuilt from the store the first time it is used,
brought up to the events other processes stored (in seq order, under the night's lock),
and advanced by each committed event, which is then published (:mod:`bunco.web.fanout`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.party.view import table_view
from bunco.store import EventStore, StoredEvent
from bunco.store.night_lock import NightWrites
from bunco.web.fanout import Publisher
from bunco.web.live_night import LiveNight, moved
from bunco.web.pubsub import InProcessPubSub, PubSub
from bunco.web.replies import Ack, ServiceError, entry_json, json_text, not_found, status_of

log = logging.getLogger("bunco.service")


class HeldNights:
    """Loads nights from the store, keeps them, catches them up, advances and publishes them."""

    def __init__(self, store: EventStore, pubsub: PubSub | None = None) -> None:
        self.store = store
        self.pubsub: PubSub = pubsub or InProcessPubSub()
        self.publisher = Publisher(self.pubsub)
        self.nights: dict[str, LiveNight] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.inline_db = store.dialect == "sqlite"
        self.writes = NightWrites(store.engine.url) if store.dialect == "postgresql" else None
        """PostgreSQL: the command path's own connections, used on the event loop."""
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

    async def open(self) -> None:
        """Open the command path's PostgreSQL connections now, not during the first
        burst of writes (nothing to do on SQLite)."""
        if self.writes is not None:
            await self.writes.pool()

    async def aclose(self) -> None:
        """:meth:`close`, and close the command path's PostgreSQL connections."""
        if self.writes is not None:
            await self.writes.close()
        self.close()

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
        changes: list[bool] = []  # whether each event moved the round or the seating
        try:
            night = Night.start(stored.event)
            for stored in events[1:]:
                before, night = night, night.apply(stored.event)
                changes.append(moved(before, night))
        except BuncoError as exc:  # a log written by a bunco whose rules differ
            raise ServiceError(
                409, "log_error", f"the stored log of night {night_id!r} does not replay at "
                f"event {stored.seq}: {exc.message}",
                "a version of bunco whose rules read this night (its log stays in the "
                "database, untouched)") from None
        live = LiveNight(record.id, record.name, record.created_at, night, [events[0]],
                         record.options)
        live.table_seq[None] = 0
        for stored, event, change in zip(events[1:], night.events, changes, strict=True):
            live.record(stored, event["type"], change)
        return live

    async def catch_up(self, live: LiveNight) -> None:
        """Read the events other processes stored after the night's seq, apply and publish
        them (under the night's lock), then wake the night's hooks (bots)."""
        async with live.lock:
            await self._catch_up_locked(live)
        for hook in self.after_commit:
            hook(live)

    async def _catch_up_locked(self, live: LiveNight) -> None:
        if self.writes is not None:  # PostgreSQL: one round trip on the event loop
            events = await self.writes.events(live.id, live.seq)
        else:
            events = await self.db(self.store.events, live.id, after=live.seq)
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
        live.forget_derived()

    # -- advancing ----------------------------------------------------------------------------

    def _advance(self, live: LiveNight, stored: StoredEvent, after: Night, kind: str) -> Ack:
        """Make a committed event part of the live night, publish it, and its reply."""
        before = (live.night.phase, live.night.set_no, live.night.round_no, live.night.bell,
                  live.night.started)
        entry = entry_json(live.night, after, stored.table, kind)
        change = moved(live.night, after)
        live.night = after
        live.record(stored, kind, change)
        ack = self._ack(live, stored, duplicate=False, entry=entry)
        self.publisher.publish_event(live, stored, before, ack)
        return ack

    def _ack(self, live: LiveNight, stored: StoredEvent, *, duplicate: bool,
             entry: str = "") -> Ack:
        view = "null"
        if stored.table is not None and stored.table <= len(live.night.tables):
            view = json_text(table_view(live.night.tables[stored.table - 1], live.night.rules))
        status = {**status_of(live.night, expects=False),
                  "round_version": live.table_seq.get(None, 0)}
        return Ack(stored, duplicate, status, view, entry)
