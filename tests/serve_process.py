"""The real `bunco serve` in a subprocess on a free port, for the process and browser tests."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def small_dice(i: int) -> list[int]:
    """Rolls that never reach 21 in round 1: a miss or one point."""
    return [2, 3, 5] if i % 2 else [1, 2, 3]


def run_until_acknowledged(
    writers: list[threading.Thread], acked: dict[str, Any], count: int, timeout: float = 60.0
) -> None:
    """Start the writer threads and wait until ``count`` commands are acknowledged."""
    for thread in writers:
        thread.start()
    deadline = time.monotonic() + timeout
    while len(acked) < count and time.monotonic() < deadline:
        time.sleep(0.005)
    assert len(acked) >= count, "the writers stopped early"


def log_holds_every_acknowledged(
    events: list[dict[str, Any]], acked: dict[str, int]
) -> dict[str | None, int]:
    """Check a night's stored events (``GET .../events``): seqs without a gap, and every
    acknowledged command (id → seq) stored at its seq. Returns command id → seq."""
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(len(events)))  # no gap
    by_id = {e["command_id"]: e["seq"] for e in events}
    for command, seq in acked.items():
        assert by_id.get(command) == seq, command  # every acknowledged event is there
    return by_id


def until(check: Any, timeout: float = 1.0) -> float:
    """Seconds until ``check()`` holds (fails after ``timeout``)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < timeout, "not within the time allowed"
        time.sleep(0.02)
    return time.monotonic() - start


def socket_closes(url: str) -> tuple[threading.Event, list[int]]:
    """Follow the WebSocket at ``url`` in a thread: an event set once it is caught up, and
    a list that gets its close code when the server closes it."""
    import json

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    ready = threading.Event()
    closed: list[int] = []

    def listen() -> None:
        with connect(url) as ws:
            try:
                for text in ws:
                    if json.loads(text)["type"] == "caught_up":
                        ready.set()
            except ConnectionClosed:
                pass
        closed.append(ws.close_code or 0)

    threading.Thread(target=listen, daemon=True).start()
    return ready, closed


def bunco_command() -> list[str]:
    script = shutil.which("bunco", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "bunco"]


class ServeProcess:
    """`bunco serve --db DB --port PORT --bot-pace 0`, its output appended to ``log``.

    ``db`` is an SQLite file or a database URL. On PostgreSQL, :meth:`start` waits until
    the server hears the other processes' notifications.
    """

    def __init__(self, db: Path | str, port: int, log: Path, *extra: str) -> None:
        self.db, self.port, self.log, self.extra = db, port, log, extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(self.log.parent)}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    *bunco_command(),
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    str(self.db),
                    "--bot-pace",
                    "0",
                    *self.extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        following = not str(self.db).startswith("postgresql")
        deadline = time.monotonic() + 120  # a busy machine (tests in parallel) starts slowly
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(self.base + "/api/health", timeout=1)
                if reply.status_code == 200 and (
                    following or reply.json()["following_other_processes"]
                ):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()  # a fixture that fails to start never stops it: no orphan server
        raise AssertionError("bunco serve did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@contextmanager
def two_servers(db: str, folder: Path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Processes A and B of `bunco serve` on the database ``db`` (logs in ``folder``),
    stopped when the block ends."""
    a = ServeProcess(db, free_port(), folder / "a.log")
    b = ServeProcess(db, free_port(), folder / "b.log")
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()
