"""The deployment of docs/deploy.md, run: PostgreSQL, two `bunco serve` processes started
with the command of deploy/bunco@.service, and Caddy with deploy/Caddyfile in front
(`tls internal` on loopback, high ports). A night is played through the proxy over
https by phones at their own addresses (rolls, pages, WebSockets); one process is
killed mid-round; the phones go on through the other, and every roll is stored once and
heard once by every page that follows its table. Skipped without Caddy (.ci/run
installs it) or PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from caddy_proxy import (
    CADDY,
    NO_CADDY,
    CaddyProxy,
    environment_file,
    loopback_caddyfile,
    unit_command,
)
from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import free_port, small_dice

PLAYERS = [f"P{i:02d}" for i in range(1, 17)]  # four tables
ROLLS = 24  # per table: misses and single points, so round 1 never ends
SECRET = "deploy-test-secret"


def test_the_example_files_hold_together(tmp_path: Path) -> None:
    """Every variable the units use is in the environment file; the Caddyfile is one
    Caddy reads (as committed, and as the test runs it)."""
    env = environment_file()
    assert {"BUNCO_DB", "BUNCO_PUBLIC_URL", "BUNCO_CREATE_SECRET", "BUNCO_BACKUPS"} <= set(env)
    command = unit_command(8001, env)
    assert command[-10:] == [
        "--host", "127.0.0.1", "--port", "8001", "--db", env["BUNCO_DB"],
        "--public-url", env["BUNCO_PUBLIC_URL"], "--trusted-proxy", "127.0.0.1",
    ]  # fmt: skip
    folder = Path(__file__).resolve().parents[2] / "deploy"
    for unit in ("bunco-backup.service", "bunco-prune.service"):
        text = (folder / unit).read_text()
        used = {v for v in env if f"${{{v}}}" in text or f'"${v}"' in text}
        assert "BUNCO_DB" in used and "EnvironmentFile=/etc/bunco/bunco.env" in text
    if CADDY is None:
        pytest.skip(NO_CADDY)
    for config in (folder / "Caddyfile", None):
        if config is None:
            config = tmp_path / "Caddyfile"
            config.write_text(loopback_caddyfile(18443, 18080, [18001, 18002]))
        done = subprocess.run(
            [CADDY, "adapt", "--config", str(config), "--adapter", "caddyfile"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        assert '"handler":"reverse_proxy"' in done.stdout


class Server:
    """One `bunco serve` as deploy/bunco@.service starts it."""

    def __init__(self, port: int, env: dict[str, str], folder: Path) -> None:
        self.port = port
        self.log = folder / f"serve-{port}.log"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                unit_command(port, env),
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, **env, "XDG_DATA_HOME": str(folder)},
            )

    def wait(self) -> None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(f"http://127.0.0.1:{self.port}/api/health", timeout=1)
                if reply.status_code == 200 and reply.json()["following_other_processes"]:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("bunco serve did not start:\n" + self.log.read_text())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[tuple[CaddyProxy, list[Server]]]:
    if CADDY is None:
        pytest.skip(NO_CADDY)
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    with wiped_postgres() as url:
        ports = [free_port(), free_port()]
        proxy = CaddyProxy(tmp_path, free_port(), free_port(), ports)
        env = {"BUNCO_DB": url, "BUNCO_PUBLIC_URL": proxy.base, "BUNCO_CREATE_SECRET": SECRET}
        servers = [Server(port, env, tmp_path) for port in ports]  # one migrates, one waits
        try:
            for server in servers:
                server.wait()
            proxy.start()
            yield proxy, servers
        finally:
            proxy.stop()
            for server in servers:
                server.stop()


def phone(proxy: CaddyProxy, address: str) -> httpx.Client:
    """A phone at its own address, through the proxy, trusting its certificate."""
    assert proxy.ssl is not None
    transport = httpx.HTTPTransport(local_address=address, verify=proxy.ssl)
    return httpx.Client(base_url=proxy.base, transport=transport, timeout=10)


class Page(threading.Thread):
    """A page following a night (one table, or the whole night) on a WebSocket from its
    own address; it connects again with ``since`` when its socket is cut."""

    def __init__(
        self, proxy: CaddyProxy, night: str, token: str, address: str, table: int | None
    ) -> None:
        super().__init__(daemon=True)
        self.url = f"wss://127.0.0.1:{proxy.port}/api/nights/{night}/ws?token={token}"
        if table is not None:
            self.url += f"&table={table}"
        self.context: ssl.SSLContext | None = proxy.ssl
        self.address, self.table = address, table
        self.heard: list[tuple[int, int | None]] = []
        self.reconnects = 0
        self.ready = threading.Event()
        self.done = threading.Event()

    def run(self) -> None:
        last = 0
        while not self.done.is_set():
            try:
                with connect(
                    f"{self.url}&since={last}",
                    ssl=self.context,
                    source_address=(self.address, 0),
                    open_timeout=10,
                ) as ws:
                    while not self.done.is_set():
                        try:
                            message: dict[str, Any] = json.loads(ws.recv(timeout=0.2))
                        except TimeoutError:
                            continue
                        if message["type"] == "caught_up":
                            self.ready.set()
                        elif message["type"] == "event":
                            self.heard.append((message["seq"], message["table"]))
                            last = message["seq"]
            except (ConnectionClosed, OSError):
                pass
            if not self.done.is_set():
                self.reconnects += 1
                time.sleep(0.2)


class Scorekeeper(threading.Thread):
    """A table's phone entering ``ROLLS`` rolls; a roll not answered (the process died,
    the proxy's 502) is sent again with the same command id until it is."""

    def __init__(self, proxy: CaddyProxy, night: str, table: int, token: str) -> None:
        super().__init__(daemon=True)
        self.client = phone(proxy, f"127.0.0.{20 + table}")
        self.client.headers["Authorization"] = f"Bearer {token}"
        self.path = f"/api/nights/{night}/tables/{table}/rolls"
        self.table = table
        self.acked: dict[str, int] = {}
        self.sent_again = 0
        self.duplicates = 0

    def run(self) -> None:
        for i in range(ROLLS):
            command = f"t{self.table}-{i}"
            while True:
                try:
                    reply = self.client.post(
                        self.path, json={"command_id": command, "dice": small_dice(i)}
                    )
                except httpx.HTTPError:
                    reply = None
                if reply is not None and reply.status_code == 200:
                    self.acked[command] = reply.json()["seq"]
                    self.duplicates += reply.json()["duplicate"]
                    break
                assert reply is None or reply.status_code >= 500, reply.text
                self.sent_again += 1
                time.sleep(0.1)
            time.sleep(0.04)
        self.client.close()


def test_a_night_through_caddy_over_https_goes_on_when_a_process_is_killed(
    deployment: tuple[CaddyProxy, list[Server]],
) -> None:
    proxy, servers = deployment
    started = time.monotonic()
    host = phone(proxy, "127.0.0.2")
    reply = host.post(  # with the creation secret, as another device than the server's
        "/api/nights",
        json={"name": "Behind Caddy", "players": PLAYERS},
        headers={"Authorization": f"Bearer {SECRET}"},
    )
    assert reply.status_code == 201, reply.text
    created = reply.json()
    night = created["night"]
    # every link and QR code carries the public address
    links = [created["links"]["host"], created["links"]["viewer"]]
    links += [t["link"] for t in created["tables"]]
    assert all(link.startswith(proxy.base + "/") for link in links)
    assert created["links"]["websocket"].startswith(f"wss://127.0.0.1:{proxy.port}/")
    assert host.get("/pages/address.json").json()["base"] == proxy.base
    for page in (f"/night/{night}?token={created['host_token']}", "/join", "/"):
        got = host.get(page)
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/html")
    # the limits on guessing count each phone's own address, not the proxy's
    guesser, neighbour = phone(proxy, "127.0.0.3"), phone(proxy, "127.0.0.4")
    codes = [guesser.post("/api/join", json={"code": "ZZZZZZ"}).status_code for _ in range(12)]
    assert codes == [404] * 11 + [429]  # ten failures, the slow path's one attempt, then wait
    spoofed = guesser.post(
        "/api/join", json={"code": "ZZZZZZ"}, headers={"X-Forwarded-For": "10.1.2.3"}
    )
    assert spoofed.status_code == 429  # a header the phone writes changes nothing
    assert neighbour.post("/api/join", json={"code": "ZZZZZZ"}).status_code == 404
    tokens = {}
    for table in created["tables"]:
        joined = neighbour.post("/api/join", json={"code": table["code"]})
        assert joined.status_code == 200, joined.text
        tokens[table["table"]] = joined.json()["token"]

    viewer = created["viewer_token"]
    pages = [Page(proxy, night, viewer, f"127.0.0.{10 + t}", t) for t in tokens]
    pages.append(Page(proxy, night, viewer, "127.0.0.9", None))  # a big screen
    for page in pages:
        page.start()
        assert page.ready.wait(10)
    keepers = [Scorekeeper(proxy, night, t, token) for t, token in tokens.items()]
    for keeper in keepers:
        keeper.start()
    total = ROLLS * len(keepers)
    while sum(len(k.acked) for k in keepers) < total // 2:
        time.sleep(0.01)
    servers[0].proc.send_signal(signal.SIGKILL)  # mid-round
    killed_at = sum(len(k.acked) for k in keepers)
    for keeper in keepers:
        keeper.join(40)
        assert not keeper.is_alive()
    log = host.get(
        f"/api/nights/{night}/events", headers={"Authorization": f"Bearer {created['host_token']}"}
    ).json()
    events = log["events"] if isinstance(log, dict) else log
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(len(events)))  # no gap
    rolls = [e for e in events if e["event"]["type"] == "roll"]
    assert len(rolls) == total  # every roll stored once
    stored = {e["command_id"]: e["seq"] for e in rolls}
    for keeper in keepers:
        assert len(keeper.acked) == ROLLS
        assert all(stored[c] == s for c, s in keeper.acked.items())
    last = seqs[-1]
    deadline = time.monotonic() + 15
    while any(not p.heard or p.heard[-1][0] < last for p in pages if p.table is None):
        assert time.monotonic() < deadline, "the screen did not hear the last roll"
        time.sleep(0.05)
    time.sleep(0.3)
    for page in pages:
        page.done.set()
    for page in pages:
        page.join(5)
    by_table: dict[int, list[int]] = {}
    for e in rolls:
        by_table.setdefault(e["table"], []).append(e["seq"])
    for page in pages:
        heard = [seq for seq, table in page.heard if table is not None]
        expected = sorted(s for t, ss in by_table.items() for s in ss if page.table in (None, t))
        assert heard == expected, f"page of table {page.table}"  # each once, in order
    reconnects = sum(p.reconnects for p in pages)
    assert reconnects >= 1  # some pages were on the killed process and came back
    print(
        f"\n{total} rolls at {len(keepers)} tables, {len(pages)} pages: the process killed "
        f"after {killed_at} acknowledged; {sum(k.sent_again for k in keepers)} rolls sent "
        f"again ({sum(k.duplicates for k in keepers)} answered as already stored), "
        f"{reconnects} pages reconnected; {time.monotonic() - started:.1f} s"
    )
    assert servers[1].proc.poll() is None
