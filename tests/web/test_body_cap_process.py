"""The real `bunco serve`: a 100 MB body gets 413 and its memory stays bounded; forwarded
headers are not believed without --trusted-proxy."""

from __future__ import annotations

import select
import socket
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
HUNDRED_MB = 100 * 1024 * 1024
CHUNK = 256 * 1024
BOUND = 30 * 1024 * 1024  # the server's resident memory may grow by less than this


def rss(pid: int) -> int:
    """The resident memory of a process, in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def send_big_body(port: int, *, chunked: bool) -> tuple[bytes, int]:
    """POST a 100 MB night; return the reply and how many body bytes went out before it."""
    head = b"POST /api/nights HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += (
        b"Transfer-Encoding: chunked\r\n\r\n"
        if chunked
        else (b"Content-Length: %d\r\n\r\n" % HUNDRED_MB)
    )
    block = b"x" * CHUNK
    if chunked:
        block = b"%x\r\n" % CHUNK + block + b"\r\n"
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        while sent < HUNDRED_MB:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break  # the server answered before the body was all sent
            try:
                sock.sendall(block)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += CHUNK
        reply = b""
        try:
            while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
                data = sock.recv(65536)
                if not data:
                    break
                reply += data
        except (ConnectionResetError, TimeoutError):
            pass
    return reply, sent


@pytest.mark.parametrize("chunked", [False, True])
def test_a_100_mb_body_gets_413_and_memory_stays_bounded(server, chunked):
    assert server.proc is not None
    before = rss(server.proc.pid)
    reply, sent = send_big_body(server.port, chunked=chunked)
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    assert b'"too_large"' in reply
    assert sent < HUNDRED_MB  # refused long before the end
    assert rss(server.proc.pid) - before < BOUND


def test_bunco_serve_believes_no_forwarded_header_without_a_trusted_proxy(server):
    """Uvicorn would trust X-Forwarded-For from loopback; `bunco serve` turns that off, so
    a guesser behind (or pretending to be) a local proxy is still one client."""
    import httpx

    with httpx.Client(base_url=server.base, timeout=10) as http:
        codes = [
            http.post(
                "/api/join", json={"code": "ZZZZZZ"}, headers={"x-forwarded-for": f"10.9.0.{i}"}
            ).status_code
            for i in range(12)
        ]
    assert codes == [404] * 11 + [429]  # ten, one on the slow path, then 429
