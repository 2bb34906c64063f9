"""The options of the commands that work on the server's database (``backup``,
``restore``, ``delete``, ``prune``), and opening that database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from bunco.cli.app import fail

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="SQLAlchemy URL or SQLite file of the server; default: the SQLite file of "
        "bunco serve. PostgreSQL: postgresql+psycopg://user:pass@host/dbname",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
YesOption = Annotated[bool, typer.Option("--yes", help="Delete without asking first.")]


def database_url(db: str | None) -> str:
    """The URL of ``--db`` (a file name is an SQLite file; none: bunco serve's file).

    >>> database_url("night.sqlite3"), database_url("postgresql+psycopg://h/bunco")
    ('sqlite:///night.sqlite3', 'postgresql+psycopg://h/bunco')
    """
    from bunco.store.db import default_db_path, sqlite_url

    if db is None:
        return sqlite_url(default_db_path())
    return db if "://" in db else sqlite_url(db)


def existing_database(db: str | None) -> Any:
    """An engine on the server's database; refuses one that is not there or holds no
    bunco data (nothing is created)."""
    from sqlalchemy import inspect

    from bunco.store.db import make_engine

    url = database_url(db)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        fail(
            f"there is no database at {url.removeprefix('sqlite:///')}",
            expected="--db with the database of bunco serve",
        )
    try:
        engine = make_engine(url)
        there = inspect(engine).has_table("nights")
    except Exception as exc:  # a bad URL, a missing driver, a server that is not there
        fail(
            f"cannot open the database: {exc}",
            expected="an SQLAlchemy URL such as postgresql+psycopg://user:pass@host/dbname "
            "or an SQLite file",
        )
    if not there:
        fail("the database holds no bunco data", expected="--db with the database of bunco serve")
    return engine
