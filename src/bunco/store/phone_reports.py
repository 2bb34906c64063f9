"""What each table's phone last said its outbox holds, kept in the database so every
server process sees every phone (docs/outbox.md, "What the host sees").

A table's page reports its outbox (entries waiting, the oldest one's time, the refused
entries waiting for a person, its offline mode) at each change and every 15 s. With
``bunco serve --workers N`` the phones' requests are spread over the processes and the
host's page may be served by any of them, so the reports live in the ``phone_reports``
table (one row per night and table, replaced by each report) rather than in one
process's memory. A report is one upsert; reading a night's reports is one query.

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
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Engine, Table, select
from sqlalchemy.dialects import postgresql, sqlite

from bunco.store.models import PhoneReportRow

_REPORTS = cast(Table, PhoneReportRow.__table__)


@dataclass(frozen=True, slots=True)
class StoredReport:
    """A table's phone as last heard: when (UTC, ISO 8601) and what it reported."""

    heard: str
    report: dict[str, Any]


class PhoneReports:
    """The phones' reports of a store's database (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, night_id: str, table: int, heard: str, report: dict[str, Any]) -> None:
        """Replace table ``table``'s report unless a later one is stored (one statement:
        concurrent reports of one table from two processes leave the later one whole)."""
        values = {
            "night_id": night_id,
            "table_no": table,
            "heard": heard,
            "report": json.dumps(report, separators=(",", ":")),
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
        return {int(r.table_no): StoredReport(r.heard, json.loads(r.report)) for r in rows}
