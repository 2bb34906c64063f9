"""The ASGI app of ``bunco serve``: the API, the live stream, static pages.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/api/health").json()["status"]
'ok'
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from pydantic.json_schema import JsonSchemaValue

from bunco import __version__
from bunco.store import EventStore
from bunco.store.rate_counts import DatabaseCounts
from bunco.web.api import checkin as api_checkin
from bunco.web.api import clock as api_clock
from bunco.web.api import club as api_club
from bunco.web.api import corrections as api_corrections
from bunco.web.api import delete as api_delete
from bunco.web.api import door as api_door
from bunco.web.api import downloads as api_downloads
from bunco.web.api import hosts as api_hosts
from bunco.web.api import join_cards as api_join_cards
from bunco.web.api import money as api_money
from bunco.web.api import nights as api_nights
from bunco.web.api import phones as api_phones
from bunco.web.api import play as api_play
from bunco.web.api import room as api_room
from bunco.web.api import ws
from bunco.web.api.fastpath import FastRolls
from bunco.web.club.notify import ClubNotifier
from bunco.web.decision.timed_rounds import ServerClock
from bunco.web.files.downloads import Downloads
from bunco.web.gate.auth import TokenBook
from bunco.web.gate.guard import Guard
from bunco.web.live.open_sockets import OpenSockets
from bunco.web.live.pubsub import InProcessPubSub, PubSub
from bunco.web.night.bots import BotRunner
from bunco.web.night.follow import ProcessFollower
from bunco.web.night.round_timer import RoundTimer
from bunco.web.night.service import NightService
from bunco.web.pages import club_pages
from bunco.web.pages import night_pages as pages
from bunco.web.pages.assets import assets
from bunco.web.server import connections, errors, metrics
from bunco.web.server.access_log import AccessLog
from bunco.web.server.bodycap import BodyCap
from bunco.web.server.compress import Compress
from bunco.web.values.club_event_models import club_event_schemas
from bunco.web.values.reply_models import HealthOut
from bunco.web.values.socket_messages import message_schemas

STATIC = Path(__file__).with_name("static")


async def _freeze_old_objects(every: float = 1.0) -> None:
    """Every second, collect the youngest generation and freeze what survives.

    A live night keeps a growing history in memory (its log, the engine's values), and
    the collector's full passes over it stopped the whole server for up to 400 ms in a
    1,000-player night (benchmarks/server.py). Frozen objects are never scanned again;
    they are still freed by reference counting when the night lets go of them (the
    engine's values hold no reference cycles). Only a reference cycle that happens to be
    alive at a freeze is kept until the server stops: a few objects a second at most.
    """
    while True:
        await asyncio.sleep(every)
        gc.collect(0)
        gc.freeze()


def app_from_environment() -> FastAPI:
    """The app that each worker of ``bunco serve --workers N`` makes (Uvicorn's factory):
    its settings come from the ``BUNCO_SERVE_*`` variables that ``bunco serve`` sets."""
    pace = os.environ.get("BUNCO_SERVE_BOT_PACE")
    return create_app(
        os.environ["BUNCO_SERVE_DB"],
        bot_pace=float(pace) if pace else None,
        create_secret=os.environ.get("BUNCO_CREATE_SECRET") or None,
        public_base=os.environ.get("BUNCO_PUBLIC_BASE") or None,
        trusted_proxies=os.environ.get("BUNCO_TRUSTED_PROXIES", "").split() or None,
        metrics_token=os.environ.get("BUNCO_METRICS_TOKEN") or None,
        metrics_from=os.environ.get("BUNCO_METRICS_FROM", "").split() or None,
        access_log=os.environ.get("BUNCO_ACCESS_LOG") or None,
    )


def create_app(
    db_url: str = "sqlite://",
    *,
    pubsub: PubSub | None = None,
    bot_pace: float | None = None,
    create_secret: str | None = None,
    store: EventStore | None = None,
    fast_path: bool = True,
    freeze_gc: bool = True,
    public_base: str | None = None,
    trusted_proxies: list[str] | None = None,
    guard: Guard | None = None,
    clock: ServerClock | None = None,
    keep_metrics: bool = True,
    metrics_token: str | None = None,
    metrics_from: list[str] | None = None,
    access_log: str | None = None,
) -> FastAPI:
    """The app on the database at ``db_url`` (migrated at start).

    ``bot_pace`` overrides every night's bot pace (0 for tests); ``create_secret``, when
    set, must be presented as a bearer token to create a night. ``fast_path`` serves the
    rolls endpoint without the framework's routing (see :mod:`bunco.web.api.fastpath`).
    ``freeze_gc`` keeps the garbage collector's full passes short (see
    :func:`_freeze_old_objects`). ``public_base`` is the address phones use
    (``http://192.168.1.20:8000``, see :mod:`bunco.web.server.address`): links, QR codes and
    printed seating carry it even when a page is open at ``localhost``.
    :func:`_freeze_old_objects`). ``trusted_proxies``: the addresses of reverse proxies
    whose ``X-Forwarded-For`` names the client (no other request's is believed);
    ``guard`` counts failed attempts (see :mod:`bunco.web.gate.guard`; by default in memory on
    SQLite, in the database on PostgreSQL, shared by every process). ``clock`` is the
    server's time for timed rounds (a test moves it: :class:`~bunco.web.decision.timed_rounds.ShiftedClock`).
    ``keep_metrics``: measure requests and rolls for ``GET /metrics`` (:mod:`bunco.web.server.metrics`),
    which answers loopback, the addresses of ``metrics_from`` and requests carrying
    ``metrics_token``; ``access_log``: a file (or ``-``, the standard output) for one JSON
    line per request (:mod:`bunco.web.server.access_log`).
    """
    event_store = store or EventStore(db_url)
    kept = metrics.Metrics() if keep_metrics else None
    access = AccessLog.open(access_log) if access_log else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        event_store.upgrade()
        await asyncio.to_thread(assets)  # the pages' files read, joined and compressed once
        service = NightService(event_store, pubsub or InProcessPubSub(), clock=clock)
        await service.open()
        app.state.service = service
        app.state.tokens = TokenBook(event_store)
        # a token revoked or a code replaced by another process: forget what is cached
        # (and read that night's tokens again, in the background)
        service.on_tokens_changed.append(app.state.tokens.changed_elsewhere)
        # a token revoked here or elsewhere: its open WebSockets close at once
        app.state.sockets = OpenSockets(event_store.tokens)
        app.state.downloads = Downloads()
        app.state.tokens.on_revoked.append(app.state.sockets.recheck_soon)
        service.on_tokens_changed.append(app.state.sockets.recheck_soon)
        app.state.follower = ProcessFollower(service)
        app.state.following = None
        if event_store.dialect == "postgresql":  # other processes may share this database
            app.state.following = asyncio.ensure_future(app.state.follower.run())
        app.state.bots = BotRunner(service, bot_pace)
        app.state.round_timer = RoundTimer(service, service.path.clock)
        # a night deleted (here, or by another process): its bots, timer, tokens and
        # WebSockets let it go (bunco.web.api.delete)
        service.on_dropped.extend(
            [
                app.state.bots.forget,
                app.state.round_timer.forget,
                app.state.sockets.close_night,
                lambda _night: app.state.tokens.forget(),
            ]
        )
        app.state.guard = guard or Guard(
            storage=DatabaseCounts(engine=event_store.engine)
            if event_store.dialect == "postgresql"
            else None
        )
        app.state.create_secret = create_secret
        app.state.public_base = public_base
        app.state.club_notifier = ClubNotifier(event_store.engine)  # club notices, deadlines
        app.state.club_notifier.start()
        sampler = None
        if kept is not None:  # GET /metrics: bunco.web.server.metrics
            kept.state = app.state
            service.path.after_batch.append(kept.batch)
            if kept.shared:  # every process writes its gauges for the others' scrapes
                sampler = asyncio.ensure_future(kept.sample_every())
        freezer = asyncio.ensure_future(_freeze_old_objects()) if freeze_gc else None
        try:
            yield
        finally:
            if freezer is not None:
                freezer.cancel()
                gc.unfreeze()
            if sampler is not None:
                sampler.cancel()
            if kept is not None:
                kept.close()
            if access is not None:
                access.close()
            await app.state.bots.close()
            await app.state.club_notifier.close()
            await app.state.round_timer.close()
            await app.state.sockets.aclose()
            app.state.downloads.close()
            await app.state.tokens.close()
            if app.state.following is not None:
                app.state.following.cancel()
                with contextlib.suppress(BaseException):
                    await app.state.following
            await service.pubsub.close()
            await service.aclose()
            if store is None:
                event_store.close()

    app = FastAPI(
        title="bunco live night server",
        version=__version__,
        description="Run a Bunco night: create it, seat it, enter rolls at each table, follow "
        "it live over WebSocket, export the log and the standings. See docs/server.md.",
        lifespan=lifespan,
        # no OpenTelemetry here: without this, FastAPI looks for a tracer, a meter and a
        # logger provider on every request and WebSocket (4 % of the server's time at a
        # 1,000-player night, benchmarks/server.py)
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    errors.install(app)
    app.state.metrics = kept
    app.state.metrics_access = metrics.MetricsAccess(
        metrics_token, metrics.allowed_networks(metrics_from or []), bool(trusted_proxies)
    )
    app.include_router(api_play.router)  # the hot routes first: routes are matched in order
    app.include_router(ws.router)
    # the socket's messages and every club event in the OpenAPI document
    publish_schemas(app, message_schemas, club_event_schemas)
    app.include_router(api_nights.router)
    app.include_router(api_downloads.router)
    app.include_router(api_hosts.router)
    app.include_router(api_hosts.viewer_router)  # a co-host's big screen and player QR
    app.include_router(api_money.router)
    app.include_router(api_corrections.router)
    app.include_router(api_clock.router)
    app.include_router(api_phones.router)
    app.include_router(api_room.router)
    app.include_router(api_checkin.router)
    app.include_router(api_door.router)
    app.include_router(api_join_cards.router)
    app.include_router(api_club.router)
    app.include_router(api_delete.router)
    if fast_path:
        app.add_middleware(FastRolls)
    app.add_middleware(BodyCap)  # outside the fast path: every body is capped
    if trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=trusted_proxies)
    # JSON replies in Brotli or gzip for the phones (a 200-player night's view: 140 KB,
    # 4.8 KB in Brotli); the pages' files come compressed already; not WebSockets
    app.add_middleware(Compress)
    if kept is not None or access is not None:  # outermost: every request, as answered
        app.add_middleware(metrics.Observed, metrics=kept, access_log=access)
    app.include_router(metrics.router)  # GET /metrics, closed to the public
    app.include_router(club_pages.router)  # /club and /c/{id}: bunco.web.pages.club_pages
    app.include_router(
        pages.router
    )  # the pages (`/`, `/join`, `/n/...`): bunco.web.pages.night_pages

    @app.get("/api/health", tags=["server"], response_model=HealthOut)
    async def health() -> HealthOut:
        """Whether the server is up, on which kind of database, and (PostgreSQL) whether it
        hears the other server processes' changes now."""
        return HealthOut(
            status="ok",
            version=__version__,
            database=event_store.dialect,
            following_other_processes=app.state.follower.listening,
            connections=connections.limits().counts(),
        )

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


SchemaMaker = Callable[[str], dict[str, JsonSchemaValue]]
"""Schemas by name, referring to each other by a template (``"#/components/schemas/{model}"``)."""


def publish_schemas(app: FastAPI, *makers: SchemaMaker) -> None:
    """Put in ``app``'s OpenAPI document, under ``components/schemas`` beside the routes',
    the shapes no route names: the socket's messages
    (:func:`~bunco.web.values.socket_messages.message_schemas`) and every club event, those
    the server writes itself too (:func:`~bunco.web.values.club_event_models.club_event_schemas`).
    Built once, on the first ask, as FastAPI builds the rest; a name a route's model already
    has keeps the route's schema."""
    routes_only = app.openapi

    def openapi() -> dict[str, Any]:
        document = app.openapi_schema
        if document is None:
            document = routes_only()  # kept by FastAPI as app.openapi_schema
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            for make in makers:
                for name, schema in make("#/components/schemas/{model}").items():
                    schemas.setdefault(name, schema)
        return document

    vars(app)["openapi"] = openapi  # FastAPI's way: the app's openapi() replaced
