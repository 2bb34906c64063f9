"""Following the other server processes that share this PostgreSQL database.

Every process announces what it commits (:mod:`bunco.store.notify`). A
:class:`ProcessFollower` listens, and for each notice about a night this process holds
it catches the night up from the store in the background (the events are applied and
published in seq order by :meth:`NightService.catch_up`), reloads the night's options,
forgets the cached tokens, lets a deleted night go (``d``: :meth:`NightService.drop`)
or reads a rewritten night again (``r``: :meth:`NightService.reload`). Until the catch-up is done, the night's ``heard`` seq makes
every read and write of it catch up first (:meth:`NightService.get`), so no answer is
older than a notice received.

Notices sent while the listening connection is down are lost: when it is back,
:meth:`ProcessFollower.resync` catches up every night held here and forgets the cached
tokens.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from bunco.store import notify
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService

log = logging.getLogger("bunco.follow")


class ProcessFollower:
    """Hears the other processes' notices and brings this process's nights up to them."""

    def __init__(self, service: NightService) -> None:
        self.service = service
        self.listening = False
        """Whether the notices are heard now (``GET /api/health``)."""
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Listen until cancelled, reconnecting when the connection drops."""
        store = self.service.store

        async def connected() -> None:
            self.listening = True
            await self.resync()

        def disconnected() -> None:
            self.listening = False

        try:
            await notify.follow(
                notify.conninfo(store.engine.url),
                self.notified,
                connected,
                on_disconnect=disconnected,
            )
        finally:
            self.listening = False

    def notified(self, notice: notify.Notice) -> None:
        """A change another process (or this one) committed: catch up in the background."""
        service = self.service
        if notice.kind == "t":
            for hook in service.on_tokens_changed:
                hook(notice.night_id)
            return
        if notice.kind == "d":
            service.drop(notice.night_id)
            return
        if notice.kind == "r":
            self._background(service.reload(notice.night_id))
            return
        live = service.nights.get(notice.night_id)
        if live is None:
            return  # not held here: loaded fresh from the store when it is asked for
        if notice.kind == "e" and notice.seq is not None:
            live.following.heard = max(live.following.heard, notice.seq)
            if live.following.heard <= live.seq:
                return
        self._follow(live, options=notice.kind == "o")

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until it ends (a failure is logged)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("following another process failed", exc_info=task.exception())

    def _follow(self, live: LiveNight, *, options: bool = False) -> None:
        """Start one background catch-up of ``live`` (and of its options) if none runs."""
        following = live.following
        following.options_stale = following.options_stale or options
        if following.follower is None or following.follower.done():
            following.follower = asyncio.get_running_loop().create_task(self._catch_up(live))

    async def _catch_up(self, live: LiveNight) -> None:
        service, following = self.service, live.following
        while following.options_stale or following.heard > live.seq:
            if following.options_stale:
                following.options_stale = False
                record = await service.db(service.store.night, live.id)
                live.options = record.options if record is not None else {}
                service.publisher.publish_options(live)
                for hook in service.after_commit:
                    hook(live)
            if following.heard > live.seq:
                before = live.seq
                await service.catch_up(live)
                if live.seq == before:  # announced but not in the store: nothing to wait for
                    following.heard = live.seq

    async def resync(self) -> None:
        """After (re)connecting: catch up every night held here and forget cached tokens,
        since the notices sent meanwhile were lost."""
        service = self.service
        for night_id in list(service.nights):
            for hook in service.on_tokens_changed:
                hook(night_id)
        for live in list(service.nights.values()):
            last = await service.db(service.store.last_seq, live.id)
            if last < 0:  # deleted meanwhile (its notice was lost)
                service.drop(live.id)
                continue
            live.following.heard = max(live.following.heard, last)
            self._follow(live, options=True)
