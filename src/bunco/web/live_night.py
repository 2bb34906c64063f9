"""A night in memory (:class:`LiveNight`): its committed state (a frozen
:class:`~bunco.web.held_state.HeldState`: the engine's value, the stored log, each
table's version, the command ids seen), and beside it the runtime parts: the lock its
writes take, the commands waiting in its inbox, its tasks, and what the pages read from
it, worked out once per seq and shared by every reader (the status, the whole night's
view, each table's page, where each player's phone follows)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bunco.core.night import Night
from bunco.party.view import live_view, player_tables, table_page, table_pages
from bunco.store import StoredEvent
from bunco.web.commands import NightCommand
from bunco.web.held_state import (
    TABLE_EVENTS,
    HeldState,
    LogView,
    bump_versions,
    moved,
    version_in,
)
from bunco.web.replies import Ack, json_text, status_of

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
    """A night in memory: its committed ``state`` and its runtime parts.

    The state is committed: the writer task of the night replaces it only after the
    store took the events (``inbox`` holds the commands waiting for the next batch).
    ``heard`` is the highest seq another process announced (PostgreSQL notifications).
    """

    id: str
    name: str
    created_at: datetime
    options: dict[str, Any]
    state: HeldState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    inbox: list[Queued] = field(default_factory=list)
    writer: asyncio.Task[None] | None = None
    heard: int = -1
    options_stale: bool = False
    follower: asyncio.Task[None] | None = None
    _status: tuple[tuple[int, str], dict[str, Any]] | None = None
    _view: tuple[int, str] | None = None
    _view_build: tuple[int, asyncio.Future[str]] | None = None
    _pages: tuple[int, dict[int, TablePage]] | None = None
    pushed: dict[int, TablePage] = field(default_factory=dict)
    """The page last pushed to each table's followers."""
    paged: Night | None = None
    """The night the pages last pushed were built from."""
    _seated: tuple[Any, str, bool, dict[str, int]] | None = None
    """:meth:`player_tables` and the seating, phase and tables in play it was built for."""
    heard_from: dict[int, str] = field(default_factory=dict)
    """When each table's phone was last heard (an entry, an undo), UTC ISO 8601."""

    def status(self, *, expects: bool = True) -> dict[str, Any]:
        """:func:`status_of` the night now with its ``dice`` mode, computed once per seq
        (and dice mode); without ``expects`` for a table's phone (its table says whose
        turn it is)."""
        key = (self.seq, str(self.options.get("dice", "real")))
        if self._status is None or self._status[0] != key:
            self._status = (
                key,
                {
                    **status_of(self.night),
                    "dice": key[1],
                    "round_version": self.table_seq.get(None, 0),
                },
            )
        full = self._status[1]
        return full if expects else {k: v for k, v in full.items() if k != "expects"}

    async def view_json(self) -> str:
        """The engine's live view (``Night.view``) as JSON, computed once per seq: every
        page's GET of the night between two events is served from it. It is built on a
        worker thread from the night as it stands (an immutable value), so the event loop
        goes on delivering rolls meanwhile (tens of ms at 1,000 players); GETs at the same
        seq share one build."""
        seq = self.seq
        if self._view is not None and self._view[0] == seq:
            return self._view[1]
        if self._view_build is None or self._view_build[0] != seq:
            night = self.night
            build = asyncio.ensure_future(asyncio.to_thread(lambda: json_text(live_view(night))))
            self._view_build = (seq, build)
        text = await asyncio.shield(self._view_build[1])
        if self._view is None or self._view[0] < seq:
            self._view = (seq, text)
        return text

    def page(self, table: int) -> TablePage:
        """What the phones of ``table`` draw now (:func:`~bunco.party.view.table_page`),
        computed once per seq."""
        pages = self._pages_now()
        if table not in pages:
            pages[table] = TablePage.of(table_page(self.night, table))
        return pages[table]

    def pages(self) -> dict[int, TablePage]:
        """Every table's page now, computed once per seq."""
        pages = self._pages_now()
        missing = [n for n in range(1, len(self.night.tables) + 1) if n not in pages]
        if missing:
            for n, page in table_pages(self.night, missing).items():
                pages[n] = TablePage.of(page)
        return pages

    def player_tables(self) -> dict[str, int]:
        """The table whose page each player's phone follows now
        (:func:`~bunco.party.view.player_tables`), worked out again only when the
        seating, the phase or whether tables are in play changed."""
        night = self.night
        seated = self._seated
        if (
            seated is None
            or seated[0] is not night.seating
            or seated[1] != night.phase
            or seated[2] != bool(night.tables)
        ):
            seated = (night.seating, night.phase, bool(night.tables), player_tables(night))
            self._seated = seated
        return seated[3]

    def table_of(self, player: str) -> int | None:
        """The table whose page ``player``'s phone follows now (``None``: none)."""
        return self.player_tables().get(player)

    def forget_derived(self) -> None:
        """Forget everything worked out from the night (after it was rebuilt in place)."""
        self._status = self._view = self._view_build = self._pages = self.paged = None
        self._seated = None
        self.pushed.clear()

    def _pages_now(self) -> dict[int, TablePage]:
        if self._pages is None or self._pages[0] != self.seq:
            self._pages = (self.seq, {})
        return self._pages[1]

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

    @property
    def table_seq(self) -> Mapping[int | None, int]:
        """Each table's version (:func:`~bunco.web.held_state.bump_versions`)."""
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


@dataclass(frozen=True)
class TablePage:
    """One table's page as JSON: ``table`` its :func:`table_view` (``null`` when the table
    is not in play), ``rest`` everything else of :func:`table_page`."""

    table: str
    rest: str

    @classmethod
    def of(cls, page: dict[str, Any]) -> TablePage:
        return cls(json_text(page.pop("table")), json_text(page))

    def as_json(self) -> str:
        """The whole page (``rest`` with ``table``)."""
        return f'{{"table":{self.table},{self.rest[1:]}'


@dataclass
class Queued:
    """A command waiting in a night's inbox, and the future its caller awaits."""

    command: NightCommand
    reply: asyncio.Future[Ack]
