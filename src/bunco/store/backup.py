"""Backups while the server runs, and checking one: ``bunco backup``.

- **SQLite**: SQLite's online backup API copies the database into a new SQLite file,
  page by page in one step that reads one snapshot (in WAL mode the server goes on
  writing meanwhile). The copy is a database of its own: ``bunco serve --db`` opens it
  as it is, and ``bunco restore`` reads it.
- **PostgreSQL** (or any other database): a portable archive (:mod:`bunco.store.
  backup_format`) of every table a restore needs, read in one ``REPEATABLE READ``
  transaction, so it is one snapshot however long it takes: every night's and every
  club's log, the nights' server options and their tokens' hashes (so every link keeps
  working after a restore), the tables' phone reports, and any table a later version
  adds. Left out: the counts of failed attempts (an hour long at most).

Either way the file is written under a temporary name beside ``out`` and renamed when it
is complete, so a backup cut short never takes the place of a good one.

:func:`verify_backup` reads a backup whole: the archive's row counts and checksums (or
SQLite's integrity check), then what a restore relies on: each night's log from its setup
line (seq 0) without a gap, every event a JSON object the rules apply, every token and
phone report of a night that is there, each club's log without a gap and ending at the
club's seq.

>>> import tempfile
>>> from pathlib import Path
>>> from bunco.store import EventStore
>>> folder = Path(tempfile.mkdtemp())
>>> store = EventStore(f"sqlite:///{folder / 'live.sqlite3'}")
>>> store.upgrade()
>>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
...                                     "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> taken = take_backup(store.engine, folder / "copy.sqlite3")
>>> taken.kind, taken.tables["nights"], taken.tables["events"]
('sqlite', 1, 1)
>>> verify_backup(folder / "copy.sqlite3").problems
[]
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, MetaData, create_engine, func, select, text
from sqlalchemy.exc import DBAPIError

from bunco.store.backup_format import (
    ArchiveReader,
    ArchiveWriter,
    BackupError,
    TableStream,
    backed_up_tables,
    kind_of,
    read_tables,
    schema_revision,
)
from bunco.store.db import make_engine
from bunco.store.json_values import JsonObject

MAX_PROBLEMS = 20
"""How many problems a check lists (it counts them all)."""


@dataclass
class BackupReport:
    """What :func:`take_backup` wrote: its kind, size, schema revision, rows per table."""

    path: Path
    kind: str
    revision: str | None
    bytes: int
    seconds: float
    tables: dict[str, int]


@dataclass
class CheckReport:
    """What :func:`verify_backup` found: rows per table, nights and clubs read, and the
    problems (none for a sound backup)."""

    path: Path
    kind: str
    revision: str | None
    taken_at: str | None
    tables: dict[str, int] = field(default_factory=dict)
    nights_replayed: int = 0
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(text)


def open_engine(url_or_engine: str | Engine) -> Engine:
    return make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine


def take_backup(url_or_engine: str | Engine, out: Path) -> BackupReport:
    """Copy the database into ``out`` while it is in use: an SQLite file from SQLite,
    an archive from PostgreSQL. Raises :class:`BackupError` when there is nothing to
    copy (no such file, no bunco schema)."""
    engine = open_engine(url_or_engine)
    started = time.monotonic()
    partial = out.with_name(out.name + ".partial")
    try:
        if engine.dialect.name == "sqlite":
            _sqlite_copy(engine, partial)
            kind = "sqlite"
            with _sqlite_file(partial).connect() as conn:
                revision = schema_revision(conn)
                tables = row_counts(conn)
        else:
            kind = "archive"
            revision, tables = write_archive(engine, partial)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(out, kind, revision, out.stat().st_size, time.monotonic() - started, tables)


def row_counts(conn: Connection) -> dict[str, int]:
    """The rows of each table a backup holds (parents first)."""
    meta = MetaData()
    meta.reflect(bind=conn)
    return {
        table.name: int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)
        for table in backed_up_tables(meta)
    }


def _sqlite_copy(engine: Engine, target: Path) -> None:
    """SQLite's online backup of ``engine``'s file into ``target`` (in one step: one
    snapshot, while the server writes to its WAL), as a file of its own (no WAL)."""
    name = engine.url.database
    if not name or name == ":memory:" or not Path(name).exists():
        raise BackupError(
            f"there is no SQLite database at {name or 'memory'}",
            expected="--db with the database file of bunco serve",
        )
    source = sqlite3.connect(name, timeout=30)
    try:
        revision = source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
        ).fetchone()
        if revision is None:
            raise BackupError(
                f"{name} holds no bunco database", expected="--db with the database of bunco serve"
            )
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        source.close()


def write_archive(engine: Engine, target: Path) -> tuple[str | None, dict[str, int]]:
    """The archive of ``engine``'s database, read in one snapshot."""
    postgres = engine.dialect.name == "postgresql"
    with engine.connect() as conn:
        if postgres:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin():
            if postgres:
                conn.execute(text("SET TRANSACTION READ ONLY"))
                # a backup may read for minutes: never ended as idle between two batches
                conn.execute(text("SET LOCAL idle_in_transaction_session_timeout = 0"))
            revision = schema_revision(conn)
            if revision is None:
                raise BackupError(
                    "the database holds no bunco data (no schema)",
                    expected="--db with the database of bunco serve",
                )
            tables: dict[str, int] = {}
            with gzip.open(target, "wt", encoding="utf-8", compresslevel=6) as stream:
                writer = ArchiveWriter(stream)
                writer.header(
                    schema=revision,
                    source=engine.dialect.name,
                    taken_at=datetime.now(UTC).isoformat(),
                    bunco=_version(),
                )
                for table in read_tables(conn):
                    tables[table.name] = writer.table(table)
                writer.end()
    return revision, tables


def _version() -> str:
    from bunco import __version__

    return __version__


def _sqlite_file(path: Path) -> Engine:
    """An engine on an SQLite backup file, read only."""
    return create_engine(f"sqlite:///file:{quote(str(path))}?mode=ro&uri=true")


class BackupSource:
    """A backup read back as its tables (:meth:`tables`), whichever its kind."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kind = kind_of(path)
        self.taken_at: str | None = None
        self._reader: ArchiveReader | None = None
        self._engine: Engine | None = None
        if self.kind == "archive":
            self._reader = ArchiveReader(path)
            header = self._reader.header
            schema, taken = header.get("schema"), header.get("taken_at")
            self.revision: str | None = schema if isinstance(schema, str) else None
            self.taken_at = taken if isinstance(taken, str) else None
        else:
            self._engine = _sqlite_file(path)
            try:
                with self._engine.connect() as conn:
                    self.revision = schema_revision(conn)
            except Exception as exc:
                raise BackupError(
                    f"{path} cannot be read as an SQLite database ({exc})",
                    expected="a file written by bunco backup",
                ) from None
            self.taken_at = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat()

    def tables(self) -> Iterator[TableStream]:
        if self._reader is not None:
            yield from self._reader.tables()
            return
        assert self._engine is not None
        try:
            with self._engine.connect() as conn:
                for table in read_tables(conn):
                    yield TableStream(table.name, table.columns, self._guarded(table.rows))
        except DBAPIError as exc:
            raise self._unreadable(exc) from None

    def _guarded(self, rows: Iterator[list[Any]]) -> Iterator[list[Any]]:
        try:
            yield from rows
        except DBAPIError as exc:
            raise self._unreadable(exc) from None

    def _unreadable(self, exc: DBAPIError) -> BackupError:
        return BackupError(
            f"{self.path} is damaged: SQLite cannot read it ({exc.orig})",
            expected="another backup, or take a new one",
        )

    def damage(self) -> list[str]:
        """After :meth:`tables` was read whole: an archive's rows against its checksums,
        an SQLite file's integrity check."""
        if self._reader is not None:
            return self._reader.mismatches()
        assert self._engine is not None
        try:
            with self._engine.connect() as conn:
                found = [row[0] for row in conn.execute(text("PRAGMA integrity_check"))]
        except DBAPIError as exc:
            return [self._unreadable(exc).message]
        return [] if found == ["ok"] else [f"SQLite's integrity check: {f}" for f in found[:5]]

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        if self._engine is not None:
            self._engine.dispose()


def verify_backup(path: Path, *, replay: bool = True) -> CheckReport:
    """Read the backup at ``path`` whole and say what is wrong with it (``problems``).

    ``replay``: also fold every night's log with the rules (what the server does when it
    loads a night). Raises :class:`BackupError` for a file that is no backup at all."""
    source = BackupSource(path)
    report = CheckReport(path, source.kind, source.revision, source.taken_at)
    try:
        check = _Consistency(report, replay=replay)
        for table in source.tables():
            report.tables[table.name] = check.table(table)
        for problem in source.damage():
            report.problem(problem)
    except BackupError as exc:
        report.problem(exc.message)
    finally:
        source.close()
    _check_revision(report)
    return report


def _check_revision(report: CheckReport) -> None:
    from bunco.store.db import MIGRATIONS

    known = {p.name.split("_", 1)[0] for p in (MIGRATIONS / "versions").glob("*.py")}
    if report.revision is None:
        report.problem("the backup names no schema revision")
    elif report.revision not in known:
        report.problem(
            f"schema revision {report.revision} is newer than this bunco knows: "
            "restore it with the bunco that wrote it, or newer"
        )


class _Consistency:
    """The checks of what a restore relies on, table by table as they stream by."""

    def __init__(self, report: CheckReport, *, replay: bool) -> None:
        self.report, self.replay = report, replay
        self.nights: set[str] = set()
        self.clubs: set[str] = set()
        self.logs: set[str] = set()
        self.club_seqs: dict[str, int] = {}

    def table(self, table: TableStream) -> int:
        at = {name: i for i, name in enumerate(table.columns)}
        rows = table.rows
        if table.name == "nights":
            return self._ids(rows, at["id"], self.nights)
        if table.name == "clubs":
            if "seq" in at:  # (revision 0008 on) each club's seq: its log's last
                rows = self._club_seqs(rows, at["id"], at["seq"])
            return self._ids(rows, at["id"], self.clubs)
        if table.name == "events":
            return self._logs(rows, at, "night", self.nights, "night_id")
        if table.name == "club_events":
            return self._logs(rows, at, "club", self.clubs, "club_id")
        if "night_id" in at:
            return self._owned(table.name, rows, at["night_id"])
        return sum(1 for _ in rows)

    def _club_seqs(self, rows: Iterable[list[Any]], id_at: int, seq_at: int) -> Iterator[list[Any]]:
        for values in rows:
            self.club_seqs[values[id_at]] = values[seq_at]
            yield values

    @staticmethod
    def _ids(rows: Iterable[list[Any]], column: int, into: set[str]) -> int:
        count = 0
        for values in rows:
            into.add(values[column])
            count += 1
        return count

    def _owned(self, name: str, rows: Iterable[list[Any]], column: int) -> int:
        count = 0
        for values in rows:
            count += 1
            if values[column] not in self.nights:
                self.report.problem(f"{name}: a row of night {values[column]}, which is not there")
        return count

    def _logs(
        self, rows: Iterable[list[Any]], at: dict[str, int], what: str, owners: set[str], key: str
    ) -> int:
        """A log table (events or club events): rows in (owner, seq) order."""
        count, owner, expected = 0, None, 0
        bodies: list[JsonObject] = []
        for values in rows:
            count += 1
            if values[at[key]] != owner:
                self._log_done(what, owner, bodies)
                owner, expected, bodies = values[at[key]], 0, []
                if owner not in owners:
                    self.report.problem(f"{what} {owner}: events of a {what} that is not there")
            seq = values[at["seq"]]
            if seq != expected:
                self.report.problem(f"{what} {owner}: event {seq} where {expected} was due")
            expected = seq + 1
            try:
                body = json.loads(values[at["body"]])
            except (TypeError, ValueError):
                body = None
            if not isinstance(body, dict):
                self.report.problem(f"{what} {owner}: event {seq} is not a JSON object")
                body = {}
            bodies.append(body)
        self._log_done(what, owner, bodies)
        missing = owners - self.logs if what == "night" else set()
        for night in sorted(missing)[:MAX_PROBLEMS]:
            self.report.problem(f"night {night} has no setup line")
        return count

    def _log_done(self, what: str, owner: str | None, bodies: list[JsonObject]) -> None:
        if owner is None:
            return
        if what == "night":
            self.logs.add(owner)
        seq = self.club_seqs.get(owner) if what == "club" else None
        if seq is not None and seq != len(bodies) - 1:
            self.report.problem(
                f"club {owner}: its seq is {seq}, its log's last event {len(bodies) - 1}"
            )
        if what == "night" and self.replay and bodies:
            from bunco.core.errors import BuncoError
            from bunco.core.night import Night

            try:
                night = Night.start(bodies[0])
                for seq, body in enumerate(bodies[1:], 1):
                    try:
                        night = night.apply(body)
                    except BuncoError as exc:
                        self.report.problem(f"night {owner}: event {seq} does not apply: {exc}")
                        return
            except BuncoError as exc:
                self.report.problem(f"night {owner}: its setup line does not start a night: {exc}")
                return
            self.report.nights_replayed += 1
