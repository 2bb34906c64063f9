"""Benchmark of the pages on a slow party phone: bytes and time to ready of each page,
cold and reopened, and the bytes each page receives per roll, at 12 and 200 players, side
by side with an earlier commit.

The phone is Chromium (Debian's, driven by Playwright) slowed down through the DevTools
protocol as a mid-range phone on a crowded Wi-Fi: the CPU 4 times slower, 150 ms added to
each request's round trip, 1.6 Mbit/s down and 750 kbit/s up, at 390x844. For each server
(this checkout, and ``--baseline REF``, by default 47b3152, the pages before the third
part of issue 29; dfb8f5d is the pages before its second part, 6b846fd before issue 29) it
starts the real ``bunco serve`` on a fresh SQLite file, creates a ``classic`` night of 12
and one of 200 players, and for each page:

- **cold**: a new browser profile (empty cache) opens the page; **ready** is the time from
  the start of the navigation to the page's ``data-ready`` mark (the page has the server's
  state and draws it: the entry controls work), **bytes** all that came over the network
  until then (headers included, as compressed on the wire), the number of requests that
  went over the network (not those a service worker answered from its cache; the
  worker's own requests, slowed down as the tab's are, counted instead of the tab's), and
  the **round trips** on the way: how many times the page waited on the network with
  nothing else under way (requests that overlap count once), a figure the machine's load
  does not change;
- **warm**: the same profile opens the page again in a new tab (a phone reopening it);
  a table page draws what the phone kept at once (``data-drawn="kept"``, its controls
  working) before the server's state: **drawn** is that moment (the ``ready`` of a page
  that draws nothing early);
- **on screen**: the end of the first frame the page paints after its first drawing
  (ready, or a reopened table page's drawn), cold and reopened: the marks above are set
  when the page's script has built the page, before Chromium lays it out and paints it;
- **main thread** (with ``--trace``): the page's main thread until ready, from a Chromium
  trace of the tab: **busy**, the wall time of its tasks, and **CPU**, the thread's own
  CPU time in them (what the phone's processor does: the machine's load changes it much
  less than the wall times), each for the cold and the reopened page;
- **per roll**: with the page open, ``--rolls`` rolls at random tables of the night
  (two a second, misses: the round never ends), then ``--settle`` seconds; the bytes the page
  received over HTTP and its WebSocket (the messages' text: the wire may carry them
  deflated) divided by the rolls (measured once: the bytes do not vary from run to run).

The pages: the table page (table 1's scorekeeper), a player's page while choosing a name
and once it is theirs, the host page and the big screen. Each figure is the median of
``--repeat`` runs; the machine's load average is printed beside them, since a slowed-down
CPU on a busy machine slows further (both servers are measured in the same run). The baseline is unpacked from git (``git archive``) into a temporary
folder and run with the same Python and packages, its ``src`` on ``PYTHONPATH``.

    python benchmarks/pages.py                       # 12 and 200 players, against 47b3152
    python benchmarks/pages.py --pages table host    # some of the pages
    python benchmarks/pages.py --no-baseline --players 12 --repeat 1
    python benchmarks/pages.py --cpu-slowdown 1      # what the network alone costs
    python benchmarks/pages.py --pages table --baseline 349fa64 --trace   # the main thread too

It also prints the floor on that phone (``page_floor.py``): when a page of one line,
reopened from the browser's cache, is read and first painted; no page is ready sooner.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
SLOW_NETWORK = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
    "connectionType": "wifi",
}
PAGES = ("table", "player: choosing", "player: mine", "host", "big screen")
# the moments the page set its data-drawn and data-ready marks, since the navigation started,
# and the end of the first frame painted after the first of them (a message sent from that
# frame's animation callback is read once the frame's style, layout and paint are done)
WATCH_READY = """
new MutationObserver((changes, seen) => {
  const marks = document.body ? document.body.dataset : {};
  if (marks.drawn && !window.__drawn) window.__drawn = performance.now();
  if (marks.ready && !window.__ready) window.__ready = performance.now();
  if ((marks.drawn || marks.ready) && !window.__drawing) {
    window.__drawing = true;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { window.__painted = performance.now(); };
      channel.port2.postMessage(null);
    });
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready", "data-drawn"]});
"""
# the network's part of the way to ready: [start, end] of the page's own request and of
# every request that ended before ready (ms since the navigation started)
NETWORK = """
() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
  .filter((e) => e.responseEnd <= window.__ready)
  .map((e) => [e.startTime, e.responseEnd, e.transferSize])
"""

# whether a service worker served the page's navigation
SERVED = "() => performance.getEntriesByType('navigation')[0].workerStart > 0"


@dataclass
class Night:
    """A night made for the benchmark: its id, tokens and tables."""

    id: str
    players: list[str]
    host: str
    viewer: str
    table_token: str
    player_token: str
    tables: int


@dataclass
class Load:
    ready: float
    bytes: int
    requests: int
    drawn: float
    trips: int
    painted: float = 0.0  # the end of the first frame painted after the first drawing
    busy: float = 0.0  # the main thread's tasks until ready, wall ms (--trace)
    cpu: float = 0.0  # their CPU ms


# what a trace of the tab records (the main thread's tasks and their CPU time)
TRACE_CATEGORIES = ["devtools.timeline", "v8.execute", "loading"]


def main_thread(events: list[dict[str, Any]]) -> tuple[float, float]:
    """The wall and CPU milliseconds of the renderer main thread's top-level tasks in a
    trace's ``events`` (the thread that parsed the HTML and ran the scripts).

    >>> main_thread([{"name": "ParseHTML", "pid": 1, "tid": 2, "ph": "X", "ts": 0, "dur": 9000,
    ...   "tdur": 4000}, {"name": "Layout", "pid": 1, "tid": 2, "ph": "X", "ts": 1000,
    ...   "dur": 2000, "tdur": 1000}, {"name": "Paint", "pid": 1, "tid": 2, "ph": "X",
    ...   "ts": 20000, "dur": 1000, "tdur": 1000}])
    (10.0, 5.0)
    """
    counts: dict[tuple[Any, Any], int] = {}
    for e in events:
        if e.get("name") in ("FunctionCall", "ParseHTML", "UpdateLayoutTree"):
            key = (e.get("pid"), e.get("tid"))
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return 0.0, 0.0
    thread = max(counts, key=lambda k: counts[k])
    tasks = sorted(
        (
            e
            for e in events
            if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X" and "dur" in e
        ),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    busy = cpu = 0.0
    end = -1.0
    for e in tasks:
        if e["ts"] >= end:  # not inside the task before it
            busy += e["dur"]
            cpu += e.get("tdur", 0)
            end = e["ts"] + e["dur"]
    return busy / 1000, cpu / 1000


def round_trips(spans: list[tuple[float, float, int]]) -> int:
    """How many times the page waited on the network with nothing else under way:
    requests that overlap (asked together) count once, those that came from a cache
    (the browser's or a service worker's: nothing transferred) not at all.

    >>> round_trips([(0, 150, 900), (160, 400, 9000), (170, 380, 900), (390, 500, 900)])
    2
    >>> round_trips([(0, 20, 0), (30, 60, 0), (70, 300, 1200)])
    1
    """
    trips = 0
    end = -1.0
    for start, stop, size in sorted(spans):
        if size == 0:  # from a cache (the browser's or a service worker's): no network
            continue
        if start > end:
            trips += 1
        end = max(end, stop)
    return trips


@dataclass
class Figures:
    """One server's figures: (page, players) → cold, warm loads and bytes per roll."""

    cold: dict[tuple[str, int], list[Load]] = field(default_factory=dict)
    warm: dict[tuple[str, int], list[Load]] = field(default_factory=dict)
    per_roll: dict[tuple[str, int], list[float]] = field(default_factory=dict)


# -- the servers -------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(src: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``bunco serve`` of the package in ``src`` on a fresh SQLite file in ``folder``."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src), "XDG_DATA_HOME": str(folder)}
    with (folder / "serve.log").open("ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bunco",
                "serve",
                "--port",
                str(port),
                "--db",
                str(folder / "night.sqlite3"),
                "--bot-pace",
                "0",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # a loaded machine starts a server slowly
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(
        "error: bunco serve did not start within 3 minutes:\n" + (folder / "serve.log").read_text()
    )


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def unpack(ref: str, folder: Path) -> tuple[Path, str]:
    """The tree of ``ref`` unpacked into ``folder`` (``git archive``): its ``src`` and a
    one-line description."""
    tree = folder / "baseline"
    tree.mkdir()
    packed = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(packed)) as tar:
        tar.extractall(tree, filter="data")
    line = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h %s", ref],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return tree / "src", line[:70]


# -- a night -----------------------------------------------------------------------------
def make_night(base: str, players: int) -> Night:
    names = [f"Player {i:03d}" for i in range(1, players + 1)]
    with httpx.Client(base_url=base, timeout=30) as client:
        made = client.post(
            "/api/nights", json={"name": f"Bench {players}", "rules": "classic", "players": names}
        ).json()
        table = client.post("/api/join", json={"token": made["tables"][0]["token"]}).json()
        viewer = {"authorization": f"Bearer {made['viewer_token']}"}
        player = client.post(
            f"/api/nights/{made['night']}/claim", headers=viewer, json={"name": names[1]}
        ).json()
    return Night(
        made["night"],
        names,
        made["host_token"],
        made["viewer_token"],
        table["token"],
        player["token"],
        len(made["tables"]),
    )


def page_of(night: Night, page: str) -> tuple[str, dict[str, str]]:
    """The address of ``page`` and what this phone holds in localStorage for it."""
    key = f"bunco:{night.id}:"
    quoted = lambda token: f'"{token}"'  # noqa: E731 - the pages keep JSON values
    return {
        "table": (f"/n/{night.id}/table/1", {key + "table:1": quoted(night.table_token)}),
        "player: choosing": (f"/n/{night.id}/player", {key + "viewer": quoted(night.viewer)}),
        "player: mine": (f"/n/{night.id}/player", {key + "player": quoted(night.player_token)}),
        "host": (f"/n/{night.id}/host", {key + "host": quoted(night.host)}),
        "big screen": (f"/n/{night.id}/screen", {key + "viewer": quoted(night.viewer)}),
    }[page]


def roll_at_random(base: str, night: Night, count: int, pace: float, seed: int) -> None:
    """``count`` rolls at random tables, ``pace`` apart: misses (2 3 5), so the round
    never ends however many the benchmark enters."""
    rng = random.Random(seed)
    auth = {"authorization": f"Bearer {night.host}"}
    with httpx.Client(base_url=base, timeout=30, headers=auth) as client:
        for i in range(count):
            table = rng.randint(1, night.tables)
            client.post(
                f"/api/nights/{night.id}/tables/{table}/rolls",
                json={"command_id": f"bench-{seed}-{i}", "dice": [2, 3, 5]},
            )
            time.sleep(pace)


# -- the phone ---------------------------------------------------------------------------
class Meter:
    """What one tab received: each response's bytes on the wire, each WebSocket
    message's text, from the DevTools protocol."""

    def __init__(self, cdp: CDPSession) -> None:
        self.cdp = cdp  # the tab's session: also how the page is read (in_page)
        self.http = 0
        self.requests = 0
        self.socket = 0
        self.kept: set[str] = set()  # requests a service worker answered (Workers counts its own)
        cdp.on("Network.responseReceived", self._received)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame)

    def _received(self, event: dict[str, Any]) -> None:
        response = event["response"]
        if response.get("fromServiceWorker"):
            self.kept.add(event["requestId"])

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.kept:
            return  # from the worker's cache, or what the worker fetched (counted there)
        self.http += int(event.get("encodedDataLength", 0))
        self.requests += 1

    def _frame(self, event: dict[str, Any]) -> None:
        self.socket += len(event["response"]["payloadData"].encode("utf-8"))

    @property
    def total(self) -> int:
        return self.http + self.socket


class Workers:
    """The browser's service workers, slowed down as the tab is and their bytes counted.

    The DevTools protocol's network conditions hold for one target: a tab's do not reach
    the requests its service worker makes itself (a table page's worker asks for the
    page's first state as it opens the page). Each worker is reached through the browser's
    own session (``Target.sendMessageToTarget``, Playwright opens sessions on tabs only)."""

    def __init__(self, browser: Browser) -> None:
        self.cdp = browser.new_browser_cdp_session()
        self.slowed: set[str] = set()
        self.http = 0
        self.requests = 0
        self._sent = 0
        self.cdp.on("Target.receivedMessageFromTarget", self._message)

    def slow_down(self) -> int:
        """Slow down the workers running now that are not yet; how many there were."""
        found = 0
        for target in self.cdp.send("Target.getTargets")["targetInfos"]:
            if target["type"] != "service_worker" or target["targetId"] in self.slowed:
                continue
            session = self.cdp.send(
                "Target.attachToTarget", {"targetId": target["targetId"], "flatten": False}
            )["sessionId"]
            for method, params in (
                ("Network.enable", {}),
                ("Network.emulateNetworkConditions", SLOW_NETWORK),
            ):
                self._sent += 1
                message = {"id": self._sent, "method": method, "params": params}
                self.cdp.send(
                    "Target.sendMessageToTarget",
                    {"sessionId": session, "message": json.dumps(message)},
                )
            self.slowed.add(target["targetId"])
            found += 1
        return found

    def _message(self, event: dict[str, Any]) -> None:
        message = json.loads(event["message"])
        if message.get("method") == "Network.loadingFinished":
            self.http += int(message["params"].get("encodedDataLength", 0))
            self.requests += 1


def in_page(meter: Meter, function: str) -> Any:
    """The value of ``function`` (a JavaScript function's text, called with no argument)
    in the page's own world, read through the tab's DevTools session. Not Playwright's
    ``evaluate`` or ``wait_for_function``: they first put Playwright's own script (some
    hundreds of KB) into the page, parsed and run on the slowed main thread in the middle
    of the load being measured (42 ms of parsing alone, in a trace of a reopened table
    page), which no phone at a party runs."""
    reply = meter.cdp.send(
        "Runtime.evaluate", {"expression": f"({function})()", "returnByValue": True}
    )
    if "exceptionDetails" in reply:
        raise SystemExit(f"error: the page could not run {function!r}: {reply['exceptionDetails']}")
    return reply["result"].get("value")


def wait_in_page(page: Page, meter: Meter, function: str, timeout: float = 60.0) -> Any:
    """Wait until ``function`` (as :func:`in_page`) returns something true, looked at every
    100 ms (the marks are the page's own clock); returns it, or raises TimeoutError."""
    deadline = time.monotonic() + timeout
    while True:
        value = in_page(meter, function)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(function)
        page.wait_for_timeout(100)


def slow_tab(context: BrowserContext, cpu: float) -> tuple[Page, Meter]:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    return page, Meter(cdp)


def open_page(
    context: BrowserContext,
    base: str,
    path: str,
    cpu: float,
    workers: Workers,
    trace: Browser | None = None,
) -> tuple[Page, Load, Meter]:
    """Open ``path`` in a new slowed-down tab until it is ready (its service worker slowed
    down too, its requests counted with the tab's); with ``trace`` (the browser), its
    main thread's time from a trace of the tab."""
    page, meter = slow_tab(context, cpu)
    workers.slow_down()
    worker_bytes, worker_requests = workers.http, workers.requests
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if trace:
        trace.start_tracing(page=page, categories=TRACE_CATEGORIES)
    page.goto(base + path, wait_until="commit")
    try:
        # looked at every 100 ms, not at each frame: the mark is the page's own clock, and
        # the slowed-down page is not made to run the check sixty times a second
        wait_in_page(page, meter, "() => window.__ready")
    except (PlaywrightError, TimeoutError):
        shown = page.evaluate("() => document.body ? document.body.innerText.slice(0, 300) : ''")
        raise SystemExit(
            f"error: {path} was not ready within a minute: {errors} {shown!r}"
        ) from None
    # what came over the network until ready (within the 100 ms polling): read before the
    # trace stops, since the page goes on fetching what it does after ready meanwhile
    received = meter.total + workers.http - worker_bytes
    requests = meter.requests + workers.requests - worker_requests
    # a worker that started during the load of a page it serves ran at full speed (one
    # that a first visit registers serves it next time only)
    if workers.slow_down() and in_page(meter, SERVED):
        print(f"note: {path}: its service worker started unslowed during the load", flush=True)
    ready = in_page(meter, "() => window.__ready") / 1000
    drawn = in_page(meter, "() => window.__drawn || window.__ready") / 1000
    painted = wait_in_page(page, meter, "() => window.__painted") / 1000
    busy = cpu_ms = 0.0
    if trace:
        recorded = json.loads(trace.stop_tracing())
        busy, cpu_ms = main_thread(
            recorded["traceEvents"] if isinstance(recorded, dict) else recorded
        )
    spans = [(a, b, int(c)) for a, b, c in in_page(meter, NETWORK)]
    load = Load(ready, received, requests, min(drawn, ready), round_trips(spans))
    load.busy, load.cpu, load.painted = busy, cpu_ms, painted
    return page, load, meter


def new_phone(browser: Browser, storage: dict[str, str]) -> BrowserContext:
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(
        "".join(f"localStorage.setItem({k!r}, {v!r});" for k, v in storage.items()) + WATCH_READY
    )
    return context


def measure(
    browser: Browser,
    base: str,
    nights: dict[int, Night],
    figures: Figures,
    rolls: int,
    settle: float,
    seed: int,
    per_roll: bool,
    cpu: float,
    pages: tuple[str, ...] = PAGES,
    trace: bool = False,
) -> None:
    """Each of ``pages`` of each night, cold then warm; with ``per_roll``, the bytes per
    roll; with ``trace``, the main thread's time."""
    tracer = browser if trace else None
    workers = Workers(browser)
    for players, night in nights.items():
        for name in pages:
            path, storage = page_of(night, name)
            context = new_phone(browser, storage)
            try:
                first, cold, _ = open_page(context, base, path, cpu, workers, tracer)
                figures.cold.setdefault((name, players), []).append(cold)
                first.wait_for_timeout(1500)  # what it fetches after ready lands in the cache
                first.close()
                page, warm, meter = open_page(context, base, path, cpu, workers, tracer)
                figures.warm.setdefault((name, players), []).append(warm)
                if name == "player: choosing" or not per_roll:
                    continue
                page.wait_for_timeout(settle * 1000)
                before = meter.total
                roll_at_random(base, night, rolls, 0.5, seed)
                page.wait_for_timeout(settle * 1000)
                figures.per_roll.setdefault((name, players), []).append(
                    (meter.total - before) / rolls
                )
            finally:
                context.close()
            seed += 1


# -- the report --------------------------------------------------------------------------
def kb(n: float) -> str:
    return f"{n / 1000:.1f} KB"


def row(loads: list[Load]) -> tuple[str, str, str, str, str]:
    """Median ready, drawn, on screen, bytes / requests and round trips of ``loads``."""
    ready = statistics.median(x.ready for x in loads)
    drawn = statistics.median(x.drawn for x in loads)
    painted = statistics.median(x.painted for x in loads)
    size = statistics.median(x.bytes for x in loads)
    requests = statistics.median(x.requests for x in loads)
    trips = statistics.median(x.trips for x in loads)
    return (
        f"{ready:.2f} s",
        f"{drawn:.2f} s",
        f"{painted:.2f} s",
        f"{kb(size)} / {requests:.0f}",
        f"{trips:.0f} trip{'' if trips == 1 else 's'}",
    )


def cells_of(fig: Figures, key: tuple[str, int]) -> list[str]:
    """One server's lines for one page and party size: cold, reopened, per roll and (with
    ``--trace``) the main thread."""
    cold, _, cold_shown, cold_bytes, cold_trips = row(fig.cold[key])
    warm, drawn, shown, warm_bytes, warm_trips = row(fig.warm[key])
    early = f"drawn {drawn}, " if drawn != warm else ""
    lines = [
        f"cold {cold} (on screen {cold_shown}), {cold_bytes}, {cold_trips}",
        f"warm {warm} ({early}on screen {shown}), {warm_bytes}, {warm_trips}",
        f"per roll {kb(statistics.median(fig.per_roll[key]))}" if key in fig.per_roll else "",
    ]
    if fig.cold[key][0].cpu:
        lines.append(
            f"main thread cold {_ms(fig.cold[key], 'busy')} busy, "
            f"{_ms(fig.cold[key], 'cpu')} CPU; warm {_ms(fig.warm[key], 'busy')}, "
            f"{_ms(fig.warm[key], 'cpu')}"
        )
    return lines


def report(
    results: list[tuple[str, Figures]], players: list[int], pages: tuple[str, ...] = PAGES
) -> None:
    table = {
        (name, n): [cells_of(fig, (name, n)) for _, fig in results]
        for n in players
        for name in pages
    }
    width = 2 + max(len(line) for cells in table.values() for c in cells for line in c)
    print()
    print(
        "ready: from the navigation to the page's data-ready mark (drawn: a reopened table "
        "page drawn from what it kept, before the server's state; on screen: the first frame "
        "painted after the first drawing); bytes on the wire / "
        "requests until then; trips: round trips on the way (overlapping requests once); "
        "per roll: HTTP and WebSocket bytes the open page received"
    )
    print(
        f"{'page':<18}{'players':>8}  "
        + "".join(f"{label[: width - 2]:<{width}}" for label, _ in results)
    )
    for (name, players_n), cells in table.items():
        for line in range(max(len(c) for c in cells)):
            first = f"{name:<18}{players_n:>8}  " if line == 0 else " " * 28
            text = "".join(f"{(c[line] if line < len(c) else ''):<{width}}" for c in cells)
            if text.strip():
                print(first + text)
    if len(results) == 2:
        print()
        print("this checkout against the baseline (baseline ÷ this: how many times less):")
        for players_n in players:
            for name in pages:
                key = (name, players_n)
                new, old = results[0][1], results[1][1]
                parts = [
                    f"ready cold {_ratio(old.cold[key], new.cold[key], 'ready')}",
                    f"warm {_ratio(old.warm[key], new.warm[key], 'ready')}",
                    f"drawn warm {_ratio(old.warm[key], new.warm[key], 'drawn')}",
                    f"on screen cold {_ratio(old.cold[key], new.cold[key], 'painted')}",
                    f"warm {_ratio(old.warm[key], new.warm[key], 'painted')}",
                    f"bytes cold {_ratio(old.cold[key], new.cold[key], 'bytes')}",
                    f"warm {_ratio(old.warm[key], new.warm[key], 'bytes')}",
                    f"trips cold {_ratio(old.cold[key], new.cold[key], 'trips')}",
                ]
                if new.cold[key][0].cpu and old.cold[key][0].cpu:
                    parts.append(
                        f"main thread CPU cold {_ratio(old.cold[key], new.cold[key], 'cpu')}, "
                        f"warm {_ratio(old.warm[key], new.warm[key], 'cpu')}"
                    )
                if key in new.per_roll:
                    a = statistics.median(old.per_roll[key])
                    b = statistics.median(new.per_roll[key])
                    parts.append(f"per roll {a / max(b, 1):.1f}x")
                print(f"  {name:<18}{players_n:>5}: " + ", ".join(parts))


def _ratio(old: list[Load], new: list[Load], what: str) -> str:
    a = statistics.median(getattr(x, what) for x in old)
    b = statistics.median(getattr(x, what) for x in new)
    return f"{a / b:.1f}x" if b else "-"


def _ms(loads: list[Load], what: str) -> str:
    return f"{statistics.median(getattr(x, what) for x in loads):.0f} ms"


def _short(page: str) -> str:
    """The page's first word: ``player: mine`` → ``player``, ``big screen`` → ``big``."""
    return page.split()[0].rstrip(":")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[12, 200])
    parser.add_argument(
        "--baseline",
        default="47b3152",
        help="the commit to compare with (default: the pages before the "
        "third part of issue 29; dfb8f5d: before its second part; 6b846fd: before issue 29)",
    )
    parser.add_argument(
        "--pages",
        nargs="+",
        choices=sorted({_short(p) for p in PAGES}),
        help="only these pages (table, player, host, big)",
    )
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="also trace each load: the page's main thread until ready (busy and CPU ms)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--cpu-slowdown",
        type=float,
        default=4.0,
        help="how many times slower the phone's CPU is (1: the network only)",
    )
    parser.add_argument("--rolls", type=int, default=12)
    parser.add_argument(
        "--settle", type=float, default=3.5, help="seconds before and after the rolls"
    )
    args = parser.parse_args()
    pages = tuple(p for p in PAGES if not args.pages or _short(p) in args.pages)
    if not CHROMIUM.exists():
        raise SystemExit(
            f"error: Chromium is missing at {CHROMIUM}\n"
            "expected: Debian's chromium package (apt-get install chromium)"
        )
    with tempfile.TemporaryDirectory(prefix="bunco-pages-") as tmp:
        folder = Path(tmp)
        servers = [("this checkout", ROOT / "src")]
        if not args.no_baseline:
            src, line = unpack(args.baseline, folder)
            servers.append((line, src))
        results = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            for label, src in servers:
                run = folder / f"run-{len(results)}"
                run.mkdir()
                proc, base = start_server(src, run)
                try:
                    nights = {n: make_night(base, n) for n in args.players}
                    figures = Figures()
                    for r in range(args.repeat):
                        measure(
                            browser,
                            base,
                            nights,
                            figures,
                            args.rolls,
                            args.settle,
                            seed=1000 * r,
                            per_roll=r == 0,
                            cpu=args.cpu_slowdown,
                            pages=pages,
                            trace=args.trace,
                        )
                    results.append((label, figures))
                    print(f"measured: {label}", flush=True)
                finally:
                    stop_server(proc)
            from page_floor import describe, floor  # it builds on this module's phone

            bottom = describe(*floor(browser, args.cpu_slowdown, 3 * args.repeat))
            browser.close()
        print(
            f"\nthe phone: CPU {args.cpu_slowdown:g}x slower, {SLOW_NETWORK['latency']} ms "
            f"round trips, {SLOW_NETWORK['downloadThroughput'] * 8 / 1e6:g} Mbit/s down, "
            f"{PHONE['width']}x{PHONE['height']}"
        )
        print(f"the floor on that phone (page_floor.py): {bottom}")
        report(results, args.players, pages)
        print(
            f"load average (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
            f" on {os.cpu_count()} CPUs"
        )


if __name__ == "__main__":
    main()
