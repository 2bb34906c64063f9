"""A night in memory (:class:`LiveNight`): the engine's value, its stored log, each table's
version, the command ids seen, the commands waiting in its inbox, and what the pages read
from it, worked out once per seq and shared by every reader (the status, the whole night's
view, each table's page, where each player's phone follows)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bunco.core.night import Night
from bunco.party.view import live_view, player_tables, table_page, table_pages
from bunco.store import StoredEvent
from bunco.web.decide import Tapped
from bunco.web.replies import Ack, json_text, status_of

TABLE_EVENTS = frozenset({"roll", "tally", "undo"})

def bump_versions(table_seq: dict[int | None, int], stored: StoredEvent, kind: str,
                  moved: bool = False) -> None:
    """Note ``stored`` as the version of its table (``-1``: roll-offs; ``None``: the night).

    ``moved``: the event changed the round, the set, the phase or the seating (a
    round-ending roll at one table, an undo that reopens a round, a reseating): every
    table's version becomes its seq, so an entry based on the table before the change is
    never applied after it (``None`` is the floor of every table's version). An event of
    the whole night that moves nothing (a verification, a judged prize, presence, a
    break, the start bell) changes no table's version: entries tapped before it still
    fit the table they were tapped at. Commands of the whole night are checked against
    the night's seq itself.
    """
    if stored.table is not None:
        table_seq[stored.table] = stored.seq
    elif kind in TABLE_EVENTS:
        table_seq[-1] = stored.seq
    if moved:
        table_seq[None] = max(table_seq.get(None, 0), stored.seq)


def moved(before: Night, after: Night) -> bool:
    """Whether going from ``before`` to ``after`` changed the round, set, phase or seating:
    what changes every table's version (:func:`bump_versions`)."""
    return (before.set_no, before.round_no, before.phase) != (
        after.set_no, after.round_no, after.phase) or before.seating != after.seating


def version_in(table_seq: dict[int | None, int], table: int | None) -> int:
    """The version a writer at ``table`` must send: its last event or the night's."""
    night_wide = table_seq.get(None, 0)
    if table is None:
        return max(night_wide, table_seq.get(-1, 0))
    return max(night_wide, table_seq.get(table, 0))


@dataclass
class LiveNight:
    """A night in memory: the engine's value, its stored log and its versions.

    Everything here is committed: the writer task of the night advances it only after
    the store took the events (``inbox`` holds the commands waiting for the next batch).
    ``heard`` is the highest seq another process announced (PostgreSQL notifications).
    """

    id: str
    name: str
    created_at: datetime
    night: Night
    log: list[StoredEvent]
    options: dict[str, Any]
    table_seq: dict[int | None, int] = field(default_factory=dict)
    commands: dict[tuple[str, str], int] = field(default_factory=dict)
    """(caller, command id) → the seq of its event."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    inbox: list[Command] = field(default_factory=list)
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
            self._status = (key, {**status_of(self.night), "dice": key[1],
                                  "round_version": self.table_seq.get(None, 0)})
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
        if seated is None or seated[0] is not night.seating or seated[1] != night.phase \
                or seated[2] != bool(night.tables):
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
        return {("night" if k is None else "rolloff" if k == -1 else str(k)): v
                for k, v in self.table_seq.items() if table is None or k in (None, -1, table)}

    @property
    def seq(self) -> int:
        """The last sequence number of the night."""
        return self.log[-1].seq

    @property
    def bots(self) -> list[str]:
        return list(self.options.get("bots", self.night.setup.get("bots", [])))

    def version(self, table: int | None) -> int:
        """The version a writer at ``table`` must send: its last event or the night's."""
        return version_in(self.table_seq, table)

    def since(self, after: int, table: int | None = None, *, whole: bool = False) -> list[
            StoredEvent]:
        """Stored events after ``after`` (all of them, or those of one table and the night)."""
        start = max(after + 1, 0)
        events = self.log[start:] if start < len(self.log) else []
        if whole:
            return events
        return [e for e in events if e.table is None or e.table == table]

    def record(self, stored: StoredEvent, kind: str, moved: bool = False) -> None:
        """Add a committed event: the log, the table's version (every table's, when it
        ``moved`` the round or the seating), the command id."""
        self.log.append(stored)
        bump_versions(self.table_seq, stored, kind, moved)
        if stored.command_id is not None:
            self.commands[stored.caller, stored.command_id] = stored.seq


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
class Command:
    """One command waiting in a night's inbox, and the future its caller awaits."""

    event: dict[str, Any] | Callable[[LiveNight], dict[str, Any]]
    command_id: str
    expected_seq: int | None
    authorize: Callable[[LiveNight, dict[str, Any]], None] | None
    draw: bool
    reply: asyncio.Future[Ack]
    caller: str = ""
    """Whose ``command_id`` it is (a token's hash, ``bot``)."""
    request: str | None = None
    """The :func:`fingerprint` of the request the id stands for."""
    tapped: Tapped | None = None
    """Where an entry was tapped (:mod:`bunco.web.decide`): applied only there."""
