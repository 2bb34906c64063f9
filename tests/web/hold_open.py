"""A hostile laptop for the connection tests: addresses that hold idle connections open
and open a new one whenever the server closes one (run in a process of its own, so that
the test's own requests do not wait for its interpreter)."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import time
from multiprocessing.queues import Queue


async def _hold(port: int, host: str, until: float, counts: dict[str, int]) -> None:
    """One slot: connect from ``host``, send nothing, wait for the server to close it,
    connect again, until ``until``; count each connection in ``counts``."""
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
            counts["cut_at_deadline"] += 1
        elif time.monotonic() < until:
            counts["refused"] += 1  # closed without a word: past a cap
            await asyncio.sleep(0.01)  # the attacker's own loop breathes


def hold_idle(port: int, hosts: list[str], each: int, seconds: float, out: Queue) -> None:  # type: ignore[type-arg]
    """``each`` idle connections from every address of ``hosts`` for ``seconds``; puts
    the counts (connections opened, refused, cut at the header deadline with 408,
    failed to open) on ``out``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    counts = {"opened": 0, "refused": 0, "cut_at_deadline": 0, "failed": 0}

    async def main() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(_hold(port, h, until, counts) for h in hosts for _ in range(each)))

    asyncio.run(main())
    out.put(counts)
