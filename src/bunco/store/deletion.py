"""Deleting nights and clubs: every row that belongs to them, in one transaction.

A night is its row in ``nights`` and every row that points at it: its log (``events``),
its tokens and join codes (``tokens``: so every link of the night stops working), its
tables' phone reports, and the rows of any table a later version adds with a foreign
key to ``nights``. A club is its row, its log (``club_events``) and, when asked, the
nights its log names. On PostgreSQL the deletion holds each night's write lock (a
server process writing the night waits, then finds it gone: its write is refused as
:class:`~bunco.store.NightGone`) and announces a ``d`` notice per night in its
transaction: every server process lets the night go (its writer, bots and timer), forgets
the night's tokens and closes the WebSockets opened with them (:mod:`bunco.store.notify`).

Deleting a member's personal data without deleting the nights is
:mod:`bunco.store.erasure`; deleting what has not been used for a while is
:mod:`bunco.store.retention`.

>>> from bunco.store import EventStore, TokenRecord
>>> store = EventStore("sqlite://")
>>> store.upgrade()
>>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
...                                     "players": ["Ann", "Bea", "Cat", "Dee"]},
...                    tokens=[TokenRecord("h" * 64, "n1", "host")])
>>> delete_nights(store.engine, ["n1"])
{'events': 1, 'phone_reports': 0, 'tokens': 1, 'nights': 1}
>>> store.night("n1"), store.token("h" * 64)
(None, None)
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from typing import Any

from sqlalchemy import Column, Connection, Engine, MetaData, Table, delete, text

from bunco.store import notify
from bunco.store.advisory import NIGHT_WRITES, take

CHUNK = 500
"""Ids deleted per statement."""


class DeletionError(Exception):
    """A deletion that cannot be done (nothing was deleted): what was wrong, what to do."""

    def __init__(self, message: str, expected: str) -> None:
        super().__init__(message)
        self.message, self.expected = message, expected


def pointing_at(meta: MetaData, parent: str) -> Iterator[tuple[Table, Column[Any]]]:
    """Each table with a foreign key to ``parent``'s id, and that key's column."""
    for table in meta.sorted_tables:
        for key in table.foreign_keys:
            if key.column.table.name == parent and key.parent.table is table:
                yield table, key.parent


def _chunks(ids: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


def delete_rows(conn: Connection, parent: str, ids: Collection[str]) -> dict[str, int]:
    """Delete the rows of ``parent`` (``nights`` or ``clubs``) with these ids and every
    row that points at them, in ``conn``'s transaction; rows deleted per table."""
    meta = MetaData()
    meta.reflect(bind=conn)
    ordered = sorted(set(ids))
    deleted: dict[str, int] = {}
    for table, column in pointing_at(meta, parent):
        deleted[table.name] = sum(
            int(conn.execute(delete(table).where(column.in_(part))).rowcount)
            for part in _chunks(ordered)
        )
    rows = meta.tables[parent]
    deleted[parent] = sum(
        int(conn.execute(delete(rows).where(rows.c.id.in_(part))).rowcount)
        for part in _chunks(ordered)
    )
    return deleted


def lock_nights(conn: Connection, night_ids: Collection[str]) -> None:
    """PostgreSQL: hold the nights' write locks until ``conn``'s transaction ends."""
    if conn.dialect.name == "postgresql":
        for night_id in sorted(night_ids):  # always in one order: no deadlock
            take(conn, NIGHT_WRITES, night_id)


def announce(conn: Connection, kind: str, night_ids: Collection[str]) -> None:
    """PostgreSQL: tell every server process, when ``conn``'s transaction commits, that
    these nights' tokens (``t``) or options (``o``) changed, that they were deleted
    (``d``) or that their logs were rewritten (``r``)."""
    if conn.dialect.name == "postgresql":
        for night_id in sorted(night_ids):
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": notify.CHANNEL, "payload": notify.payload(kind, night_id)},
            )


def delete_nights(engine: Engine, night_ids: Collection[str]) -> dict[str, int]:
    """Delete these nights (their logs, tokens, phone reports...); rows deleted per
    table. Ids that are not there are passed over."""
    with engine.begin() as conn:
        lock_nights(conn, night_ids)
        deleted = delete_rows(conn, "nights", night_ids)
        announce(conn, "d", night_ids)
    return deleted


def club_nights(conn: Connection, club_id: str) -> list[str]:
    """The nights a club's log names (``night`` events), in the order it names them."""
    rows = conn.execute(
        text("SELECT body FROM club_events WHERE club_id = :club ORDER BY seq"), {"club": club_id}
    ).all()
    found: list[str] = []
    for (body,) in rows:
        event = json.loads(body)
        if event.get("type") == "night" and event.get("night") not in found:
            found.append(event["night"])
    return found


def clubs_naming(conn: Connection, night_id: str) -> list[str]:
    """The names of the clubs whose logs name the night."""
    clubs = conn.execute(text("SELECT id, name FROM clubs ORDER BY name")).all()
    return [name for club_id, name in clubs if night_id in club_nights(conn, club_id)]


def nights_of_other_clubs(conn: Connection, club_id: str) -> set[str]:
    """The nights named by the logs of clubs other than ``club_id``."""
    others = conn.execute(text("SELECT id FROM clubs WHERE id != :club"), {"club": club_id}).all()
    return {night for (other,) in others for night in club_nights(conn, other)}


def delete_club(engine: Engine, club_id: str, *, with_nights: bool = False) -> dict[str, int]:
    """Delete a club and its log; with ``with_nights``, also the nights its log names
    (but not those another club names too). Raises :class:`DeletionError` when there is
    no such club."""
    with engine.begin() as conn:
        there = conn.execute(
            text("SELECT 1 FROM clubs WHERE id = :club"), {"club": club_id}
        ).first()
        if there is None:
            raise DeletionError(
                f"there is no club {club_id!r}", expected="a club's id or name (bunco club show)"
            )
        nights: list[str] = []
        if with_nights:
            shared = nights_of_other_clubs(conn, club_id)
            nights = [n for n in club_nights(conn, club_id) if n not in shared]
        lock_nights(conn, nights)
        deleted = delete_rows(conn, "nights", nights) if nights else {}
        for table, count in delete_rows(conn, "clubs", [club_id]).items():
            deleted[table] = deleted.get(table, 0) + count
        announce(conn, "d", nights)
    return deleted
