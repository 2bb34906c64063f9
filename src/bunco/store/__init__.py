"""The event store: one append-only party log per night, in SQLite or PostgreSQL.

The store knows events, not HTTP. A night is its setup line (seq 0) followed by
one row per accepted event, each with a sequence number, the table it happened
at (or none), the client's command id and the event's JSON in the party-log format.

>>> from bunco.store import EventStore
>>> store = EventStore("sqlite://")
>>> store.upgrade()
>>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
...                                     "players": ["Ann", "Bea"]})
>>> store.append("n1", 1, table=1, command_id="c1",
...              event={"type": "roll", "table": 1, "dice": [1, 1, 4]}).seq
1
>>> [e.event["type"] for e in store.events("n1")]
['party', 'roll']
"""

from __future__ import annotations

from bunco.core.stored_event import StoredEvent
from bunco.store.clubs import ClubCommand, ClubMoved, ClubRecord, ClubStore
from bunco.store.db import default_db_url, make_engine, upgrade_database
from bunco.store.events import (
    ChangedOptions,
    DuplicateCommand,
    EventStore,
    NightGone,
    NightRecord,
    OptionsBusy,
    SeqTaken,
    StoreError,
)
from bunco.store.night_tokens import Revoke, TokenChange, TokenRecord, TokensChanged

__all__ = [
    "ChangedOptions",
    "ClubCommand",
    "ClubMoved",
    "ClubRecord",
    "ClubStore",
    "DuplicateCommand",
    "EventStore",
    "NightGone",
    "NightRecord",
    "OptionsBusy",
    "Revoke",
    "SeqTaken",
    "StoreError",
    "StoredEvent",
    "TokenChange",
    "TokenRecord",
    "TokensChanged",
    "default_db_url",
    "make_engine",
    "upgrade_database",
]
