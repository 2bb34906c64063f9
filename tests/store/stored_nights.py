"""Nights and clubs stored as the server stores them, for the backup and deletion tests;
every row of a database, to compare two; a second PostgreSQL database to restore into."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from bunco.store import ClubStore, EventStore, StoredEvent, TokenRecord
from bunco.store.backup_format import read_tables
from bunco.store.events import dump
from bunco.store.phone_reports import PhoneReports
from night_helpers import party, play_randomly
from pg_database import (
    PG_URL,
    SKIP_REASON,
    ensure_database,
    may_create_databases,
    wiped,
    worker_url,
)

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def store_night(
    store: EventStore,
    night_id: str,
    players: list[str] = EIGHT,
    *,
    seed: int = 1,
    rules: str = "classic",
    name: str = "Friday",
    events: int | None = None,
    at: datetime | None = None,
) -> list[dict[str, Any]]:
    """A night played at random (all of it, or its first ``events``) stored with a
    host, a viewer, a table's and a claimed player's token, bot options and a phone
    report; its log."""
    night = party(rules, players, prizes=["most_buncos", "most_wins"])
    _, played = play_randomly(night, seed, 5000)
    played = played if events is None else played[:events]
    setup = {**night.setup, "name": name}
    when = at or datetime.now(UTC)
    tokens = [
        TokenRecord(_hash(night_id, "host"), night_id, "host"),
        TokenRecord(_hash(night_id, "viewer"), night_id, "viewer"),
        TokenRecord(_hash(night_id, "table"), night_id, "table", 1),
        TokenRecord(_hash(night_id, "player"), night_id, "player", None, players[0]),
    ]
    store.create_night(
        night_id, name, setup, options={"bots": [players[-1]], "bot_pace": 1.0}, tokens=tokens
    )
    rows = [
        StoredEvent(night_id, seq, e.get("table"), f"c{seq}", dump(e), when, "caller", None)
        for seq, e in enumerate(played, 1)
    ]
    store.append_many(night_id, rows)
    if at is not None:
        with store.engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE events SET created_at = :at WHERE night_id = :n"),
                {"at": at, "n": night_id},
            )
            conn.execute(
                sa.text("UPDATE nights SET created_at = :at WHERE id = :n"),
                {"at": at - timedelta(hours=3), "n": night_id},
            )
    PhoneReports(store.engine).save(
        night_id, 1, when.isoformat(), {"waiting": 1, "player": players[0]}
    )
    return [setup, *played]


def _hash(night_id: str, role: str) -> str:
    return hashlib.sha256(f"{night_id}:{role}".encode()).hexdigest()


def token_hash(night_id: str, role: str) -> str:
    """The hash of the token :func:`store_night` stored for ``role``."""
    return _hash(night_id, role)


def store_club(
    store: EventStore, club_id: str, nights: list[str], members: list[str] = EIGHT
) -> ClubStore:
    """A club whose members are ``members`` (Ann with an email and an address, hosting a
    planned night at home) and whose nights are ``nights``."""
    clubs = ClubStore(store.engine)
    members_and_nights: list[dict[str, Any]] = []
    for name in members:
        event: dict[str, Any] = {"type": "member", "name": name, "role": "regular"}
        if name == "Ann":
            event |= {"email": "ann@example.org", "address": "1 Elm St"}
        members_and_nights.append(event)
    for number, night in enumerate(nights):
        members_and_nights.append(
            {"type": "night", "night": night, "date": f"2026-0{number + 1}-10"}
        )
    setup = {"type": "club", "name": f"Club {club_id}"}
    seq = clubs.create(club_id, f"Club {club_id}", setup, "s", members_and_nights)
    later = [
        {"type": "plan", "date": "2026-12-10", "host": members[0], "address": "1 Elm St"},
        {"type": "payment", "player": members[0], "amount": "5",
         "note": f"{members[0]} paid for two"},
        {"type": "link", "for": "member", "subject": members[0], "hash": "a" * 64},
    ]  # fmt: skip
    clubs.record(club_id, later, seq, "organizer-key#1")  # a command with its id kept
    return clubs


def all_rows(url_or_engine: str | sa.Engine) -> dict[str, list[list[Any]]]:
    """Every row of every table a backup holds, in the backup's form (times in UTC)."""
    engine = sa.create_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    with engine.connect() as conn:
        return {t.name: list(t.rows) for t in read_tables(conn)}


def named_rows(url_or_engine: str | sa.Engine, name: str) -> list[dict[str, Any]]:
    """The rows of one table, as column -> value (the backup's form)."""
    engine = sa.create_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    with engine.connect() as conn:
        table = next(t for t in read_tables(conn) if t.name == name)
        return [dict(zip(table.columns, row, strict=True)) for row in table.rows]


@contextmanager
def another_postgres() -> Iterator[str]:
    """A second wiped PostgreSQL database beside this worker's (to restore into)."""
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    if not may_create_databases(PG_URL):
        pytest.skip("the PostgreSQL role may not create a second database")
    given = sa.make_url(worker_url())
    name = f"{given.database}_restore"
    ensure_database(PG_URL, name)
    with wiped(given.set(database=name).render_as_string(hide_password=False)) as url:
        yield url
