"""The in-process pub/sub: routing by night and table, order, overflow, unsubscribe."""

from __future__ import annotations

import asyncio

import pytest

from bunco.web.pubsub import InProcessPubSub, Message, Overflow


def msg(night: str, seq: int, table: int | None) -> Message:
    return Message(night, seq, table, f'{{"seq":{seq}}}')


def test_routing_by_night_and_table():
    async def scenario() -> None:
        hub = InProcessPubSub()
        whole = hub.subscribe("a")
        table2 = hub.subscribe("a", table=2)
        other_night = hub.subscribe("b")
        for m in (msg("a", 1, 1), msg("a", 2, 2), msg("a", 3, None), msg("b", 1, 2)):
            await hub.publish(m)
        assert [m.seq for m in whole.drain()] == [1, 2, 3]
        assert [m.seq for m in table2.drain()] == [2, 3]
        assert [m.seq for m in other_night.drain()] == [1]
        assert hub.listeners("a") == 2
        table2.close()
        whole.close()
        assert hub.listeners("a") == 0

    asyncio.run(scenario())


def test_a_message_for_one_audience():
    async def scenario() -> None:
        hub = InProcessPubSub()
        screen, phone = hub.subscribe("a"), hub.subscribe("a", table=3)
        await hub.publish(Message("a", 1, None, "full", "status", "night"))
        await hub.publish(Message("a", 1, None, "brief", "status", "tables"))
        await hub.publish(Message("a", 2, None, "everyone"))
        assert [m.text for m in screen.drain()] == ["full", "everyone"]
        assert [m.text for m in phone.drain()] == ["brief", "everyone"]

    asyncio.run(scenario())


def test_get_waits_for_the_next_message():
    async def scenario() -> list[int]:
        hub = InProcessPubSub()
        sub = hub.subscribe("a")

        async def later() -> None:
            await asyncio.sleep(0.01)
            await hub.publish(msg("a", 7, None))

        task = asyncio.ensure_future(later())
        got = await asyncio.wait_for(sub.get(), 2)
        await task
        return [got.seq]

    assert asyncio.run(scenario()) == [7]


def test_a_listener_that_falls_behind_is_told_so():
    async def scenario() -> None:
        hub = InProcessPubSub(queue_size=3)
        slow, fast = hub.subscribe("a"), hub.subscribe("a")
        for seq in range(1, 6):
            await hub.publish(msg("a", seq, None))
            if seq <= 3:
                assert (await fast.get()).seq == seq
        with pytest.raises(Overflow):
            await slow.get()
        assert [m.seq for m in fast.drain()] == [4, 5]

    asyncio.run(scenario())
