"""One background task per night: started when none runs, stopped when the night is let go.

The bots (:mod:`bunco.web.night.bots`) and the round's timer
(:mod:`bunco.web.night.round_timer`) each keep one.

>>> import asyncio
>>> async def demo() -> tuple[bool, bool, int]:
...     tasks = NightTasks()
...     first = tasks.start("n1", lambda: asyncio.sleep(10))
...     again = tasks.start("n1", lambda: asyncio.sleep(10))
...     await tasks.close()
...     return first, again, len(tasks)
>>> asyncio.run(demo())
(True, False, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any


class NightTasks:
    """The running task of each night, by the night's id."""

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def __len__(self) -> int:
        return len(self._tasks)

    def __contains__(self, night_id: object) -> bool:
        return night_id in self._tasks

    def start(self, night_id: str, run: Callable[[], Coroutine[Any, Any, None]]) -> bool:
        """Start ``run()`` as the night's task unless one is still running; whether it did."""
        task = self._tasks.get(night_id)
        if task is not None and not task.done():
            return False
        self._tasks[night_id] = asyncio.get_running_loop().create_task(run())
        return True

    def forget(self, night_id: str) -> None:
        """Cancel the night's task (the night was deleted)."""
        task = self._tasks.pop(night_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        """Cancel every task and wait until each has ended (the server is stopping)."""
        for task in self._tasks.values():
            task.cancel()
        for task in self._tasks.values():
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
