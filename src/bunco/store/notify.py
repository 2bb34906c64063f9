"""Telling every server process what changed: PostgreSQL ``LISTEN/NOTIFY``.

Several ``bunco serve`` processes may share one PostgreSQL database. Whatever one of
them commits that the others hold in memory is announced on the channel
:data:`CHANNEL` *in the same transaction* (``pg_notify``), so a notice is sent exactly
when the change is committed, and notices arrive in commit order:

- ``e:<night>:<seq>``: the night's log now reaches ``seq`` (a process that holds the
  night reads the events it misses from the store, by seq, and publishes them);
- ``t:<night>``: the night's tokens or join codes changed (a process forgets what it
  cached about tokens);
- ``o:<night>``: the night's server options (bots, pace) changed;
- ``d:<night>``: the night was deleted (a process that holds it lets it go: its writer,
  bots and timer stop, its tokens are forgotten and its WebSockets closed);
- ``r:<night>``: the night's stored log was rewritten in place (a member's personal data
  erased): a process that holds it reads it again from the store.

A notice carries no event: the store stays the only source, so a lost notice (the
listening connection dropped) costs only a catch-up when the connection is back.

>>> payload("e", "n1", 42)
'e:n1:42'
>>> parse("e:n1:42")
Notice(kind='e', night_id='n1', seq=42)
>>> parse("t:n1")
Notice(kind='t', night_id='n1', seq=None)
>>> parse("d:n1")
Notice(kind='d', night_id='n1', seq=None)
>>> parse("garbage") is None
True
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("bunco.notify")

CHANNEL = "bunco"
KINDS = frozenset({"e", "t", "o", "d", "r"})


@dataclass(frozen=True, slots=True)
class Notice:
    """One notification: what kind of change, at which night, up to which seq."""

    kind: str
    night_id: str
    seq: int | None = None


def payload(kind: str, night_id: str, seq: int | None = None) -> str:
    """The text sent with ``pg_notify`` (night ids never contain ``:``)."""
    return f"{kind}:{night_id}" if seq is None else f"{kind}:{night_id}:{seq}"


def parse(text: str) -> Notice | None:
    """The notice in a payload, or ``None`` for anything else on the channel."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0] not in KINDS or not parts[1]:
        return None
    if len(parts) == 2:
        return Notice(parts[0], parts[1])
    try:
        return Notice(parts[0], parts[1], int(parts[2]))
    except ValueError:
        return None


def conninfo(sqlalchemy_url: Any) -> str:
    """The libpq connection string of an SQLAlchemy PostgreSQL URL.

    >>> conninfo("postgresql+psycopg://u:p@db:5432/bunco")
    'postgresql://u:p@db:5432/bunco'
    """
    from sqlalchemy.engine import make_url

    url = make_url(str(sqlalchemy_url)) if isinstance(sqlalchemy_url, str) else sqlalchemy_url
    return str(url.set(drivername="postgresql").render_as_string(hide_password=False))


async def follow(
    url: str,
    on_notice: Callable[[Notice], None],
    on_connect: Callable[[], Awaitable[None]],
    *,
    on_disconnect: Callable[[], None] = lambda: None,
    retry: float = 0.5,
    retry_max: float = 5.0,
) -> None:
    """Listen on :data:`CHANNEL` until cancelled, calling ``on_notice`` for each notice.

    ``on_connect`` runs each time the listening connection is (re)established, after
    ``LISTEN``: notices sent while the connection was down are lost, so it is where the
    caller catches up with the store; ``on_disconnect`` runs when the connection is lost. A dropped connection is retried with growing
    pauses (``retry`` to ``retry_max`` seconds).
    """
    import psycopg

    pause = retry
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                pause = retry
                await on_connect()
                async for note in conn.notifies():
                    notice = parse(note.payload)
                    if notice is not None:
                        on_notice(notice)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database went away: try again shortly
            log.warning("listening for notifications failed (%s); retrying in %.1f s", exc, pause)
        on_disconnect()
        await asyncio.sleep(pause)
        pause = min(pause * 2, retry_max)
