"""The server's replies compressed for the phones: Brotli where the phone takes it, gzip
where it takes only that, the plain bytes otherwise.

A 200-player night's whole view is 140 KB of JSON: 7.0 KB gzipped (level 6), 4.8 KB in
Brotli at quality 4, made in about the same CPU time (2 ms), which is why dynamic replies
use quality 4 (the pages' own files are made once, at quality 10: :mod:`bunco.web.pages.assets`).
Every current browser sends ``Accept-Encoding: gzip, deflate, br`` over http too.

What is compressed: a reply of a text kind (JSON, text, HTML, CSS, JavaScript, CSV, SVG,
XML) of at least :data:`MINIMUM` bytes that carries no ``Content-Encoding`` of its own (the
pages' files come compressed already). A reply sent in parts (a streamed download) is
compressed part by part, each part flushed as it goes, so the phone gets each part as
soon as the server sends it; a stream of events (``text/event-stream``) is left as it is.
WebSockets and every other kind of connection pass untouched (a socket's messages are
left to its own ``permessage-deflate``).

>>> MINIMUM, sorted(CODERS)
(1024, ['br', 'gzip'])
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import brotli
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bunco.web.pages.assets import choose_coding

MINIMUM = 1024  # below this a compressed reply saves less than its headers cost
BROTLI_QUALITY = 4  # see the module's text
GZIP_LEVEL = 6
TEXT_KINDS = (
    "application/json",
    "application/problem+json",
    "application/javascript",
    "application/xml",
    "application/manifest+json",
    "image/svg+xml",
    "text/",
)
LEFT_AS_IS = ("text/event-stream",)


class Coder:
    """One reply's compressor: ``part`` for each part of the body (flushed, so what was
    sent so far can be read at once), ``last`` for the end."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._br: brotli.Compressor | None = None
        self._gz: zlib._Compress | None = None
        if coding == "br":
            self._br = brotli.Compressor(quality=BROTLI_QUALITY)
        else:
            self._gz = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)  # 31: a gzip wrapper

    def part(self, data: bytes) -> bytes:
        if self._br is not None:
            made = self._br.process(data)
            # flush is the module's own (the stubs leave it out): what came so far, whole
            flushed: bytes = self._br.flush()  # type: ignore[attr-defined]
            return made + flushed
        assert self._gz is not None
        return self._gz.compress(data) + self._gz.flush(zlib.Z_SYNC_FLUSH)

    def last(self, data: bytes) -> bytes:
        if self._br is not None:
            return self._br.process(data) + self._br.finish()
        assert self._gz is not None
        return self._gz.compress(data) + self._gz.flush(zlib.Z_FINISH)


CODERS: dict[str, Callable[[], Coder]] = {
    "br": lambda: Coder("br"),
    "gzip": lambda: Coder("gzip"),
}


def compressible(headers: Headers) -> bool:
    """True for a reply of a text kind that is not encoded already."""
    kind = headers.get("content-type", "").lower()
    if "content-encoding" in headers or kind.startswith(LEFT_AS_IS):
        return False
    return kind.startswith(TEXT_KINDS)


class Compress:
    """ASGI middleware: the replies of ``app`` compressed as the module says."""

    def __init__(self, app: ASGIApp, minimum: int = MINIMUM) -> None:
        self.app = app
        self.minimum = minimum

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        coding = choose_coding(Headers(scope=scope).get("accept-encoding", ""), tuple(CODERS))
        if coding is None:
            await self.app(scope, receive, send)
            return
        await _Reply(self.app, coding, self.minimum).run(scope, receive, send)


class _Reply:
    """One request's reply on its way out: its start held until the first part of its body
    says whether (and how) to compress it."""

    def __init__(self, app: ASGIApp, coding: str, minimum: int) -> None:
        self.app = app
        self.coding = coding
        self.minimum = minimum
        self.start: Message | None = None
        self.coder: Coder | None = None
        self.plain = False  # decided: sent as it is

    async def run(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.send = send
        await self.app(scope, receive, self.pass_on)

    async def pass_on(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            headers = Headers(raw=message["headers"])
            status = message["status"]
            if status < 200 or status in (204, 304) or not compressible(headers):
                self.plain = True
                await self.send(message)
            else:
                self.start = message
            return
        if kind != "http.response.body" or self.plain:
            if self.start is not None and self.coder is None and not self.plain:
                self.plain = True  # a reply of another kind (a file sent by path): as it is
                await self.send(self.start)
            await self.send(message)
            return
        body: bytes = message.get("body", b"")
        more: bool = message.get("more_body", False)
        if self.coder is None:
            assert self.start is not None
            if not more and len(body) < self.minimum:
                self.plain = True
                await self.send(self.start)
                await self.send(message)
                return
            self.coder = CODERS[self.coding]()
            headers = MutableHeaders(raw=self.start["headers"])
            headers["content-encoding"] = self.coding
            headers.add_vary_header("Accept-Encoding")
            if "etag" in headers:  # another body than the one the tag names
                headers["etag"] = _weak(headers["etag"])
            if more:
                del headers["content-length"]
                await self.send(self.start)
                await self.send({**message, "body": self.coder.part(body)})
                return
            made = self.coder.last(body)
            headers["content-length"] = str(len(made))
            await self.send(self.start)
            await self.send({**message, "body": made})
            return
        made = self.coder.last(body) if not more else self.coder.part(body)
        await self.send({**message, "body": made})


def _weak(tag: str) -> str:
    """``tag`` as a weak ETag (the same content, another encoding of it)."""
    return tag if tag.startswith("W/") else f"W/{tag}"
