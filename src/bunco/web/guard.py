"""Limits on failed attempts: wrong join codes and unknown tokens, counted per client
address, per night and (for typed join codes, which every night shares) per server.

A client past its limit is answered **429** with ``Retry-After`` (seconds) until the
oldest counted failure leaves the window; it is not told whether its next guess would
have been right. The counts are kept by the ``limits`` library's moving windows: in this
process's memory with one process (SQLite; they restart empty when the server
restarts), and in the database when the server runs on PostgreSQL
(:class:`~bunco.store.rate_counts.DatabaseCounts`), where every process of
``bunco serve --workers N`` and every host sharing the database counts together: the
limits below hold for the whole server, however many processes serve it (see
docs/server.md, "Guessing"). With a database storage the calls read and write the
database: the web layer makes them on a worker thread.

Why these numbers (docs/server.md has the arithmetic): a join code is one of
31**6 = 887,503,681; with 250 live tables a guess hits with odds 250 in 887.5 million, so
about 3.55 million guesses are needed on average. At ``TYPED_CODES`` (200 wrong codes an
hour for the whole server, however many clients) that takes 17,750 hours, two years.

>>> guard = Guard()
>>> [guard.blocked(guard.client("10.0.0.7")) for _ in range(2)]
[None, None]
>>> for _ in range(10):
...     guard.failed(guard.client("10.0.0.7"))
>>> guard.blocked(guard.client("10.0.0.7")) > 0, guard.blocked(guard.client("10.0.0.8"))
(True, None)
"""

from __future__ import annotations

import ipaddress
import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter

PER_CLIENT = "10/minute;100/hour"
"""Failures (wrong codes, unknown tokens) one client address may make."""
PER_NIGHT = "200/hour"
"""Unknown tokens presented at one night's addresses, from all clients together."""
TYPED_CODES = "200/hour"
"""Wrong typed join codes for the whole server (a code names no night until it is right)."""


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
    """Counts failures under keys (``client:<addr>``, ``night:<id>``, ``codes``), in
    ``storage`` (a ``limits`` storage with moving windows; by default this process's
    memory)."""

    def __init__(self, per_client: str = PER_CLIENT, per_night: str = PER_NIGHT,
                 typed_codes: str = TYPED_CODES,
                 storage: Storage | None = None) -> None:
        self.storage: Storage = storage or MemoryStorage()
        self._limiter = MovingWindowRateLimiter(self.storage)
        self._limits = {"client": parse_many(per_client), "night": parse_many(per_night),
                        "codes": parse_many(typed_codes)}

    @staticmethod
    def client(host: str | None) -> str:
        return "client:" + client_address(host)

    @staticmethod
    def night(night_id: str) -> str:
        return "night:" + night_id

    CODES = "codes"

    def _items(self, key: str) -> list[RateLimitItem]:
        return self._limits[key.partition(":")[0]]

    def blocked(self, *keys: str) -> int | None:
        """Seconds until every key may fail again (``Retry-After``), or ``None`` if none
        of them has used up its failures."""
        wait = 0.0
        for key in keys:
            for item in self._items(key):
                if not self._limiter.test(item, key):
                    stats = self._limiter.get_window_stats(item, key)
                    wait = max(wait, stats.reset_time - time.time())
        return max(1, math.ceil(wait)) if wait > 0 else None

    def failed(self, *keys: str) -> None:
        """Count one failure under each key."""
        for key in keys:
            for item in self._items(key):
                self._limiter.hit(item, key)
