"""Limits on failed attempts: wrong join codes and unknown tokens, counted per client
address, per night and (for typed join codes, which every night shares) per server, that
slow a guesser down without locking the room out.

- A client address that used up its failures (:data:`PER_CLIENT`) is not shut out: it
  goes on the **slow path**, one attempt every :data:`SLOW` (a room whose phones share
  one address, behind a guest network's router, keeps joining, slowly). A refused attempt
  is answered **429** with ``Retry-After`` (seconds until the address's next attempt);
  it is not told whether its guess would have been right.
- A code typed on a page of the night (the table page, ``/join?night=<id>``) names the
  night: it is checked against that night's codes only, and a wrong one is counted for
  that night (:data:`NIGHT_CODES`, key :meth:`Guard.night_codes`), never for the server
  or another night, so a guesser at one night cannot slow another night's joins. A code
  typed without a night (the home page, ``/join``) is counted for the whole server
  (:data:`TYPED_CODES`). Past either budget every address is on the slow path for those
  codes: a guesser with many addresses cannot close the door on the others (the right
  code from an address that has not guessed gets in at its first attempt), and each of
  its addresses gets one guess every :data:`SLOW`.
- Unknown bearer tokens presented at one night (:data:`PER_NIGHT`) get 429 past it;
  live tokens there still work. A QR link's join token (192 random bits, no guess) is
  looked up before any limit: a live one joins from any address at once, a wrong one
  counts for the client.

Each check, look-up and count runs under :meth:`Guard.exclusive` (a lock per key; on
PostgreSQL an advisory lock held across processes), so a burst of concurrent guesses is
counted exactly: 10 a minute means 10. The counts are kept by the ``limits`` library's
moving windows: in this process's memory with one process (SQLite; they restart empty
when the server restarts), and in the database when the server runs on PostgreSQL
(:class:`~bunco.store.rate_counts.DatabaseCounts`), where every process counts together.
With a database storage the calls read and write the database: the web layer makes them
on a worker thread.

The arithmetic is in docs/server.md ("Guessing"): a join code is one of 31**6 =
887,503,681; with 250 live tables a guess hits with odds 250 in 887.5 million (3.55
million guesses on average).

>>> guard = Guard()
>>> client = guard.client("10.0.0.7")
>>> for _ in range(10):
...     guard.failed(client)
>>> guard.admit(client), guard.admit(client) > 0, guard.admit(guard.client("10.0.0.8"))
(None, True, None)
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter

PER_CLIENT = "10/minute;100/hour"
"""Failures (wrong codes, unknown tokens) one client address may make."""
PER_NIGHT = "200/hour"
"""Unknown tokens presented at one night's addresses, from all clients together."""
TYPED_CODES = "100/hour"
"""Wrong join codes typed without a night, for the whole server (such a code names no
night until it is right), before every address is on the slow path for them."""
NIGHT_CODES = "100/hour"
"""Wrong join codes typed at one night (checked against its codes only) before every
address is on the slow path for that night's codes."""
SLOW = "1/30 seconds"
"""The slow path: attempts of an address past its failures (or, for typed codes, past
the server's)."""
LOCK_STRIPES = 64


def client_address(host: str | None) -> str:
    """The key of a client: its IPv4 address, or its IPv6 /64 network (one subscriber).

    >>> client_address("192.168.1.20"), client_address("2001:db8:1:2:aaaa::5")
    ('192.168.1.20', '2001:db8:1:2::/64')
    >>> client_address(None), client_address("testclient")
    ('unknown', 'testclient')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Guard:
    """Counts failures under keys (``client:<addr>``, ``night:<id>``, ``codes``,
    ``night-codes:<id>``), in ``storage`` (a ``limits`` storage with moving windows; by
    default this process's memory)."""

    CODES = "codes"

    def __init__(
        self,
        per_client: str = PER_CLIENT,
        per_night: str = PER_NIGHT,
        typed_codes: str = TYPED_CODES,
        night_codes: str = NIGHT_CODES,
        slow: str = SLOW,
        storage: Storage | None = None,
    ) -> None:
        self.storage: Storage = storage or MemoryStorage()
        self._limiter = MovingWindowRateLimiter(self.storage)
        self._limits = {
            "client": parse_many(per_client),
            "night": parse_many(per_night),
            "codes": parse_many(typed_codes),
            "night-codes": parse_many(night_codes),
            "slow": parse_many(slow),
        }
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]

    @staticmethod
    def client(host: str | None) -> str:
        return "client:" + client_address(host)

    @staticmethod
    def night(night_id: str) -> str:
        return "night:" + night_id

    @staticmethod
    def night_codes(night_id: str) -> str:
        """The key of the wrong codes typed at one night."""
        return "night-codes:" + night_id

    def _items(self, key: str) -> list[RateLimitItem]:
        return self._limits[key.partition(":")[0]]

    @contextmanager
    def exclusive(self, *keys: str) -> Iterator[None]:
        """Run a check, a look-up and a count with nobody else counting under ``keys``
        (in this process; on a database storage that has ``exclusive``, in every process)."""
        stripes = sorted({hash(key) % LOCK_STRIPES for key in keys})
        with contextlib.ExitStack() as stack:
            for stripe in stripes:
                stack.enter_context(self._locks[stripe])
            shared = getattr(self.storage, "exclusive", None)
            if shared is not None:
                stack.enter_context(shared(list(keys)))
            yield

    def _wait(self, key: str) -> float:
        """Seconds until ``key`` may fail again (0 if it may now)."""
        wait = 0.0
        for item in self._items(key):
            if not self._limiter.test(item, key):
                stats = self._limiter.get_window_stats(item, key)
                wait = max(wait, stats.reset_time - time.time(), 0.001)
        return wait

    def blocked(self, *keys: str) -> int | None:
        """Seconds until every key may fail again (``Retry-After``), or ``None`` if none
        of them has used up its failures."""
        wait = max((self._wait(key) for key in keys), default=0.0)
        return max(1, math.ceil(wait)) if wait > 0 else None

    def admit(self, client: str, *shared: str) -> int | None:
        """May ``client`` make an attempt now? ``None`` if so; else the seconds it must
        wait (``Retry-After``). Within its failures and those of the ``shared`` keys it
        may; past them it is on the slow path (one attempt every :data:`SLOW`, this one
        counted). Call under :meth:`exclusive`."""
        if self.blocked(client, *shared) is None:
            return None
        slow = "slow:" + client.partition(":")[2]
        for item in self._items(slow):
            if not self._limiter.test(item, slow):
                return self.blocked(slow)
        for item in self._items(slow):
            self._limiter.hit(item, slow)
        return None

    def failed(self, *keys: str) -> None:
        """Count one failure under each key."""
        for key in keys:
            for item in self._items(key):
                self._limiter.hit(item, key)
