"""Bringing a backup back: ``bunco restore FILE --db URL``.

A backup (an SQLite copy or an archive, :mod:`bunco.store.backup`) is restored into an
empty database of either kind, in **one transaction**: the schema is brought to the
backup's revision, every table's rows are inserted, the archive's checksums are checked
(a damaged file changes nothing), and the schema is brought to this version's newest
revision, as a server's start would. A database that already holds nights, clubs or
anything else of bunco is refused, unless ``replace=True``: then what it holds is
deleted in that same transaction (so a restore that fails leaves it as it was).

Restore into a database no server uses, then start the servers on it: the restored
nights are loaded from their logs at their first request, and every token, join code
and link of the backup works again.

>>> import tempfile
>>> from pathlib import Path
>>> from bunco.store import EventStore
>>> from bunco.store.backup import take_backup
>>> folder = Path(tempfile.mkdtemp())
>>> store = EventStore(f"sqlite:///{folder / 'live.sqlite3'}")
>>> store.upgrade()
>>> store.create_night("n1", "Friday", {"type": "party", "rules": "classic",
...                                     "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> _ = take_backup(store.engine, folder / "copy.sqlite3")
>>> restore_backup(folder / "copy.sqlite3", f"sqlite:///{folder / 'new.sqlite3'}").tables
{'clubs': 0, 'nights': 1, 'club_commands': 0, 'club_events': 0, 'events': 1, 'phone_reports': 0, 'tokens': 0}
>>> restore_backup(folder / "copy.sqlite3", f"sqlite:///{folder / 'new.sqlite3'}")
Traceback (most recent call last):
...
bunco.store.backup_format.BackupError: the database is not empty: it holds 1 night, 1 event
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    MetaData,
    Table,
    delete,
    event,
    func,
    insert,
    select,
    text,
)

from bunco.store.backup import BackupSource, open_engine, row_counts
from bunco.store.backup_format import BATCH, BackupError, TableStream, typed
from bunco.store.db import MIGRATION_LOCK, MIGRATIONS, make_engine


@dataclass
class RestoreReport:
    """What :func:`restore_backup` did: rows restored per table, rows it deleted first."""

    revision: str | None
    seconds: float
    tables: dict[str, int] = field(default_factory=dict)
    replaced: dict[str, int] = field(default_factory=dict)


def counted(rows: dict[str, int]) -> str:
    """Rows per table in words.

    >>> counted({"nights": 1, "events": 240, "club_events": 3})
    '1 night, 240 events, 3 club events'
    """
    words = (name.replace("_", " ") for name in rows)
    return ", ".join(
        f"{n} {word[:-1] if n == 1 and word.endswith('s') else word}"
        for word, n in zip(words, rows.values(), strict=True)
    )


def held_rows(conn: Connection) -> dict[str, int]:
    """The rows of bunco's tables in a database (those that have any), parents first."""
    return {name: count for name, count in row_counts(conn).items() if count}


def restore_backup(
    path: Path, url_or_engine: str | Engine, *, replace: bool = False
) -> RestoreReport:
    """Restore the backup at ``path`` into the database; raises :class:`BackupError`
    (nothing changed) for a database that is not empty (unless ``replace``), a backup
    of a newer schema, or a damaged backup."""
    started = time.monotonic()
    source = BackupSource(path)
    try:
        revision = source.revision
        if revision is None or revision not in _chain():
            raise BackupError(
                f"the backup's schema revision {revision} is unknown to this bunco",
                expected="restore it with the bunco that wrote it, or newer",
            )
        report = RestoreReport(revision, 0.0)
        engine = _transactional(url_or_engine)
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                # no server starting meanwhile migrates under the restore
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            held = held_rows(conn)
            if held and not replace:
                raise BackupError(
                    "the database is not empty: it holds " + counted(held),
                    expected="an empty database (a new one), or --replace to delete what it "
                    "holds and put the backup in its place",
                )
            if held:
                _empty(conn)
                report.replaced = held
            migrate(conn, revision)
            meta = MetaData()
            meta.reflect(bind=conn)
            for table in source.tables():
                report.tables[table.name] = _insert(conn, meta, table)
            damage = source.damage()
            if damage:
                raise BackupError(
                    f"{path} is damaged: " + "; ".join(damage[:3]),
                    expected="another backup (nothing was restored)",
                )
            if engine.dialect.name == "postgresql":
                _reset_sequences(conn, meta)
            migrate(conn, "head")
        if engine is not url_or_engine:
            engine.dispose()
    finally:
        source.close()
    report.seconds = time.monotonic() - started
    return report


def _transactional(url_or_engine: str | Engine) -> Engine:
    """An engine whose transactions hold everything, the schema's changes included:
    SQLite's driver commits a ``CREATE TABLE`` by itself unless the transaction is begun
    by hand, so on SQLite a new engine on the same file begins its own."""
    engine = open_engine(url_or_engine)
    if engine.dialect.name != "sqlite":
        return engine
    engine = make_engine(engine.url.render_as_string(hide_password=False))

    @event.listens_for(engine, "connect")
    def _no_driver_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _empty(conn: Connection) -> None:
    meta = MetaData()
    meta.reflect(bind=conn)
    for table in reversed(meta.sorted_tables):
        if table.name != "alembic_version":
            conn.execute(delete(table))


def _insert(conn: Connection, meta: MetaData, table: TableStream) -> int:
    target: Table | None = meta.tables.get(table.name)
    unknown = [] if target is None else [c for c in table.columns if c not in target.columns]
    if target is None or unknown:
        what = f"table {table.name}" if target is None else f"columns {', '.join(unknown)}"
        raise BackupError(
            f"the backup holds {what}, which its schema revision does not have",
            expected="a file written by bunco backup",
        )
    kinds = [target.columns[c].type for c in table.columns]
    statement = insert(target)
    count, batch = 0, []
    for values in table.rows:
        batch.append({c: typed(v, k) for c, v, k in zip(table.columns, values, kinds, strict=True)})
        if len(batch) >= BATCH:
            conn.execute(statement, batch)
            count, batch = count + len(batch), []
    if batch:
        conn.execute(statement, batch)
        count += len(batch)
    return count


def _reset_sequences(conn: Connection, meta: MetaData) -> None:
    """PostgreSQL: each serial or identity column's sequence past the rows restored."""
    for table in meta.sorted_tables:
        for column in table.columns:
            sequence = conn.execute(
                text("SELECT pg_get_serial_sequence(:table, :column)"),
                {"table": table.name, "column": column.name},
            ).scalar()
            if sequence is not None:
                highest = conn.execute(select(func.max(column))).scalar()
                conn.execute(
                    text("SELECT setval(:sequence, :value, :called)"),
                    {"sequence": sequence, "value": highest or 1, "called": highest is not None},
                )


def _config(conn: Connection) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def _chain() -> list[str]:
    """The schema revisions this bunco knows, oldest first."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return [r.revision for r in ScriptDirectory.from_config(config).walk_revisions()][::-1]


def migrate(conn: Connection, revision: str) -> None:
    """Bring the schema on ``conn`` (in its transaction) up or down to ``revision``."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    chain = _chain()
    target = chain[-1] if revision == "head" else revision
    current = MigrationContext.configure(conn).get_current_revision()
    if current == target:
        return
    if current is not None and chain.index(current) > chain.index(target):
        command.downgrade(_config(conn), target)
    else:
        command.upgrade(_config(conn), target)
