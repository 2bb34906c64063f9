"""The phases of ``benchmarks/abuse.py`` that a hostile guest's laptop plays against the
server (issue 38): idle connections from two addresses, pipelined requests never read,
a WebSocket flood. Each runs its clients in a process of its own, so that the measuring
process's requests never wait for the attacker's interpreter."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import resource
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import websockets

SPAWN = multiprocessing.get_context("spawn")


def _more_files(count: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count)), hard))


# -- idle connections from two addresses ------------------------------------------------------


async def _one_slot(port: int, host: str, until: float, counts: dict[str, int]) -> None:
    """Keep one idle connection from ``host`` open: a new one whenever the server closes it."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(host, 0))
        except OSError:
            counts["failed"] += 1
            await asyncio.sleep(0.05)
            continue
        counts["opened"] += 1
        answer = b""
        with contextlib.suppress(OSError, TimeoutError):
            answer = await asyncio.wait_for(reader.read(1024), max(0.01, until - time.monotonic()))
        writer.close()
        if answer.startswith(b"HTTP/1.1 408"):
            counts["cut"] += 1
        elif time.monotonic() < until:
            counts["refused"] += 1
            await asyncio.sleep(0.01)


def hold_idle(port: int, hosts: list[str], each: int, seconds: float, out: Any) -> None:
    """``each`` idle connections from each of ``hosts`` for ``seconds`` (a process's
    target); puts the counts on the queue ``out``."""
    _more_files(len(hosts) * each + 256)
    counts = {"opened": 0, "refused": 0, "cut": 0, "failed": 0}

    async def main() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(
            *(_one_slot(port, h, until, counts) for h in hosts for _ in range(each))
        )

    asyncio.run(main())
    out.put(counts)


def third_address(base: str, count: int, local: str) -> list[tuple[float, bool]]:
    """``count`` health checks from ``local``, each on a new connection: each one's time
    (s) and whether it was answered 200 (a refused connection is not answered)."""
    out = []
    for _ in range(count):
        started = time.monotonic()
        answered = False
        with contextlib.suppress(httpx.HTTPError):
            transport = httpx.HTTPTransport(local_address=local)
            with httpx.Client(transport=transport, timeout=10) as phone:
                answered = phone.get(base + "/api/health").status_code == 200
        out.append((time.monotonic() - started, answered))
        time.sleep(0.05)
    return out


def table_rolls(base: str, night: dict[str, Any], count: int, local: str) -> list[float | None]:
    """Table 1's rolls from ``local``: each round trip in ms, None for one not answered."""
    url = f"{base}/api/nights/{night['night']}/tables/1/rolls"
    headers = {"authorization": f"Bearer {night['host_token']}"}
    out: list[float | None] = []
    for i in range(count):
        started = time.perf_counter()
        try:
            transport = httpx.HTTPTransport(local_address=local)
            with httpx.Client(transport=transport, timeout=10) as table:
                body = {"command_id": f"idle-{local}-{i}", "dice": [2, 3, 5]}
                ok = table.post(url, json=body, headers=headers).status_code == 200
        except httpx.HTTPError:
            ok = False
        out.append((time.perf_counter() - started) * 1000 if ok else None)
        time.sleep(0.1)
    return out


def idle_addresses(base: str, port: int, night: dict[str, Any], each: int) -> dict[str, Any]:
    """Two addresses hold ``each`` idle connections while a third asks and table 1 rolls."""
    counts: Any = SPAWN.Queue()
    seconds = 25.0
    attack = SPAWN.Process(
        target=hold_idle, args=(port, ["127.0.0.2", "127.0.0.3"], each, seconds, counts)
    )
    started = time.monotonic()
    attack.start()
    time.sleep(5.0)  # the two addresses are holding what the server lets them
    scored: list[float | None] = []
    scorer = threading.Thread(
        target=lambda: scored.extend(table_rolls(base, night, 60, "127.0.0.5")), daemon=True
    )
    scorer.start()
    asked = third_address(base, 100, "127.0.0.4")
    scorer.join(timeout=120)
    left = seconds - (time.monotonic() - started)
    attack.join(timeout=max(left, 0) + 60)
    return {"asked": asked, "rolls": scored, "attack": counts.get(timeout=30)}


# -- pipelining ----------------------------------------------------------------------------------


def get_routes(base: str, ids: dict[str, str]) -> list[str]:
    """Every GET route of the API (from its OpenAPI document) with its path filled in from
    ``ids``, and the home page."""
    paths = httpx.get(base + "/openapi.json").json()["paths"]
    out = ["/"]
    for path, operations in paths.items():
        if "get" not in operations:
            continue
        for name, value in ids.items():
            path = path.replace("{" + name + "}", value)
        out.append(path + ("?text=x" if path.endswith("qr.svg") else ""))
    return out


async def _pipeline(port: int, request: bytes, count: int) -> None:
    """Send ``count`` copies of ``request`` on one connection, read nothing, close."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request * count)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer.drain(), 20)
    await asyncio.sleep(0.3)
    writer.transport.abort()


def pipelining(
    port: int,
    pid: int,
    routes: list[str],
    tokens: Callable[[str], str],
    rss: Callable[[int], float],
    count: int = 20_000,
) -> list[tuple[str, str, list[float]]]:
    """For each route, with its token and without: three rounds of ``count`` pipelined
    requests, each then a close; the server's memory before and after each round (MB)."""
    out = []
    for route in routes:
        for which, token in (("token", tokens(route)), ("none", "")):
            auth = f"Authorization: Bearer {token}\r\n" if token else ""
            request = f"GET {route} HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode()
            readings = [settled(pid, rss)]
            for _ in range(3):
                asyncio.run(_pipeline(port, request, count))
                readings.append(settled(pid, rss))
            out.append((route, which, readings))
            if max(readings) - readings[0] > 5:  # the route's own? the same, not pipelined
                plain = [readings[-1]]
                for _ in range(3):
                    with httpx.Client(timeout=120) as client:
                        for _ in range(MAX_ANSWERED):
                            client.get(f"http://127.0.0.1:{port}{route}", headers=_auth(token))
                    plain.append(settled(pid, rss))
                out.append((route, which + ", one at a time", plain))
    return out


MAX_ANSWERED = 9
"""Pipelined requests the server answers on one connection before it closes it (the one
answered and the eight that may wait: bunco.web.server.connections.MAX_PIPELINE)."""


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"} if token else {}


def settled(pid: int, rss: Callable[[int], float], within: float = 0.3) -> float:
    """The server's memory once it stops moving (three readings 0.2 s apart)."""
    readings = [rss(pid)]
    for _ in range(50):
        time.sleep(0.2)
        readings = [*readings[-2:], rss(pid)]
        if len(readings) == 3 and max(readings) - min(readings) <= within:
            break
    return readings[-1]


# -- a WebSocket flood ---------------------------------------------------------------------------


async def _flooder(url: str, messages: int, counts: dict[str, int]) -> None:
    """Send ``messages`` pings, opening a new socket whenever the server closes one; count
    the sockets by the code they were closed with."""
    left = messages
    while left > 0:
        try:
            # a hostile client does not wait for the server to close: a new socket at once
            ws = await websockets.connect(url, ping_interval=None, max_size=None, close_timeout=0.1)
        except OSError:
            counts["failed"] += 1
            await asyncio.sleep(0.1)
            continue
        counts["opened"] += 1
        try:
            while left > 0:
                await ws.send('{"type":"ping"}')
                left -= 1
                if left % 200 == 0:
                    await asyncio.sleep(0)  # read what the server sends (its close)
        except websockets.ConnectionClosed:
            pass
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 1)
            code = ws.protocol.close_rcvd.code if ws.protocol.close_rcvd else "no close frame"
            counts[f"closed {code}"] = counts.get(f"closed {code}", 0) + 1


def flood(url: str, sockets: int, messages: int, out: Any) -> None:
    """``sockets`` flooders of ``messages`` pings each (a process's target)."""
    counts: dict[str, int] = {"opened": 0, "failed": 0}

    async def main() -> None:
        await asyncio.gather(*(_flooder(url, messages, counts) for _ in range(sockets)))

    asyncio.run(main())
    out.put(counts)


def websocket_flood(
    base: str, night: dict[str, Any], rolls: Callable[..., list[float]], count: int
) -> dict[str, Any]:
    """Ten sockets × ``count`` pings with the viewer link while table 1 rolls."""
    url = (
        f"{base.replace('http', 'ws')}/api/nights/{night['night']}/ws?token={night['viewer_token']}"
    )
    counts: Any = SPAWN.Queue()
    flooder = SPAWN.Process(target=flood, args=(url, 10, count, counts))
    flooder.start()
    time.sleep(2.0)
    scored = rolls(base, night, 300, 9000)
    flooder.join(timeout=600)
    running = flooder.is_alive()
    if running:
        flooder.terminate()
    return {"rolls": scored, "flood": {} if running else counts.get(timeout=30)}
