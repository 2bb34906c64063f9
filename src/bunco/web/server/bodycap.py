"""Every request body is capped before it is read whole (**413** ``too_large``), and a
JSON body is held to :mod:`bunco.web.values.strict_json` before any route reads it (**422**).

An ASGI middleware in front of everything else: a declared ``Content-Length`` above the
cap is refused before a byte of the body is read; a body without one (chunked) is
counted as it streams in and refused as soon as it passes the cap, so the server never
holds more than the cap (plus one chunk) of any request. A JSON body is then checked
whole (each key once, every text through the one check of texts) and handed on as it
came.

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

from bunco.web.values.strict_json import EXPECTED, body_problems

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
    """ASGI middleware: refuse bodies above :func:`cap_for` with 413, counting as they come,
    and JSON bodies that :func:`~bunco.web.values.strict_json.body_problems` finds wrong with 422."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = cap_for(scope["method"], scope["path"])
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > cap):
            await self._refuse(send, cap)
            return
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE") and _json(headers):
            body = await _whole(receive, cap)
            if body is None:
                await self._refuse(send, cap)
                return
            problems = body_problems(body) if body else None
            if problems:
                await _refuse_json(send, problems)
                return
            await self.app(scope, _replay(body, receive), send)
            return
        await self._counted(scope, receive, send, cap)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, cap: int) -> None:
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
        await _answer(send, 413, too_large_body(cap))


def _json(headers: dict[bytes, bytes]) -> bool:
    """Whether the body is JSON as the routes read it (said so, or not said at all)."""
    kind = headers.get(b"content-type")
    return kind is None or b"json" in kind.lower()


async def _whole(receive: Receive, cap: int) -> bytes | None:
    """The whole body, or ``None`` once it passes ``cap`` (nothing more is read)."""
    chunks: list[bytes] = []
    seen = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away: what came is what there is
        chunk = message.get("body", b"")
        seen += len(chunk)
        if seen > cap:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body read already, as one message; then the client's own (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _refuse_json(send: Send, problems: list[tuple[str, str]]) -> None:
    shown = "; ".join(f"{where}: {what}" for where, what in problems[:5])
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    reply = {
        "error": "invalid_request",
        "message": shown + more,
        "expected": EXPECTED,
        "details": [{"where": where, "message": what} for where, what in problems],
    }
    await _answer(send, 422, json.dumps(reply, ensure_ascii=False).encode(), close=False)


async def _answer(send: Send, status: int, body: bytes, *, close: bool = True) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
