"""The counts of the rate limits in PostgreSQL, shared by every server process.

:mod:`bunco.web.gate.guard` counts failed attempts (wrong join codes, unknown tokens) with the
``limits`` library's *moving window* strategy: a failure is allowed if fewer than the
limit were counted in the last window (a minute, an hour). With one process the counts
live in its memory; with several processes on one PostgreSQL database (``bunco serve
--workers N``, or several hosts) they must be counted together, or a guesser spreading
its guesses over N processes would get N times the budget.

:class:`DatabaseCounts` is a ``limits`` storage (a :class:`limits.storage.Storage`,
registered under the scheme ``bunco+postgresql``) that keeps them in the
``rate_counts`` table: one row per limit and key, with the times of the failures still
in its window (``hits``, seconds since the epoch) and when the row can go
(``expires_at``). A failure is counted by one atomic statement, ``INSERT … ON CONFLICT
… DO UPDATE … WHERE … RETURNING``: the row's old hits are dropped and the new one
appended only if the window has room, so two processes counting at once never both
take the last place. Expired rows are swept at most once a minute.

A check that is followed by a count (is the client past its limit? then look the code
up, then count the failure) is exact across processes only if nobody counts in between:
:meth:`DatabaseCounts.exclusive` holds PostgreSQL advisory locks on the keys for the
whole check, look-up and count, and counts in the same transaction (committed when the
locks are released), so a burst of concurrent guesses from many processes is counted
one after the other.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from limits.storage import MovingWindowSupport, Storage
from sqlalchemy import Engine, Table, delete, text
from sqlalchemy.exc import SQLAlchemyError

from bunco.store import advisory
from bunco.store.db import make_engine
from bunco.store.models import RateCountRow

_COUNTS = cast(Table, RateCountRow.__table__)
SWEEP_EVERY = 60.0
"""Seconds between two deletions of expired rows (per process)."""
SCHEME = "bunco+postgresql"
RATE_COUNTS = 0x62756E72  # "bunr": the advisory-lock namespace of a rate-limit key

_UPSERT = """
INSERT INTO rate_counts (key, hits, expires_at)
VALUES (:key, array_fill(CAST(:now AS double precision), ARRAY[:amount]), :now + :expiry)
ON CONFLICT (key) DO UPDATE SET
    hits = ARRAY(SELECT t FROM unnest(rate_counts.hits) AS t WHERE t > :now - :expiry
                 ORDER BY t) || excluded.hits,
    expires_at = GREATEST(rate_counts.expires_at, excluded.expires_at)
"""
_RETURNING = "RETURNING cardinality(rate_counts.hits)"
_APPEND = text(_UPSERT + _RETURNING)
"""Count hits now: the old ones leave the row, the new ones join it."""
_ACQUIRE = text(
    _UPSERT
    + """WHERE (SELECT count(*) FROM unnest(rate_counts.hits) AS t
       WHERE t > :now - :expiry) + :amount <= :limit
"""
    + _RETURNING
)
""":data:`_APPEND` only if the window has room (no row returned otherwise)."""
_WINDOW = text("""
SELECT min(t), count(t) FROM rate_counts, unnest(rate_counts.hits) AS t
WHERE key = :key AND t > :now - :expiry
""")
_LIVE = text("SELECT hits, expires_at FROM rate_counts WHERE key = :key AND expires_at > :now")


class DatabaseCounts(Storage, MovingWindowSupport):
    """Moving-window rate-limit counts in a PostgreSQL database (a ``limits`` storage).

    Made with ``engine=`` (the store's engine), or by ``limits`` from a URL:
    ``storage_from_string("bunco+postgresql://user:pw@host/db")``. The table is the
    store's (schema revision 0005 and later).
    """

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 (a list, as ``limits`` declares it)

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        *,
        engine: Engine | None = None,
        **options: Any,
    ) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        if engine is None:
            if not uri or not uri.startswith(SCHEME + "://"):
                raise ValueError(f"DatabaseCounts needs engine= or a {SCHEME}:// URL")
            engine = make_engine("postgresql+psycopg" + uri.removeprefix(SCHEME))
        if engine.dialect.name != "postgresql":
            raise ValueError(
                "DatabaseCounts keeps its counts in PostgreSQL; with one "
                "process (SQLite) the memory storage counts the same"
            )
        self.engine = engine
        self._swept = 0.0
        self._held = threading.local()

    @contextmanager
    def exclusive(self, keys: list[str]) -> Iterator[None]:
        """Hold every process off ``keys`` (advisory locks, taken in sorted order) until
        the block ends; the counts made in the block (by this thread) are written in the
        locks' transaction. Blocks do not nest."""
        with self.engine.begin() as conn:
            for key in sorted(set(keys)):
                advisory.take(conn, RATE_COUNTS, key)
            self._held.conn = conn
            try:
                yield
            finally:
                self._held.conn = None

    @contextmanager
    def _connection(self, write: bool) -> Iterator[Any]:
        held = getattr(self._held, "conn", None)
        if held is not None:
            yield held
        elif write:
            with self.engine.begin() as conn:
                yield conn
        else:
            with self.engine.connect() as conn:
                yield conn

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def _count(self, statement: Any, key: str, expiry: int, amount: int, **more: Any) -> int | None:
        """Run an upsert of ``amount`` hits now; the hits now in the row, or ``None`` if
        the statement's condition refused them."""
        now = time.time()
        with self._connection(write=True) as conn:
            value = conn.execute(
                statement,
                {"key": key, "now": now, "expiry": float(expiry), "amount": amount, **more},
            ).scalar()
            if now - self._swept > SWEEP_EVERY:
                self._swept = now
                conn.execute(delete(_COUNTS).where(_COUNTS.c.expires_at <= now))
        return None if value is None else int(value)

    # -- the moving window strategy ---------------------------------------------------------
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Count ``amount`` failures now if fewer than ``limit`` minus ``amount`` were
        counted in the last ``expiry`` seconds (atomically, across processes)."""
        if amount > limit:
            return False
        return self._count(_ACQUIRE, key, expiry, amount, limit=limit) is not None

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """(time of the oldest failure in the window, failures in the window)."""
        now = time.time()
        with self._connection(write=False) as conn:
            oldest, count = conn.execute(
                _WINDOW, {"key": key, "now": now, "expiry": float(expiry)}
            ).one()
        return (now, 0) if not count else (float(oldest), int(count))

    # -- the rest of a storage --------------------------------------------------------------
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` failures now without a limit; how many the window holds."""
        return self._count(_APPEND, key, expiry, amount) or 0

    def get(self, key: str) -> int:
        with self.engine.connect() as conn:
            row = conn.execute(_LIVE, {"key": key, "now": time.time()}).first()
        return 0 if row is None else len(row.hits)

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self.engine.connect() as conn:
            row = conn.execute(_LIVE, {"key": key, "now": now}).first()
        return now if row is None else float(row.expires_at)

    def check(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self.engine.begin() as conn:
            return int(conn.execute(delete(_COUNTS)).rowcount)

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(_COUNTS).where(_COUNTS.c.key == key))
