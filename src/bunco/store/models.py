"""The tables of the event store (SQLAlchemy 2 declarative models).

- ``nights``: one row per night: id, name, creation time, the client's command id
  for the creation, and server options (bots, bot pace) as JSON.
- ``events``: the append-only party log: primary key (night, seq); seq 0 is the
  setup line. ``table_no`` is the table the event happened at (null for events of
  the whole night); the envelope ``caller`` (whose command it is), ``command_id``
  (unique per night in its ``command_scope``: one space for every token of the night,
  one each for the server's own callers; so a retried command is never stored twice,
  whichever token sends it again),
  ``request_hash`` (the request the id stands for) and ``created_at``; ``body`` is
  the event's JSON (the event only: no command id, no time).
- ``tokens``: SHA-256 hashes of the access tokens and join codes of a night, with
  the role they grant (host, table, player, viewer, or a table's join credential).
- ``rate_counts``: the counters of the limits on failed attempts, shared by the server
  processes of one PostgreSQL database (:mod:`bunco.store.rate_counts`).
- ``phone_reports``: what each table's phone last said its outbox holds, and when it was
  heard, shared by the server processes (:mod:`bunco.store.phone_reports`).

The schema is created and upgraded by the Alembic revisions in ``migrations/``;
these models are the revision ``head`` and must match it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Base of the store's models."""


class NightRow(Base):
    """A night: its name and server options; its log is in ``events``."""

    __tablename__ = "nights"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    create_command_id: Mapped[str | None] = mapped_column(String(100), unique=True)
    """The lookup hash of the creation's command id (raw ids before revision 0003)."""
    create_salt: Mapped[str | None] = mapped_column(String(64))
    create_request: Mapped[str | None] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")


class EventRow(Base):
    """One accepted event of a night's log."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint(
            "night_id", "command_scope", "command_id", name="uq_events_night_scope_command"
        ),
        Index("ix_events_night_table_seq", "night_id", "table_no", "seq"),
    )

    night_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("nights.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    table_no: Mapped[int | None] = mapped_column(Integer)
    caller: Mapped[str] = mapped_column(String(32), default="", server_default="")
    command_scope: Mapped[str] = mapped_column(String(32), default="", server_default="")
    command_id: Mapped[str | None] = mapped_column(String(100))
    request_hash: Mapped[str | None] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TokenRow(Base):
    """The hash of one token or join code and what it lets its holder do."""

    __tablename__ = "tokens"
    __table_args__ = (Index("ix_tokens_night", "night_id"),)

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    night_id: Mapped[str] = mapped_column(String(32), ForeignKey("nights.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(16))
    table_no: Mapped[int | None] = mapped_column(Integer)
    player: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RateCountRow(Base):
    """The failures counted under one rate limit and key (``limits``' key): their times
    (``hits``, seconds since the epoch) and when the row may be deleted (``expires_at``).
    Used on PostgreSQL only (an array there, text elsewhere): one process on SQLite counts
    in memory."""

    __tablename__ = "rate_counts"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    hits: Mapped[list[float]] = mapped_column(
        Text().with_variant(postgresql.ARRAY(Double), "postgresql")
    )
    expires_at: Mapped[float] = mapped_column(Double, index=True)


class PhoneReportRow(Base):
    """A table's phone as last heard: when (UTC, ISO 8601) and its outbox report (JSON)."""

    __tablename__ = "phone_reports"

    night_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("nights.id", ondelete="CASCADE"), primary_key=True
    )
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    heard: Mapped[str] = mapped_column(String(40))
    report: Mapped[str] = mapped_column(Text)
