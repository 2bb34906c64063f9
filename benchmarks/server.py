"""Benchmark of `bunco serve`: a 1,000-player tournament played live, side by side with
an earlier commit.

For each server (the code checked out here, and ``--baseline REF``, by default the
previous commit) and each setup (one process on SQLite; two processes on PostgreSQL
with the writers and the listeners split between them), it starts the real server(s),
creates a tournament of ``--players`` players (250 tables of four for 1,000), joins
every table as its scorekeeper and then, for ``--seconds``:

- one writer per table (a table's phone, HTTP keep-alive) enters rolls at
  ``--rate`` rolls per second in total, each with the table's ``expected_seq``;
- per table, its phone and a page per other player (following the table its player
  sits at: with the pages as they are on one WebSocket all night, which the server moves
  to the player's next table; with ``table-page``, a new WebSocket after each round) and
  ``--screens`` big screens (following the whole night) listen on the WebSocket, and
  every page (the writers' too) fetches what the real pages fetch after each update:
  see :data:`PAGE_MODELS`,
  the one place that says what a page does, to follow when the pages change. The
  pages' first load and their connection come before the measured run. The baseline
  is measured with its own pages' model (``--baseline-pages``, by default ``table-page``,
  the pages before a player's page kept one socket), this checkout with ``--pages``.

It prints, per server and setup: the rolls accepted (in % of those offered, leaving out
``round_over``, the refusals of a table that finished its round and waits for the
others), p50/p99 from a roll's request to its arrival at each listener that follows it,
the pages' fetches, the CPU time, and the machine's load average (the machine may be
shared: figures are noisy, and both servers are measured in the same run for that
reason). It checks that every listener got every event of the tables it followed, in
order, and exactly those (see :func:`expected_deliveries`).

The baseline is checked out with ``git worktree add --detach`` into a temporary folder
(removed at the end) and run with the same Python and packages, its ``src`` first on
``PYTHONPATH``. PostgreSQL runs use ``--pg URL`` (default ``$BUNCO_BENCH_PG_URL``, else
``$BUNCO_TEST_PG_URL``); that database is WIPED before each server starts.

    python benchmarks/server.py                                  # 1,000 players, 1,000 rolls/s
    python benchmarks/server.py --baseline ec5aa77 --seconds 30  # against that commit
    python benchmarks/server.py --players 200 --seconds 5 --no-baseline --setups sqlite
    python benchmarks/server.py --baseline-pages live.js         # its pages before issue 16

``--scale 1000,2500,5000`` compares event sizes instead of commits: this checkout only, on
PostgreSQL, each size over each of ``--processes`` (default 1,2,4) with ``--table-rate``
rolls per second offered at each table (default 1), and with ``--proxy`` once more, the
largest night on the most processes, through Caddy over https (deploy/Caddyfile, run as
tests/caddy_proxy.py runs it on loopback). An event of more than ``--room-size`` players
(default 1,000; a night seats at most 2,000) is played as rooms of that size, a night each,
all at once on the same servers, as a 5,000-player event fills several halls; every room
has its tables' phones, a page per player and ``--screens`` big screens. It prints a row
per run: rolls per second
offered and accepted, p50/p99 request -> listener, whether every listener got exactly
its events, the peak memory of each server process, the servers' CPU.

    python benchmarks/server.py --scale 1000,2500,5000 --processes 1,2,4 --proxy
    python benchmarks/server.py --scale 200,1000 --processes 1,2 --seconds 10 --proxy
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing as mp
import os
import random
import re
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
ID_RE = re.compile(
    rb'"(?:command_)?id":"b(\d+)-(\d+)-(\d+)"'
)  # envelope (older servers: in the event)
SEQ_RE = re.compile(rb'"seq":(\d+)')
TYPE_RE = re.compile(rb'^\{"type":"(\w+)"')
ROUND_RE = re.compile(rb'"set":(\d+),"round":(\d+)')
TABLE_RE = re.compile(rb'"table":(\d+|null)')  # the first: a hello's or table message's own


# -- what a page does after an update: follow web/static/js/live.js and table.js here -------


@dataclass(frozen=True)
class Behaviour:
    """What one kind of page fetches after live messages.

    ``path``: what it reloads, ``night`` (``GET /api/nights/{id}``, the whole night) or
    ``table`` (``GET /api/nights/{id}/tables/{n}``, its table's page); ``reload_on``: the
    live message types after which it reloads, ``debounce`` seconds after the last of a
    burst, one request at a time (a reload asked for meanwhile runs once more after it);
    ``new_round_only``: only messages that show another set or round count;
    ``page_pushed``: a ``table`` message showing the new round (the table's page, pushed)
    cancels that reload; ``lag``: other ``event`` messages make it reload at most every
    ``lag`` seconds; ``after_ack``: a table's phone reloads after the reply to its own roll;
    ``follows_player``: a player's phone that moves to the table its player goes to when a
    pushed page's ``moves`` say so (a new WebSocket, ``since`` the last seq it saw);
    ``player_socket``: a player's phone that follows its player on one WebSocket all night
    (``?player=NAME``): the server moves it and sends the new table's page.
    """

    path: str
    reload_on: frozenset[str]
    debounce: float
    new_round_only: bool = False
    page_pushed: bool = False
    lag: float | None = None
    after_ack: bool = False
    follows_player: bool = False
    player_socket: bool = False


@dataclass(frozen=True)
class PageModel:
    """What the pages of one version of bunco fetch: a table's phone, a player's phone
    (``None``: as a table's phone, staying at its first table) and a whole-night page (big
    screen, host)."""

    description: str
    table: Behaviour
    night: Behaviour
    player: Behaviour | None = None


TABLE_PAGE = Behaviour(
    "table", frozenset({"status", "event"}), 0.600, new_round_only=True, page_pushed=True
)
"""A table's phone that takes its pushed page (see ``table-page`` below)."""
NIGHT_PATCHED = Behaviour(
    "night", frozenset({"status", "event"}), 0.060, new_round_only=True, lag=3.0
)
"""A whole-night page that patches events in and reloads at a new round, else every 3 s."""
EVERY_BURST = Behaviour("night", frozenset({"event", "status", "table", "caught_up"}), 0.060)

PAGE_MODELS = {
    # live.js before issue 16: Live.receive() called soon() for these types; soon() reloaded
    # 60 ms after the last; table.js submit() awaited live.acknowledge(ack), a reload.
    "live.js": PageModel(
        "the pages before issue 16: a full GET of the night after every burst of live "
        "messages and after each of the table phone's own rolls",
        table=Behaviour("night", EVERY_BURST.reload_on, 0.060, after_ack=True),
        night=EVERY_BURST,
    ),
    # The first step of issue 16: every live message carried the table's view and the
    # night's status, so table.js reloaded the night only when a status or table message
    # showed another phase, set or round; whole-night pages still reloaded per burst.
    "push": PageModel(
        "a table page GETs the whole night once per round, a whole-night page after every "
        "burst of live messages",
        table=Behaviour("night", frozenset({"status", "table"}), 0.060, new_round_only=True),
        night=EVERY_BURST,
    ),
    # The pages of 46ae1c3 (live.js): a table's phone loads its table's page once and then
    # applies what is pushed (each event's table view and status; at a new round or bell the
    # table message with the table's whole page; a reconnect's hello with the page). It
    # reloads its page only if a message shows a new round and no page of it follows within
    # 0.6 s (its table is not in play). A whole-night page patches each event's table view
    # and status, reloads the night 60 ms after a new round (or an event of the whole night,
    # which this run does not send), and otherwise at most every 3 s while rolls come in.
    "table-page": PageModel(
        "a table page GETs nothing after its first load (the server pushes its page at a "
        "new round); a whole-night page GETs the night at a new round and at most every 3 s",
        table=TABLE_PAGE,
        night=NIGHT_PATCHED,
        # player.js: the same as a table's phone, at the table its player sits at, and a
        # new WebSocket to the table its player goes to after a round
        player=replace(TABLE_PAGE, follows_player=True),
    ),
    # The pages now: as table-page, but a player's phone keeps one WebSocket all night
    # (?player=NAME) and the server sends it the page of each table its player moves to.
    "player-socket": PageModel(
        "as table-page, and a player's page keeps one WebSocket all night: the server sends "
        "it the page of the table its player moves to",
        table=TABLE_PAGE,
        night=NIGHT_PATCHED,
        player=replace(TABLE_PAGE, player_socket=True),
    ),
}


class Page:
    """One page's fetching, driven by a :class:`Behaviour` (one keep-alive connection)."""

    def __init__(
        self,
        behaviour: Behaviour,
        port: int,
        night: str,
        table: int | None,
        token: str,
        stats: dict[str, list[int]],
    ) -> None:
        self.b, self.night, self.token, self.stats = behaviour, night, token, stats
        self.path = (
            f"/api/nights/{night}"
            if behaviour.path == "night" or table is None
            else f"/api/nights/{night}/tables/{table}"
        )
        self.http = Http(port)
        self.timer: asyncio.TimerHandle | None = None
        self.due = 0.0
        self.busy = False
        self.again = False
        self.round: bytes | None = None
        self.last_get = 0.0
        self.active = False  # the page's first load and its connection are not measured
        self.task: asyncio.Future[None] | None = None

    def heard(self, data: bytes) -> None:
        """A live message arrived: reload later if the page would."""
        found = TYPE_RE.match(data)
        if found is None:
            return
        kind = found.group(1).decode()
        if kind == "hello":  # the round the page loaded (its first load is not measured)
            shown = ROUND_RE.search(data)
            self.round = shown.group(0) if shown is not None else None
            return
        if not self.active:
            return
        b = self.b
        if kind == "table" and b.page_pushed:
            shown = ROUND_RE.search(data)
            if shown is not None and shown.group(0) == self.round and self.timer is not None:
                self.timer.cancel()  # the new round's page came: no reload
                self.timer = None
            return
        if kind not in b.reload_on:
            return
        if b.new_round_only:
            shown = ROUND_RE.search(data)
            if shown is None:
                return
            if shown.group(0) == self.round:
                if b.lag is not None and kind == "event":
                    self.schedule(
                        max(b.debounce, self.last_get + b.lag - time.monotonic()), keep_sooner=True
                    )
                return
            self.round = shown.group(0)
        self.schedule(b.debounce, keep_sooner=b.lag is not None)

    def schedule(self, delay: float, *, keep_sooner: bool = False) -> None:
        """Reload in ``delay`` seconds (with ``keep_sooner``, unless one is due sooner)."""
        due = time.monotonic() + delay
        if self.timer is not None:
            if keep_sooner and self.due <= due:
                return
            self.timer.cancel()
        self.due = due
        self.timer = asyncio.get_running_loop().call_later(delay, self.refresh)

    def acknowledged(self) -> None:
        """The reply to this page's own command came."""
        if self.active and self.b.after_ack:
            self.refresh()

    def refresh(self) -> None:
        self.timer = None
        if self.busy:
            self.again = True
            return
        self.busy = True
        self.task = asyncio.ensure_future(self._reload())

    async def _reload(self) -> None:
        try:
            while True:
                self.again = False
                await self.load()
                if not self.again:
                    break
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            pass  # the server went away at the end of the run
        finally:
            self.busy = False

    async def load(self) -> None:
        start = time.monotonic_ns()
        self.last_get = time.monotonic()
        _, body = await self.http.request("GET", self.path, token=self.token)
        self.stats["get_ns"].append(time.monotonic_ns() - start)
        self.stats["get_bytes"].append(len(body))
        round_now = ROUND_RE.search(body)
        if round_now is not None:
            self.round = round_now.group(0)


# -- a tiny HTTP/1.1 keep-alive client (httpx would cost the client more than the server) --

TLS: ssl.SSLContext | None = None
"""Through Caddy (``--proxy``): the clients speak https and wss, trusting Caddy's own
certificate authority (see :func:`use_tls`); otherwise plain http to the servers."""


def use_tls(cafile: str | None) -> None:
    """Speak TLS to the servers' port from now on, trusting ``cafile`` (None: plain)."""
    global TLS
    TLS = None if cafile is None else ssl.create_default_context(cafile=cafile)


def more_files() -> None:
    """Raise this process's open-file limit to its hard limit (5,000 pages' sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Http:
    """One keep-alive connection; ``request`` sends a JSON body and returns (status, body)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        )
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, ssl=TLS
                )
            reader = self.reader
            assert reader is not None
            self.writer.write(head.encode() + b"\r\n" + data)
            try:
                line = await reader.readline()
            except ConnectionError:
                line = b""
            if line or attempt == 2:
                break
            # the server closed the idle keep-alive connection (after 5 s): open another
            # and send again (the command id makes a repeat harmless)
            self.close()
            self.writer = None
        assert reader is not None
        status = int(line.split()[1])
        length = 0
        chunked = False
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
            elif line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                chunked = True  # a proxy may pass a body on in chunks
        if not chunked:
            return status, await reader.readexactly(length)
        body = b""
        while size := int((await reader.readline()).split(b";")[0], 16):
            body += await reader.readexactly(size + 2)
            body = body[:-2]
        await reader.readline()  # the empty trailer
        return status, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# -- servers ---------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    src: Path, db: str, port: int, log: Path, extra: list[str] | None = None
) -> subprocess.Popen[bytes]:
    """``bunco serve`` from the package in ``src`` (this checkout's or the baseline's)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bunco", "serve", "--port", str(port), "--db", db]
            + (extra or []),
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                time.sleep(0.5)  # PostgreSQL: let it start listening for the other process
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def checkout(ref: str, folder: Path) -> tuple[Path, str]:
    """A worktree of ``ref`` in ``folder``: its ``src`` and a one-line description."""
    tree = folder / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), ref],
        check=True,
        capture_output=True,
    )
    line = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h %s", ref],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return tree / "src", line


def remove_checkout(folder: Path) -> None:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder / "baseline")],
        capture_output=True,
    )


# -- listeners (separate processes) ----------------------------------------------------------


@dataclass(frozen=True)
class Listening:
    """What one listener process follows: (port, room, table or None, seat, player) per
    page, in the rooms (nights) of the event."""

    rooms: list[tuple[str, str, int]]
    """Per room: its night, its viewer link's token, and how many tables the rooms before
    it hold (a room's table ``t`` is the event's table ``offset + t``)."""
    pages: list[tuple[int, int, int | None, int, str | None]]
    """(port, room, table or None for a big screen, seat: 0 the table's phone, others
    players', the name of the player sitting there at the start)"""
    model: str
    cafile: str | None = None
    """Through Caddy: its certificate authority (the pages speak wss)."""


def listener_process(job: Listening, ready: Any, stop: Any, results: Any) -> None:
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # writes to closed sockets at the end
    more_files()
    use_tls(job.cafile)
    asyncio.run(_listen_all(job, ready, stop, results))


async def _listen_all(job: Listening, ready: Any, stop: Any, results: Any) -> None:
    from websockets.asyncio.client import connect

    model = PAGE_MODELS[job.model]
    latencies: list[int] = []
    sent_at: list[int] = []
    problems: list[str] = []
    stats: dict[str, list[int]] = {"get_ns": [], "get_bytes": [], "moves": [], "opened": []}
    spans: list[list[tuple[int, int]]] = []
    """Per table or player page: (seq, table) when it starts following that table (it
    should then hear every event of that table after that seq, until its next span)."""
    received: list[int] = []
    """Per table or player page: the events it heard."""
    connected = 0

    pages: list[Page] = []

    async def listen(
        port: int, room: int, table: int | None, seat: int, name: str | None, index: int
    ) -> None:
        nonlocal connected
        night, token, offset = job.rooms[room]
        behaviour = (
            model.night
            if table is None
            else model.player
            if seat and model.player is not None
            else model.table
        )
        page = Page(behaviour, port, night, table, token, stats)
        pages.append(page)
        mine: list[tuple[int, int]] = []  # (seq, the event's table number)
        if table is not None:
            spans.append(mine)
            received.append(0)
        slot = len(received) - 1
        last = -1
        player: str | None = None
        first = True
        while True:
            query = f"token={token}" + ("" if first else f"&since={last}")
            if behaviour.player_socket and name is not None:
                query += f"&player={quote(name, safe='')}"
            elif table is not None:
                query += f"&table={table}"
            moved: int | None = None
            async with connect(
                f"{'wss' if TLS else 'ws'}://127.0.0.1:{port}/api/nights/{night}/ws?{query}",
                ssl=TLS,
                max_size=None,
                ping_interval=None,
                open_timeout=120,
                max_queue=None,
            ) as ws:
                if first:
                    connected += 1
                    first = False
                if page.active:
                    stats["opened"].append(1)
                async for text in ws:
                    data = text.encode() if isinstance(text, str) else text
                    page.heard(data)
                    if table is not None and data[:16] in (
                        b'{"type":"hello",',
                        b'{"type":"table",',
                    ):
                        found, seq_match = TABLE_RE.search(data), SEQ_RE.search(data)
                        at = found.group(1) if found is not None else b"null"
                        now_at = 0 if at == b"null" else int(at)
                        in_event = now_at and now_at + offset  # 0: at no table
                        if seq_match is not None and (
                            not mine or (behaviour.player_socket and in_event != mine[-1][1])
                        ):
                            if mine:  # the server moved this player's socket
                                stats["moves"].append(1)
                            mine.append((int(seq_match.group(1)), in_event))
                            table = now_at
                            page.path = f"/api/nights/{night}/tables/{table}"
                    if behaviour.follows_player and data[:16] in (
                        b'{"type":"hello",',
                        b'{"type":"table",',
                    ):
                        message = json.loads(data)
                        if player is None:  # whose phone this is: who sits at my seat
                            player = (message.get("table_view") or {}).get(
                                "players", [None] * (seat + 1)
                            )[seat]
                        goes = next(
                            (
                                m["to"]
                                for m in (message.get("view") or {}).get("moves", [])
                                if m["player"] == player
                            ),
                            None,
                        )
                        if goes is not None and goes["table"] != table:
                            moved, last = goes["table"], max(last, message["seq"])
                            break  # player.js follows the table its player goes to
                        continue
                    if not data.startswith(b'{"type":"event"'):
                        continue
                    now = time.monotonic_ns()
                    seq_match = SEQ_RE.search(data)
                    seq = int(seq_match.group(1)) if seq_match else -1
                    if seq <= last:
                        problems.append(f"listener {table}/{index}: seq {seq} after {last}")
                    last = seq
                    match = ID_RE.search(data)
                    if match is not None:
                        latencies.append(now - int(match.group(1)))
                        sent_at.append(int(match.group(1)))
                        if table is not None:
                            received[slot] += 1
            if moved is None:
                return
            table = moved
            mine.append((last, table + offset))
            page.path = f"/api/nights/{night}/tables/{table}"
            stats["moves"].append(1)

    tasks = [
        asyncio.ensure_future(listen(port, room, table, seat, name, i))
        for i, (port, room, table, seat, name) in enumerate(job.pages)
    ]
    while connected < len(tasks):
        await asyncio.sleep(0.05)
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise SystemExit(f"a listener failed: {failed[0].exception()!r}")
    for page in pages:  # the pages are loaded and connected: from now on they fetch
        page.active = True
    ready.set()
    cpu_start = time.process_time()
    while not stop.is_set():
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # let the last deliveries land
    for task in tasks:
        task.cancel()
    results.put(
        {
            "latencies": latencies,
            "sent_at": sent_at,
            "problems": problems[:10],
            "spans": spans,
            "received": received,
            "listeners": len(tasks),
            "gets": stats["get_ns"],
            "get_bytes": sum(stats["get_bytes"]),
            "moves": len(stats["moves"]),
            "opened": len(stats["opened"]),
            "cpu": time.process_time() - cpu_start,
        }
    )


# -- writers -----------------------------------------------------------------------------------


async def write_all(
    ports: list[int],
    night: str,
    tokens: list[str],
    model: PageModel,
    args: argparse.Namespace,
    rounds: list[tuple[float, int, int]],
    changed: asyncio.Condition,
    *,
    share: float = 1.0,
) -> dict[str, Any]:
    """One room's tables entering rolls, together ``share`` of ``args.rate``."""
    tables = len(tokens)
    accepted = [0] * (tables + 1)
    seqs: list[list[int]] = [[] for _ in range(tables + 1)]  # each table's accepted events
    offered = 0
    refused: dict[str, int] = {}
    round_trips: list[int] = []
    stats: dict[str, list[int]] = {"get_ns": [], "get_bytes": []}
    start = time.monotonic()
    stop_at = start + args.seconds
    interval = tables / (args.rate * share) if args.rate > 0 else 0.0

    async def writer(table: int) -> None:
        nonlocal offered
        port = ports[table % len(ports)]
        http = Http(port)
        page = Page(model.table, port, night, table, tokens[table - 1], stats)
        page.active = True
        version = 0
        path = f"/api/nights/{night}/tables/{table}/rolls"
        due = start + random.random() * interval
        i = 0
        while True:
            if interval:
                due += interval
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            if time.monotonic() >= stop_at:
                break
            i += 1
            rounds_seen = len(rounds)
            body = {
                "command_id": f"b{time.monotonic_ns()}-{table}-{i}",
                "dice": [random.randint(1, 6) for _ in range(3)],
                "expected_seq": version,
            }
            sent = time.monotonic_ns()
            offered += 1
            status, reply = await http.request("POST", path, body, tokens[table - 1])
            round_trips.append(time.monotonic_ns() - sent)
            if status == 200:
                accepted[table] += 1
                seq = SEQ_RE.search(reply)
                assert seq is not None
                version = int(seq.group(1))
                seqs[table].append(version)
                page.acknowledged()
                continue
            error = json.loads(reply)
            refused[error["error"]] = refused.get(error["error"], 0) + 1
            if error["error"] == "stale":
                version = int(error["current_seq"])
            elif error["error"] in ("round_over", "not_allowed_now"):
                # this table is done for the round: wait for the next one
                def moved_on(seen: int = rounds_seen) -> bool:
                    return len(rounds) > seen

                try:
                    async with changed:
                        await asyncio.wait_for(
                            changed.wait_for(moved_on), max(0.0, stop_at - time.monotonic())
                        )
                except TimeoutError:
                    break
                due = time.monotonic() + random.random() * interval  # not all at once
            elif error["error"] in ("not_seated", "seating_changed"):
                # a new round: the table's players moved; its phone confirms the seating
                seated = {"command_id": f"s{time.monotonic_ns()}-{table}"}
                path_seated = f"/api/nights/{night}/tables/{table}/seated"
                await http.request("POST", path_seated, seated, tokens[table - 1])
            elif status >= 500 or error["error"] == "busy":
                continue
            else:
                raise SystemExit(f"table {table}: {status} {reply[:200]!r}")
        http.close()

    await asyncio.gather(*(writer(t) for t in range(1, tables + 1)))
    return {
        "accepted": sum(accepted),
        "offered": offered,
        "per_table": accepted,
        "seqs": seqs,
        "refused": refused,
        "round_trips": round_trips,
        "gets": stats["get_ns"],
        "get_bytes": sum(stats["get_bytes"]),
        "elapsed": min(time.monotonic(), stop_at) - start,
    }


async def watch_rounds(
    port: int,
    night: str,
    token: str,
    changed: asyncio.Condition,
    rounds: list[tuple[float, int, int]],
    moments: list[float],
) -> None:
    """A big screen in the writers' process: wakes the writers when a round changes and
    notes when the status changes (the bell, a new round)."""
    from websockets.asyncio.client import connect

    scheme = "wss" if TLS else "ws"
    url = f"{scheme}://127.0.0.1:{port}/api/nights/{night}/ws?token={token}&since=0"
    async with connect(url, ssl=TLS, max_size=None, ping_interval=None, max_queue=None) as ws:
        seen = None
        async for text in ws:
            if '"type":"status"' not in text[:20] and '"type":"hello"' not in text[:20]:
                continue
            status = json.loads(text)["status"]
            moments.append(time.monotonic())
            key = (status["set"], status["round"])
            if key != seen:
                seen = key
                async with changed:
                    rounds.append((time.monotonic(), *key))
                    changed.notify_all()


# -- one run -----------------------------------------------------------------------------------


def percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1e6 if ordered else 0.0


def room_sizes(players: int, room_size: int) -> list[int]:
    """The players of each room (night) of an event of ``players``: rooms of ``room_size``
    (a night seats at most 2,000), the last one smaller, every room whole tables of four.

    >>> room_sizes(5000, 1000)
    [1000, 1000, 1000, 1000, 1000]
    >>> room_sizes(2500, 1000)
    [1000, 1000, 500]
    >>> room_sizes(200, 1000)
    [200]
    """
    rooms = [room_size] * (players // room_size)
    if players % room_size:
        rooms.append(players % room_size)
    return rooms


async def open_room(
    port: int, rules: str, first: int, count: int, label: str
) -> tuple[str, str, list[str], list[list[str]]]:
    """Create one room's night of ``count`` players (numbered from ``first``) and join each
    of its tables as its phone: (night, viewer token, the tables' tokens, who sits where)."""
    http = Http(port)
    players = [f"P{i:05d}" for i in range(first, first + count)]
    status, body = await http.request(
        "POST", "/api/nights", {"name": f"Benchmark {label}", "rules": rules, "players": players}
    )
    if status != 201:
        raise SystemExit(f"creating the night failed: {status} {body[:300]!r}")
    created = json.loads(body)
    night, viewer = created["night"], created["viewer_token"]
    tokens = []
    for table in created["tables"]:
        status, body = await http.request("POST", "/api/join", {"code": table["code"]})
        tokens.append(json.loads(body)["token"])
    status, body = await http.request("GET", f"/api/nights/{night}", token=viewer)
    seated = [t["players"] for t in json.loads(body)["view"]["tables"]]
    http.close()
    return night, viewer, tokens, seated


async def play(
    args: argparse.Namespace, ports: list[int], pids: list[int], pages_of: str
) -> dict[str, Any]:
    """One event against the server(s) on ``ports``: its players in rooms of
    ``args.room_size`` (one night each, played at once), with pages as ``pages_of`` says
    (a key of :data:`PAGE_MODELS`)."""
    sizes = room_sizes(args.players, args.room_size)
    rooms: list[tuple[str, str, int]] = []  # (night, viewer, tables of the rooms before)
    room_tokens: list[list[str]] = []
    pages: list[tuple[int, int, int | None, int, str | None]] = []
    offset = 0
    for room, count in enumerate(sizes):
        label = "tournament" if len(sizes) == 1 else f"room {room + 1} of {len(sizes)}"
        night, viewer, tokens, seated = await open_room(
            ports[room % len(ports)], args.rules, offset * 4 + 1, count, label
        )
        rooms.append((night, viewer, offset))
        room_tokens.append(tokens)
        tables = len(tokens)
        seats = count // tables
        # pages: seat s of table t on process (t + s) % n, so each table is heard on every
        # process; each room has its big screens
        pages += [
            (ports[(t + s) % len(ports)], room, t, s, seated[t - 1][s])
            for t in range(1, tables + 1)
            for s in range(seats)
        ] + [(ports[i % len(ports)], room, None, 0, None) for i in range(args.screens)]
        offset += tables
    ctx = mp.get_context("spawn")
    stop, results = ctx.Event(), ctx.Queue()
    jobs = []
    for k in range(args.listener_processes):
        ready = ctx.Event()
        job = Listening(rooms, pages[k :: args.listener_processes], pages_of, args.cafile)
        proc = ctx.Process(
            target=listener_process, args=(job, ready, stop, results), daemon=True
        )  # never outlives a failed run
        proc.start()
        jobs.append((proc, ready))
    deadline = time.monotonic() + args.setup_timeout
    while not all(ready.is_set() for _, ready in jobs):
        await asyncio.sleep(0.1)
        if any(not p.is_alive() for p, _ in jobs) or time.monotonic() > deadline:
            stop.set()
            raise SystemExit("the listeners failed to connect (or load) in time")
    changed = [asyncio.Condition() for _ in rooms]
    rounds: list[list[tuple[float, int, int]]] = [[] for _ in rooms]
    moments: list[float] = []
    watchers = [
        asyncio.ensure_future(
            watch_rounds(
                ports[room % len(ports)], night, viewer, changed[room], rounds[room], moments
            )
        )
        for room, (night, viewer, _) in enumerate(rooms)
    ]
    t0 = time.monotonic()
    load0 = os.getloadavg()[0]
    proxy_pid = getattr(args, "proxy_pid", None)
    cpu0, own0 = sum(cpu_seconds(p) for p in pids), time.process_time()
    proxy0 = cpu_seconds(proxy_pid) if proxy_pid else 0.0
    try:
        parts = await asyncio.gather(
            *(
                write_all(
                    ports,
                    night,
                    room_tokens[room],
                    PAGE_MODELS[pages_of],
                    args,
                    rounds[room],
                    changed[room],
                    share=sizes[room] / args.players,
                )
                for room, (night, _, _) in enumerate(rooms)
            )
        )
        written = merged(parts)
        cpu1, own1 = sum(cpu_seconds(p) for p in pids), time.process_time()
        proxy1 = cpu_seconds(proxy_pid) if proxy_pid else 0.0
    finally:
        stop.set()  # the listeners report (or, after a failure, stop)
    heard: dict[str, Any] = {
        "latencies": [],
        "sent_at": [],
        "problems": [],
        "spans": [],
        "received": [],
        "listeners": 0,
        "gets": [],
        "get_bytes": 0,
        "moves": 0,
        "opened": 0,
        "cpu": 0.0,
    }
    for _ in jobs:
        part = results.get(timeout=120)
        for key in ("latencies", "sent_at", "problems", "gets", "spans", "received"):
            heard[key] += part[key]
        for key in ("listeners", "get_bytes", "moves", "opened", "cpu"):
            heard[key] += part[key]
    for proc, _ in jobs:
        proc.join(30)
    for watcher in watchers:
        watcher.cancel()
    return {
        "rooms": len(rooms),
        "tables": offset,
        "written": written,
        "heard": heard,
        "rounds": [(round(t - t0, 1), s, r) for t, s, r in rounds[0]],
        "server_cpu": cpu1 - cpu0,
        "proxy_cpu": proxy1 - proxy0,
        "writers_cpu": own1 - own0,
        "moments": moments[1:],
        "load": (load0, os.getloadavg()[0]),
        "round_changes": sorted(t for room in rounds for t, _, _ in room[1:]),
    }


def merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The rooms' writers as one event's: their counts summed, their tables numbered one
    after the other (room 2's table 1 follows room 1's last), as the listeners number them.

    >>> one = {"accepted": 2, "offered": 3, "per_table": [0, 2], "seqs": [[], [1, 2]],
    ...        "refused": {"stale": 1}, "round_trips": [5], "gets": [], "get_bytes": 0,
    ...        "elapsed": 9.5}
    >>> two = {**one, "per_table": [0, 1, 1], "seqs": [[], [1], [2]], "elapsed": 10.0}
    >>> both = merged([one, two])
    >>> both["seqs"], both["refused"], both["elapsed"]
    ([[], [1, 2], [1], [2]], {'stale': 2}, 10.0)
    """
    refused: dict[str, int] = {}
    for part in parts:
        for key, count in part["refused"].items():
            refused[key] = refused.get(key, 0) + count
    return {
        "accepted": sum(p["accepted"] for p in parts),
        "offered": sum(p["offered"] for p in parts),
        "per_table": [0] + [n for p in parts for n in p["per_table"][1:]],
        "seqs": [[]] + [seqs for p in parts for seqs in p["seqs"][1:]],
        "refused": refused,
        "round_trips": [t for p in parts for t in p["round_trips"]],
        "gets": [t for p in parts for t in p["gets"]],
        "get_bytes": sum(p["get_bytes"] for p in parts),
        "elapsed": max(p["elapsed"] for p in parts),
    }


def expected_deliveries(spans: list[list[tuple[int, int]]], seqs: list[list[int]]) -> list[int]:
    """The events each table or player page should have heard: every accepted roll of
    each table it followed, from the seq it started following it until it moved on.

    >>> expected_deliveries([[(0, 1)], [(0, 1), (3, 2)]], [[], [1, 3, 5], [2, 4]])
    [3, 3]
    """
    out = []
    for page in spans:
        total = 0
        for i, (start, table) in enumerate(page):
            end = page[i + 1][0] if i + 1 < len(page) else None
            if 0 < table < len(seqs):
                events = seqs[table]
                last = len(events) if end is None else bisect_right(events, end)
                total += max(0, last - bisect_right(events, start))
        out.append(total)
    return out


def split_near(
    sent_at: list[int], latencies: list[int], changes: list[float], window: float = 1.0
) -> tuple[list[int], list[int]]:
    """The latencies of rolls sent within ``window`` seconds before or after a round
    change (as the watching screen saw it), and the others."""
    marks = sorted(int(t * 1e9) for t in changes)
    span = int(window * 1e9)
    near: list[int] = []
    away: list[int] = []
    for sent, latency in zip(sent_at, latencies, strict=True):
        i = bisect_right(marks, sent)
        close = (i > 0 and sent - marks[i - 1] <= span) or (
            i < len(marks) and marks[i] - sent <= span
        )
        (near if close else away).append(latency)
    return near, away


def figures_of(result: dict[str, Any]) -> dict[str, Any]:
    written, heard = result["written"], result["heard"]
    latencies = heard["latencies"]
    elapsed = written["elapsed"]
    round_over = sum(written["refused"].get(k, 0) for k in ("round_over", "not_allowed_now"))
    expected = expected_deliveries(heard["spans"], written["seqs"])
    short = sum(got != want for got, want in zip(heard["received"], expected, strict=True))
    gets = heard["gets"] + written["gets"]
    changes = max(1, len(result["rounds"]) - 1)  # the round changes during the run
    near, away = split_near(heard["sent_at"], latencies, result.get("round_changes", []))
    return {
        "offered": written["offered"],
        "accepted": written["accepted"],
        "accepted_share": round(written["accepted"] / max(1, written["offered"] - round_over), 4),
        "rolls_per_second": round(written["accepted"] / elapsed, 1),
        "refused": written["refused"],
        "seconds": round(elapsed, 1),
        "latency_ms_p50": round(percentile(latencies, 0.50), 1),
        "latency_ms_p99": round(percentile(latencies, 0.99), 1),
        "latency_ms_max": round(max(latencies) / 1e6, 1) if latencies else 0.0,
        "latency_ms_p99_near_round_change": round(percentile(near, 0.99), 1),
        "latency_ms_p99_elsewhere": round(percentile(away, 0.99), 1),
        "request_ms_p99": round(percentile(written["round_trips"], 0.99), 1),
        "table_deliveries": sum(heard["received"]),
        "table_deliveries_expected": sum(expected),
        "listeners_off_expected": short,
        "order_problems": len(heard["problems"]),
        "page_gets_per_second": round(len(gets) / elapsed, 1),
        "page_get_ms_p99": round(percentile(gets, 0.99), 1),
        "page_get_mb_per_second": round(
            (heard["get_bytes"] + written["get_bytes"]) / elapsed / 1e6, 1
        ),
        "player_moves": heard["moves"],
        "sockets_opened": heard["opened"],
        "sockets_per_round_change": round(heard["opened"] / changes, 1),
        "server_cpu_share": round(result["server_cpu"] / elapsed, 2),
        "server_cpu_us_per_roll": round(result["server_cpu"] / max(1, written["accepted"]) * 1e6),
        "proxy_cpu_share": round(result.get("proxy_cpu", 0.0) / elapsed, 2),
        "clients_cpu_share": round((heard["cpu"] + result["writers_cpu"]) / elapsed, 2),
        "load_average": [round(x, 1) for x in result["load"]],
        "listeners": heard["listeners"],
        "rooms": result["rooms"],
        "rounds": result["rounds"],
    }


def rss_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak, in MB (Linux ``/proc``)."""
    try:
        fields = dict(
            line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        )
    except OSError:
        return 0.0, 0.0
    now, peak = (int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))
    return now, peak


def run(
    args: argparse.Namespace,
    src: Path,
    setup: str,
    folder: Path,
    pages_of: str,
    *,
    processes: int | None = None,
    proxy: bool = False,
) -> dict[str, Any]:
    """One server (or several) of the code in ``src``, one tournament with the pages of
    ``pages_of`` (a key of :data:`PAGE_MODELS`), its figures. ``processes``: how many
    server processes share PostgreSQL (default: one on SQLite, two on PostgreSQL);
    ``proxy``: the clients reach them through Caddy over https (deploy/Caddyfile)."""
    scaled = processes is not None
    processes = processes or (1 if setup == "sqlite" else 2)
    if setup == "sqlite":
        dbs = [str(folder / f"bench-{time.monotonic_ns()}.sqlite3")]
    else:
        from bunco.store.db import wipe_postgres

        wipe_postgres(args.pg)
        dbs = [args.pg] * processes
    ports = [free_port() for _ in range(processes)]
    # a 5,000-player night holds more connections than the caps' defaults
    extra = ["--max-connections", "30000", "--max-per-address", "30000"] if scaled else []
    if scaled:  # every listener here comes from one address and connects at once (a
        # room's phones come from as many addresses): past the cap of connections from one
        # address that have not sent a whole request yet (the servers read it at start)
        os.environ["BUNCO_MAX_NEW_PER_ADDRESS"] = "30000"
    if proxy:
        extra += ["--trusted-proxy", "127.0.0.1"]
    servers: list[subprocess.Popen[bytes]] = []
    caddy: Any = None
    try:
        for db, port in zip(dbs, ports, strict=True):  # one after the other: one migrates
            servers.append(start_server(src, db, port, folder / f"serve-{port}.log", extra))
            print(f"    server pid {servers[-1].pid} on port {port}", file=sys.stderr, flush=True)
        clients = ports
        args.cafile, args.proxy_pid = None, None
        if proxy:
            sys.path.insert(0, str(ROOT / "tests"))
            from caddy_proxy import CaddyProxy

            place = folder / f"caddy-{time.monotonic_ns()}"
            place.mkdir()
            caddy = CaddyProxy(place, free_port(), free_port(), ports)
            caddy.start()
            args.cafile, args.proxy_pid = str(caddy.cafile), caddy.proc.pid
            clients = [caddy.port]
            print(f"    caddy pid {caddy.proc.pid} on port {caddy.port}", file=sys.stderr)
        use_tls(args.cafile)
        result = asyncio.run(play(args, clients, [s.pid for s in servers], pages_of))
        figures = figures_of(result)
        figures["memory_mb"] = [round(rss_mb(s.pid)[1]) for s in servers]
        if caddy is not None:
            figures["proxy_memory_mb"] = round(rss_mb(caddy.proc.pid)[1])
        return figures
    finally:
        use_tls(None)
        if caddy is not None:
            caddy.stop()
        for server in servers:
            stop_server(server)


# -- the comparison ------------------------------------------------------------------------------

ROWS: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
    ("rolls offered / accepted", lambda f: f"{f['offered']} / {f['accepted']}"),
    ("accepted, leaving out round_over", lambda f: f"{f['accepted_share']:.1%}"),
    (
        "request -> listener p50 / p99 ms",
        lambda f: f"{f['latency_ms_p50']} / {f['latency_ms_p99']}",
    ),
    (
        "p99 ms within 1 s of a round change / elsewhere",
        lambda f: (
            f"{f.get('latency_ms_p99_near_round_change', 0)} / "
            f"{f.get('latency_ms_p99_elsewhere', 0)}"
        ),
    ),
    ("request -> reply p99 ms", lambda f: f"{f['request_ms_p99']}"),
    (
        "table deliveries / expected",
        lambda f: f"{f['table_deliveries']} / {f['table_deliveries_expected']}",
    ),
    ("refused", lambda f: ", ".join(f"{k} {v}" for k, v in sorted(f["refused"].items())) or "none"),
    ("listeners off their expected count", lambda f: str(f.get("listeners_off_expected", 0))),
    ("order problems", lambda f: str(f["order_problems"])),
    (
        "page GETs/s (p99 ms, MB/s)",
        lambda f: (
            f"{f['page_gets_per_second']} ({f['page_get_ms_p99']}, {f['page_get_mb_per_second']})"
        ),
    ),
    ("player pages moved to a new table", lambda f: str(f.get("player_moves", 0))),
    (
        "WebSockets opened during the run (per round change)",
        lambda f: f"{f.get('sockets_opened', 0)} ({f.get('sockets_per_round_change', 0)})",
    ),
    (
        "server CPU: cores, us per roll",
        lambda f: f"{f['server_cpu_share']}, {f['server_cpu_us_per_roll']}",
    ),
    ("load average before / after", lambda f: " / ".join(map(str, f["load_average"]))),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument(
        "--room-size",
        type=int,
        default=1000,
        help="players of one room: an event of more players is played as several nights at "
        "once, on the same servers (a night seats at most 2,000)",
    )
    parser.add_argument("--rules", default="tournament")
    parser.add_argument(
        "--rate",
        type=float,
        default=1000.0,
        help="total rolls per second offered (0 = as fast as possible)",
    )
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--screens", type=int, default=4, help="whole-night listeners")
    parser.add_argument(
        "--pages",
        choices=sorted(PAGE_MODELS),
        default="player-socket",
        help="what this checkout's pages fetch after an update (see PAGE_MODELS)",
    )
    parser.add_argument(
        "--baseline-pages",
        choices=sorted(PAGE_MODELS),
        default="table-page",
        help="what the baseline's pages fetch (its own pages' model: the "
        "baseline server may not serve what newer pages ask for)",
    )
    parser.add_argument(
        "--setups",
        default="sqlite,postgresql",
        help="comma-separated: sqlite (one process), postgresql (two processes); default both",
    )
    parser.add_argument(
        "--pg",
        default=os.environ.get("BUNCO_BENCH_PG_URL") or os.environ.get("BUNCO_TEST_PG_URL"),
        help="PostgreSQL database to use (WIPED before each server starts)",
    )
    parser.add_argument(
        "--baseline",
        default="HEAD~1",
        help="git ref of the code to compare with (default: the previous commit)",
    )
    parser.add_argument("--no-baseline", action="store_true", help="measure this code only")
    parser.add_argument("--listener-processes", type=int, default=2)
    parser.add_argument(
        "--setup-timeout",
        type=float,
        default=300.0,
        help="seconds allowed to connect and load every page",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--scale",
        help="players of each night to compare, e.g. 1000,2500,5000: this checkout only, on "
        "PostgreSQL, over each of --processes (the scaling printed side by side)",
    )
    parser.add_argument(
        "--processes", default="1,2,4", help="with --scale: server processes sharing PostgreSQL"
    )
    parser.add_argument(
        "--table-rate",
        type=float,
        default=1.0,
        help="with --scale: rolls per second offered at each table (real tables roll about "
        "once every 2 to 4 s)",
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="with --scale: also the largest night on the most processes through Caddy over "
        "https (deploy/Caddyfile, as tests/caddy_proxy.py runs it)",
    )
    args = parser.parse_args()
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # writes to closed sockets at the end
    more_files()
    if args.scale:
        scale(parser, args)
        return
    setups = [s for s in args.setups.split(",") if s]
    unknown = sorted(set(setups) - {"sqlite", "postgresql"})
    if unknown or not setups:
        parser.error(
            f"--setups {args.setups!r}: unknown {', '.join(unknown) or 'empty list'}; "
            "expected sqlite, postgresql or sqlite,postgresql"
        )
    if "postgresql" in setups and not args.pg:
        print(
            "note: no --pg URL (nor BUNCO_BENCH_PG_URL/BUNCO_TEST_PG_URL): PostgreSQL skipped",
            file=sys.stderr,
        )
        setups.remove("postgresql")

    folder = Path(tempfile.mkdtemp(prefix="bunco-bench-"))
    codes: list[tuple[str, Path, str]] = [("this checkout", ROOT / "src", args.pages)]
    try:
        if not args.no_baseline:
            try:
                src, line = checkout(args.baseline, folder)
                codes.insert(0, (f"{args.baseline} ({line})", src, args.baseline_pages))
            except subprocess.CalledProcessError as exc:
                print(
                    f"note: cannot check out {args.baseline}: "
                    f"{exc.stderr.decode().strip()}; measuring this checkout only",
                    file=sys.stderr,
                )
        results: dict[str, dict[str, Any]] = {}
        for setup in setups:
            for name, src, pages_of in codes:
                label = f"{setup}: {name}"
                print(f"... {label}", file=sys.stderr, flush=True)
                results[label] = run(args, src, setup, folder, pages_of)
    finally:
        if len(codes) > 1:
            remove_checkout(folder)
        shutil.rmtree(folder, ignore_errors=True)

    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"bunco serve benchmark: {args.players} players, {args.rate:.0f} rolls/s offered for "
        f"{args.seconds:.0f} s, {args.players} page listeners + {args.screens} screens, "
        f"{os.cpu_count()} CPUs"
    )
    print(f"pages of this checkout: {args.pages} ({PAGE_MODELS[args.pages].description})")
    if len(codes) > 1:
        print(
            f"pages of the baseline: {args.baseline_pages} "
            f"({PAGE_MODELS[args.baseline_pages].description})"
        )
    labels = list(results)
    width = max(len(r[0]) for r in ROWS) + 2
    for setup in setups:
        cols = [lab for lab in labels if lab.startswith(setup + ":")]
        title = (
            "one process, SQLite"
            if setup == "sqlite"
            else "two processes, PostgreSQL (writers and listeners split between them)"
        )
        print(f"\n{title}")
        print(" " * width + " | ".join(f"{lab.split(': ', 1)[1][:40]:>40}" for lab in cols))
        for row, fmt in ROWS:
            print(f"{row:<{width}}" + " | ".join(f"{fmt(results[lab]):>40}" for lab in cols))


def numbers(parser: argparse.ArgumentParser, option: str, text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        parser.error(f"{option} {text!r}: expected whole numbers separated by commas, e.g. 1,2,4")
    return values


def scale(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--scale``: each night size on each number of processes (and once through Caddy),
    this checkout on PostgreSQL, one row per run."""
    sizes = numbers(parser, "--scale", args.scale)
    counts = numbers(parser, "--processes", args.processes)
    if not args.pg:
        parser.error("--scale needs PostgreSQL: --pg URL (or BUNCO_BENCH_PG_URL)")
    if any(n % 4 for n in sizes):
        parser.error(f"--scale {args.scale}: expected multiples of 4 (tables of four)")
    if args.room_size % 4 or not 4 <= args.room_size <= 2000:
        parser.error(
            f"--room-size {args.room_size}: expected a multiple of 4 from 4 to 2,000 "
            "(the players one night seats)"
        )
    runs = [(n, p, False) for p in counts for n in sizes]
    if args.proxy:
        runs.append((max(sizes), max(counts), True))
    folder = Path(tempfile.mkdtemp(prefix="bunco-bench-"))
    results = []
    try:
        for players, processes, proxy in runs:
            tables = players // 4
            one = argparse.Namespace(**{**vars(args), "players": players})
            one.rate = args.table_rate * tables
            label = f"{players} players, {processes} processes" + (
                " through Caddy" if proxy else ""
            )
            print(f"... {label}", file=sys.stderr, flush=True)
            figures = run(
                one, ROOT / "src", "postgresql", folder, args.pages,
                processes=processes, proxy=proxy,
            )  # fmt: skip
            results.append({"players": players, "processes": processes, "proxy": proxy, **figures})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"bunco serve at scale: PostgreSQL, {args.table_rate:g} rolls/s offered at each table "
        f"for {args.seconds:.0f} s, a page per player + {args.screens} screens per room, rooms "
        f"of {args.room_size:,} players (a night each, played at once), "
        f"{os.cpu_count()} CPUs; pages: {args.pages}"
    )
    print(scale_table(results))


SCALE_COLUMNS: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
    ("players", lambda r: f"{r['players']:,}"),
    ("rooms", lambda r: str(r["rooms"])),
    ("processes", lambda r: str(r["processes"]) + (" +Caddy" if r["proxy"] else "")),
    ("rolls/s offered", lambda r: f"{r['offered'] / max(r['seconds'], 0.1):.0f}"),
    ("rolls/s accepted", lambda r: f"{r['rolls_per_second']:.0f} ({r['accepted_share']:.1%})"),
    ("req->listener p50/p99 ms", lambda r: f"{r['latency_ms_p50']} / {r['latency_ms_p99']}"),
    (
        "every listener exact",
        lambda r: (
            ("yes" if not r["listeners_off_expected"] and not r["order_problems"] else "NO")
            + f" ({r['listeners_off_expected']} off, {r['table_deliveries']:,} / "
            f"{r['table_deliveries_expected']:,})"
        ),
    ),
    ("peak MB per process", lambda r: "/".join(str(m) for m in r["memory_mb"])),
    (
        "server CPU cores",
        lambda r: (
            f"{r['server_cpu_share']}"
            + (f" (+Caddy {r['proxy_cpu_share']}, {r['proxy_memory_mb']} MB)" if r["proxy"] else "")
        ),
    ),
    ("load", lambda r: " / ".join(map(str, r["load_average"]))),
]


def scale_table(results: list[dict[str, Any]]) -> str:
    """The runs side by side: a row per run, a column per figure."""
    cells = [[name for name, _ in SCALE_COLUMNS]] + [
        [cell(r) for _, cell in SCALE_COLUMNS] for r in results
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(SCALE_COLUMNS))]
    return "\n".join(
        "  ".join(
            c.rjust(w) if i else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in cells
    )


if __name__ == "__main__":
    main()
