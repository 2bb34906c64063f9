"""A night in memory (:class:`LiveNight`): its committed state (a frozen
:class:`~bunco.web.decision.frozen_state.HeldState`: the engine's value, the stored log, each
table's version, the command ids seen), and beside it the runtime parts, each an object
of its own: how its writes run (:class:`~bunco.web.night.write_and_follow.Writing`: the lock, the
inbox, the writer task), what other processes announced
(:class:`~bunco.web.night.write_and_follow.Following`), what the pages read from it, worked out once
per seq (:class:`~bunco.web.night.page_cache.NightCache`), and what each table's phone holds and
when it was last heard (:class:`~bunco.web.night.phone_book.PhoneBook`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from bunco.core.night import Night
from bunco.core.server_options import NightOptions
from bunco.store import StoredEvent
from bunco.web.decision.frozen_state import (
    TABLE_EVENTS,
    HeldState,
    LogView,
    bump_versions,
    moved,
    version_in,
)
from bunco.web.night.page_cache import NightCache, TablePage
from bunco.web.night.phone_book import PhoneBook
from bunco.web.night.write_and_follow import Following, Queued, Writing
from bunco.web.values.replies import NightStatus

__all__ = [
    "TABLE_EVENTS",
    "LiveNight",
    "Queued",
    "TablePage",
    "bump_versions",
    "moved",
    "version_in",
]


@dataclass
class LiveNight:
    """A night in memory: its record (``id``, ``name``, ``created_at``, the server's
    ``options``), its committed ``state`` and its runtime parts.

    The state is committed: the writer task of the night replaces it only after the
    store took the events. The pages' reads (:meth:`status`, :meth:`view_json`,
    :meth:`page`, ...) are the cache's, asked with the state now.
    """

    id: str
    name: str
    created_at: datetime
    options: NightOptions
    state: HeldState
    writing: Writing = field(default_factory=Writing)
    following: Following = field(default_factory=Following)
    cache: NightCache = field(default_factory=NightCache)
    heard_from: dict[int, str] = field(default_factory=dict)
    """When each table's phone was last heard (an entry, an undo), UTC ISO 8601."""
    phones: PhoneBook = field(default_factory=PhoneBook)
    """What this process knows of each table's phone: what it holds, when it was heard."""

    @property
    def lock(self) -> asyncio.Lock:
        """The lock the night's writes take (:attr:`Writing.lock`)."""
        return self.writing.lock

    def status(self, *, expects: bool = True) -> NightStatus:
        """The night's status now with its ``dice`` mode (:meth:`NightCache.status`)."""
        return self.cache.status(self.state, str(self.options.get("dice", "real")), expects=expects)

    async def view_json(self) -> str:
        """The engine's live view now as JSON (:meth:`NightCache.view_json`)."""
        return await self.cache.view_json(self.state)

    def page(self, table: int) -> TablePage:
        """What the phones of ``table`` draw now (:meth:`NightCache.page`)."""
        return self.cache.page(self.state, table)

    def pages(self) -> dict[int, TablePage]:
        """Every table's page now (:meth:`NightCache.pages`)."""
        return self.cache.pages(self.state)

    def player_tables(self) -> dict[str, int]:
        """The table whose page each player's phone follows now
        (:meth:`NightCache.player_tables`)."""
        return self.cache.player_tables(self.night)

    def table_of(self, player: str) -> int | None:
        """The table whose page ``player``'s phone follows now (``None``: none)."""
        return self.player_tables().get(player)

    def versions(self, table: int | None = None) -> dict[str, int]:
        """The ``expected_seq`` to send at each table (``"1"``, ``"2"``, ...), for roll-offs
        (``"rolloff"``) and for the whole night (``"night"``); with ``table``, only the
        night's, the roll-offs' and that table's."""
        return {
            ("night" if k is None else "rolloff" if k == -1 else str(k)): v
            for k, v in self.table_seq.items()
            if table is None or k in (None, -1, table)
        }

    @property
    def night(self) -> Night:
        """The night as the engine folded it (committed)."""
        return self.state.night

    @property
    def seq(self) -> int:
        """The last sequence number of the night."""
        return self.state.seq

    @property
    def log(self) -> LogView:
        """The stored log (index = seq), read only: a view that stays as it is while
        later events are committed."""
        return self.state.log

    def closed_at(self) -> datetime | None:
        """When the host closed the night (the close's stored time), or ``None`` while it
        is open."""
        if not self.night.closed:
            return None
        log = self.log
        for seq in range(len(log) - 1, 0, -1):
            if log[seq].event.get("type") == "close_night":
                return log[seq].created_at
        return None

    @property
    def table_seq(self) -> Mapping[int | None, int]:
        """Each table's version (:func:`~bunco.web.decision.frozen_state.bump_versions`)."""
        return self.state.versions

    @property
    def bots(self) -> list[str]:
        return list(self.options.get("bots", self.night.setup.get("bots", [])))

    def version(self, table: int | None) -> int:
        """The version a writer at ``table`` must send: its last event or the night's."""
        return version_in(self.table_seq, table)

    def since(
        self, after: int, table: int | None = None, *, whole: bool = False
    ) -> list[StoredEvent]:
        """Stored events after ``after`` (all of them, or those of one table and the night)."""
        start = max(after + 1, 0)
        events = self.log[start:] if start < len(self.log) else []
        if whole:
            return events
        return [e for e in events if e.table is None or e.table == table]

    def record(self, stored: StoredEvent, after: Night) -> None:
        """Add a committed event (``after``: the night with it applied): the log, the
        table's version (every table's, when it moved the round or the seating), the
        command id."""
        self.state = self.state.committed_with(stored, after)
