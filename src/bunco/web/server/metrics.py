"""``GET /metrics``: the server's health in Prometheus' text format (``prometheus-client``),
and the middleware that measures every request (and writes the access log,
:mod:`bunco.web.server.access_log`).

What is measured (every name starts with ``bunco_``):

=========================================  ====================================================
``http_requests_total``                    requests by ``method``, ``route`` (the path's
                                           template, never the path) and ``status``;
                                           WebSockets too (status 101 when accepted)
``http_request_duration_seconds``          histogram: request to reply (the reply's last
                                           byte handed to the server), by ``method``, ``route``
``refusals_total``                         HTTP refusals (4xx) by ``reason``, the ``error`` of
                                           the reply (``stale``, ``not_your_turn``, ...)
``rate_limited_total``                     refusals by a limit: ``limit`` is ``attempts``
                                           (429 past the failed attempts), ``downloads``
                                           (429, files being made) or ``connections``
                                           (connections closed at once past a cap)
``rolls_total``                            rolls decided, by ``outcome``: ``accepted``,
                                           ``repeat`` (a command id sent again),
                                           ``refused``, ``failed`` (not stored: 503, or 404
                                           for a night deleted meanwhile); the bots' too
``request_to_listener_seconds``            histogram: from a write's request arriving to its
                                           event handed to the night's listeners (the
                                           WebSockets of this process)
``open_connections``                       connections open now (HTTP and WebSocket)
``open_websockets``                        the nights' WebSockets open now
``writer_queue_depth``                     commands waiting in the nights' inboxes now
``nights_held``                            nights held in memory now
=========================================  ====================================================

One process keeps them in memory. Under ``bunco serve --workers N`` each process writes
them to files in ``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess mode; the
server makes the folder at start and removes it when it stops) and any process answers
``/metrics`` with every process's: counters and histograms summed, the gauges one line
per process (label ``pid``), each process writing its gauges every second.

``/metrics`` is not public: it answers a request from this machine (a loopback address),
from an address of ``--metrics-from``, or with ``Authorization: Bearer <--metrics-token>``;
anything else gets the 404 of a path that does not exist. A request that came through a
proxy the server does not trust (it carries ``X-Forwarded-For``) needs the token, since
its address is the proxy's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
    values,
)
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bunco.web.decision.commands import MyTurnRoll
from bunco.web.night.command_path import Outcomes
from bunco.web.night.write_and_follow import REQUEST_ARRIVED
from bunco.web.server import connections
from bunco.web.server.access_log import AccessLog
from bunco.web.server.errors import REFUSAL, TEMPLATE

router = APIRouter()
# no `_created` series beside each counter: smaller scrapes
disable_created_metrics()  # type: ignore[no-untyped-call]
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Latency buckets (seconds): a roll is answered in a few milliseconds."""
SAMPLE_EVERY = 1.0
"""Seconds between two samples of the gauges by each process (multiprocess mode)."""
OUTCOMES = {"accept": "accepted", "repeat": "repeat", "refuse": "refused"}
LIMITS = {"too_many_attempts": "attempts", "too_many_downloads": "downloads"}
REASONS = {413: "too_large", 404: "not_found", 405: "method_not_allowed", 408: "timeout"}


def multiprocess_mode() -> bool:
    """Whether prometheus-client keeps values in ``PROMETHEUS_MULTIPROC_DIR``'s files
    (decided when it was first imported)."""
    return values.ValueClass is not values.MutexValue


class Metrics:
    """The server's metrics (see the module). ``registry``: where they are registered in
    one process (``None`` in multiprocess mode: the files are read at each scrape)."""

    def __init__(self) -> None:
        self.shared = multiprocess_mode()
        self.registry = None if self.shared else CollectorRegistry()
        reg = self.registry
        self.requests = Counter(
            "bunco_http_requests",
            "HTTP requests and WebSockets, by method, route template and status.",
            ["method", "route", "status"],
            registry=reg,
        )
        self.duration = Histogram(
            "bunco_http_request_duration_seconds",
            "Request to reply: from a request's arrival to its reply's last byte.",
            ["method", "route"],
            buckets=BUCKETS,
            registry=reg,
        )
        self.refusals = Counter(
            "bunco_refusals", "HTTP refusals (4xx) by their error.", ["reason"], registry=reg
        )
        self.limited = Counter(
            "bunco_rate_limited",
            "Refusals by a limit: failed attempts, downloads, connections.",
            ["limit"],
            registry=reg,
        )
        self.rolls = Counter("bunco_rolls", "Rolls decided, by outcome.", ["outcome"], registry=reg)
        self.to_listener = Histogram(
            "bunco_request_to_listener_seconds",
            "From a write's request arriving to its event handed to the listeners.",
            buckets=BUCKETS,
            registry=reg,
        )
        self.connections = self._gauge("bunco_open_connections", "Connections open now.")
        self.websockets = self._gauge("bunco_open_websockets", "The nights' WebSockets open now.")
        self.queue = self._gauge(
            "bunco_writer_queue_depth", "Commands waiting in the nights' inboxes now."
        )
        self.held = self._gauge("bunco_nights_held", "Nights held in memory now.")
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self._reasons: dict[str, Counter] = {}
        self._outcomes = {name: self.rolls.labels(name) for name in OUTCOMES.values()}
        self._outcomes["failed"] = self.rolls.labels("failed")
        self._refused_connections = 0
        self.state: Any = None
        """The app's state (its service, sockets): what the gauges read."""

    def _gauge(self, name: str, text: str) -> Gauge:
        return Gauge(name, text, registry=self.registry, multiprocess_mode="liveall")

    # -- what the middleware and the command path report -------------------------------

    def request(
        self, method: str, route: str, status: int, seconds: float, refusal: str | None
    ) -> None:
        """One request answered (``seconds``: request to reply; ``None`` for a WebSocket)."""
        key = (method, route, status)
        children = self._children.get(key)
        if children is None:
            children = (
                self.requests.labels(method, route, str(status)),
                self.duration.labels(method, route),
            )
            self._children[key] = children
        children[0].inc()
        if status != 101:
            children[1].observe(seconds)
        if 400 <= status < 500:
            reason = refusal or REASONS.get(status, f"status_{status}")
            counter = self._reasons.get(reason)
            if counter is None:
                counter = self._reasons[reason] = self.refusals.labels(reason)
            counter.inc()
            if reason in LIMITS:
                self.limited.labels(LIMITS[reason]).inc()

    def batch(self, outcomes: Outcomes) -> None:
        """A batch of commands decided and answered (:attr:`CommandPath.after_batch`)."""
        sent = time.perf_counter()
        for command, arrived, decision in outcomes:
            if arrived is not None and decision is not None and decision.verdict == "accept":
                self.to_listener.observe(sent - arrived)
            intent = command.intent
            event = getattr(intent, "event", None)
            if isinstance(intent, MyTurnRoll) or (
                event is not None and event.get("type") == "roll"
            ):
                outcome = "failed" if decision is None else OUTCOMES[decision.verdict]
                self._outcomes[outcome].inc()

    def sample(self) -> None:
        """Set the gauges to this process's values now."""
        limits = connections.limits()
        self.connections.set(limits.open)
        refused, self._refused_connections = (
            limits.refused - self._refused_connections,
            limits.refused,
        )
        if refused > 0:
            self.limited.labels("connections").inc(refused)
        state = self.state
        if state is None:
            return
        sockets = getattr(state, "sockets", None)
        self.websockets.set(sockets.total() if sockets is not None else 0)
        service = getattr(state, "service", None)
        nights = service.nights if service is not None else {}
        self.held.set(len(nights))
        self.queue.set(sum(len(live.writing.inbox) for live in list(nights.values())))

    async def sample_every(self, seconds: float = SAMPLE_EVERY) -> None:
        """Sample the gauges every ``seconds`` until cancelled (multiprocess mode)."""
        while True:
            self.sample()
            await asyncio.sleep(seconds)

    def exposition(self) -> bytes:
        """The text of ``/metrics``: this process's values, or every process's."""
        self.sample()
        if self.registry is not None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)

    def close(self) -> None:
        """This process stops: its gauges leave the multiprocess files."""
        if self.shared:
            with contextlib.suppress(Exception):
                multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


@dataclass
class MetricsAccess:
    """Who may read ``/metrics``: this machine, the addresses or networks ``allowed``, or a
    request with the bearer ``token``; ``trusted_proxy``: whether a proxy's forwarded
    address was believed (``--trusted-proxy``)."""

    token: str | None = None
    allowed: list[str] = field(default_factory=list)
    trusted_proxy: bool = False

    def __post_init__(self) -> None:
        self._networks = [ipaddress.ip_network(a, strict=False) for a in self.allowed]

    def admits(self, client: str | None, headers: Any) -> bool:
        """Whether a request from ``client`` with these headers may read the metrics.

        >>> access = MetricsAccess(token="s3cret", allowed=["10.1.2.0/24"])
        >>> [access.admits(c, {}) for c in ("127.0.0.1", "::1", "10.1.2.9", "10.1.3.9")]
        [True, True, True, False]
        >>> access.admits("127.0.0.1", {"x-forwarded-for": "203.0.113.5"})
        False
        >>> access.admits("203.0.113.5", {"authorization": "Bearer s3cret"})
        True
        """
        if self.token:
            scheme, _, given = str(headers.get("authorization", "")).partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(
                given.strip().encode(), self.token.encode()
            ):
                return True
        if not self.trusted_proxy and any(
            h in headers for h in ("x-forwarded-for", "forwarded", "x-real-ip")
        ):
            return False  # through a proxy whose address is not the client's
        try:
            address = ipaddress.ip_address(client or "")
        except ValueError:
            return False
        return address.is_loopback or any(address in net for net in self._networks)


@router.get("/metrics", include_in_schema=False)
async def metrics_page(request: Request) -> Response:
    """The metrics in Prometheus' text format, for those :class:`MetricsAccess` admits."""
    kept: Metrics | None = getattr(request.app.state, "metrics", None)
    access: MetricsAccess = getattr(request.app.state, "metrics_access", None) or MetricsAccess()
    client = request.client.host if request.client else None
    if kept is None or not access.admits(client, request.headers):
        raise StarletteHTTPException(404, "Not Found")  # as any path that is not there
    body = await asyncio.to_thread(kept.exposition) if kept.shared else kept.exposition()
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def template_of(scope: Scope) -> str:
    """The path's template of a request that was routed (``unmatched`` otherwise)."""
    named = scope.get(TEMPLATE)
    if named is not None:
        return str(named)
    route = scope.get("route")
    path = getattr(route, "path", None)
    if path is None:
        return "unmatched"
    if isinstance(route, Mount):
        return f"{path}/{{path}}"
    return str(path)


class Observed:
    """ASGI middleware, outermost: times every request, counts it (:class:`Metrics`) and
    writes its access-log line (:class:`~bunco.web.server.access_log.AccessLog`), either or both."""

    def __init__(
        self, app: ASGIApp, metrics: Metrics | None = None, access_log: AccessLog | None = None
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind != "http" and kind != "websocket":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        mark = REQUEST_ARRIVED.set((start, asyncio.current_task()))
        status = 0

        async def watched(message: Message) -> None:
            nonlocal status
            what = message["type"]
            if what == "http.response.start":
                status = message["status"]
            elif what == "websocket.accept":
                status = 101
            elif what == "websocket.close" and not status:
                status = 403  # closed before it was accepted: the server answers 403
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            REQUEST_ARRIVED.reset(mark)
            self._done(scope, status or 500, time.perf_counter() - start, start)

    def _done(self, scope: Scope, status: int, seconds: float, start: float) -> None:
        route = template_of(scope)
        method = scope.get("method", "GET")
        if self.metrics is not None:
            self.metrics.request(method, route, status, seconds, scope.get(REFUSAL))
        if self.access_log is not None:
            client = scope.get("client")
            self.access_log.write(
                time.time() - (time.perf_counter() - start),
                method,
                route,
                status,
                seconds,
                client[0] if client else None,
            )


def allowed_networks(texts: Iterable[str]) -> list[str]:
    """The ``--metrics-from`` values, each checked to be an address or a network.

    >>> allowed_networks(["10.0.0.5", "192.168.1.0/24"])
    ['10.0.0.5', '192.168.1.0/24']
    """
    out = []
    for text in texts:
        ipaddress.ip_network(text, strict=False)  # ValueError for anything else
        out.append(text)
    return out
