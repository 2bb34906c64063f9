"""Connections under Uvicorn: caps on how many are open, deadlines for slow requests, and
memory released when a WebSocket closes.

``bunco serve`` runs Uvicorn with the two protocol classes of this module in place of its
own (``http=GuardedHttpProtocol, ws=GuardedWebSocketProtocol``). They are Uvicorn's
(httptools for HTTP, the ``websockets`` sans-I/O implementation for WebSockets) with:

- **Caps** (:class:`ConnectionLimits`): at most ``total`` connections open at once
  (HTTP and WebSocket together) and at most ``per_address`` from one client address (an
  IPv6 client by its /64); a connection past either cap is closed as soon as it is
  accepted, before a byte is read. The trusted proxies' addresses are counted in the
  total only (every client behind them shares their address).
- **Deadlines**: a request's headers must arrive within ``header_timeout`` seconds of
  the connection (or, on a kept-alive connection, of their first byte), and its body
  within ``body_timeout`` of its headers; a WebSocket upgrade is a request like any
  other. A connection past its deadline is answered **408** (when nothing was answered
  yet) and closed. An idle kept-alive connection is closed by Uvicorn after
  ``timeout_keep_alive`` (5 s).
- **Memory**: a WebSocket's messages from the client are capped by Uvicorn's
  ``ws_max_size`` (:data:`WS_MAX_SIZE`: the pages only send pings); when a WebSocket
  closes, whatever the client does, the messages it sent and the buffers that held
  them are dropped at once, and the HTTP protocol object it was upgraded from lets go
  of its parser: nothing of a closed connection is left in a reference cycle for the
  garbage collector, whose long-lived objects the server freezes
  (:func:`bunco.web.app._freeze_old_objects`: a cycle frozen is never freed).

The limits come from ``BUNCO_MAX_CONNECTIONS``, ``BUNCO_MAX_PER_ADDRESS``,
``BUNCO_HEADER_TIMEOUT``, ``BUNCO_BODY_TIMEOUT`` and ``BUNCO_TRUSTED_PROXIES`` (set by
``bunco serve``; each worker process of ``--workers N`` reads them and keeps its own
counts, so the caps hold per process).

>>> limits = ConnectionLimits(total=3, per_address=2)
>>> [limits.admit(key, "10.0.0.7") for key in ("a", "b", "c")]
[True, True, False]
>>> limits.admit("d", "10.0.0.8"), limits.admit("e", "10.0.0.9")
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
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from bunco.web.guard import client_address

log = logging.getLogger("bunco.connections")

MAX_CONNECTIONS = 8192
"""Connections open at once, by default: a 1,000-player night needs about 2,600 (a
WebSocket per phone, table and screen, and a kept-alive HTTP connection beside most)."""
MAX_PER_ADDRESS = 4096
"""Connections from one address: a whole 1,000-player room behind one address (a venue's
Wi-Fi that shares one) still fits."""
HEADER_TIMEOUT = 10.0
"""Seconds for a request's headers (a phone sends them in one packet)."""
BODY_TIMEOUT = 30.0
"""Seconds for a request's body after its headers (the largest, 1 MiB, at 35 KB/s)."""
WS_MAX_SIZE = 4096
"""The largest WebSocket message a client may send (bytes); a page sends
``{"type":"ping"}``. A larger one closes the socket with 1009."""
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
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    trusted: list[str] = field(default_factory=list)
    """Addresses or networks of reverse proxies: counted in the total only."""
    _open: dict[object, str] = field(default_factory=dict, repr=False)
    _by_address: dict[str, int] = field(default_factory=dict, repr=False)
    refused: int = 0
    """Connections closed at once since the start (past a cap)."""
    _warned: float = field(default=-1e9, repr=False)

    @classmethod
    def from_environment(cls) -> ConnectionLimits:
        """The limits ``bunco serve`` put in the ``BUNCO_*`` variables (else the defaults)."""
        env = os.environ
        return cls(
            total=int(env.get("BUNCO_MAX_CONNECTIONS") or MAX_CONNECTIONS),
            per_address=int(env.get("BUNCO_MAX_PER_ADDRESS") or MAX_PER_ADDRESS),
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
        """Count a new connection (``key``: its transport) from ``host``; ``False`` (and
        nothing counted) if it is past a cap."""
        address = client_address(host)
        if host and self.trusted and self._is_proxy(host):
            address = "proxy"
        elif self._by_address.get(address, 0) >= self.per_address:
            return self._refuse(f"{self.per_address} connections from {address}")
        if len(self._open) >= self.total:
            return self._refuse(f"{self.total} connections in all")
        self._open[key] = address
        if address != "proxy":
            self._by_address[address] = self._by_address.get(address, 0) + 1
        return True

    def _refuse(self, why: str) -> bool:
        self.refused += 1
        now = time.monotonic()
        if now - self._warned > 60:  # once a minute at most: a flood does not flood the log
            self._warned = now
            log.warning(
                "connections refused: %s already open (%d refused so far)", why, self.refused
            )
        return False

    def release(self, key: object) -> None:
        """Stop counting the connection ``key`` (once; again does nothing)."""
        address = self._open.pop(key, None)
        if address is None or address == "proxy":
            return
        left = self._by_address[address] - 1
        if left:
            self._by_address[address] = left
        else:
            del self._by_address[address]

    @property
    def open(self) -> int:
        """Connections counted now."""
        return len(self._open)

    def from_address(self, host: str) -> int:
        """Connections counted now from ``host``'s address."""
        return self._by_address.get(client_address(host), 0)


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


class GuardedHttpProtocol(HttpToolsProtocol):
    """Uvicorn's HTTP protocol with the caps and the deadlines of :class:`ConnectionLimits`."""

    _deadline: asyncio.TimerHandle | None = None
    _answered = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        book = limits()
        if not book.admit(transport, self.client[0] if self.client else None):
            transport.abort()
            return
        self._arm(book.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        limits().release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm(limits().header_timeout)  # the first bytes of the next request
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm()
        self._answered = False
        super().on_headers_complete()
        if self.parser is not None and not self.parser.should_upgrade():
            self._arm(limits().body_timeout)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._answered = True
        super().on_response_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
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
    """Uvicorn's WebSocket protocol that counts its connection against the caps and drops
    what the client sent as soon as the connection closes."""

    def connection_lost(self, exc: Exception | None) -> None:
        limits().release(self.transport)
        super().connection_lost(exc)
        self.frames = []
        # messages the application will never read: keep only the disconnect
        pending: list[Any] = []
        while not self.queue.empty():
            message = self.queue.get_nowait()
            if message["type"] == "websocket.disconnect":
                pending.append(message)
        for message in pending:
            self.queue.put_nowait(message)
        reader = getattr(self.conn, "reader", None)
        if reader is not None:
            reader.buffer.clear()
        self.conn.parser = None  # type: ignore[assignment]  # the parser refers to conn


def uvicorn_options(connection_limits: ConnectionLimits) -> dict[str, Any]:
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
