"""One task per night (:mod:`bunco.web.night.night_tasks`), as the bots and the round's
timer keep them: a second start while one runs starts nothing, a deleted night's task is
cancelled, and closing waits until every task has ended."""

from __future__ import annotations

import asyncio
import doctest

from bunco.web.night import night_tasks
from bunco.web.night.night_tasks import NightTasks


def test_the_modules_examples_hold() -> None:
    result = doctest.testmod(night_tasks)
    assert result.attempted == 3 and result.failed == 0


def test_one_task_per_night_until_it_ends() -> None:
    async def scenario() -> list[str]:
        runs: list[str] = []

        async def run(name: str) -> None:
            runs.append(name)
            await asyncio.sleep(0)

        tasks = NightTasks()
        assert tasks.start("n1", lambda: run("first"))
        assert not tasks.start("n1", lambda: run("while it runs"))
        assert tasks.start("n2", lambda: run("another night"))
        await asyncio.sleep(0.01)  # both have ended
        assert tasks.start("n1", lambda: run("after it ended"))
        await asyncio.sleep(0.01)
        await tasks.close()
        return runs

    assert asyncio.run(scenario()) == ["first", "another night", "after it ended"]


def test_forget_cancels_and_close_waits_for_every_task() -> None:
    async def scenario() -> tuple[bool, bool, list[str], int]:
        ended: list[str] = []

        async def sleeper(name: str) -> None:
            try:
                await asyncio.sleep(60)
            finally:
                ended.append(name)

        tasks = NightTasks()
        tasks.start("deleted", lambda: sleeper("deleted"))
        tasks.start("kept", lambda: sleeper("kept"))
        await asyncio.sleep(0)
        tasks.forget("deleted")
        await asyncio.sleep(0)
        forgotten = "deleted" not in tasks
        still_held = "kept" in tasks
        await tasks.close()
        return forgotten, still_held, ended, len(tasks)

    assert asyncio.run(scenario()) == (True, True, ["deleted", "kept"], 0)
