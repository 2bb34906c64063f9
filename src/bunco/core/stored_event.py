"""A night's log as it is kept: each event in its envelope (:class:`StoredEvent`), and whose
space of command ids a caller writes in (:func:`command_scope`).

A plain value, with no database in it: the store (:mod:`bunco.store.events`) writes and
reads these rows, and the server's decision about a command
(:mod:`bunco.web.decision`) reads them (a command id seen before, the events a stale
command missed) without the store.

>>> from datetime import UTC, datetime
>>> row = StoredEvent("n1", 1, 1, "c1", '{"type":"roll","table":1,"dice":[1,1,4]}',
...                   datetime(2026, 11, 27, 20, 0, tzinfo=UTC), "ab")
>>> row.event["dice"], row.at
([1, 1, 4], '2026-11-27T20:00:00.000+00:00')
>>> row.envelope()["command_id"], command_scope("ab"), command_scope("bot")
('c1', '', 'bot')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from typing_extensions import TypedDict

from bunco.core.events import Event
from bunco.core.party_setup import PartySetup

SERVER_CALLERS = frozenset({"bot", "clock", "server"})
"""The server's own callers: each has a space of command ids of its own. Every token of a
night (its tables' phones, its hosts, its players) shares one space: a command id is one
command of the night, whoever sends it."""


def command_scope(caller: str) -> str:
    """The space of ``caller``'s command ids: ``""`` for any token, else the server's
    caller itself.

    >>> command_scope("3f" * 16), command_scope("bot")
    ('', 'bot')
    """
    return caller if caller in SERVER_CALLERS else ""


class Envelope(TypedDict):
    """A stored event in its envelope, as replies show it."""

    seq: int
    table: int | None
    command_id: str | None
    at: str
    event: PartySetup | Event


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of a night's log: the event (``body``) in its envelope (seq, table, whose
    command under which id, the request it stood for, when it was stored)."""

    night_id: str
    seq: int
    table: int | None
    command_id: str | None
    body: str
    created_at: datetime
    caller: str = ""
    request_hash: str | None = None

    @property
    def event(self) -> PartySetup | Event:
        """The event as a dict (parsed from ``body``): the party line at seq 0, else an event
        as the night accepted it."""
        value: PartySetup | Event = json.loads(self.body)  # stored normalized, by the store
        return value

    @property
    def at(self) -> str:
        """When the event was stored: UTC, ISO 8601 with milliseconds."""
        return self.created_at.isoformat(timespec="milliseconds")

    def envelope(self) -> Envelope:
        """The event in its envelope (seq, table, command id, time, event), as replies
        show it."""
        return {
            "seq": self.seq,
            "table": self.table,
            "command_id": self.command_id,
            "at": self.at,
            "event": self.event,
        }
