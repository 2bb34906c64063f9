"""The in-process pub/sub: routing by night and table, order, overflow, unsubscribe."""

from __future__ import annotations

import asyncio

import pytest

from bunco.web.live.pubsub import NO_TABLE, InProcessPubSub, Message, Overflow


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


def test_a_player_follower_moves_with_the_seating_and_only_it():
    async def scenario() -> None:
        hub = InProcessPubSub()
        ann = hub.subscribe("a", 1, player="Ann")
        bea = hub.subscribe("a", 2, player="Bea")
        phone = hub.subscribe("a", 1)  # a table's phone stays at its table
        elsewhere = hub.subscribe("b", 1, player="Ann")  # another night's Ann
        moved = hub.reseat("a", {"Ann": 2, "Bea": 2})
        assert {table: [s.player for s in subs] for table, subs in moved.items()} == {2: ["Ann"]}
        assert (ann.table, bea.table, phone.table, elsewhere.table) == (2, 2, 1, 1)
        for m in (msg("a", 1, 1), msg("a", 2, 2), msg("a", 3, None)):
            await hub.publish(m)
        assert [m.seq for m in ann.drain()] == [2, 3]
        assert [m.seq for m in phone.drain()] == [1, 3]
        # sitting out: no table's messages, the whole night's still
        moved = hub.reseat("a", {"Bea": 2})
        assert list(moved) == [NO_TABLE] and ann.table == NO_TABLE
        assert hub.reseat("a", {"Bea": 2}) == {}  # nothing changed: nothing moves
        await hub.publish(msg("a", 4, 2))
        await hub.publish(msg("a", 5, None))
        assert [m.seq for m in ann.drain()] == [5]
        ann.close()
        assert hub.reseat("a", {"Ann": 1, "Bea": 1}) == {1: [bea]}  # Ann is gone
        assert hub.listeners("a") == 2

    asyncio.run(scenario())
