"""Replies compressed for the phones (bunco.web.server.compress): Brotli where taken, gzip where
only that is, plain otherwise; streamed replies compressed part by part and readable as
each part arrives; WebSockets, event streams and encoded files left as they are."""

from __future__ import annotations

import asyncio
import gzip
import json
import warnings
import zlib
from typing import Any

import brotli
import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from starlette.types import Message, Receive, Scope, Send  # noqa: E402

from bunco.web.app import create_app  # noqa: E402
from bunco.web.server.compress import MINIMUM, Compress  # noqa: E402

NAMES = [f"Player {i:03d}" for i in range(1, 201)]


@pytest.fixture(scope="module")
def night():
    with TestClient(create_app("sqlite://", bot_pace=0)) as client:
        made = client.post(
            "/api/nights", json={"name": "Big", "rules": "classic", "players": NAMES}
        ).json()
        yield client, made


def test_a_big_view_comes_in_brotli_or_gzip_as_the_phone_takes_it(night: Any) -> None:
    client, made = night
    auth = {"authorization": f"Bearer {made['host_token']}"}
    path = f"/api/nights/{made['night']}"
    plain = client.get(path, headers={**auth, "accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and len(plain.content) > 100_000
    with client.stream("GET", path, headers={**auth, "accept-encoding": "gzip, deflate, br"}) as r:
        br = b"".join(r.iter_raw())
        assert r.headers["content-encoding"] == "br"
        assert "accept-encoding" in r.headers["vary"].lower()
        assert r.headers["content-length"] == str(len(br))
    with client.stream("GET", path, headers={**auth, "accept-encoding": "gzip"}) as r:
        gz = b"".join(r.iter_raw())
        assert r.headers["content-encoding"] == "gzip"
    assert json.loads(brotli.decompress(br)) == json.loads(gzip.decompress(gz)) == plain.json()
    # a 200-player night's view: 140 KB plain, under 6 KB in Brotli, smaller than gzip
    assert len(br) < 6000 and len(br) < len(gz) < len(plain.content) / 10
    # a phone that weighs gzip above Brotli gets gzip
    weighed = client.get(path, headers={**auth, "accept-encoding": "br;q=0.5, gzip"})
    assert weighed.headers["content-encoding"] == "gzip"


def test_small_replies_and_refusals_stay_plain(night: Any) -> None:
    client, made = night
    small = client.get("/api/health", headers={"accept-encoding": "br"})
    assert "content-encoding" not in small.headers and len(small.content) < MINIMUM
    refused = client.get(
        f"/api/nights/{made['night']}",
        headers={"authorization": "Bearer nope", "accept-encoding": "br"},
    )
    assert refused.status_code in (401, 403) and refused.json()["error"]
    # the pages' files, compressed already, are not compressed twice
    page = client.get("/n/x/table/1", headers={"accept-encoding": "br"})
    assert page.headers["content-encoding"] == "br" and "<!doctype html>" in page.text


async def run(app: Any, scope: Scope) -> list[Message]:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def scope_for(accept: str) -> Scope:
    return {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": [(b"accept-encoding", accept.encode())],
    }


def streamer(kind: bytes, parts: list[bytes], etag: bytes | None = None) -> Any:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(b"content-type", kind)] + ([(b"etag", etag)] if etag else [])
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for i, part in enumerate(parts):
            await send(
                {"type": "http.response.body", "body": part, "more_body": i < len(parts) - 1}
            )

    return app


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_a_streamed_reply_is_readable_part_by_part(coding: str) -> None:
    parts = [b"Ann,12,3\n" * 50, b"Bea,9,1\n" * 50, b"Cat,7,0\n"]
    sent = asyncio.run(run(Compress(streamer(b"text/csv", parts, b'"abc"')), scope_for(coding)))
    start = dict(sent[0]["headers"])
    assert start[b"content-encoding"] == coding.encode() and b"content-length" not in start
    assert start[b"etag"] == b'W/"abc"'  # the same content, another body
    bodies = [m["body"] for m in sent[1:]]
    assert [m["more_body"] for m in sent[1:]] == [True, True, False]
    # each part can be read as soon as it arrives, before the next is sent
    reader: Any = brotli.Decompressor() if coding == "br" else zlib.decompressobj(31)
    read = reader.process if coding == "br" else reader.decompress
    got = [read(body) for body in bodies]
    assert got[:2] == parts[:2] and b"".join(got) == b"".join(parts)


def test_event_streams_and_encoded_replies_pass_as_they_are() -> None:
    for kind in (b"text/event-stream", b"image/png"):
        parts = [b"data: x\n\n" * 200, b"data: y\n\n"]
        sent = asyncio.run(run(Compress(streamer(kind, parts)), scope_for("br")))
        assert b"content-encoding" not in dict(sent[0]["headers"])
        assert [m["body"] for m in sent[1:]] == parts


def test_a_phone_that_takes_neither_gets_the_plain_bytes() -> None:
    parts = [b"{" + b'"a": 1, ' * 500 + b"}"]
    sent = asyncio.run(run(Compress(streamer(b"application/json", parts)), scope_for("identity")))
    assert b"content-encoding" not in dict(sent[0]["headers"]) and sent[1]["body"] == parts[0]


def test_websockets_pass_untouched() -> None:
    seen: list[Scope] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(scope)
        await send({"type": "websocket.accept"})

    sent = asyncio.run(run(Compress(app), {**scope_for("br"), "type": "websocket"}))
    assert sent == [{"type": "websocket.accept"}] and len(seen) == 1
