"""The heavy downloads (PDFs, the HTML reports): made once per night (or club) version,
cached, in a process of their own, limited per token, so that no download can delay a roll.

A 2,000-player night's filled sheets take seconds of CPU to draw. Made on the server's
threads, six at once filled its shared thread pool and, holding the interpreter lock,
slowed every roll. Here:

- **Once per version**: a file is keyed by the night, its last seq, the kind of file and
  (blank sheets) the address on their QR code. The same key asked for again is served
  from the cache (:data:`CACHE_BYTES` of the most recent files); asked for while it is
  being made, the request waits for that one making. A club's season report is keyed by
  the club, its number of events, the kind and the season with each of its nights' last
  seq (:mod:`bunco.web.api.season_files`): a new club event or roll makes a new file.
- **Its own process**: files are made in a small pool of worker processes
  (:data:`WORKERS`, started at the first download, at a lower CPU priority than the
  server) from the night's stored log, which the process replays; the server only hands
  it the log's lines (for a season: the club's log and its nights' logs,
  :func:`make_season_file`). The server's event loop and thread pool never do this work,
  and the reference cycles of drawing (matplotlib, reportlab) never stay in its memory.
- **Limits per token**: a token may have one file being made at a time and start
  :data:`PER_TOKEN` makings (cached files are free); at most :data:`QUEUED` makings wait
  for the pool in all. Past a limit: **429** ``too_many_downloads`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from bunco.club.view_types import MemberLink
from bunco.core.night import Night
from bunco.web.values.replies import ServiceError

WORKERS = 1
"""Processes that make files (one: a download may wait, a roll never does)."""
CACHE_BYTES = 64 * 1024 * 1024
"""The most recent files kept, in bytes."""
PER_TOKEN = "30/hour"
"""Files one token may have made (files served from the cache do not count)."""
QUEUED = 8
"""Makings waiting for the pool or under way, from all tokens together."""
NICENESS = 10
"""How much lower the worker processes' CPU priority is than the server's."""
KINDS = (
    "sheets.pdf",
    "blank-sheets.pdf",
    "report.html",
    "report.pdf",
    "payouts.pdf",
    "guide.pdf",
    "badges.pdf",
)

Key = tuple[str, int, str, str]


def _lower_priority() -> None:
    with contextlib.suppress(OSError):  # not allowed here: the same priority
        os.nice(NICENESS)


def _replay(lines: Sequence[str]) -> Night:
    """The night whose stored log is ``lines`` (its party line, then each event)."""
    import json

    from bunco.core.night import Night

    night = Night.start(json.loads(lines[0]))
    for line in lines[1:]:
        night = night.apply(json.loads(line))
    return night


def make_file(kind: str, lines: Sequence[str], qr_url: str) -> bytes:
    """Make one file of the night whose stored log is ``lines`` (in a worker process)."""
    import json

    from bunco.sheets import (
        blank_sheets_pdf,
        filled_sheets_pdf,
        night_report_html,
        night_report_pdf,
    )

    night = _replay(lines)
    if kind == "sheets.pdf":
        return filled_sheets_pdf(night)
    if kind == "blank-sheets.pdf":
        return blank_sheets_pdf(night.rules, list(night.roster), qr_url=qr_url, sets=night.sets)
    if kind == "report.html":
        return night_report_html(night).encode("utf-8")
    if kind == "report.pdf":
        return night_report_pdf(night)
    if kind == "payouts.pdf":
        from bunco.sheets.payout_pdf import render_payout_sheet

        return render_payout_sheet(night, closed_at=qr_url or None).data  # when it was closed
    if kind == "guide.pdf":
        from bunco.sheets.guide import guide_cards_pdf

        return guide_cards_pdf(night, qr_url)
    if kind == "badges.pdf":  # qr_url: the night's name and each player's card address
        from bunco.sheets.badges import badges_pdf

        detail = json.loads(qr_url)
        return badges_pdf(night, detail["name"], detail["urls"])
    raise ValueError(f"no such download: {kind!r}")


def make_club_payouts(lines: Sequence[str], notes: Sequence[str]) -> bytes:
    """Make a club night's payout sheet (in a worker process): the night replayed from its
    stored ``lines``, with the club's ``notes`` on its dues."""
    from bunco.sheets.payout_pdf import render_payout_sheet

    return render_payout_sheet(_replay(lines), money_notes=list(notes)).data


def make_links_sheet(club_name: str, members: Sequence[MemberLink]) -> bytes:
    """Make a club's sheet of every member's link and QR code (in a worker process)."""
    from bunco.sheets.club_links import links_sheet

    return links_sheet(club_name, members)


def content_key(*parts: object) -> str:
    """A key's last part for a file made from ``parts`` alone (plain JSON values): their
    digest, so the same contents are served from the cache and other contents never are.

    >>> content_key("Maple Street", [{"name": "Ann"}]) == content_key("Maple Street", [{"name": "Ann"}])
    True
    >>> content_key("a") == content_key("b")
    False
    """
    import hashlib
    import json

    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


SEASON_KINDS = ("season.html", "season.pdf")


def make_season_file(
    kind: str,
    club_log: Sequence[Mapping[str, Any]],
    night_logs: Mapping[str, Sequence[str]],
    season: str,
) -> bytes:
    """Make a club's season report (in a worker process): the club folded from its log,
    the season's nights from their stored lines, then drawn as ``kind``."""
    import json

    from bunco.club.load import fold_club, fold_nights
    from bunco.sheets.season import season_report_html, season_report_pdf

    club = fold_club(club_log)
    nights = fold_nights(
        {n: [json.loads(line) for line in lines] for n, lines in night_logs.items()}
    )
    if kind == "season.html":
        return season_report_html(club, nights, season).encode("utf-8")
    if kind == "season.pdf":
        return season_report_pdf(club, nights, season)
    raise ValueError(f"no such season download: {kind!r}")


class Downloads:
    """The cache, the pool and the limits of the heavy downloads of one server process."""

    def __init__(
        self,
        *,
        workers: int = WORKERS,
        cache_bytes: int = CACHE_BYTES,
        per_token: str = PER_TOKEN,
        queued: int = QUEUED,
    ) -> None:
        self.workers = workers
        self.cache_bytes = cache_bytes
        self.queued = queued
        self._pool: ProcessPoolExecutor | None = None
        self._cache: OrderedDict[Key, bytes] = OrderedDict()
        self._cached = 0
        self._making: dict[Key, asyncio.Future[bytes]] = {}
        self._by_token: dict[str, Key] = {}
        self._limit = parse(per_token)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self.made = 0
        """Files made since the start (not served from the cache)."""

    async def get(self, key: Key, lines: Sequence[str], caller: str) -> bytes:
        """The file ``key`` (night, seq, kind, QR address), made from the log ``lines`` if
        it is not cached; ``caller`` is the token (its hash) that asks."""
        return await self.obtain(key, caller, make_file, key[2], list(lines), key[3])

    def cached(self, key: Key) -> bytes | None:
        """The file ``key`` if the cache holds it (then the most recent), else ``None``: a
        caller whose ``args`` cost a read asks first (:mod:`bunco.web.api.season_files`)."""
        data = self._cache.get(key)
        if data is not None:
            self._cache.move_to_end(key)
        return data

    async def obtain(self, key: Key, caller: str, make: Callable[..., bytes], *args: Any) -> bytes:
        """The file ``key``: from the cache, or made by ``make(*args)`` in a worker process
        (``make`` a module's function, ``args`` plain values: both go to the process
        pickled), under the same limits for every kind of file."""
        data = self.cached(key)
        if data is not None:
            return data
        making = self._making.get(key)
        if making is None:
            making = self._start(key, caller, make, args)
        try:
            return await asyncio.shield(making)
        except (BrokenProcessPool, OSError) as exc:  # a worker died or could not start
            raise ServiceError(
                503,
                "busy",
                f"the file could not be made now ({exc})",
                "the same request again in a moment",
            ) from None

    def _start(
        self, key: Key, caller: str, make: Callable[..., bytes], args: tuple[Any, ...]
    ) -> asyncio.Future[bytes]:
        if caller in self._by_token:
            raise _busy(
                5, "a file you asked for is still being made", "wait for it, then ask again"
            )
        if len(self._making) >= self.queued:
            raise _busy(10, "the server is making other files now", "try again in a moment")
        if not self._limiter.hit(self._limit, "downloads", caller):
            reset = self._limiter.get_window_stats(self._limit, "downloads", caller).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            raise _busy(
                wait,
                "too many files made for this token",
                f"wait {wait} s (files "
                "already made for the night's current state are served at once)",
            )
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor(), make, *args)
        self._making[key] = future
        self._by_token[caller] = key
        future.add_done_callback(lambda done: self._finish(key, caller, done))
        return future

    def _finish(self, key: Key, caller: str, done: asyncio.Future[bytes]) -> None:
        self._making.pop(key, None)
        if self._by_token.get(caller) == key:
            del self._by_token[caller]
        if done.cancelled():
            return
        error = done.exception()
        if isinstance(error, BrokenProcessPool):
            self._pool = None  # a worker died: the next download starts a new pool
        if error is not None:
            return
        data = done.result()
        self.made += 1
        if len(data) > self.cache_bytes:
            return
        self._cache[key] = data
        self._cached += len(data)
        while self._cached > self.cache_bytes:
            _, old = self._cache.popitem(last=False)
            self._cached -= len(old)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (the files being made are dropped)."""
        if self._pool is not None:
            workers = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:  # a file being made is not waited for
                worker.terminate()
            self._pool = None


def _busy(wait: int, what: str, expected: str) -> ServiceError:
    return ServiceError(
        429,
        "too_many_downloads",
        what,
        expected,
        retry_after=wait,
        headers={"Retry-After": str(wait)},
    )


def log_lines(log: Sequence[Any]) -> list[str]:
    """The stored bodies of a night's log (its :class:`~bunco.store.StoredEvent`s)."""
    return [stored.body for stored in log]
