"""Two real `bunco serve` processes on one PostgreSQL database (skipped without
BUNCO_TEST_PG_URL): live updates cross between them in order, a revoked token or a
replaced join code stops working on both, reads are never older than what a process
was told, writes without ``expected_seq`` are never refused as stale, and a SIGKILL of
either process loses no acknowledged event."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_helpers import bearer
from websockets.sync.client import connect

from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import (
    ServeProcess,
    free_port,
    log_holds_every_acknowledged,
    run_until_acknowledged,
    small_dice,
    two_servers,
    until,
)

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)]
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def servers(tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Processes A and B on the same wiped PostgreSQL database."""
    with wiped_postgres() as url, two_servers(url, tmp_path) as pair:
        yield pair


class Listener:
    """A WebSocket follower of a night on one process, in a thread: the seqs of the
    events it hears, in the order heard."""

    def __init__(
        self,
        server: ServeProcess,
        night: str,
        token: str,
        table: int | None = None,
        player: str | None = None,
    ):
        query = (
            f"token={token}&since=0"
            + ("" if table is None else f"&table={table}")
            + ("" if player is None else f"&player={player}")
        )
        self.url = f"ws://127.0.0.1:{server.port}/api/nights/{night}/ws?{query}"
        self.seqs: list[int] = []
        self.messages: list[dict[str, Any]] = []
        """Every message heard, the hello included."""
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "the listener did not connect"

    def _run(self) -> None:
        try:
            with connect(self.url) as ws:
                for text in ws:
                    message: dict[str, Any] = json.loads(text)
                    self.messages.append(message)
                    if message["type"] == "caught_up":
                        self.ready.set()
                    elif message["type"] == "event":
                        self.seqs.append(message["seq"])
        except Exception:
            pass  # the server went away

    def wait_for(self, seq: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while (not self.seqs or self.seqs[-1] < seq) and time.monotonic() < deadline:
            time.sleep(0.01)


def create(server: ServeProcess) -> dict[str, Any]:
    reply = httpx.post(
        server.base + "/api/nights", json={"name": "Two processes", "players": EIGHT}, timeout=10
    )
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def join(server: ServeProcess, code: str) -> httpx.Response:
    return httpx.post(server.base + "/api/join", json={"code": code}, timeout=10)


def test_a_listener_on_b_hears_every_event_of_a_in_order(servers):
    a, b = servers
    created = create(a)
    night, viewer = created["night"], created["viewer_token"]
    whole = Listener(b, night, viewer)
    table2 = Listener(b, night, viewer, table=2)
    phones = {t: bearer(join(a, created["tables"][t - 1]["code"]).json()["token"]) for t in (1, 2)}
    acked: list[int] = []
    with httpx.Client(timeout=10) as http:
        for i in range(30):  # alternating tables, through A, each with its table's version
            table = 1 + i % 2
            path = f"/api/nights/{night}/tables/{table}/rolls"
            versions = http.get(f"{a.base}/api/nights/{night}", headers=phones[table]).json()[
                "versions"
            ]
            reply = http.post(
                a.base + path,
                headers=phones[table],
                json={
                    "command_id": f"a-{i}",
                    "dice": small_dice(i),
                    "expected_seq": max(versions.get(str(table), 0), versions["night"]),
                },
            )
            assert reply.status_code == 200, reply.text
            acked.append(reply.json()["seq"])
    assert acked == list(range(1, 31))
    whole.wait_for(30)
    table2.wait_for(30)
    assert whole.seqs == list(range(1, 31))  # every event, in order, no duplicate
    assert table2.seqs == [s for s in range(1, 31) if s % 2 == 0]  # table 2's are the even ones
    # B's reads are A's night now, and the events agree
    state_b = httpx.get(f"{b.base}/api/nights/{night}", headers=phones[1], timeout=10).json()
    state_a = httpx.get(f"{a.base}/api/nights/{night}", headers=phones[1], timeout=10).json()
    assert state_b["seq"] == 30 and state_b["view"] == state_a["view"]


def test_a_players_socket_on_b_follows_the_player_to_the_next_table_of_a_round_played_on_a(servers):
    a, b = servers
    created = create(a)
    night, viewer, host = created["night"], created["viewer_token"], bearer(created["host_token"])
    phones = {name: Listener(b, night, viewer, player=name) for name in EIGHT}
    first = {name: phone.messages[0]["table"] for name, phone in phones.items()}
    assert sorted(first.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    with httpx.Client(timeout=10) as http:
        for i in range(2000):  # the host rolls for whoever is expected, through A
            status = http.get(f"{a.base}/api/nights/{night}", headers=host).json()["status"]
            if status["round"] != 1:
                break
            table = status["expects"][0]["table"]
            reply = http.post(
                f"{a.base}/api/nights/{night}/tables/{table}/rolls",
                headers=host,
                json={"command_id": f"r-{i}", "roll_for_me": True},
            )
            assert reply.status_code == 200, reply.text
        changed = http.get(f"{a.base}/api/nights/{night}", headers=host).json()["seq"]
        # B hears of A's writes through PostgreSQL's notifications: its cards are read once
        # it has caught up (a read on B may lag A by a notification's time, never longer)
        until(
            lambda: http.get(f"{b.base}/api/nights/{night}", headers=host).json()["seq"] >= changed,
            timeout=10,
        )
        now = {
            name: http.get(f"{b.base}/api/nights/{night}/players/{name}/card", headers=host).json()[
                "table"
            ]
            for name in EIGHT
        }
    assert now != first  # somebody moved
    for name, phone in phones.items():
        until(
            lambda p=phone: any(m["type"] == "table" and m["seq"] == changed for m in p.messages),
            timeout=10,
        )
        events = [m for m in phone.messages if m["type"] == "event"]
        assert [m["seq"] for m in events] == sorted({m["seq"] for m in events})
        assert {m["table"] for m in events} == {first[name]}  # its first table's, in order
        page = next(m for m in phone.messages if m["type"] == "table" and m["seq"] == changed)
        assert page["table"] == now[name] and name in page["table_view"]["players"]
        assert page["view"]["round"] == 2


def test_writes_through_both_processes_interleave_and_are_never_stale(servers):
    a, b = servers
    created = create(a)
    night = created["night"]
    listener_a = Listener(a, night, created["viewer_token"])
    listener_b = Listener(b, night, created["viewer_token"])
    phone = bearer(join(b, created["tables"][0]["code"]).json()["token"])
    with httpx.Client(timeout=10) as http:
        for i in range(20):  # A and B in turn, at the same table, without expected_seq
            server = a if i % 2 == 0 else b
            reply = http.post(
                f"{server.base}/api/nights/{night}/tables/1/rolls",
                headers=phone,
                json={"command_id": f"w-{i}", "dice": small_dice(i)},
            )
            assert reply.status_code == 200, reply.text
            assert reply.json()["seq"] == i + 1
            # the process that did not write has the new event within a second
            other = b if server is a else a
            until(
                lambda o=other, s=i + 1: (
                    http.get(f"{o.base}/api/nights/{night}", headers=phone).json()["seq"] == s
                )
            )
        # with expected_seq, a write through B after A's write is checked against A's event
        version = http.post(
            f"{a.base}/api/nights/{night}/tables/1/rolls",
            headers=phone,
            json={"command_id": "w-a", "dice": [2, 3, 5]},
        ).json()["seq"]
        reply = http.post(
            f"{b.base}/api/nights/{night}/tables/1/rolls",
            headers=phone,
            json={"command_id": "w-b", "dice": [2, 3, 5], "expected_seq": version},
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["seq"] == version + 1
        stale = http.post(
            f"{a.base}/api/nights/{night}/tables/1/rolls",
            headers=phone,
            json={"command_id": "w-c", "dice": [2, 3, 5], "expected_seq": version},
        )
        assert stale.status_code == 409 and stale.json()["error"] == "stale"
        assert [m["seq"] for m in stale.json()["missed"]] == [version + 1]
    listener_a.wait_for(22)
    listener_b.wait_for(22)
    assert listener_a.seqs == listener_b.seqs == list(range(1, 23))


def test_both_processes_hammering_one_night_get_every_write_accepted_in_order(servers):
    """Writers on A and on B at the same tables at once, without expected_seq: the
    processes take turns at the night (its write lock), so none is refused as busy or
    stale; the log has no gap and no duplicate, each writer's events are in the order
    it sent them, and the listeners of both processes hear the same log."""
    a, b = servers
    reply = httpx.post(
        a.base + "/api/nights",
        timeout=10,
        json={"name": "Hammered", "players": [f"P{i:02}" for i in range(16)]},
    )
    assert reply.status_code == 201, reply.text
    created = reply.json()
    night = created["night"]
    phones = {
        t: bearer(join(a, created["tables"][t - 1]["code"]).json()["token"]) for t in (1, 2, 3, 4)
    }
    listeners = [
        Listener(a, night, created["viewer_token"]),
        Listener(b, night, created["viewer_token"]),
    ]
    per_writer = 25
    acked: dict[str, int] = {}
    refused: list[str] = []
    sent: dict[str, list[int]] = {}

    def writer(server: ServeProcess, table: int, n: int) -> None:
        name = f"{server.port}-{table}-{n}"
        seqs = sent.setdefault(name, [])
        with httpx.Client(base_url=server.base, timeout=30) as http:
            for i in range(per_writer):  # misses only: the round never ends
                command = f"{name}-{i}"
                reply = http.post(
                    f"/api/nights/{night}/tables/{table}/rolls",
                    headers=phones[table],
                    json={"command_id": command, "dice": [2, 3, 5]},
                )
                if reply.status_code != 200:
                    refused.append(f"{command}: {reply.status_code} {reply.text}")
                    continue
                acked[command] = reply.json()["seq"]
                seqs.append(reply.json()["seq"])

    writers = [
        threading.Thread(target=writer, args=(server, table, n))
        for server in (a, b)
        for table in (1, 2, 3, 4)
        for n in (1, 2)
    ]
    total = len(writers) * per_writer
    run_until_acknowledged(writers, acked, total - len(refused), timeout=120)
    for thread in writers:
        thread.join(30)
    assert refused == []
    assert len(acked) == total == 400
    for seqs in sent.values():  # each writer's events in the order it sent them
        assert seqs == sorted(seqs) and len(seqs) == per_writer
    with httpx.Client(base_url=b.base, timeout=10) as http:
        events = http.get(
            f"/api/nights/{night}/events", headers=bearer(created["host_token"])
        ).json()["events"]
    by_id = log_holds_every_acknowledged(events, acked)  # no gap, every ack at its seq
    assert len(events) == total + 1 and len(by_id) == total + 1  # no duplicate
    assert sorted(acked.values()) == list(range(1, total + 1))
    for listener in listeners:
        listener.wait_for(total, timeout=30)
        assert listener.seqs == list(range(1, total + 1))


def test_a_token_revoked_or_a_code_replaced_on_a_is_refused_on_b_within_a_second(servers):
    a, b = servers
    created = create(a)
    night, host = created["night"], bearer(created["host_token"])
    old_code = created["tables"][0]["code"]
    phone = bearer(join(b, old_code).json()["token"])  # B has looked the code and token up
    roll = f"/api/nights/{night}/tables/1/rolls"
    with httpx.Client(timeout=10) as http:
        assert (
            http.post(
                b.base + roll, headers=phone, json={"command_id": "before", "dice": [2, 3, 5]}
            ).status_code
            == 200
        )
        # the host signs table 1's phones out through A
        revoked = http.delete(f"{a.base}/api/nights/{night}/tables/1/scorekeepers", headers=host)
        assert revoked.json()["revoked"] == 1
        until(
            lambda: (
                http.post(
                    b.base + roll, headers=phone, json={"command_id": "after", "dice": [2, 3, 5]}
                ).status_code
                == 401
            )
        )
        # the host replaces table 1's join code through A: the old one stops on B, the new works
        new_code = http.post(
            f"{a.base}/api/nights/{night}/tables/1/credentials", headers=host
        ).json()["code"]
        until(lambda: join(b, old_code).status_code != 200)
        joined = join(b, new_code)
        assert joined.status_code == 200, joined.text
        assert (
            http.post(
                b.base + roll,
                headers=bearer(joined.json()["token"]),
                json={"command_id": "new-phone", "dice": [2, 3, 5]},
            ).status_code
            == 200
        )


def test_the_wrong_join_codes_of_a_client_are_counted_once_for_both_processes(servers):
    """The failure budget (10 wrong codes a minute per client, then one attempt every
    30 s) is the whole server's: guesses spread over A and B meet the 429 after 10 in
    total and the slow path's one, on both, and a wrong bearer token on either is refused
    without a look-up."""
    a, b = servers
    created = create(a)
    codes = []
    for i in range(16):  # A, B, A, B, ...: the same client (127.0.0.1) on both
        reply = join(a if i % 2 == 0 else b, f"ZZZZ{i:02}")
        codes.append(reply.status_code)
        if reply.status_code == 429:
            wait = int(reply.headers["retry-after"])
            assert 1 <= wait <= 30
    assert codes == [404] * 11 + [429] * 5
    right = created["tables"][0]["code"]
    assert join(a, right).status_code == 429 and join(b, right).status_code == 429
    unknown = httpx.get(b.base + "/api/me", headers=bearer("x" * 32), timeout=10)
    assert unknown.status_code == 429  # the same client, past its failures, on B too


def test_a_name_claimed_on_both_processes_at_once_is_claimed_once(servers):
    a, b = servers
    created = create(a)
    night, viewer = created["night"], bearer(created["viewer_token"])
    results: dict[str, list[int]] = {name: [] for name in EIGHT}

    def claim(server: ServeProcess, name: str, start: threading.Barrier) -> None:
        with httpx.Client(base_url=server.base, timeout=30) as http:
            http.get("/api/health")  # connected before the barrier: the claims meet
            start.wait(10)
            reply = http.post(f"/api/nights/{night}/claim", json={"name": name}, headers=viewer)
            results[name].append(reply.status_code)

    for name in EIGHT:  # each name claimed by three phones on A and three on B at once
        start = threading.Barrier(6)
        threads = [
            threading.Thread(target=claim, args=(server, name, start))
            for server in (a, b, a, b, a, b)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    for name, codes in results.items():
        assert sorted(codes) == [200] + [409] * 5, name
    with httpx.Client(timeout=10) as http:  # the host may still take a claimed name
        host = bearer(created["host_token"])
        assert (
            http.post(
                f"{b.base}/api/nights/{night}/claim", json={"name": "Ann"}, headers=host
            ).status_code
            == 200
        )


@pytest.mark.parametrize("victim", ["a", "b"])
def test_a_sigkill_of_either_process_loses_no_acknowledged_event(servers, victim):
    a, b = servers
    killed, survivor = (a, b) if victim == "a" else (b, a)
    created = create(a)
    night, host = created["night"], bearer(created["host_token"])
    phones = {t: bearer(join(a, created["tables"][t - 1]["code"]).json()["token"]) for t in (1, 2)}
    listener = Listener(survivor, night, created["viewer_token"])
    acked: dict[str, int] = {}
    stop = threading.Event()

    def writer(server: ServeProcess, table: int) -> None:
        with httpx.Client(base_url=server.base, timeout=5) as http:
            for i in range(100_000):
                if stop.is_set():
                    return
                command = f"{server.port}-{table}-{i}"
                try:
                    reply = http.post(
                        f"/api/nights/{night}/tables/{table}/rolls",
                        headers=phones[table],
                        json={"command_id": command, "dice": [2, 3, 5]},
                    )  # misses
                except httpx.HTTPError:
                    return  # killed while this request was in flight: not acknowledged
                assert reply.status_code == 200, reply.text
                acked[command] = reply.json()["seq"]

    writers = [
        threading.Thread(target=writer, args=(server, table))
        for server in (a, b)
        for table in (1, 2)
    ]
    run_until_acknowledged(writers, acked, 60)
    killed.kill()
    time.sleep(0.3)  # the survivor goes on alone for a moment
    stop.set()
    for thread in writers:
        thread.join(10)
    with httpx.Client(base_url=survivor.base, timeout=10) as http:
        events = http.get(f"/api/nights/{night}/events", headers=host).json()["events"]
    log_holds_every_acknowledged(events, acked)
    seqs = [e["seq"] for e in events]
    listener.wait_for(seqs[-1])
    assert listener.seqs == seqs[1:]  # the survivor's listener heard them all, in order
    killed.start()  # the killed process comes back on the same database with the same log
    with httpx.Client(base_url=killed.base, timeout=10) as http:
        again = http.get(f"/api/nights/{night}/events", headers=host).json()["events"]
    assert [e["seq"] for e in again] == seqs


def test_serve_with_two_workers_serves_a_night_live(tmp_path):
    with wiped_postgres() as url:
        server = ServeProcess(url, free_port(), tmp_path / "workers.log", "--workers", "2")
        try:
            server.start()  # inside: a server that starts too slowly is stopped too
            created = create(server)
            night = created["night"]
            # new connections land on either worker: the listeners and the writes are spread
            listeners = [Listener(server, night, created["viewer_token"]) for _ in range(4)]
            phone = bearer(join(server, created["tables"][0]["code"]).json()["token"])
            for i in range(12):
                reply = httpx.post(
                    f"{server.base}/api/nights/{night}/tables/1/rolls",
                    headers=phone,
                    timeout=10,
                    json={"command_id": f"k-{i}", "dice": small_dice(i)},
                )
                assert reply.status_code == 200, reply.text
                assert reply.json()["seq"] == i + 1
            for listener in listeners:
                listener.wait_for(12)
                assert listener.seqs == list(range(1, 13))
            assert "2 worker processes" in server.log.read_text()
        finally:
            server.stop()


def test_a_dropped_notification_connection_is_made_again_and_nothing_is_missed(servers):
    import sqlalchemy as sa

    a, b = servers
    created = create(a)
    night = created["night"]
    listener = Listener(b, night, created["viewer_token"])
    phone = bearer(join(a, created["tables"][0]["code"]).json()["token"])
    engine = sa.create_engine(str(a.db))  # the database A and B share
    with engine.begin() as conn:  # cut both processes' listening connections
        cut = conn.execute(
            sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND query = 'LISTEN bunco'"
            )
        ).scalar()
    engine.dispose()
    assert cut == 2
    with httpx.Client(timeout=10) as http:
        for i in range(5):  # written while B may not be listening yet
            reply = http.post(
                f"{a.base}/api/nights/{night}/tables/1/rolls",
                headers=phone,
                json={"command_id": f"cut-{i}", "dice": small_dice(i)},
            )
            assert reply.status_code == 200, reply.text
        # B listens again within seconds and catches up with what it missed
        until(
            lambda: http.get(f"{b.base}/api/health").json()["following_other_processes"], timeout=15
        )
        listener.wait_for(5)
        assert listener.seqs == [1, 2, 3, 4, 5]
        reply = http.post(
            f"{a.base}/api/nights/{night}/tables/1/rolls",
            headers=phone,
            json={"command_id": "cut-5", "dice": [2, 3, 5]},
        )
        listener.wait_for(6)
        assert listener.seqs == [1, 2, 3, 4, 5, 6]
