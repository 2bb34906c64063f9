"""Database engines and schema versions.

``make_engine(url)`` opens any SQLAlchemy URL; SQLite files get WAL mode, foreign
keys and a busy timeout. ``upgrade_database(engine)`` runs the Alembic migrations
shipped in ``bunco/store/migrations`` up to the newest revision, so an old
database upgrades in place when the server starts.

>>> engine = make_engine("sqlite://")
>>> upgrade_database(engine)
>>> current_revision(engine) == head_revision()
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.pool import StaticPool

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x62756E636F  # "bunco": the advisory lock held while migrating PostgreSQL
POSTGRES_TIMEOUTS = "-c lock_timeout=15s -c idle_in_transaction_session_timeout=15s"
"""Every PostgreSQL connection of the store: waits for a lock at most 15 s, and is ended
by the server if it sits idle inside a transaction for 15 s (which frees its locks)."""


def default_db_path() -> Path:
    """The SQLite file used when no ``--db`` is given: a per-user data directory.

    ``$XDG_DATA_HOME/bunco/bunco.sqlite3``, or ``~/.local/share/bunco/bunco.sqlite3``.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bunco" / "bunco.sqlite3"


def default_db_url() -> str:
    """The SQLAlchemy URL of :func:`default_db_path` (its folder is created)."""
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def sqlite_url(path: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL of an SQLite file.

    >>> sqlite_url("night.db")
    'sqlite:///night.db'
    """
    return f"sqlite:///{os.fspath(path)}"


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``. A bare path (no ``://``) is taken as an SQLite file.

    SQLite is put in WAL mode with ``synchronous=NORMAL``: a committed transaction
    survives the process being killed at any moment (only a power cut may lose the
    last commits); readers never block the writer.
    """
    if "://" not in url:
        url = sqlite_url(url)
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:") or "mode=memory" in url
        connect_args = {"check_same_thread": False, "timeout": 30}
        if memory:
            engine = create_engine(url, connect_args=connect_args, poolclass=StaticPool, **kwargs)
        else:
            engine = create_engine(url, connect_args=connect_args, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql"):
        # a lock (a night's write lock) is waited for 15 s at most, and a transaction
        # left idle (a process stopped while holding one) is ended after 15 s
        kwargs.setdefault("connect_args", {"options": POSTGRES_TIMEOUTS})
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
    finally:
        cursor.close()


def wipe_postgres(url: str) -> None:
    """Drop everything in a PostgreSQL database's ``public`` schema (whatever revision it
    is at). For the test database and the benchmark's: never a database you keep."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


def _alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade_database(engine: Engine, revision: str = "head") -> None:
    """Bring the schema of ``engine``'s database to ``revision`` (default: the newest)."""
    from alembic import command

    config = _alembic_config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # several processes (or hosts) starting at once on one database: one migrates,
            # the others wait for it and then find the schema at its newest revision
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def head_revision() -> str:
    """The newest schema revision shipped with this version of bunco."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at, or ``None`` for an empty database."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
