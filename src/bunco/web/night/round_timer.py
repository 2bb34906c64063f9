"""The round timer: rings a timed round's bell at zero when nothing else happens then.

Any command to a night after its round's clock reached zero rings the bell first (the
command path, :mod:`bunco.web.decision.timed_rounds`), and so does a page asking for the clock
(``GET .../clock``). A quiet room needs a ring of its own: this runner keeps one task
per held night whose round clock is running; the task sleeps until zero (waking every
``nap`` seconds of the server's clock to look again), then sends the clock's bell
through the command path like any command. It is woken wherever the night's state
changes in this process (after each batch, a night loaded after a restart, a catch-up
with other processes), so a clock that ran out while the server was down rings as soon
as the night is held again. Several processes may each ring: the bell's command id is
one per round, so one bell is stored and the others are repeats.
"""

from __future__ import annotations

import asyncio
import logging

from bunco.web.decision.timed_rounds import ServerClock, bell_command, running_clock
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.night_tasks import NightTasks
from bunco.web.night.service import NightService
from bunco.web.values.replies import ServiceError

log = logging.getLogger("bunco.round_timer")
RETRY_AFTER = 1.0
"""Seconds before a bell the store did not take is sent again."""


class RoundTimer:
    """The timers of ``service``'s nights, on the server's ``clock``."""

    def __init__(self, service: NightService, clock: ServerClock) -> None:
        self.service = service
        self.clock = clock
        self._tasks = NightTasks()
        service.after_commit.append(self.poke)

    def poke(self, live: LiveNight) -> None:
        """Start ``live``'s timer if its round's clock runs and no timer watches it."""
        if running_clock(live.night) is None:
            return
        self._tasks.start(live.id, lambda: self._run(live.id))

    async def _run(self, night_id: str) -> None:
        while True:
            live = self.service.nights.get(night_id)
            clock = None if live is None else running_clock(live.night)
            if clock is None:
                return  # rung, a new round without its clock yet, or the night let go
            left = clock.remaining(self.clock.now())
            if left > 0:
                await asyncio.sleep(min(left, self.clock.nap))
                continue
            if not await self.ring(night_id):
                await asyncio.sleep(RETRY_AFTER)

    async def ring(self, night_id: str) -> bool:
        """Send the bell of ``night_id``'s round if its clock is at zero; whether the
        night is past it (rung now, before, or not due)."""
        live = await self.service.get(night_id, fresh=False)
        command = bell_command(live.night, self.clock.now())
        if command is None:
            return True
        try:
            await self.service.path.send(night_id, command)
        except ServiceError as exc:
            log.warning("night %s: the round's bell at zero was not stored: %s", night_id, exc)
            return False
        return True

    def forget(self, night_id: str) -> None:
        """The night was deleted: stop its timer."""
        self._tasks.forget(night_id)

    async def close(self) -> None:
        """Stop every timer (the server is stopping; a restart rings what is due)."""
        await self._tasks.close()
