"""Publishing a night's messages to its listeners: a small pub/sub interface.

The server publishes every accepted event (and every change of the night's status)
through a :class:`PubSub`. The default :class:`InProcessPubSub` delivers inside
one process; another implementation (PostgreSQL ``LISTEN/NOTIFY``, Redis, ...) can
take its place so that several server processes share one database: listeners
never depend on more than ``subscribe``/``publish`` and the sequence numbers.

A subscription follows one night, either whole (``table=None``) or one table: a
table follower gets the messages of its table and the messages of the whole night
(``Message.table is None``). A message of the whole night may be meant for one audience
only: ``audience="night"`` reaches the whole-night followers (big screens),
``audience="tables"`` the table followers (phones).

A player's phone follows its player (``subscribe(night, table, player=name)``): it is a
table follower of the table its player sits at (table ``0``, :data:`NO_TABLE`, when the
player sits at none: it then gets only the messages of the whole night), and
:meth:`InProcessPubSub.reseat` moves it to another table when the seating changes, so
its phone keeps one subscription (one WebSocket) all night.

>>> import asyncio
>>> async def demo():
...     hub = InProcessPubSub()
...     table1, everything = hub.subscribe("n", table=1), hub.subscribe("n")
...     await hub.publish(Message("n", 1, 2, '{"seq":1}'))
...     await hub.publish(Message("n", 2, 1, '{"seq":2}'))
...     return [m.seq for m in table1.drain()], [m.seq for m in everything.drain()]
>>> asyncio.run(demo())
([2], [1, 2])
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

DEFAULT_QUEUE = 10_000
NO_TABLE = 0
"""The table a player's follower is at while its player sits at no table."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message for a night's listeners, already serialised once for all of them."""

    night_id: str
    seq: int
    table: int | None
    text: str
    kind: str = "event"
    audience: str = "all"  # for table=None: "all", "night" (whole-night followers), "tables"


class Overflow(Exception):
    """A listener fell too far behind; it must reconnect and catch up from the store."""


class Subscription(Protocol):
    """What a listener holds: messages in publication order."""

    night_id: str
    table: int | None
    player: str | None
    """The player it follows (its table changes with the seating), else ``None``."""

    async def get(self) -> Message:
        """The next message; raises :class:`Overflow` if messages were dropped."""
        ...

    def drain(self) -> Iterator[Message]:
        """The messages waiting now, without blocking."""
        ...

    def offer(self, message: Message) -> None:
        """Deliver one message to this listener only."""
        ...

    def close(self) -> None:
        """Stop receiving."""
        ...


class PubSub(Protocol):
    """Publish a night's messages; subscribe to one night (or one table of it)."""

    def subscribe(
        self, night_id: str, table: int | None = None, *, player: str | None = None
    ) -> Subscription:
        """Start receiving every message published after this call; with ``player``, as
        a follower of ``table`` until :meth:`reseat` moves it."""
        ...

    def reseat(self, night_id: str, tables: Mapping[str, int]) -> dict[int, list[Subscription]]:
        """Move each player follower of the night to the table its player sits at now
        (``tables``: player → table; a player missing sits at :data:`NO_TABLE`); return
        the followers that moved, by their new table."""
        ...

    async def publish(self, message: Message) -> None:
        """Deliver ``message`` to the subscribers of its night (and table)."""
        ...

    async def close(self) -> None:
        """Release resources."""
        ...


class _LocalSubscription:
    """A bounded buffer registered at an :class:`InProcessPubSub` (lighter than an
    ``asyncio.Queue``: one deque, and a future only while the listener waits)."""

    __slots__ = ("_hub", "_items", "_overflowed", "_size", "_waiter", "night_id", "player", "table")

    def __init__(
        self,
        hub: InProcessPubSub,
        night_id: str,
        table: int | None,
        size: int,
        player: str | None = None,
    ):
        self._hub = hub
        self.player = player
        self._items: deque[Message] = deque()
        self._size = size
        self._waiter: asyncio.Future[None] | None = None
        self._overflowed = False
        self.night_id = night_id
        self.table = table

    def offer(self, message: Message) -> None:
        if self._overflowed:
            return
        if len(self._items) >= self._size:
            self._overflowed = True
        else:
            self._items.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Message:
        while not self._items and not self._overflowed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        if self._overflowed:
            raise Overflow("listener fell behind")
        return self._items.popleft()

    def drain(self) -> Iterator[Message]:
        while self._items:
            yield self._items.popleft()

    def close(self) -> None:
        self._hub.unsubscribe(self)


class InProcessPubSub:
    """Delivery inside one process: one bounded queue per listener.

    Subscribers are indexed by (night, table), so an event at one table costs a
    queue put per listener of that table and of the whole night, not per listener
    of the night. Player followers are indexed by the table their player sits at, and
    also kept by night, so a change of seating visits the night's player followers only.

    >>> hub = InProcessPubSub()
    >>> phone = hub.subscribe("n", 1, player="Ann")
    >>> {table: [s.player for s in subs] for table, subs in hub.reseat("n", {"Ann": 2}).items()}
    {2: ['Ann']}
    >>> hub.publish_nowait(Message("n", 5, 1, "at table 1"))
    >>> hub.publish_nowait(Message("n", 6, 2, "at table 2"))
    >>> [m.text for m in phone.drain()]
    ['at table 2']
    """

    def __init__(self, queue_size: int = DEFAULT_QUEUE) -> None:
        self.queue_size = queue_size
        self._subs: dict[str, dict[int | None, set[_LocalSubscription]]] = {}
        self._players: dict[str, set[_LocalSubscription]] = {}

    def subscribe(
        self, night_id: str, table: int | None = None, *, player: str | None = None
    ) -> Subscription:
        if player is not None and table is None:
            table = NO_TABLE
        sub = _LocalSubscription(self, night_id, table, self.queue_size, player)
        self._subs.setdefault(night_id, {}).setdefault(table, set()).add(sub)
        if player is not None:
            self._players.setdefault(night_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: _LocalSubscription) -> None:
        if sub.player is not None:
            players = self._players.get(sub.night_id)
            if players is not None:
                players.discard(sub)
                if not players:
                    del self._players[sub.night_id]
        self._unindex(sub)

    def _unindex(self, sub: _LocalSubscription) -> None:
        night = self._subs.get(sub.night_id)
        if night is None:
            return
        group = night.get(sub.table)
        if group is not None:
            group.discard(sub)
            if not group:
                del night[sub.table]
        if not night:
            del self._subs[sub.night_id]

    def reseat(self, night_id: str, tables: Mapping[str, int]) -> dict[int, list[Subscription]]:
        moved: dict[int, list[Subscription]] = {}
        for sub in self._players.get(night_id, ()):
            assert sub.player is not None
            table = tables.get(sub.player, NO_TABLE)
            if table == sub.table:
                continue
            self._unindex(sub)
            sub.table = table
            self._subs.setdefault(night_id, {}).setdefault(table, set()).add(sub)
            moved.setdefault(table, []).append(sub)
        return moved

    def listeners(self, night_id: str) -> int:
        """How many subscriptions follow the night (any table)."""
        return sum(len(group) for group in self._subs.get(night_id, {}).values())

    async def publish(self, message: Message) -> None:
        self.publish_nowait(message)

    def publish_nowait(self, message: Message) -> None:
        """:meth:`publish` without a coroutine (in-process delivery never waits)."""
        night = self._subs.get(message.night_id)
        if not night:
            return
        if message.table is None:
            audience = message.audience
            for key, group in list(night.items()):
                if audience == "all" or (audience == "night") == (key is None):
                    for sub in list(group):
                        sub.offer(message)
            return
        for key in (None, message.table):
            followers = night.get(key)
            if followers:
                for sub in list(followers):
                    sub.offer(message)

    async def close(self) -> None:
        self._subs.clear()
        self._players.clear()
