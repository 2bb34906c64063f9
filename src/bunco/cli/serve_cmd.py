"""``bunco serve``: the live night server (HTTP API + WebSocket) under Uvicorn."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Annotated

import typer

from bunco.cli.app import app, fail

MAX_CONNECTIONS = 8192  # as bunco.web.server.connections (not imported here: the CLI starts fast)
ADDRESS_SHARE = 8  # one address may hold an eighth of the total: two cannot fill it


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` lets only this machine connect.

    >>> [is_loopback(h) for h in ("127.0.0.1", "127.0.0.5", "::1", "localhost", "0.0.0.0")]
    [True, True, True, True, False]
    """
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


def metrics_folder() -> str:
    """A new folder for the metrics of ``--workers`` (prometheus-client's multiprocess
    mode, ``PROMETHEUS_MULTIPROC_DIR``), set for the workers; removed when they stop."""
    folder = tempfile.mkdtemp(prefix="bunco-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    return folder


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 lets phones in the room connect.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="SQLAlchemy URL or SQLite file; default: an SQLite file in your data "
            "folder. PostgreSQL: postgresql+psycopg://user:pass@host/dbname",
        ),
    ] = None,
    bot_pace: Annotated[
        float | None,
        typer.Option(
            min=0, help="Seconds between bot rolls for every night (default: each night's own)."
        ),
    ] = None,
    create_secret: Annotated[
        str | None,
        typer.Option(
            envvar="BUNCO_CREATE_SECRET",
            help="The secret other devices need to create nights (default, when listening "
            "beyond this machine: one made at start and printed; this machine needs none).",
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="Address (or network, e.g. 10.0.0.0/8) of a reverse proxy in "
            "front of the server whose X-Forwarded-For names the client; repeat for several. "
            "Without it, forwarded headers are ignored.",
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="Uvicorn log level.")] = "warning",
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes sharing the port (PostgreSQL only; they "
            "share the database and tell each other every change).",
        ),
    ] = 1,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address phones use (default: this computer's address on the network "
            "when listening on 0.0.0.0); QR codes and links carry it."
        ),
    ] = None,
    max_connections: Annotated[
        int,
        typer.Option(
            min=16,
            max=1_000_000,
            help="Connections open at once (a 1,000-player night needs "
            "about 2,600); the open-file limit is raised to fit.",
        ),
    ] = MAX_CONNECTIONS,
    max_per_address: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=1_000_000,
            help="Connections open at once from one address (default: an eighth of "
            "--max-connections; raise it for a room whose phones reach the server through "
            "one shared address).",
        ),
    ] = None,
    metrics_token: Annotated[
        str | None,
        typer.Option(
            envvar="BUNCO_METRICS_TOKEN",
            help="A secret that opens GET /metrics from anywhere (Authorization: Bearer "
            "<it>); without it only this machine and --metrics-from may read it.",
        ),
    ] = None,
    metrics_from: Annotated[
        list[str] | None,
        typer.Option(
            "--metrics-from",
            help="Address or network (e.g. 10.0.0.0/24) allowed to read GET /metrics "
            "without the token, beside this machine; repeat for several.",
        ),
    ] = None,
    access_log: Annotated[
        str | None,
        typer.Option(
            "--access-log",
            metavar="FILE",
            envvar="BUNCO_ACCESS_LOG",
            help="Write one JSON line per request to FILE (appended; - for the standard "
            "output): time, method, path template, status, duration, client address.",
        ),
    ] = None,
    https: Annotated[
        bool,
        typer.Option(
            "--https",
            help="Serve https with a certificate made for this computer (kept in "
            "your data folder): phones keep their screens on and copy links; each phone "
            "warns once, see /https.",
        ),
    ] = False,
) -> None:
    """Run a Bunco night server: the API, the database and the live updates."""
    import secrets

    # one process keeps its metrics in memory; --workers share a folder made below
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)

    import uvicorn

    from bunco.store import EventStore, default_db_url
    from bunco.store.db import default_db_path, sqlite_url
    from bunco.web.app import create_app
    from bunco.web.server.address import lan_address, public_base, terminal_qr
    from bunco.web.server.connections import (
        ConnectionLimits,
        raise_open_files,
        use_limits,
        uvicorn_options,
    )

    try:
        from bunco.web.server.metrics import allowed_networks

        allowed = allowed_networks(metrics_from or [])
    except ValueError as exc:
        fail(f"--metrics-from: {exc}", expected="an address (10.0.0.5) or a network (10.0.0.0/24)")
    if access_log and access_log != "-":
        try:
            with open(access_log, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            fail(
                f"cannot write the access log {access_log}: {exc.strerror}",
                expected="a file this user may write, or - for the standard output",
            )
    url = db if db is not None else default_db_url()
    if "://" not in url:
        url = sqlite_url(url)
    if workers > 1 and not url.startswith("postgresql"):
        fail(
            f"--workers {workers} needs PostgreSQL: the processes of one server tell each "
            f"other every change through the database, and {shown_url(url)} cannot",
            expected="--workers 1 on SQLite, or --db postgresql+psycopg://user:pass@host/"
            "dbname with --workers 2 or more",
        )
    scheme = "https" if https else "http"
    base = public_url.rstrip("/") if public_url else public_base(host, port, scheme=scheme)
    tls: dict[str, str] = {}
    if https:
        from urllib.parse import urlsplit

        from bunco.web.server.certs import self_signed

        named = [
            a
            for a in (
                lan_address(),
                urlsplit(base).hostname if base else None,
                None if host in ("0.0.0.0", "::") else host,
            )
            if a
        ]
        cert, key = self_signed(default_db_path().parent, named)
        tls = {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
    made_secret = create_secret is None and not is_loopback(host)
    if made_secret:  # reachable from the network: other devices need a secret to create
        create_secret = secrets.token_urlsafe(9)
    try:
        if workers > 1:  # migrate once here, before the workers start
            store = EventStore(url)
            try:
                store.upgrade()
            finally:
                store.close()
        application = create_app(
            url,
            bot_pace=bot_pace,
            create_secret=create_secret,
            public_base=base,
            trusted_proxies=trusted_proxy or None,
            metrics_token=metrics_token,
            metrics_from=allowed,
            access_log=access_log if workers == 1 else None,
        )
    except Exception as exc:  # a bad URL, a missing driver, a database that is not there
        fail(
            f"cannot open the database {shown_url(url)}: {exc}",
            expected="an SQLAlchemy URL such as sqlite:///bunco.sqlite3 or "
            "postgresql+psycopg://user:pass@host/dbname",
        )
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"bunco serve: database {shown_url(url)}")
    typer.echo(f"bunco serve: listening on {scheme}://{shown_host}:{port} (API docs at /docs)")
    if https:
        typer.echo(
            f"bunco serve: certificate {tls['ssl_certfile']} (made for this computer: "
            f"each phone warns once; {base or scheme + '://' + shown_host + ':' + str(port)}"
            "/https says what to tap)"
        )
    if base is not None:
        typer.echo(f"bunco serve: phones on the same Wi-Fi open {base}/")
        typer.echo(terminal_qr(base + "/"), nl=False)
    elif host == "127.0.0.1":
        typer.echo(
            "bunco serve: only this machine can connect; use --host 0.0.0.0 "
            "(or make run) for the phones in the room"
        )
    else:
        typer.echo(
            "bunco serve: no network address found: phones need this computer's "
            "address on the Wi-Fi (or --public-url)"
        )
    if create_secret is not None:
        where = base or f"{scheme}://{shown_host}:{port}"
        typer.echo(
            "bunco serve: nights are created on this computer "
            f"({scheme}://127.0.0.1:{port}/); another device needs the creation secret"
            + (" (made now)" if made_secret else "")
            + f": open {where}/?secret={create_secret}"
        )
    limit, fits = raise_open_files(max_connections)
    if fits < max_connections:
        typer.echo(
            f"bunco serve: warning: the open-file limit is {limit} and cannot be "
            f"raised (ulimit -Hn): at most {fits} connections at once instead of "
            f"{max_connections} (a 1,000-player night needs about 2,600); raise the "
            "hard limit (ulimit -Hn, LimitNOFILE) to serve more",
            err=True,
        )
    connection_limits = ConnectionLimits.from_environment()  # the deadlines
    if max_per_address is None:
        max_per_address = max(1, max_connections // ADDRESS_SHARE)
    connection_limits.total, connection_limits.per_address = max(1, fits), max_per_address
    connection_limits.trusted = list(trusted_proxy or [])
    use_limits(connection_limits)
    if workers > 1:
        typer.echo(f"bunco serve: {workers} worker processes")
        os.environ["BUNCO_SERVE_DB"] = url
        for name, value in (
            ("BUNCO_SERVE_BOT_PACE", bot_pace),
            ("BUNCO_PUBLIC_BASE", base),
            ("BUNCO_CREATE_SECRET", create_secret),
            ("BUNCO_TRUSTED_PROXIES", " ".join(trusted_proxy or []) or None),
            ("BUNCO_MAX_CONNECTIONS", connection_limits.total),
            ("BUNCO_MAX_PER_ADDRESS", max_per_address),
            ("BUNCO_METRICS_TOKEN", metrics_token),
            ("BUNCO_METRICS_FROM", " ".join(allowed) or None),
            ("BUNCO_ACCESS_LOG", access_log),
        ):
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = str(value)
    # Uvicorn's workers import the app by name (each makes its own, from the variables)
    target = application if workers == 1 else "bunco.web.app:app_from_environment"
    shared_metrics = metrics_folder() if workers > 1 else None
    # live messages are small: compressing each one for every phone costs more than it saves
    # forwarded headers are read by the app, and only from --trusted-proxy addresses
    # the protocols cap connections and message sizes and time out slow requests
    try:
        uvicorn.run(
            target,
            factory=workers > 1,
            workers=workers if workers > 1 else None,
            host=host,
            port=port,
            log_level=log_level,
            access_log=log_level in ("debug", "trace", "info"),
            ws_per_message_deflate=False,
            ssl_certfile=tls.get("ssl_certfile"),
            ssl_keyfile=tls.get("ssl_keyfile"),
            proxy_headers=False,
            **uvicorn_options(connection_limits),
        )
    finally:
        if shared_metrics is not None:  # every worker stopped: their metrics' files go
            shutil.rmtree(shared_metrics, ignore_errors=True)
