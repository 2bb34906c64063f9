"""Connections under Uvicorn: caps on how many are open, deadlines for slow requests,
pipelined requests held to a few, a budget of WebSocket messages, and memory released
when a connection closes.

``bunco serve`` runs Uvicorn with the two protocol classes of this module in place of its
own (``http=GuardedHttpProtocol, ws=GuardedWebSocketProtocol``). They are Uvicorn's
(httptools for HTTP, the ``websockets`` sans-I/O implementation for WebSockets) with:

- **Caps** (:class:`ConnectionLimits`): at most ``total`` connections open at once
  (HTTP and WebSocket together), at most ``per_address`` from one client address (an
  IPv6 client by its /64; an eighth of the total by default, so that no address, nor two,
  can fill the server) and, of those, at most ``new_per_address`` that have not yet sent
  a whole request (a connection that sends nothing costs its sender nothing, so it gets
  the smallest share). A connection past a cap is closed as soon as it is accepted, before
  a byte is read. The trusted proxies' addresses are counted in the total only (every
  client behind them shares their address).
- **Deadlines**: a request's headers must arrive within ``header_timeout`` seconds of
  the connection (or, on a kept-alive connection, of their first byte), and its body
  within ``body_timeout`` of its headers; a WebSocket upgrade is a request like any
  other. A connection past its deadline is answered **408** (when nothing was answered
  yet) and closed. An idle kept-alive connection is closed by Uvicorn after
  ``timeout_keep_alive`` (5 s).
- **Pipelining**: Uvicorn parses every request a client pipelines on one connection (all
  of them in each chunk it reads, and it reads on after each reply) and queues each,
  parsed, until its turn: a client that pipelines 20,000 requests and never reads the
  replies had them all queued. Here at most :data:`MAX_PIPELINE` wait behind the one
  being answered; a request past them is not parsed: the connection is closed once the
  waiting ones are answered (a client that pipelines sends the rest again on a new
  connection), and what arrives meanwhile is dropped unparsed.
- **WebSocket messages**: each at most :data:`WS_MAX_SIZE` bytes (Uvicorn's
  ``ws_max_size``: 1009 past it), and a budget per socket
  (:class:`~bunco.web.server.message_budget.MessageBudget`: the pages send a ping every 10 s); a
  socket past its budget is closed with 1008 and counted (``flooded``), and the frames
  it sent past the budget are dropped unread.
- **Memory**: when a connection closes, whatever the client did, what it sent is dropped
  at once: an HTTP connection's queued requests and current request, a WebSocket's
  messages and the buffers that held them, and the parser of the HTTP connection a
  WebSocket was upgraded from. Nothing of a closed connection is left in a reference
  cycle for the garbage collector, whose long-lived objects the server freezes
  (:func:`bunco.web.app._freeze_old_objects`: a cycle frozen is never freed).

The limits come from ``BUNCO_MAX_CONNECTIONS``, ``BUNCO_MAX_PER_ADDRESS``,
``BUNCO_MAX_NEW_PER_ADDRESS``, ``BUNCO_HEADER_TIMEOUT``, ``BUNCO_BODY_TIMEOUT`` and
``BUNCO_TRUSTED_PROXIES`` (set by ``bunco serve``; each worker process of ``--workers N``
reads them and keeps its own counts, so the caps hold per process).

>>> limits = ConnectionLimits(total=4, per_address=3, new_per_address=2)
>>> [limits.admit(key, "10.0.0.7") for key in ("a", "b", "c")]  # two not yet heard from
[True, True, False]
>>> limits.prove("a"); limits.admit("c", "10.0.0.7"), limits.admit("d", "10.0.0.7")
(True, False)
>>> limits.admit("d", "10.0.0.8"), limits.admit("e", "10.0.0.9")  # four in all
(True, False)
>>> limits.release("a"); limits.release("a"); limits.admit("e", "10.0.0.9")
True
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, TypedDict

import httptools
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame

from bunco.web.gate.guard import client_address
from bunco.web.server.message_budget import CLOSE_FLOOD, MessageBudget

log = logging.getLogger("bunco.connections")

MAX_CONNECTIONS = 8192
"""Connections open at once, by default: a 1,000-player night needs about 2,600 (a
WebSocket per phone, table and screen, and a kept-alive HTTP connection beside most)."""
MAX_PER_ADDRESS = 1024
"""Connections from one address: an eighth of :data:`MAX_CONNECTIONS`, so that two
addresses hold at most a quarter of the server (a room behind one shared address, a
server on the internet for a venue's guest network, raises it: ``--max-per-address``)."""
MAX_NEW_PER_ADDRESS = 128
"""Connections from one address that have not yet sent a whole request (a phone has a
handful at once; a page load, six)."""
MAX_PIPELINE = 8
"""Pipelined requests that may wait on one connection behind the one being answered
(browsers do not pipeline at all)."""
HEADER_TIMEOUT = 10.0
"""Seconds for a request's headers (a phone sends them in one packet)."""
BODY_TIMEOUT = 30.0
"""Seconds for a request's body after its headers (the largest, 1 MiB, at 35 KB/s)."""
WS_MAX_SIZE = 4096
"""The largest WebSocket message a client may send (bytes); a page sends
``{"type":"ping"}``. A larger one closes the socket with 1009."""
FLOOD_LINGER = 5.0
"""Seconds a WebSocket closed for flooding stays open for the client to read the close
frame (what it sends meanwhile is dropped unparsed)."""
FILE_MARGIN = 256
"""Open files kept for the rest of the server (database, certificates, logs, PDFs)."""

_TIMEOUT_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%b"
)
_TIMEOUT_BODY = (
    b'{"error": "timeout", "message": "the request did not arrive in time", '
    b'"expected": "a request sent whole within %d seconds"}'
)


@dataclass
class ConnectionLimits:
    """The caps and deadlines, and the open connections counted against the caps."""

    total: int = MAX_CONNECTIONS
    per_address: int = MAX_PER_ADDRESS
    new_per_address: int = MAX_NEW_PER_ADDRESS
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    trusted: list[str] = field(default_factory=list)
    """Addresses or networks of reverse proxies: counted in the total only."""
    _open: dict[object, str] = field(default_factory=dict, repr=False)
    _by_address: dict[str, int] = field(default_factory=dict, repr=False)
    _new: dict[object, str] = field(default_factory=dict, repr=False)
    _new_by_address: dict[str, int] = field(default_factory=dict, repr=False)
    refused: int = 0
    """Connections closed at once since the start (past a cap)."""
    flooded: int = 0
    """WebSockets closed with 1008 since the start (past their message budget)."""
    pipelined: int = 0
    """Connections closed since the start for pipelining past :data:`MAX_PIPELINE`."""
    _warned: dict[str, float] = field(default_factory=dict, repr=False)

    @classmethod
    def from_environment(cls) -> ConnectionLimits:
        """The limits ``bunco serve`` put in the ``BUNCO_*`` variables (else the defaults)."""
        env = os.environ
        return cls(
            total=int(env.get("BUNCO_MAX_CONNECTIONS") or MAX_CONNECTIONS),
            per_address=int(env.get("BUNCO_MAX_PER_ADDRESS") or MAX_PER_ADDRESS),
            new_per_address=int(env.get("BUNCO_MAX_NEW_PER_ADDRESS") or MAX_NEW_PER_ADDRESS),
            header_timeout=float(env.get("BUNCO_HEADER_TIMEOUT") or HEADER_TIMEOUT),
            body_timeout=float(env.get("BUNCO_BODY_TIMEOUT") or BODY_TIMEOUT),
            trusted=env.get("BUNCO_TRUSTED_PROXIES", "").split(),
        )

    def _is_proxy(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
            return any(address in ipaddress.ip_network(net, strict=False) for net in self.trusted)
        except ValueError:
            return host in self.trusted

    def admit(self, key: object, host: str | None) -> bool:
        """Count a new connection (``key``: its transport) from ``host``, as not yet
        heard from; ``False`` (and nothing counted) if it is past a cap."""
        address = client_address(host)
        if host and self.trusted and self._is_proxy(host):
            address = "proxy"
        elif self._by_address.get(address, 0) >= self.per_address:
            return self._refuse(f"{self.per_address} connections from {address}")
        elif self._new_by_address.get(address, 0) >= min(self.new_per_address, self.per_address):
            return self._refuse(
                f"{self.new_per_address} connections from {address} that sent no whole request"
            )
        if len(self._open) >= self.total:
            return self._refuse(f"{self.total} connections in all")
        self._open[key] = address
        if address != "proxy":
            _count(self._by_address, address, +1)
            self._new[key] = address
            _count(self._new_by_address, address, +1)
        return True

    def prove(self, key: object) -> None:
        """The connection ``key`` sent a whole request: it no longer counts against
        ``new_per_address`` (once; again does nothing)."""
        address = self._new.pop(key, None)
        if address is not None:
            _count(self._new_by_address, address, -1)

    def _refuse(self, why: str) -> bool:
        self.count("refused", f"connections refused: {why} already open")
        return False

    def count(self, kind: str, what: str) -> None:
        """One more of ``kind`` (``refused``, ``pipelined``, ``flooded``), and ``what`` in
        the log with the count so far."""
        setattr(self, kind, getattr(self, kind) + 1)
        self.warn(kind, "%s: %d so far", what, getattr(self, kind))

    def warn(self, kind: str, message: str, *args: object) -> None:
        """Log ``message`` at most once a minute per ``kind``: a flood does not flood the log."""
        now = time.monotonic()
        if now - self._warned.get(kind, -1e9) > 60:
            self._warned[kind] = now
            log.warning(message, *args)

    def release(self, key: object) -> None:
        """Stop counting the connection ``key`` (once; again does nothing)."""
        self.prove(key)
        address = self._open.pop(key, None)
        if address is not None and address != "proxy":
            _count(self._by_address, address, -1)

    @property
    def open(self) -> int:
        """Connections counted now."""
        return len(self._open)

    def counts(self) -> dict[str, int]:
        """What ``GET /api/health`` says of this process's connections."""
        return {
            "open": self.open,
            "refused": self.refused,
            "pipelined": self.pipelined,
            "flooded": self.flooded,
        }

    def from_address(self, host: str) -> int:
        """Connections counted now from ``host``'s address."""
        return self._by_address.get(client_address(host), 0)

    def new_from_address(self, host: str) -> int:
        """Connections counted now from ``host``'s address that sent no whole request."""
        return self._new_by_address.get(client_address(host), 0)


def _count(counts: dict[str, int], address: str, step: int) -> None:
    left = counts.get(address, 0) + step
    if left > 0:
        counts[address] = left
    else:
        counts.pop(address, None)


_limits: ConnectionLimits | None = None


def limits() -> ConnectionLimits:
    """This process's limits (made from the environment at the first connection)."""
    global _limits
    if _limits is None:
        _limits = ConnectionLimits.from_environment()
    return _limits


def use_limits(value: ConnectionLimits | None) -> None:
    """Set this process's limits (``None``: read the environment again)."""
    global _limits
    _limits = value


class PipelineFull(Exception):
    """A request arrived with :data:`MAX_PIPELINE` already waiting on its connection."""


class HeldFlow(FlowControl):
    """Uvicorn's flow control, except that reading stays paused while pipelined requests
    wait (Uvicorn resumes it after every reply and whenever a request reads its body),
    unless the connection takes no more requests (``dropping``: what arrives is read and
    dropped unparsed, so that the close that follows the last answer is not a reset that
    loses the answers on their way)."""

    def __init__(self, transport: asyncio.Transport, waiting: deque[Any]) -> None:
        super().__init__(transport)
        self.waiting = waiting
        self.dropping = False

    def resume_reading(self) -> None:
        if self.dropping or not self.waiting:
            super().resume_reading()


class GuardedHttpProtocol(HttpToolsProtocol):
    """Uvicorn's HTTP protocol with the caps, the deadlines and the pipelining bound of
    :class:`ConnectionLimits`."""

    _deadline: asyncio.TimerHandle | None = None
    _answered = False
    _no_more = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.flow = HeldFlow(transport, self.pipeline)
        book = limits()
        if not book.admit(transport, self.client[0] if self.client else None):
            transport.abort()
            return
        self._arm(book.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        limits().release(self.transport)
        super().connection_lost(exc)
        # the requests still waiting, and the current one, refer back to this protocol
        # (their reply callback): drop them, so that nothing of the connection is left
        # in a reference cycle (a frozen one would be kept for good)
        self.pipeline.clear()
        self.cycle = None  # type: ignore[assignment]
        self.scope = None  # type: ignore[assignment]
        self.headers = None  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if self._no_more:
            return  # past the pipelining bound: what arrives is dropped unparsed
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm(limits().header_timeout)  # the first bytes of the next request
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError as exc:
            if isinstance(exc.__context__, PipelineFull):
                self._take_no_more()
                return
            self.logger.warning("Invalid HTTP request received.")
            self.send_400_response("Invalid HTTP request received.")

    def on_message_begin(self) -> None:
        if (
            self.cycle is not None
            and not self.cycle.response_complete
            and len(self.pipeline) >= MAX_PIPELINE
        ):
            raise PipelineFull  # stops the parser: the rest of the data is never parsed
        super().on_message_begin()

    def _take_no_more(self) -> None:
        """Answer the requests already taken, then close: the client sends the others
        again on a new connection. Meanwhile what arrives is dropped unparsed."""
        self._no_more = True
        assert isinstance(self.flow, HeldFlow)
        self.flow.dropping = True
        self.flow.resume_reading()
        last = self.pipeline[0][0] if self.pipeline else self.cycle
        last.keep_alive = False
        limits().count("pipelined", f"connections closed for pipelining past {MAX_PIPELINE}")

    def on_headers_complete(self) -> None:
        self._disarm()
        self._answered = False
        super().on_headers_complete()
        if self.parser is not None and not self.parser.should_upgrade():
            self._arm(limits().body_timeout)

    def on_message_complete(self) -> None:
        self._disarm()
        limits().prove(self.transport)
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._answered = True
        super().on_response_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        limits().prove(self.transport)
        super().handle_websocket_upgrade()
        # the WebSocket protocol has the transport now: let go of the parser, whose
        # callbacks point back here (a reference cycle that would outlive the socket)
        self.parser = None  # type: ignore[assignment]
        self.cycle = None  # type: ignore[assignment]

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow, seconds)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, seconds: float) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        started = self.cycle is not None and self.cycle.response_started
        if not started:
            body = _TIMEOUT_BODY % int(seconds)
            self.transport.write(_TIMEOUT_408 % (len(body), body))
        if self.cycle is not None:
            self.cycle.keep_alive = False
        self.transport.close()


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """Uvicorn's WebSocket protocol that counts its connection against the caps, holds
    the client to its message budget and drops what the client sent as soon as the
    connection closes."""

    budget: MessageBudget | None = None
    flooded = False

    def data_received(self, data: bytes) -> None:
        if not self.flooded:  # closed for flooding: what else arrives is dropped unparsed
            super().data_received(data)

    def _within_budget(self) -> bool:
        if self.flooded:
            return False
        now = time.monotonic()
        if self.budget is None:
            self.budget = MessageBudget(now=now)
        if self.budget.take(now):
            return True
        self._close_flooded()
        return False

    def _close_flooded(self) -> None:
        """Close the socket with 1008: it sent more messages than a page ever does."""
        self.flooded = True
        limits().count("flooded", "WebSockets closed for sending too many messages (1008)")
        if self.transport.is_closing():
            return
        if not self.close_sent:
            self.conn.send_close(CLOSE_FLOOD, "too many messages")
            self.close_sent = True
            self.transport.write(b"".join(self.conn.data_to_send()))
        self._drop_messages()
        self.queue.put_nowait({"type": "websocket.disconnect", "code": CLOSE_FLOOD})
        # what arrives from now on is dropped unparsed, and the connection is closed once
        # the client had time to read the close frame: closed at once, with its data still
        # arriving, it would be a reset, which may lose the close frame on its way
        if self.transport.can_write_eof():
            self.transport.write_eof()
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        # (as Uvicorn's own close timer, which the end of the application leaves running)
        self.close_timer = self.loop.call_later(FLOOD_LINGER, self.transport.close)

    def handle_text(self, event: Frame) -> None:
        if self._within_budget():
            super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        if self._within_budget():
            super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        if self._within_budget():
            super().handle_cont(event)

    def handle_ping(self) -> None:
        if self._within_budget():
            super().handle_ping()

    def handle_pong(self, event: Frame) -> None:
        if self._within_budget():
            super().handle_pong(event)

    def _drop_messages(self) -> None:
        """Drop the messages the application will never read: keep only the first
        disconnect."""
        self.frames = []
        pending: list[Any] = []
        while not self.queue.empty():
            message = self.queue.get_nowait()
            if message["type"] == "websocket.disconnect":
                pending.append(message)
        for message in pending[:1]:
            self.queue.put_nowait(message)

    def connection_lost(self, exc: Exception | None) -> None:
        limits().release(self.transport)
        super().connection_lost(exc)
        self._drop_messages()
        reader = getattr(self.conn, "reader", None)
        if reader is not None:
            reader.buffer.clear()
        self.conn.parser = None  # type: ignore[assignment]  # the parser refers to conn


class UvicornOptions(TypedDict):
    """Uvicorn's settings :func:`uvicorn_options` gives."""

    http: type[GuardedHttpProtocol]
    ws: type[GuardedWebSocketProtocol]
    ws_max_size: int
    timeout_keep_alive: int
    backlog: int


def uvicorn_options(connection_limits: ConnectionLimits) -> UvicornOptions:
    """Uvicorn's settings for these protocols (``uvicorn.run(app, **options)``)."""
    return {
        "http": GuardedHttpProtocol,
        "ws": GuardedWebSocketProtocol,
        "ws_max_size": WS_MAX_SIZE,
        "timeout_keep_alive": 5,
        "backlog": min(2048, connection_limits.total),
    }


def raise_open_files(connections: int) -> tuple[int, int]:
    """Raise this process's open-file limit (``RLIMIT_NOFILE``, soft) so that
    ``connections`` sockets and :data:`FILE_MARGIN` other files fit, as far as the hard
    limit allows. Returns (the soft limit now, the connections that fit in it).

    >>> limit, fits = raise_open_files(100)
    >>> limit >= 100 + FILE_MARGIN and fits == 100
    True
    """
    import resource

    needed = connections + FILE_MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # e.g. macOS refuses more than OPEN_MAX
            log.warning("could not raise the open-file limit to %d", target)
    if soft == resource.RLIM_INFINITY:
        return needed, connections
    return soft, max(0, min(connections, soft - FILE_MARGIN))
