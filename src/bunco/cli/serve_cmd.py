"""``bunco serve``: the live night server (HTTP API + WebSocket) under Uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from bunco.cli.app import app, fail


def shown_url(url: str) -> str:
    """A database URL with its password hidden, for printing.

    >>> shown_url("postgresql+psycopg://bunco:secret@db:5432/bunco")
    'postgresql+psycopg://bunco:***@db:5432/bunco'
    >>> shown_url("sqlite:///night.sqlite3")
    'sqlite:///night.sqlite3'
    """
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on; 0.0.0.0 lets phones in the "
                                      "room connect.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="SQLAlchemy URL or SQLite file; default: an SQLite file in your data "
        "folder. PostgreSQL: postgresql+psycopg://user:pass@host/dbname")] = None,
    bot_pace: Annotated[float | None, typer.Option(
        min=0, help="Seconds between bot rolls for every night (default: each night's own).")
    ] = None,
    create_secret: Annotated[str | None, typer.Option(
        envvar="BUNCO_CREATE_SECRET",
        help="Require this bearer token to create nights (for a server open to the internet).")
    ] = None,
    log_level: Annotated[str, typer.Option(help="Uvicorn log level.")] = "warning",
    workers: Annotated[int, typer.Option(
        min=1, max=64, help="Server processes sharing the port (PostgreSQL only; they "
        "share the database and tell each other every change).")] = 1,
) -> None:
    """Run a Bunco night server: the API, the database and the live updates."""
    import uvicorn

    from bunco.store import EventStore, default_db_url
    from bunco.store.db import sqlite_url
    from bunco.web.app import create_app

    url = db if db is not None else default_db_url()
    if "://" not in url:
        url = sqlite_url(url)
    if workers > 1 and not url.startswith("postgresql"):
        fail(f"--workers {workers} needs PostgreSQL: the processes of one server tell each "
             f"other every change through the database, and {shown_url(url)} cannot",
             expected="--workers 1 on SQLite, or --db postgresql+psycopg://user:pass@host/"
             "dbname with --workers 2 or more")
    try:
        if workers > 1:  # migrate once here, before the workers start
            store = EventStore(url)
            try:
                store.upgrade()
            finally:
                store.close()
        application = create_app(url, bot_pace=bot_pace, create_secret=create_secret)
    except Exception as exc:  # a bad URL, a missing driver, a database that is not there
        fail(f"cannot open the database {shown_url(url)}: {exc}",
             expected="an SQLAlchemy URL such as sqlite:///bunco.sqlite3 or "
             "postgresql+psycopg://user:pass@host/dbname")
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"bunco serve: database {shown_url(url)}")
    typer.echo(f"bunco serve: listening on http://{shown_host}:{port} "
               "(API docs at /docs)")
    if host == "127.0.0.1":
        typer.echo("bunco serve: only this machine can connect; use --host 0.0.0.0 "
                   "for the phones in the room")
    if workers > 1:
        typer.echo(f"bunco serve: {workers} worker processes")
        os.environ["BUNCO_SERVE_DB"] = url
        os.environ.pop("BUNCO_SERVE_BOT_PACE", None)
        if bot_pace is not None:
            os.environ["BUNCO_SERVE_BOT_PACE"] = str(bot_pace)
        if create_secret:
            os.environ["BUNCO_CREATE_SECRET"] = create_secret
    # Uvicorn's workers import the app by name (each makes its own, from the variables)
    target = application if workers == 1 else "bunco.web.app:app_from_environment"
    uvicorn.run(target, factory=workers > 1, workers=workers if workers > 1 else None,
                host=host, port=port, log_level=log_level,
                access_log=log_level in ("debug", "trace", "info"),
                # live messages are small: compressing each for every phone costs more
                ws_per_message_deflate=False)
