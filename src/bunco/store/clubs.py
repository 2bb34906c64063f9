"""Clubs in the event store: one row per club, the club's append-only log, and the
commands it took.

A club's log has the same shape as a party log: seq 0 is the club's set-up line, every
later row one club event (see :mod:`bunco.club.club`). The nights a club plays are
ordinary nights of the store; the club's ``night`` events name them. Only the SHA-256
hash of the club's secret token is kept.

The log is written as a night's is (docs/club.md, "How the log is written"): the club's
row holds its ``seq`` (how many events follow the set-up line), and
:meth:`ClubStore.record` stores all the events of one command in one transaction, only
if the club is still at the seq the command was decided on (else :class:`ClubMoved`,
nothing stored), and once per command id (``club_commands``: a retry finds what the
first try stored). :meth:`ClubStore.create` stores a club with its first events in one
transaction.

>>> from bunco.store import EventStore
>>> store = EventStore("sqlite://")
>>> store.upgrade()
>>> clubs = ClubStore(store.engine)
>>> clubs.create("c1", "Tuesday Club", {"type": "club", "name": "Tuesday Club"}, "s3cret")
0
>>> clubs.token_matches("c1", "s3cret"), clubs.token_matches("c1", "guess")
(True, False)
>>> clubs.record("c1", [{"type": "member", "name": "Ann", "role": "regular"}], 0, "k#1")
ClubCommand(based_on=0, seq=1, replayed=False)
>>> clubs.record("c1", [{"type": "member", "name": "Ann", "role": "regular"}], 0, "k#1")
ClubCommand(based_on=0, seq=1, replayed=True)
>>> clubs.record("c1", [{"type": "member", "name": "Bea", "role": "regular"}], 0, "k2#1")
Traceback (most recent call last):
...
bunco.store.clubs.ClubMoved: club 'c1' is at 1, not 0: it changed since the command was decided
>>> [e["type"] for e in clubs.events("c1")], clubs.seq("c1")
(['club', 'member'], 1)
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from bunco.core.club_events import ClubEvent, ClubLine, ClubSetup
from bunco.store.events import StoreError, dump, now
from bunco.store.models import Base

COMMAND_ID_LENGTH = 120
"""The longest command id a club keeps (a client's key of 100 characters, ``#`` and the
command's number in its request)."""


class ClubRow(Base):
    """A club: its name, the hash of its secret token and its seq (the events after the
    set-up line); its log is in ``club_events``."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seq: Mapped[int] = mapped_column(Integer, server_default="0")


class ClubEventRow(Base):
    """One event of a club's log (seq 0: the set-up line)."""

    __tablename__ = "club_events"

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubCommandRow(Base):
    """A command the club took: the seq it was decided on and the seq after its events
    (a retry with its id is answered from here, never stored twice)."""

    __tablename__ = "club_commands"

    club_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    command_id: Mapped[str] = mapped_column(String(COMMAND_ID_LENGTH), primary_key=True)
    based_on: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_CLUBS = cast(Table, ClubRow.__table__)
_CLUB_EVENTS = cast(Table, ClubEventRow.__table__)
_CLUB_COMMANDS = cast(Table, ClubCommandRow.__table__)


class ClubMoved(StoreError):
    """The club is no longer at the seq a command was decided on (another command was
    stored first): nothing of this one was stored. Decide it again on the club as it is."""

    def __init__(self, club_id: str, based_on: int, seq: int) -> None:
        super().__init__(
            f"club {club_id!r} is at {seq}, not {based_on}: it changed since the command "
            "was decided"
        )
        self.club_id, self.based_on, self.seq = club_id, based_on, seq


@dataclass(frozen=True, slots=True)
class ClubRecord:
    id: str
    name: str
    token_hash: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ClubCommand:
    """A command as the club took it: the seq it was decided on, the seq after its
    events, and whether this answer is a retry's (its events were stored before)."""

    based_on: int
    seq: int
    replayed: bool = False


class ClubStore:
    """Clubs and their logs, on the event store's engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(
        self,
        club_id: str,
        name: str,
        setup: ClubSetup,
        token: str,
        events: Sequence[ClubEvent] = (),
    ) -> int:
        """Store a new club, its set-up line as event 0 and ``events`` after it, in one
        transaction (all or nothing); returns the club's seq."""
        token_hash = _hash(token)
        created = now()
        rows = [
            {"club_id": club_id, "seq": seq, "body": dump(dict(line)), "created_at": created}
            for seq, line in enumerate([setup, *events])
        ]
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(_CLUBS),
                    {
                        "id": club_id,
                        "name": name,
                        "token_hash": token_hash,
                        "created_at": created,
                        "seq": len(events),
                    },
                )
                conn.execute(insert(_CLUB_EVENTS), rows)
        except IntegrityError as exc:
            raise StoreError(f"club {club_id!r} exists") from exc
        return len(events)

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

    def seq(self, club_id: str) -> int | None:
        """The club's seq (how many events follow its set-up line), or ``None``."""
        with self.engine.connect() as conn:
            found = conn.execute(select(_CLUBS.c.seq).where(_CLUBS.c.id == club_id)).scalar()
        return None if found is None else int(found)

    def command(self, club_id: str, command_id: str) -> ClubCommand | None:
        """What the command ``command_id`` stored in the club, if it did (``replayed``)."""
        with self.engine.connect() as conn:
            return _command(conn, club_id, command_id)

    def record(
        self,
        club_id: str,
        events: Sequence[ClubEvent],
        based_on: int,
        command_id: str | None = None,
    ) -> ClubCommand:
        """Store the events of one command after seq ``based_on``, in one transaction.

        - A ``command_id`` the club already took: nothing is stored, the first try's
          :class:`ClubCommand` comes back (``replayed``), whatever ``based_on`` is now.
        - A club no longer at ``based_on``: :class:`ClubMoved`, nothing stored.
        - Else every event is stored (``based_on + 1`` on), the club's seq moves to the
          last and the command id is kept with it: all in one commit, or nothing.

        The compare-and-set on the club's row is what orders the writers: on PostgreSQL
        a second writer waits for the first's commit, then finds the seq moved; on
        SQLite the writers take turns. Raises :class:`StoreError` for no such club.
        """
        if command_id is not None:
            done = self.command(club_id, command_id)
            if done is not None:
                return done
        seq = based_on + len(events)
        if not events:
            return ClubCommand(based_on, seq)
        created = now()
        try:
            with self.engine.begin() as conn:
                moved = conn.execute(
                    update(_CLUBS)
                    .where(_CLUBS.c.id == club_id, _CLUBS.c.seq == based_on)
                    .values(seq=seq)
                ).rowcount
                if moved != 1:
                    return self._not_moved(conn, club_id, based_on, command_id)
                conn.execute(
                    insert(_CLUB_EVENTS),
                    [
                        {"club_id": club_id, "seq": n, "body": dump(dict(e)), "created_at": created}
                        for n, e in enumerate(events, based_on + 1)
                    ],
                )
                if command_id is not None:
                    conn.execute(
                        insert(_CLUB_COMMANDS),
                        {
                            "club_id": club_id,
                            "command_id": command_id,
                            "based_on": based_on,
                            "seq": seq,
                            "created_at": created,
                        },
                    )
        except IntegrityError as exc:
            raise StoreError(
                f"club {club_id!r}: events after {based_on} are stored, yet its seq was "
                f"{based_on} (its log was written around the store)"
            ) from exc
        return ClubCommand(based_on, seq)

    @staticmethod
    def _not_moved(
        conn: Connection, club_id: str, based_on: int, command_id: str | None
    ) -> ClubCommand:
        """Why the compare-and-set took no row: the same command stored by a retry that
        came first (its answer), another command first (:class:`ClubMoved`), no club."""
        if command_id is not None:
            done = _command(conn, club_id, command_id)
            if done is not None:
                return done
        found = conn.execute(select(_CLUBS.c.seq).where(_CLUBS.c.id == club_id)).scalar()
        if found is None:
            raise StoreError(f"there is no club {club_id!r}")
        raise ClubMoved(club_id, based_on, int(found))

    def events(self, club_id: str) -> list[ClubLine]:
        """The club's log: the set-up line, then every event, in order (as stored: each
        was checked when it was recorded)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_CLUB_EVENTS.c.body)
                .where(_CLUB_EVENTS.c.club_id == club_id)
                .order_by(_CLUB_EVENTS.c.seq)
            ).all()
        return [json.loads(r.body) for r in rows]


def _command(conn: Connection, club_id: str, command_id: str) -> ClubCommand | None:
    row = conn.execute(
        select(_CLUB_COMMANDS.c.based_on, _CLUB_COMMANDS.c.seq).where(
            _CLUB_COMMANDS.c.club_id == club_id, _CLUB_COMMANDS.c.command_id == command_id
        )
    ).first()
    return None if row is None else ClubCommand(int(row.based_on), int(row.seq), replayed=True)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
