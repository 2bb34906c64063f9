"""The party log a night exports: its events only, written as ``bunco play`` writes them.

The server keeps each event in an envelope (seq, table, command id, time, see
:class:`bunco.store.StoredEvent`); the exported log leaves the envelope out, so the same
events make the same bytes here and in a log ``bunco play`` wrote. Events stored before
the envelope held the command id and time carry them as ``id`` and ``at``: they are left
out too.

>>> from datetime import UTC, datetime
>>> from bunco.store import StoredEvent
>>> row = StoredEvent("n", 1, 1, "c1", '{"type":"roll","table":1,"dice":[1,1,4],"id":"c1"}',
...                   datetime.now(UTC))
>>> party_log_text([row])
'{"type": "roll", "table": 1, "dice": [1, 1, 4]}\\n'
"""

from __future__ import annotations

from collections.abc import Iterable

from bunco.core.events import dump_event
from bunco.store import StoredEvent

ENVELOPE_KEYS = ("id", "at")


def party_log_text(log: Iterable[StoredEvent]) -> str:
    """The JSON Lines of a night's log: the setup line, then every event."""
    lines = []
    for stored in log:
        event = dict(stored.event)  # any key of a line: the envelope's come out
        for key in ENVELOPE_KEYS:
            event.pop(key, None)
        lines.append(dump_event(event) + "\n")
    return "".join(lines)
