"""What a backup holds, table by table, in a form that does not depend on the database.

A backup is read as a stream of tables, each a list of its columns and its rows in
primary-key order, every value in its JSON form (:func:`plain`): a time is ISO 8601 in
UTC, a decimal or bytes are text. The same stream comes from a database (a snapshot
read in one transaction: :func:`read_tables`), from an SQLite backup file (the same
read on the copy) and from a portable archive (:class:`ArchiveReader`), so verifying
and restoring work alike on each, and a backup of PostgreSQL can be restored into
SQLite and back.

The archive is gzip-compressed JSON Lines:

1. a header ``{"format": "bunco-backup", "version": 1, "schema": "0006", "source":
   "postgresql", "taken_at": ..., "bunco": ...}`` (``schema``: the database's schema
   revision);
2. per table, ``{"table": NAME, "columns": [...]}``, then one JSON array per row;
3. the end ``{"end": {NAME: {"rows": N, "sha256": HEX}, ...}}``: each table's row count
   and the SHA-256 of its row lines, so a file cut short or changed is found out.

>>> from datetime import UTC, datetime
>>> plain(datetime(2026, 11, 24, 20, 5, tzinfo=UTC)), plain(b"\\x00\\x01"), plain(7)
('2026-11-24T20:05:00+00:00', 'AAE=', 7)
>>> row_line(["n1", 0, None, "2026-11-24T20:05:00+00:00"])
'["n1",0,null,"2026-11-24T20:05:00+00:00"]'
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, TypedDict

from sqlalchemy import Connection, MetaData, Table, select
from sqlalchemy.types import TypeEngine

from bunco.store.json_values import JsonObject, JsonValue

FORMAT = "bunco-backup"
VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
GZIP_MAGIC = b"\x1f\x8b"
LEFT_OUT = frozenset({"alembic_version", "rate_counts"})
"""Tables a backup leaves out: the schema's revision (the backup names it in its header)
and the counts of failed attempts behind the rate limits (kept an hour at most: a
restored server starts them again from zero)."""
BATCH = 2000


class BackupError(Exception):
    """A backup that cannot be read, taken or restored: what was wrong and what to do."""

    def __init__(self, message: str, expected: str) -> None:
        super().__init__(message)
        self.message, self.expected = message, expected


def plain(value: Any) -> Any:
    """A column's value in its JSON form (times in UTC)."""
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value


def typed(value: Any, kind: TypeEngine[Any]) -> Any:
    """A JSON form back as the value a column of type ``kind`` takes.

    >>> from sqlalchemy import DateTime, Integer
    >>> typed("2026-11-24T20:05:00+00:00", DateTime(timezone=True)).hour
    20
    >>> typed(3, Integer())
    3
    """
    if value is None:
        return None
    try:
        python = kind.python_type
    except NotImplementedError:
        return value
    if python is datetime and isinstance(value, str):
        return datetime.fromisoformat(value).astimezone(UTC)
    if python is date and isinstance(value, str):
        return date.fromisoformat(value)
    if python is Decimal and isinstance(value, str):
        return Decimal(value)
    if python is bytes and isinstance(value, str):
        return base64.b64decode(value)
    return value


def row_line(values: list[Any]) -> str:
    """One row as the archive writes it (and as its checksum reads it)."""
    return json.dumps(values, separators=(",", ":"), ensure_ascii=False)


class TableSummary(TypedDict):
    """A table's line in an archive's end: how many rows, and the SHA-256 of their lines."""

    rows: int
    sha256: str


@dataclass
class TableSum:
    """What a backup holds of one table: its rows and the SHA-256 of their lines."""

    rows: int = 0
    digest: Any = field(default_factory=hashlib.sha256)

    def add(self, line: str) -> None:
        self.rows += 1
        self.digest.update(line.encode("utf-8") + b"\n")

    def summary(self) -> TableSummary:
        """The table's count and checksum, as the archive's end lists them."""
        return {"rows": self.rows, "sha256": self.digest.hexdigest()}


@dataclass
class TableStream:
    """One table of a backup: its name, its columns and its rows (JSON forms, in
    primary-key order), read once."""

    name: str
    columns: list[str]
    rows: Iterator[list[Any]]


def backed_up_tables(meta: MetaData) -> list[Table]:
    """The tables a backup holds, parents before the tables that point at them."""
    return [t for t in meta.sorted_tables if t.name not in LEFT_OUT]


def read_tables(conn: Connection) -> Iterator[TableStream]:
    """Every table a backup holds, read on ``conn`` (in its transaction, so one snapshot).

    Each table's rows must be read before the next table is asked for."""
    meta = MetaData()
    meta.reflect(bind=conn)
    for table in backed_up_tables(meta):
        order = list(table.primary_key.columns) or list(table.columns)
        result = conn.execution_options(yield_per=BATCH).execute(select(table).order_by(*order))
        rows = ([plain(v) for v in row] for row in result)
        yield TableStream(table.name, [c.name for c in table.columns], rows)


def schema_revision(conn: Connection) -> str | None:
    """The schema revision a database (or an SQLite backup) is at, or ``None``."""
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table("alembic_version"):
        return None
    value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if value is None else str(value)


class ArchiveWriter:
    """Writes an archive: :meth:`header`, then :meth:`table` for each table, then
    :meth:`end`."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.sums: dict[str, TableSummary] = {}

    def header(self, **fields: Any) -> None:
        self._line({"format": FORMAT, "version": VERSION, **fields})

    def table(self, table: TableStream) -> int:
        self._line({"table": table.name, "columns": table.columns})
        total = TableSum()
        for values in table.rows:
            line = row_line(values)
            total.add(line)
            self.stream.write(line + "\n")
        self.sums[table.name] = total.summary()
        return total.rows

    def end(self) -> None:
        self._line({"end": self.sums})

    def _line(self, value: object) -> None:
        self.stream.write(json.dumps(value, ensure_ascii=False) + "\n")


class ArchiveReader:
    """Reads an archive back: :attr:`header`, then :meth:`tables` (each table's rows
    checked against the end's count and checksum once the end is read: :attr:`end`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # kept open for tables(), closed by close() (or here, for a file that is no backup)
        self.stream: IO[str] = gzip.open(path, "rt", encoding="utf-8")  # noqa: SIM115
        try:
            self.header = self._object(self._next_line(), "the header")
        except BaseException:
            self.stream.close()
            raise
        if self.header.get("format") != FORMAT:
            self.stream.close()
            raise BackupError(
                f"{path} is not a bunco backup (no bunco-backup header)",
                expected="a file written by bunco backup",
            )
        if self.header.get("version") != VERSION:
            self.stream.close()
            raise BackupError(
                f"{path} is a backup of format {self.header.get('version')!r}",
                expected=f"format {VERSION}: restore it with the bunco that wrote it, or newer",
            )
        self.end: JsonObject | None = None
        self.sums: dict[str, TableSummary] = {}
        self._pending: str | None = None

    def close(self) -> None:
        self.stream.close()

    def _next_line(self) -> str:
        try:
            line = self.stream.readline()
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise BackupError(
                f"{self.path} is damaged or cut short ({exc})",
                expected="a complete file written by bunco backup",
            ) from None
        if not line:
            raise BackupError(
                f"{self.path} is cut short: it ends before the end of the backup",
                expected="a complete file written by bunco backup",
            )
        return line

    def _object(self, line: str, what: str) -> JsonObject:
        try:
            value: JsonValue = json.loads(line)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            raise BackupError(
                f"{self.path}: {what} is not readable", expected="a file written by bunco backup"
            )
        return value

    def tables(self) -> Iterator[TableStream]:
        line = self._next_line()
        while True:
            marker = self._object(line, "a table's heading")
            if "end" in marker:
                end = marker["end"]
                self.end = end if isinstance(end, dict) else {}
                if self.stream.readline():
                    raise BackupError(
                        f"{self.path} goes on after its end", expected="a file of bunco backup"
                    )
                return
            name, listed = marker.get("table"), marker.get("columns")
            columns = [c for c in listed if isinstance(c, str)] if isinstance(listed, list) else []
            if not isinstance(name, str) or not isinstance(listed, list) or columns != listed:
                raise BackupError(
                    f"{self.path}: a table's heading is not readable",
                    expected="a file written by bunco backup",
                )
            self._pending = None
            yield TableStream(name, columns, self._rows(name, len(columns)))
            line = self._pending if self._pending is not None else self._skip_rows()

    def _skip_rows(self) -> str:
        """The line after the rows of a table whose rows were not all read."""
        while True:
            line = self._next_line()
            if not line.startswith("["):
                return line

    def _rows(self, name: str, width: int) -> Iterator[list[Any]]:
        total = TableSum()
        while True:
            line = self._next_line()
            if not line.startswith("["):
                self._pending = line
                self.sums[name] = total.summary()
                return
            text = line.rstrip("\n")
            total.add(text)
            try:
                values = json.loads(text)
            except ValueError:
                values = None
            if not isinstance(values, list) or len(values) != width:
                raise BackupError(
                    f"{self.path}: row {total.rows} of {name} is not readable",
                    expected="a file written by bunco backup",
                )
            yield values

    def mismatches(self) -> list[str]:
        """After :meth:`tables` was read whole: what differs from the end's counts and
        checksums (nothing, for a sound file)."""
        assert self.end is not None
        problems = []
        for name in sorted(set(self.end) | set(self.sums)):
            want, got = self.end.get(name), self.sums.get(name)
            if want is None or got is None:
                problems.append(f"table {name} is {'missing' if got is None else 'not listed'}")
            elif not isinstance(want, dict) or want.get("rows") != got["rows"]:
                said = want.get("rows") if isinstance(want, dict) else want
                problems.append(f"table {name} has {got['rows']} rows, its end says {said}")
            elif want.get("sha256") != got["sha256"]:
                problems.append(f"table {name}'s rows differ from their checksum")
        return problems


def kind_of(path: Path) -> str:
    """``sqlite`` (an SQLite backup file) or ``archive``; refuses anything else."""
    try:
        with path.open("rb") as stream:
            start = stream.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise BackupError(
            f"cannot read {path}: {exc.strerror}", expected="a file written by bunco backup"
        ) from None
    if start == SQLITE_MAGIC:
        return "sqlite"
    if start[:2] == GZIP_MAGIC:
        return "archive"
    raise BackupError(
        f"{path} is not a bunco backup (neither an SQLite file nor an archive)",
        expected="a file written by bunco backup",
    )
