"""The service holds its parts: the held nights, the command path and the store's writer;
each command of a batch is decided by :func:`bunco.web.decision.decide.decide`, with the luck the
service was given (here loaded dice, so the server's rolls are known)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bunco.store import EventStore
from bunco.store.writers import SqliteWriter
from bunco.web.decision.commands import MyTurnRoll, RollForMe
from bunco.web.night.service import NightService
from bunco.web.values.replies import ServiceError

SETUP = {
    "type": "party",
    "rules": "classic",
    "players": ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"],
}


class Loaded:
    def __init__(self, *dice: list[int]) -> None:
        self._dice = list(dice)

    def dice(self) -> list[int]:
        return self._dice.pop(0)

    def below(self, n: int) -> int:
        return 0


def run(tmp_path: Any, scenario: Any, luck: Any = None) -> None:
    store = EventStore(f"sqlite:///{tmp_path / 'night.sqlite3'}")
    store.upgrade()

    async def main() -> None:
        svc = NightService(store, luck=luck)
        assert isinstance(svc.writer, SqliteWriter)
        assert svc.path.writer is svc.writer and svc.held.writer is svc.writer
        live, _secrets = await svc.create(SETUP, name="Decide", options={}, key=None, request="")
        try:
            await scenario(svc, live.id)
        finally:
            await svc.aclose()

    asyncio.run(main())


def test_the_server_rolls_with_the_luck_of_the_service(tmp_path):
    async def scenario(svc: NightService, night: str) -> None:
        first = await svc.submit(night, RollForMe({"type": "roll", "table": 1}), command_id="a")
        assert first.stored.event["dice"] == [1, 1, 1]
        second = await svc.submit(night, RollForMe({"type": "roll", "table": 2}), command_id="b")
        assert second.stored.event["dice"] == [2, 2, 2]
        live = await svc.get(night)
        roller = live.night.tables[1].roller
        mine = await svc.submit(night, MyTurnRoll(roller), command_id="c", caller="p")
        assert (mine.stored.table, mine.stored.event["dice"]) == (2, [3, 4, 5])
        assert [e.seq for e in svc.store.events(night)] == [0, 1, 2, 3]

    run(tmp_path, scenario, Loaded([1, 1, 1], [2, 2, 2], [3, 4, 5]))


def test_a_refused_command_leaves_the_committed_state_as_it_was(tmp_path):
    async def scenario(svc: NightService, night: str) -> None:
        await svc.submit(night, {"type": "roll", "table": 1, "dice": [2, 3, 5]}, command_id="a")
        live = await svc.get(night)
        before = live.state
        with pytest.raises(ServiceError) as refused:
            await svc.submit(
                night,
                {"type": "roll", "table": 1, "dice": [2, 3, 5]},
                command_id="b",
                expected_seq=0,
            )
        assert refused.value.code == "stale"
        assert live.state is before and live.seq == 1
        again = await svc.submit(
            night, {"type": "roll", "table": 1, "dice": [2, 3, 5]}, command_id="a"
        )
        assert again.duplicate and again.stored.seq == 1
        with pytest.raises(ServiceError) as reused:
            await svc.submit(night, {"type": "roll", "table": 1, "dice": [6, 6, 6]}, command_id="a")
        assert reused.value.code == "id_reused" and reused.value.extra == {"seq": 1}

    run(tmp_path, scenario)


def test_a_batch_decides_each_command_on_the_state_the_batch_leaves(tmp_path):
    async def scenario(svc: NightService, night: str) -> None:
        roll = {"type": "roll", "table": 1, "dice": [2, 3, 5]}
        results = await asyncio.gather(
            svc.submit(night, roll, command_id="a", expected_seq=0),
            svc.submit(night, roll, command_id="b", expected_seq=0),  # table 1 moved
            svc.submit(night, roll, command_id="a", expected_seq=0),  # a retry of "a"
            return_exceptions=True,
        )
        first, stale, retry = results
        assert not isinstance(first, BaseException) and first.stored.seq == 1
        assert isinstance(stale, ServiceError) and stale.code == "stale"
        assert [m["seq"] for m in stale.extra["missed"]] == [1]
        assert not isinstance(retry, BaseException) and retry.duplicate
        assert retry.stored.seq == 1

    run(tmp_path, scenario)
