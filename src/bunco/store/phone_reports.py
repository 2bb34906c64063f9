"""What each table's phone last said its outbox holds, kept in the database so every
server process sees every phone (docs/outbox.md, "What the host sees").

A table's page reports its outbox (entries waiting, the oldest one's time, the refused
entries waiting for a person, its offline mode) at each change and every 15 s. With
``bunco serve --workers N`` the phones' requests are spread over the processes and the
host's page may be served by any of them, so the reports live in the ``phone_reports``
table (one row per night and table, replaced by each report) rather than in one
process's memory. A report is one upsert; reading a night's reports is one query.

A report is changed beside the phone only by :meth:`PhoneReports.drop_refused` (refused
entries a person sent to the host, which the phone holds no more): in one transaction
that holds the row's write lock from before its read to its write, keeping when the phone
was heard, so a report the phone sends meanwhile is never lost (it is stored after, whole).

>>> from bunco.store.db import make_engine, upgrade_database
>>> engine = make_engine("sqlite://")
>>> upgrade_database(engine)
>>> from bunco.store import EventStore
>>> EventStore(engine).create_night("n1", "Night", {"type": "party"})
>>> reports = PhoneReports(engine)
>>> reports.save("n1", 2, "2026-11-27T10:00:00.000+00:00", {"waiting": 3})
>>> reports.save("n1", 2, "2026-11-27T10:00:15.000+00:00", {"waiting": 0})
>>> reports.save("n1", 2, "2026-11-27T10:00:05.000+00:00", {"waiting": 1})  # late: kept out
>>> reports.load("n1")
{2: StoredReport(heard='2026-11-27T10:00:15.000+00:00', report={'waiting': 0})}
>>> reports.save("n1", 3, "2026-11-27T10:00:20.000+00:00", {"waiting": 1, "refused": [
...     {"id": "c1", "label": "1-1-4", "code": "stale", "message": "table 3 changed"}]})
>>> reports.drop_refused("n1", 3, {"c1"}), reports.load("n1")[3].report
(True, {'waiting': 1, 'refused': []})
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal, TypedDict, cast

from sqlalchemy import Engine, Table, select, update
from sqlalchemy.dialects import postgresql, sqlite

from bunco.core.server_options import RefusedEntry
from bunco.store.models import PhoneReportRow

_REPORTS = cast(Table, PhoneReportRow.__table__)


class RoundWaiting(TypedDict):
    """The entries waiting on a phone that were tapped in one round."""

    set: int
    round: int
    waiting: int


class PhoneReport(TypedDict, total=False):
    """What a table's phone said its outbox holds (the API's ``OutboxIn``), and whether the
    report ``crossed`` its entries on the way (the server stored them already)."""

    waiting: int
    first: str | None
    rounds: list[RoundWaiting]
    oldest: str | None
    oldest_age: float | None
    refused: list[RefusedEntry]
    mode: Literal["offline-ready", "outbox-only"] | None
    crossed: bool


@dataclass(frozen=True, slots=True)
class StoredReport:
    """A table's phone as last heard: when (UTC, ISO 8601) and what it reported."""

    heard: str
    report: PhoneReport


def _text(report: PhoneReport) -> str:
    return json.dumps(report, separators=(",", ":"))


class PhoneReports:
    """The phones' reports of a store's database (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, night_id: str, table: int, heard: str, report: PhoneReport) -> None:
        """Replace table ``table``'s report unless a later one is stored (one statement:
        concurrent reports of one table from two processes leave the later one whole)."""
        values = {
            "night_id": night_id,
            "table_no": table,
            "heard": heard,
            "report": _text(report),
        }
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(_REPORTS).values(**values)
        statement = insert.on_conflict_do_update(
            index_elements=[_REPORTS.c.night_id, _REPORTS.c.table_no],
            set_={"heard": insert.excluded.heard, "report": insert.excluded.report},
            where=_REPORTS.c.heard <= insert.excluded.heard,
        )
        with self.engine.begin() as conn:
            conn.execute(statement)

    def load(self, night_id: str) -> dict[int, StoredReport]:
        """Every table's last report at ``night_id``, by table."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(_REPORTS.c.table_no, _REPORTS.c.heard, _REPORTS.c.report).where(
                    _REPORTS.c.night_id == night_id
                )
            ).all()
        return {int(r.table_no): StoredReport(r.heard, _parsed(r.report)) for r in rows}

    def drop_refused(self, night_id: str, table: int, ids: Collection[str]) -> bool:
        """Take the refused entries ``ids`` out of table ``table``'s report (a person sent
        them to the host: the phone holds them no more), keeping when it was heard; whether
        a report was stored. One transaction that first takes the row's write lock (a
        report the phone sends meanwhile waits for it, then is stored whole after), so the
        report read is the one written over, however fast the phone reports."""
        where = (_REPORTS.c.night_id == night_id, _REPORTS.c.table_no == table)
        with self.engine.begin() as conn:
            # a write that changes nothing: PostgreSQL locks the row, SQLite the database
            # (its driver begins the transaction at the first write), until the commit
            conn.execute(update(_REPORTS).where(*where).values(heard=_REPORTS.c.heard))
            row = conn.execute(select(_REPORTS.c.report).where(*where)).first()
            if row is None:
                return False
            report = _parsed(row.report)
            kept = [r for r in report.get("refused", []) if r["id"] not in ids]
            if len(kept) < len(report.get("refused", [])):
                conn.execute(
                    update(_REPORTS).where(*where).values(report=_text({**report, "refused": kept}))
                )
        return True


def _parsed(text: str) -> PhoneReport:
    """A stored report (written by :meth:`PhoneReports.save` from a checked one)."""
    return cast(PhoneReport, json.loads(text))
