"""Every request body is capped before it is read whole: **413** ``too_large``.

An ASGI middleware in front of everything else: a declared ``Content-Length`` above the
cap is refused before a byte of the body is read; a body without one (chunked) is
counted as it streams in and refused as soon as it passes the cap, so the server never
holds more than the cap (plus one chunk) of any request.

Caps (bytes): a new night 1 MiB (2,000 players with seating, groups and bots fit in
about half of it); seating by hand, any event and the bots 256 KiB; everything else
16 KiB (a roll is about 100 bytes).

>>> cap_for("POST", "/api/nights"), cap_for("POST", "/api/nights/abc/tables/3/rolls")
(1048576, 16384)
>>> cap_for("PUT", "/api/nights/abc/bots")
262144
"""

from __future__ import annotations

import json
import re

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_CAP = 16 * 1024
CAPS: list[tuple[str, re.Pattern[str], int]] = [
    ("POST", re.compile(r"^/api/nights/?$"), 1024 * 1024),
    ("POST", re.compile(r"^/api/nights/[^/]+/(seating|events)$"), 256 * 1024),
    ("PUT", re.compile(r"^/api/nights/[^/]+/bots$"), 256 * 1024),
]


def cap_for(method: str, path: str) -> int:
    """The largest body accepted for ``method`` at ``path``."""
    for verb, pattern, cap in CAPS:
        if method == verb and pattern.match(path):
            return cap
    return DEFAULT_CAP


class TooLarge(HTTPException):
    """The body passed its cap while streaming in (an HTTP error, so that the framework
    hands it to the error handlers instead of calling it a parse error)."""

    def __init__(self, cap: int) -> None:
        super().__init__(413, "the request body is too large")
        self.cap = cap


def too_large_body(cap: int) -> bytes:
    return json.dumps(
        {
            "error": "too_large",
            "message": "the request body is too large",
            "expected": f"a body of at most {cap} bytes",
        }
    ).encode()


class BodyCap:
    """ASGI middleware: refuse bodies above :func:`cap_for` with 413, counting as they come."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = cap_for(scope["method"], scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > cap):
            await self._refuse(send, cap)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    raise TooLarge(cap)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except TooLarge as exc:  # raised outside the routes (inside them: errors.py)
            if started:
                raise
            await self._refuse(send, exc.cap)

    @staticmethod
    async def _refuse(send: Send, cap: int) -> None:
        body = too_large_body(cap)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
