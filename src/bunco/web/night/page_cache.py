"""What the pages read from a held night, worked out once per seq and shared by every
reader (:class:`NightCache`): the status, the whole night's view, each table's page,
where each player's phone follows; and the pages last pushed to each table's followers.

A runtime part of a held night (:class:`~bunco.web.night.night_in_memory.LiveNight`), apart from its
state: each answer is a function of the frozen state
(:class:`~bunco.web.decision.frozen_state.HeldState`) it is asked with, kept until the seq moves on.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bunco.core.night import Night
from bunco.party.shapes import TablePage as TablePageView
from bunco.party.view import live_view, player_tables, table_page, table_pages
from bunco.web.decision.frozen_state import HeldState
from bunco.web.values.replies import NightStatus, json_text, status_of


@dataclass(frozen=True)
class TablePage:
    """One table's page as JSON: ``table`` its :func:`table_view` (``null`` when the table
    is not in play), ``rest`` everything else of :func:`table_page`."""

    table: str
    rest: str

    @classmethod
    def of(cls, page: TablePageView) -> TablePage:
        rest = {key: value for key, value in page.items() if key != "table"}
        return cls(json_text(page["table"]), json_text(rest))

    def as_json(self) -> str:
        """The whole page (``rest`` with ``table``)."""
        return f'{{"table":{self.table},{self.rest[1:]}'


@dataclass
class NightCache:
    """The pages' reads of one held night, each kept for the seq it was built at."""

    _status: tuple[tuple[int, str], NightStatus] | None = None
    _view: tuple[int, str] | None = None
    _view_build: tuple[int, asyncio.Future[str]] | None = None
    _pages: tuple[int, dict[int, TablePage]] | None = None
    _seated: tuple[Any, str, bool, dict[str, int]] | None = None
    """:meth:`player_tables` and the seating, phase and tables in play it was built for."""
    pushed: dict[int, TablePage] = field(default_factory=dict)
    """The page last pushed to each table's followers."""
    paged: Night | None = None
    """The night the pages last pushed were built from."""

    def status(self, state: HeldState, dice: str, *, expects: bool = True) -> NightStatus:
        """:func:`status_of` the night at ``state`` with its ``dice`` mode, computed once per
        seq (and dice mode); without ``expects`` for a table's phone (its table says whose
        turn it is)."""
        key = (state.seq, dice)
        if self._status is None or self._status[0] != key:
            self._status = (
                key,
                {
                    **status_of(state.night),
                    "dice": dice,
                    "round_version": state.versions.get(None, 0),
                },
            )
        full = self._status[1]
        if expects:
            return full
        brief = full.copy()
        brief.pop("expects", None)
        return brief

    async def view_json(self, state: HeldState) -> str:
        """The engine's live view as JSON, computed once per seq: every page's GET of the
        night between two events is served from it. It is built on a worker thread from
        the night as it stands (an immutable value), so the event loop goes on delivering
        rolls meanwhile (tens of ms at 1,000 players); GETs at the same seq share one
        build."""
        seq = state.seq
        if self._view is not None and self._view[0] == seq:
            return self._view[1]
        if self._view_build is None or self._view_build[0] != seq:
            night = state.night
            build = asyncio.ensure_future(asyncio.to_thread(lambda: json_text(live_view(night))))
            self._view_build = (seq, build)
        text = await asyncio.shield(self._view_build[1])
        if self._view is None or self._view[0] < seq:
            self._view = (seq, text)
        return text

    def page(self, state: HeldState, table: int) -> TablePage:
        """What the phones of ``table`` draw at ``state``
        (:func:`~bunco.party.view.table_page`), computed once per seq."""
        pages = self._pages_at(state.seq)
        if table not in pages:
            pages[table] = TablePage.of(table_page(state.night, table))
        return pages[table]

    def pages(self, state: HeldState) -> dict[int, TablePage]:
        """Every table's page at ``state``, computed once per seq."""
        pages = self._pages_at(state.seq)
        missing = [n for n in range(1, len(state.night.tables) + 1) if n not in pages]
        if missing:
            for n, page in table_pages(state.night, missing).items():
                pages[n] = TablePage.of(page)
        return pages

    def player_tables(self, night: Night) -> dict[str, int]:
        """The table whose page each player's phone follows
        (:func:`~bunco.party.view.player_tables`), worked out again only when the
        seating, the phase or whether tables are in play changed."""
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

    def forget(self) -> None:
        """Forget everything worked out (the night was rebuilt in place)."""
        self._status = self._view = self._view_build = self._pages = self.paged = None
        self._seated = None
        self.pushed.clear()

    def _pages_at(self, seq: int) -> dict[int, TablePage]:
        if self._pages is None or self._pages[0] != seq:
            self._pages = (seq, {})
        return self._pages[1]
