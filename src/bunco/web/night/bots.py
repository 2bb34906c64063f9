"""Bots: the server rolls for players marked as bots when it is their turn.

A bot's roll goes through the same command path as a person's ("roll for me": dice
from the cryptographic generator, stored as a normal roll event). Its command id is
random and its own (caller ``bot``: no token's commands share that space), and it carries
the table's version as ``expected_seq``, so a bot never rolls twice for the same moment
(a second try is refused as stale). From the night's second round on, a table where
every player is a bot confirms its own new seating before its first roll (``seated``:
:mod:`bunco.core.seating_confirm`); a table with a person waits for their phone or the
head table's bell, as any table does. The pace
(seconds between two bot rolls) is a night option; the server can override it (0 in
tests).
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from bunco.web.decision.commands import RollForMe
from bunco.web.decision.frozen_state import DicelessRoll
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.night_tasks import NightTasks
from bunco.web.night.service import NightService
from bunco.web.values.replies import ServiceError

log = logging.getLogger("bunco.bots")
BOT_CALLER = "bot"
"""Whose the bots' command ids are (a token's caller is 32 hex digits: never this)."""


class BotRunner:
    """One background task per night that has bots, woken after every accepted event."""

    def __init__(self, service: NightService, pace: float | None = None) -> None:
        self.service = service
        self.pace = pace
        self._tasks = NightTasks()
        self._wake: dict[str, asyncio.Event] = {}
        service.after_commit.append(self.poke)

    def poke(self, live: LiveNight) -> None:
        """Called after each accepted event: start or wake the night's bot task."""
        if not live.bots:
            return
        wake = self._wake.setdefault(live.id, asyncio.Event())
        wake.set()
        self._tasks.start(live.id, lambda: self._run(live.id))

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
        night = live.night
        return [
            (t, p)
            for t, p in night.expected_rollers()
            if p in bots and (t is None or night.begun_at(t) or self._all_bots(live, t))
        ]

    @staticmethod
    def _all_bots(live: LiveNight, table: int) -> bool:
        """Whether every player at ``table`` is a bot (nobody else can confirm its seating)."""
        seats = [p for p in live.night.tables[table - 1].seats if p is not None]
        return bool(seats) and set(seats) <= set(live.bots)

    async def _play_due(self, night_id: str) -> int:
        """One roll for each bot whose turn it is now (one per table); how many were made."""
        made = 0
        for table, player in self._due(night_id):
            live = self.service.nights.get(night_id)
            if live is None:
                break  # deleted meanwhile
            event: DicelessRoll = {"type": "roll", "player": player}
            if table is not None:
                event["table"] = table
                if not live.night.begun_at(table):
                    if not await self._seat(live, table):
                        continue
                    live = self.service.nights.get(night_id)  # the table's version moved on
                    if live is None:
                        break
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

    async def _seat(self, live: LiveNight, table: int) -> bool:
        """Confirm the new seating of a table of bots; whether the round has begun there."""
        try:
            await self.service.submit(
                live.id,
                {"type": "seated", "table": table},
                command_id=f"bot:seated:{live.night.set_no}.{live.night.round_no}.{table}",
                caller=BOT_CALLER,
            )
        except ServiceError as exc:  # begun meanwhile (the bell, a phone): look again
            log.debug("bots at table %s: %s", table, exc.message)
        latest = self.service.nights.get(live.id)
        return latest is not None and latest.night.begun_at(table)

    def forget(self, night_id: str) -> None:
        """The night was deleted: stop its bots."""
        self._tasks.forget(night_id)
        self._wake.pop(night_id, None)

    async def close(self) -> None:
        """Stop every bot task."""
        await self._tasks.close()
