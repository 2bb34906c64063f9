"""Deleting what has not been used for a while: ``bunco prune --older-than 180d``.

A night's last use is the time of the last event of its log (its creation, for a night
with only its setup line). :func:`prune` deletes (:mod:`bunco.store.deletion`) every
night last used before the cut-off, except the nights a club's log names: a club keeps
its seasons for years, so its nights go only with the club. With ``clubs=True`` it
also deletes every club whose log and nights were all last used before the cut-off,
with those nights. It also deletes the counts of failed attempts that have expired.

>>> from datetime import timedelta
>>> from bunco.store import EventStore
>>> store = EventStore("sqlite://")
>>> store.upgrade()
>>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
...                                     "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> prune(store.engine, timedelta(days=180)).nights
[]
>>> later = now() + timedelta(days=181)
>>> [n.id for n in prune(store.engine, timedelta(days=180), now=later, dry_run=True).nights]
['n1']
>>> prune(store.engine, timedelta(days=180), now=later).deleted["nights"], store.night("n1")
(1, None)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, Engine, func, select, text
from sqlalchemy.exc import NoSuchTableError

from bunco.store.deletion import announce, club_nights, delete_rows, lock_nights
from bunco.store.events import now as utc_now
from bunco.store.models import EventRow, NightRow

_AGE = re.compile(r"^\s*(\d{1,6})\s*([dwh])\s*$")
_UNITS = {"d": "days", "w": "weeks", "h": "hours"}


def parse_age(text_value: str) -> timedelta:
    """``180d``, ``26w`` or ``12h`` as a time span; raises ``ValueError`` otherwise.

    >>> parse_age("180d"), parse_age("2w")
    (datetime.timedelta(days=180), datetime.timedelta(days=14))
    """
    match = _AGE.match(text_value)
    if match is None:
        raise ValueError(f"{text_value!r} is not an age")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


@dataclass(frozen=True)
class Idle:
    """A night or club and when it was last used."""

    id: str
    name: str
    last_used: datetime


@dataclass
class PruneReport:
    """What :func:`prune` deleted (or, with ``dry_run``, would delete)."""

    cutoff: datetime
    nights: list[Idle] = field(default_factory=list)
    clubs: list[Idle] = field(default_factory=list)
    deleted: dict[str, int] = field(default_factory=dict)
    expired_counts: int = 0


def _utc(value: datetime | str) -> datetime:
    if isinstance(value, str):  # SQLite's text form, from an aggregate
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def night_uses(conn: Connection) -> list[Idle]:
    """Every night and when it was last used, the longest unused first."""
    events, nights = EventRow.__table__, NightRow.__table__
    last = (
        select(events.c.night_id, func.max(events.c.created_at).label("last"))
        .group_by(events.c.night_id)
        .subquery()
    )
    rows = conn.execute(
        select(nights.c.id, nights.c.name, nights.c.created_at, last.c.last).outerjoin(
            last, last.c.night_id == nights.c.id
        )
    ).all()
    found = [Idle(r.id, r.name, _utc(r.last or r.created_at)) for r in rows]
    return sorted(found, key=lambda i: i.last_used)


def club_uses(conn: Connection, night_used: dict[str, datetime]) -> list[tuple[Idle, list[str]]]:
    """Every club, when it or any of its nights was last used, and its nights."""
    try:
        rows = conn.execute(
            text(
                "SELECT c.id, c.name, c.created_at, MAX(e.created_at) AS last FROM clubs c "
                "LEFT JOIN club_events e ON e.club_id = c.id GROUP BY c.id, c.name, c.created_at"
            )
        ).all()
    except NoSuchTableError:  # pragma: no cover - every schema since 0004 has clubs
        return []
    found = []
    for row in rows:
        nights = club_nights(conn, row.id)
        used = [_utc(row.last or row.created_at)] + [
            night_used[n] for n in nights if n in night_used
        ]
        found.append((Idle(row.id, row.name, max(used)), nights))
    return sorted(found, key=lambda c: c[0].last_used)


def prune(
    engine: Engine,
    older_than: timedelta,
    *,
    clubs: bool = False,
    dry_run: bool = False,
    now: datetime | None = None,
) -> PruneReport:
    """Delete the nights (and with ``clubs``, the clubs) last used more than
    ``older_than`` ago; ``dry_run``: only say which."""
    moment = now or _now()
    report = PruneReport(moment - older_than)
    with engine.begin() as conn:
        uses = night_uses(conn)
        used = {n.id: n.last_used for n in uses}
        kept: set[str] = set()
        for club, nights in club_uses(conn, used):
            if clubs and club.last_used < report.cutoff:
                report.clubs.append(club)
            else:
                kept |= set(nights)
        report.nights = [n for n in uses if n.last_used < report.cutoff and n.id not in kept]
        if dry_run:
            return report
        ids = [n.id for n in report.nights]
        lock_nights(conn, ids)
        report.deleted = delete_rows(conn, "nights", ids)
        for table, count in delete_rows(conn, "clubs", [c.id for c in report.clubs]).items():
            report.deleted[table] = report.deleted.get(table, 0) + count
        announce(conn, "d", ids)
        report.expired_counts = int(
            conn.execute(
                text("DELETE FROM rate_counts WHERE expires_at < :now"), {"now": time.time()}
            ).rowcount
        )
    return report


def _now() -> datetime:
    return utc_now()
