"""The nights this process holds: each rebuilt from the store the first time it is used,
brought up to the events other processes stored (in seq order, under the night's lock),
and advanced by each committed event, which is then published (:mod:`bunco.web.night.fanout`);
let go when the night is deleted (:meth:`HeldNights.drop`) and read again when its log
is rewritten (:meth:`HeldNights.reload`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.party.view import table_view
from bunco.store import EventStore, StoredEvent
from bunco.store.writers import NightWriter
from bunco.web.decision.frozen_state import NotReplayed, replayed
from bunco.web.live.pubsub import InProcessPubSub, PubSub
from bunco.web.night.fanout import Publisher
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.values.replies import (
    Ack,
    NightStatus,
    ServiceError,
    entry_json,
    json_text,
    not_found,
    status_of,
)

log = logging.getLogger("bunco.service")


class HeldNights:
    """Loads nights from the store, keeps them, catches them up, advances and publishes them."""

    def __init__(self, store: EventStore, pubsub: PubSub | None, writer: NightWriter) -> None:
        self.store = store
        self.pubsub: PubSub = pubsub or InProcessPubSub()
        self.publisher = Publisher(self.pubsub)
        self.writer = writer
        """Reads what other processes stored (the command path stores through it too)."""
        self.nights: dict[str, LiveNight] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.inline_db = store.dialect == "sqlite"
        self.after_commit: list[Callable[[LiveNight], None]] = []
        self.on_tokens_changed: list[Callable[[str], None]] = []
        self.on_dropped: list[Callable[[str], None]] = []
        """Called with a night's id when it was deleted (:meth:`drop`): its bots, timer,
        tokens and WebSockets let it go."""
        self.gone: set[str] = set()
        """The nights deleted while this process ran: never loaded again."""

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a store call: inline for SQLite (short, local), on a thread otherwise."""
        if self.inline_db:
            return fn(*args, **kwargs)
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- loading ------------------------------------------------------------------------------

    async def get(self, night_id: str, *, at_least: int = -1, fresh: bool = True) -> LiveNight:
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
        if fresh and max(live.following.heard, at_least) > live.seq:
            await self.catch_up(live)
        return live

    async def _load(self, night_id: str) -> LiveNight:
        if len(night_id) > 32 or night_id in self.gone:
            raise not_found(night_id)
        record = await self.db(self.store.night, night_id)
        if record is None:
            raise not_found(night_id)
        events: list[StoredEvent] = await self.db(self.store.events, night_id)
        if night_id in self.gone or not events:  # deleted while it was read
            raise not_found(night_id)
        try:
            state = replayed(night_id, events)
        except NotReplayed as exc:  # a log written by a bunco whose rules differ
            raise ServiceError(
                409,
                "log_error",
                f"the stored log of night {night_id!r} does not replay at "
                f"event {exc.seq}: {exc.error.message}",
                "a version of bunco whose rules read this night (its log stays in the "
                "database, untouched)",
            ) from None
        return LiveNight(record.id, record.name, record.created_at, record.options, state)

    async def catch_up(self, live: LiveNight) -> None:
        """Read the events other processes stored after the night's seq, apply and publish
        them (under the night's lock), then wake the night's hooks (bots)."""
        async with live.lock:
            await self.catch_up_locked(live)
        for hook in self.after_commit:
            hook(live)

    async def catch_up_locked(self, live: LiveNight) -> None:
        """:meth:`catch_up`, for a caller that holds the night's lock (no hooks)."""
        await self.apply_stored(live, await self.writer.events_after(live.id, live.seq))

    async def apply_stored(self, live: LiveNight, events: list[StoredEvent]) -> None:
        """Apply and publish events other processes stored after the night's seq."""
        for stored in events:
            if stored.seq <= live.seq:  # applied meanwhile (a notice's catch-up)
                continue
            if stored.seq != live.seq + 1:
                break
            try:
                after = live.night.apply(stored.event)
            except BuncoError:
                log.exception(
                    "night %s: event %s from the store does not apply; reloading",
                    live.id,
                    stored.seq,
                )
                await self.refresh(live)
                return
            self.advance(live, stored, after)

    async def refresh(self, live: LiveNight) -> None:
        """Rebuild a night from the store in place; the caller holds its lock, which stays
        the same."""
        fresh = await self._load(live.id)
        live.state, live.options, live.name = fresh.state, fresh.options, fresh.name
        live.cache.forget()

    # -- letting go ----------------------------------------------------------------------------

    def drop(self, night_id: str) -> LiveNight | None:
        """The night was deleted (here or by another process): let it go. The commands
        waiting in its inbox are answered 404 (a batch being stored finds the night gone
        and is answered 404 too, :class:`~bunco.store.NightGone`), its catch-up stops, it
        is never loaded again, and :attr:`on_dropped` lets its bots, timer, tokens and
        WebSockets go. Returns the night if it was held. Call on the event loop."""
        self.gone.add(night_id)
        live = self.nights.pop(night_id, None)
        self._loading.pop(night_id, None)
        if live is not None:
            waiting, live.writing.inbox = live.writing.inbox, []
            for queued in waiting:
                if not queued.reply.done():
                    queued.reply.set_exception(not_found(night_id))
            follower = live.following.follower
            if follower is not None and not follower.done():
                follower.cancel()
        for hook in self.on_dropped:
            hook(night_id)
        return live

    async def reload(self, night_id: str) -> None:
        """The night's stored log was rewritten in place (a member's personal data erased):
        read it again from the store, if it is held here, and tell its pages to read it
        again (the ``options`` messages, which every page takes)."""
        live = self.nights.get(night_id)
        if live is None:
            return
        async with live.lock:
            if self.nights.get(night_id) is not live:
                return  # let go meanwhile
            await self.refresh(live)
        self.publisher.publish_options(live)

    # -- advancing ----------------------------------------------------------------------------

    def advance(self, live: LiveNight, stored: StoredEvent, after: Night) -> Ack:
        """Make a committed event part of the live night (``after``: the night with it
        applied), publish it, and its reply."""
        night = live.night
        before = (
            night.phase,
            night.set_no,
            night.round_no,
            night.bell,
            night.started,
            night.seated_tables,
        )
        entry = entry_json(night, after, stored.table, after.events[-1]["type"])
        live.record(stored, after)
        ack = self.ack(live, stored, duplicate=False, entry=entry)
        self.publisher.publish_event(live, stored, before, ack)
        return ack

    def ack(self, live: LiveNight, stored: StoredEvent, *, duplicate: bool, entry: str = "") -> Ack:
        """The reply to the command that stored ``stored`` (``duplicate``: to a retry)."""
        view = "null"
        if stored.table is not None and stored.table <= len(live.night.tables):
            view = json_text(table_view(live.night.tables[stored.table - 1], live.night.rules))
        status: NightStatus = {
            **status_of(live.night, expects=False),
            "round_version": live.table_seq.get(None, 0),
        }
        return Ack(stored, duplicate, status, view, entry)
