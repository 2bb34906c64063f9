"""The WebSockets open in this process, by night and token: closed when their token is revoked.

A WebSocket is authorised once, when it opens. When the host signs a table's phones out,
releases a claimed name or revokes a co-host, the sockets opened with those tokens must
stop at once, on every process: :meth:`OpenSockets.recheck` reads the night's tokens from
the store and closes (code 4401, after an ``error`` message) every socket of the night
whose token is revoked or gone. It runs when this process revokes a token
(:meth:`bunco.web.gate.auth.TokenBook.revoked`) and when another process announces a change of
the night's tokens (the ``t`` notice on PostgreSQL, see :mod:`bunco.web.night.follow`).

>>> import asyncio
>>> from bunco.store import TokenRecord
>>> async def demo():
...     book = OpenSockets(lambda night: [TokenRecord("ab" * 32, night, "table", 1, None,
...                                                   revoked=True)])
...     watch = book.open("n1", "ab" * 16)
...     await book.recheck("n1")
...     return watch.revoked.done(), book.count("n1")
>>> asyncio.run(demo())
(True, 0)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bunco.store import TokenRecord

log = logging.getLogger("bunco.sockets")
CLOSE_REVOKED = 4401


@dataclass(eq=False)
class SocketWatch:
    """One open socket: its night, its token (the first 32 hex digits of the token's hash,
    a :class:`~bunco.web.gate.principal.Principal`'s ``caller``) and a future that is done when the
    token is revoked."""

    night_id: str
    caller: str
    revoked: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class OpenSockets:
    """The open sockets of this process; ``read_tokens(night)`` reads a night's token
    records from the store (a blocking call, made on a worker thread)."""

    def __init__(self, read_tokens: Callable[[str], Iterable[TokenRecord]]) -> None:
        self._read = read_tokens
        self._by_night: dict[str, set[SocketWatch]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def open(self, night_id: str, caller: str) -> SocketWatch:
        """Watch a socket opened with the token ``caller`` at ``night_id``."""
        watch = SocketWatch(night_id, caller)
        self._by_night.setdefault(night_id, set()).add(watch)
        return watch

    def close(self, watch: SocketWatch) -> None:
        """Stop watching a socket (it closed)."""
        group = self._by_night.get(watch.night_id)
        if group is not None:
            group.discard(watch)
            if not group:
                del self._by_night[watch.night_id]

    def count(self, night_id: str) -> int:
        """Sockets watched now at ``night_id``."""
        return len(self._by_night.get(night_id, ()))

    async def recheck(self, night_id: str) -> int:
        """Close the night's sockets whose token is revoked or gone; how many."""
        if night_id not in self._by_night:
            return 0
        records = await asyncio.to_thread(self._read, night_id)
        live = {record.hash[:32] for record in records if not record.revoked}
        closed = 0
        for watch in list(self._by_night.get(night_id, ())):
            if watch.caller not in live and not watch.revoked.done():
                watch.revoked.set_result(None)
                self.close(watch)
                closed += 1
        return closed

    def close_night(self, night_id: str) -> int:
        """The night was deleted: close every socket of it (4401, as a revocation); how
        many."""
        watches = self._by_night.pop(night_id, set())
        for watch in watches:
            if not watch.revoked.done():
                watch.revoked.set_result(None)
        return len(watches)

    def total(self) -> int:
        """Sockets watched now, at every night."""
        return sum(len(group) for group in self._by_night.values())

    def recheck_soon(self, night_id: str | None) -> None:
        """:meth:`recheck` in the background (``None``: every night with sockets here).
        Call on the event loop."""
        for night in list(self._by_night) if night_id is None else [night_id]:
            if night in self._by_night:
                task = asyncio.get_running_loop().create_task(self._recheck_logged(night))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _recheck_logged(self, night_id: str) -> None:
        try:
            await self.recheck(night_id)
        except Exception:  # the database went away: the next notice or revocation retries
            log.warning("checking the sockets of night %s failed", night_id, exc_info=True)

    async def aclose(self) -> None:
        """Stop the checks under way."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
