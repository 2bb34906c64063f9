"""Clubs in the event store: one row per club, and the club's append-only log.

A club's log has the same shape as a party log: seq 0 is the club's set-up line, every
later row one club event (see :mod:`bunco.club.club`). The nights a club plays are
ordinary nights of the store; the club's ``night`` events name them. Only the SHA-256
hash of the club's secret token is kept.

>>> from bunco.store import EventStore
>>> store = EventStore("sqlite://")
>>> store.upgrade()
>>> clubs = ClubStore(store.engine)
>>> clubs.create("c1", "Tuesday Club", {"type": "club", "name": "Tuesday Club"}, "s3cret")
>>> clubs.token_matches("c1", "s3cret"), clubs.token_matches("c1", "guess")
(True, False)
>>> clubs.append("c1", {"type": "member", "name": "Ann", "role": "regular"})
1
>>> [e["type"] for e in clubs.events("c1")]
['club', 'member']
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    func,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from bunco.store.events import StoreError, dump, now
from bunco.store.models import Base


class ClubRow(Base):
    """A club: its name and the hash of its secret token; its log is in ``club_events``."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubEventRow(Base):
    """One event of a club's log (seq 0: the set-up line)."""

    __tablename__ = "club_events"

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_CLUBS = cast(Table, ClubRow.__table__)
_CLUB_EVENTS = cast(Table, ClubEventRow.__table__)


@dataclass(frozen=True, slots=True)
class ClubRecord:
    id: str
    name: str
    token_hash: str
    created_at: datetime


class ClubStore:
    """Clubs and their logs, on the event store's engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, club_id: str, name: str, setup: dict[str, Any], token: str) -> None:
        """Store a new club with its set-up line as event 0 (and its token's hash)."""
        token_hash = _hash(token)
        created = now()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(_CLUBS),
                    {"id": club_id, "name": name, "token_hash": token_hash, "created_at": created},
                )
                conn.execute(
                    insert(_CLUB_EVENTS),
                    {"club_id": club_id, "seq": 0, "body": dump(setup), "created_at": created},
                )
        except IntegrityError as exc:
            raise StoreError(f"club {club_id!r} exists") from exc

    def club(self, club_id: str) -> ClubRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(_CLUBS).where(_CLUBS.c.id == club_id)).first()
        return None if row is None else ClubRecord(row.id, row.name, row.token_hash, row.created_at)

    def token_matches(self, club_id: str, token: str) -> bool:
        """Whether ``token`` is the club's secret (compared in constant time)."""
        record = self.club(club_id)
        return record is not None and secrets.compare_digest(_hash(token), record.token_hash)

    def ids(self) -> list[str]:
        """Every club's id (the clubs' clock looks at each)."""
        with self.engine.connect() as conn:
            return [row[0] for row in conn.execute(select(_CLUBS.c.id))]

    def club_by_name(self, name: str) -> ClubRecord | None:
        """The first club of that name (the command line names clubs by name or id)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_CLUBS).where(_CLUBS.c.name == name).order_by(_CLUBS.c.created_at)
            ).first()
        return None if row is None else ClubRecord(row.id, row.name, row.token_hash, row.created_at)

    def append(self, club_id: str, event: dict[str, Any]) -> int:
        """Append one event; returns its seq. A concurrent append retries on the next seq."""
        for _ in range(20):
            try:
                with self.engine.begin() as conn:
                    last = conn.execute(
                        select(func.max(_CLUB_EVENTS.c.seq)).where(
                            _CLUB_EVENTS.c.club_id == club_id
                        )
                    ).scalar()
                    if last is None:
                        raise StoreError(f"there is no club {club_id!r}")
                    conn.execute(
                        insert(_CLUB_EVENTS),
                        {
                            "club_id": club_id,
                            "seq": last + 1,
                            "body": dump(event),
                            "created_at": now(),
                        },
                    )
                return int(last) + 1
            except IntegrityError:
                continue
        raise StoreError(f"club {club_id!r} is too busy")

    def events(self, club_id: str) -> list[dict[str, Any]]:
        """The club's log: the set-up line, then every event, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_CLUB_EVENTS.c.body)
                .where(_CLUB_EVENTS.c.club_id == club_id)
                .order_by(_CLUB_EVENTS.c.seq)
            ).all()
        return [json.loads(r.body) for r in rows]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
