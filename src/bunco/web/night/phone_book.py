"""What the server knows of each table's phone, and the tables the room waits for.

A table's page keeps its entries on the phone until the server has them (docs/outbox.md)
and says what it holds: each entry carries ``more`` (how many entries it still holds
after this one), and the page reports its outbox at each change and every 15 s (entries
waiting, per round). From these the server knows, per table, whether its phone holds
entries of the round in play, or has fallen silent since it was last heard this round
(no report for :data:`SILENT_PHONE` seconds: its Wi-Fi dropped, it went to sleep).

The round must not end without such a phone: when a command would end it, the command
path first writes a ``wait_for_phone`` for each such table (:func:`to_wait_for`), and the
round ends once each is released by a ``go_on`` (the phone's entries are in: its last
entry said it holds no more, or it reported none; or the host's decision). So the room's
move waits, never silently (:mod:`bunco.core.late_entries`).

A :class:`PhoneBook` is one process's memory of the phones it heard; what phones reported
to other processes is read from the store (:mod:`bunco.store.phone_reports`) and merged
(:meth:`PhoneBook.merge`) before a decision that needs it.

>>> book = PhoneBook()
>>> book.note_report(2, 100.0, {"waiting": 6, "rounds": [{"set": 1, "round": 1, "waiting": 6}]})
>>> book.holds(2, 1, 1)
6
>>> book.note_entry(2, 101.0, more=5)
>>> book.holds(2, 1, 1), book.silent(2, now=140.0, began=50.0)
(5, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bunco.core.late_entries import WaitForPhoneEvent
from bunco.core.night import Night
from bunco.store.phone_reports import PhoneReport


def _silent_after() -> float:
    """``BUNCO_SILENT_PHONE`` (seconds, for rehearsals and tests), else 35."""
    try:
        value = float(os.environ.get("BUNCO_SILENT_PHONE", "35"))
    except ValueError:
        return 35.0
    return value if 0 < value <= 3600 else 35.0


SILENT_PHONE = _silent_after()
RECENT_SENT = 64
"""Command ids of a phone's last entries kept (to tell a report that crossed them)."""
"""Seconds without a word from a table's phone (it reports every 15 s while its page is
open and online) after which it is silent: offline, asleep or closed."""


@dataclass
class TablePhone:
    """One table's phone as last heard (times in seconds since the epoch)."""

    heard: float | None = None
    """The latest of its last report and its last entry."""
    reported: float | None = None
    rounds: dict[tuple[int, int], int] = field(default_factory=dict)
    """Its last report: entries waiting on it per (set, round) they were tapped in."""
    entry_at: float | None = None
    more: int | None = None
    """What its last entry said it still holds after it (``None``: it did not say)."""
    sent: tuple[str, ...] = ()
    """The command ids of its last entries (a report naming one as waiting crossed it)."""


class PhoneBook:
    """Every table's :class:`TablePhone` at one night, in one process."""

    def __init__(self) -> None:
        self.tables: dict[int, TablePhone] = {}
        self.merged = 0.0
        """When the store's reports were last merged in (seconds since the epoch)."""

    def _phone(self, table: int) -> TablePhone:
        return self.tables.setdefault(table, TablePhone())

    def note_entry(
        self, table: int, at: float, more: int | None = None, command_id: str | None = None
    ) -> None:
        """Table ``table``'s phone sent an entry (``command_id``) at ``at``, holding
        ``more`` after it."""
        phone = self._phone(table)
        phone.entry_at = at
        phone.more = more
        if command_id is not None:
            phone.sent = (*phone.sent[-(RECENT_SENT - 1) :], command_id)
        phone.heard = max(phone.heard or at, at)

    def note_heard(self, table: int, at: float) -> None:
        """Table ``table``'s phone was heard at ``at`` (a report that says nothing new)."""
        phone = self._phone(table)
        phone.heard = max(phone.heard or at, at)

    def note_report(self, table: int, at: float, report: PhoneReport) -> None:
        """Table ``table``'s phone reported its outbox at ``at`` (a report older than the
        one noted is left out; one that ``crossed`` its entries on the way tells only that
        the phone was heard)."""
        if report.get("crossed"):
            self.note_heard(table, at)
            return
        phone = self._phone(table)
        if phone.reported is not None and at < phone.reported:
            return
        phone.reported = at
        phone.heard = max(phone.heard or at, at)
        rounds: dict[tuple[int, int], int] = {}
        for item in report.get("rounds") or ():
            key = (int(item["set"]), int(item["round"]))
            rounds[key] = rounds.get(key, 0) + int(item["waiting"])
        phone.rounds = rounds

    def crossed(self, table: int, first: str | None) -> bool:
        """Whether a report naming ``first`` as its first entry waiting crossed that entry
        on the way (the phone sent it before the report arrived)."""
        phone = self.tables.get(table)
        return first is not None and phone is not None and first in phone.sent

    def merge(self, stored: Mapping[int, Any], at: float) -> None:
        """Take in the reports the store holds (any process's: ``StoredReport`` by table)."""
        for table, report in stored.items():
            self.note_report(table, _epoch(report.heard), report.report)
        self.merged = at

    def _said_since(self, phone: TablePhone) -> int | None:
        """What the phone's last entry said it still holds, if that entry came after its
        last report (then it is the latest word); else ``None``."""
        fresh = phone.reported is None or (phone.entry_at or 0.0) >= phone.reported
        return phone.more if phone.entry_at is not None and fresh else None

    def holds(self, table: int, set_no: int, round_no: int) -> int:
        """The entries of round ``round_no`` of set ``set_no`` table ``table``'s phone
        holds, by its latest word (its last entry's ``more`` if that came after its last
        report, else the report)."""
        phone = self.tables.get(table)
        if phone is None:
            return 0
        said = self._said_since(phone)
        return said if said is not None else phone.rounds.get((set_no, round_no), 0)

    def waiting(self, table: int, reported: int) -> int:
        """The entries (of any round) table ``table``'s phone holds by its latest word: its
        last entry's ``more`` if that came after its last report, else ``reported`` (the
        report's count).

        >>> book = PhoneBook()
        >>> book.note_report(3, 100.0, {"waiting": 1})
        >>> book.waiting(3, 1)
        1
        >>> book.note_entry(3, 100.4, more=0, command_id="c-1")  # the entry came after
        >>> book.waiting(3, 1)
        0
        """
        phone = self.tables.get(table)
        said = None if phone is None else self._said_since(phone)
        return reported if said is None else said

    def silent(self, table: int, *, now: float, began: float | None) -> bool:
        """Whether table ``table``'s phone, heard since ``began`` (the round's start), has
        said nothing for :data:`SILENT_PHONE` seconds."""
        phone = self.tables.get(table)
        if phone is None or phone.heard is None or began is None or phone.heard < began:
            return False
        return now - phone.heard > SILENT_PHONE

    def heard_ago(self, table: int, now: float) -> float | None:
        phone = self.tables.get(table)
        return None if phone is None or phone.heard is None else max(0.0, now - phone.heard)


def to_wait_for(
    night: Night, book: PhoneBook, *, now: float, began: float | None, skip: frozenset[int]
) -> list[WaitForPhoneEvent]:
    """The ``wait_for_phone`` events the round needs before it may end: one per table in
    play (not ``skip``, not waited for already) whose phone holds entries of the round,
    or fell silent since it was heard this round.

    >>> from bunco.core.night import Night
    >>> night = Night.start({"players": ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]})
    >>> book = PhoneBook()
    >>> book.note_report(2, 100.0, {"rounds": [{"set": 1, "round": 1, "waiting": 3}]})
    >>> to_wait_for(night, book, now=110.0, began=90.0, skip=frozenset())
    [{'type': 'wait_for_phone', 'of_table': 2, 'entries': 3}]
    """
    if night.phase != "playing":
        return []
    out: list[WaitForPhoneEvent] = []
    for number in range(1, len(night.tables) + 1):
        if number in skip or number in night.awaited or number in night.decided:
            continue
        held = book.holds(number, night.set_no, night.round_no)
        if held > 0:
            out.append({"type": "wait_for_phone", "of_table": number, "entries": held})
        elif book.silent(number, now=now, began=began):
            out.append({"type": "wait_for_phone", "of_table": number})
    return out


def _epoch(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()
