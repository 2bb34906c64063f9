"""Bots: the server rolls for players marked as bots when it is their turn.

A bot's roll goes through the same command path as a person's ("roll for me": dice
from the cryptographic generator, stored as a normal roll event). Its command id is
random and its own (caller ``bot``: no token's commands share that space), and it carries
the table's version as ``expected_seq``, so a bot never rolls twice for the same moment
(a second try is refused as stale). The pace
(seconds between two bot rolls) is a night option; the server can override it (0 in
tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from bunco.web.commands import RollForMe
from bunco.web.live_night import LiveNight
from bunco.web.replies import ServiceError
from bunco.web.service import NightService

log = logging.getLogger("bunco.bots")
BOT_CALLER = "bot"
"""Whose the bots' command ids are (a token's caller is 32 hex digits: never this)."""


class BotRunner:
    """One background task per night that has bots, woken after every accepted event."""

    def __init__(self, service: NightService, pace: float | None = None) -> None:
        self.service = service
        self.pace = pace
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        service.after_commit.append(self.poke)

    def poke(self, live: LiveNight) -> None:
        """Called after each accepted event: start or wake the night's bot task."""
        if not live.bots:
            return
        wake = self._wake.setdefault(live.id, asyncio.Event())
        wake.set()
        task = self._tasks.get(live.id)
        if task is None or task.done():
            self._tasks[live.id] = asyncio.get_running_loop().create_task(self._run(live.id))

    def pace_of(self, live: LiveNight) -> float:
        if self.pace is not None:
            return self.pace
        return float(live.options.get("bot_pace", 1.0))

    async def _run(self, night_id: str) -> None:
        wake = self._wake[night_id]
        while True:
            await wake.wait()
            wake.clear()
            while self._due(night_id):
                live = self.service.nights.get(night_id)
                await asyncio.sleep(self.pace_of(live) if live is not None else 0.0)
                if not await self._play_due(night_id):
                    break  # every bot roll was refused: wait for the next event

    def _due(self, night_id: str) -> list[tuple[int | None, str]]:
        """The bots that may roll now (table or None for a roll-off, player)."""
        live = self.service.nights.get(night_id)
        if live is None or not live.bots:
            return []
        bots = set(live.bots)
        return [(t, p) for t, p in live.night.expected_rollers() if p in bots]

    async def _play_due(self, night_id: str) -> int:
        """One roll for each bot whose turn it is now (one per table); how many were made."""
        made = 0
        for table, player in self._due(night_id):
            live = self.service.nights.get(night_id)
            if live is None:
                break  # deleted meanwhile
            event: dict[str, Any] = {"type": "roll", "player": player}
            if table is not None:
                event["table"] = table
            try:
                await self.service.submit(
                    night_id,
                    RollForMe(event),
                    command_id="bot:" + secrets.token_urlsafe(12),
                    caller=BOT_CALLER,
                    expected_seq=live.version(table),
                )
                made += 1
            except ServiceError as exc:  # someone else moved first; look again
                log.debug("bot %s at %s: %s", player, table, exc.message)
            await asyncio.sleep(0)
        return made

    def forget(self, night_id: str) -> None:
        """The night was deleted: stop its bots."""
        task = self._tasks.pop(night_id, None)
        self._wake.pop(night_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        """Stop every bot task."""
        for task in self._tasks.values():
            task.cancel()
        for task in self._tasks.values():
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
