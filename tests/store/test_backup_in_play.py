"""A backup taken while a real server takes rolls (`bunco backup` beside `bunco serve`, on
SQLite and on PostgreSQL): it holds every roll acknowledged before it began, each night's
log exactly as the server stored it up to the backup's moment, every club and token;
it verifies; it restores; and a server on the restored database serves the nights (the
host's and the tables' tokens work, the next roll takes the next seq)."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from stored_nights import EIGHT, all_rows, another_postgres, named_rows

from bunco.store import ClubStore, EventStore
from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, bunco_command, free_port

pytestmark = pytest.mark.slow


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request, tmp_path) -> Iterator[tuple[ServeProcess, str]]:
    """`bunco serve` on a database of each kind, and that database's URL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
        server = ServeProcess(url, free_port(), tmp_path / "live.log")
        server.start()
        yield server, url
        server.stop()
        return
    if not PG_URL:
        pytest.skip(SKIP_REASON)
    with wiped_postgres() as url:
        server = ServeProcess(url, free_port(), tmp_path / "live.log")
        server.start()
        yield server, url
        server.stop()


class Host(threading.Thread):
    """The host of a night rolling for whichever table is expected, until stopped: the
    command ids acknowledged, with their seqs."""

    def __init__(self, base: str, night: str, token: str) -> None:
        super().__init__(daemon=True)
        self.base, self.night, self.headers = base, night, bearer(token)
        self.acked: dict[str, int] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.base, headers=self.headers, timeout=10) as http:
            for i in range(100_000):
                if self.stop.is_set():
                    return
                status = http.get(f"/api/nights/{self.night}").json()["status"]
                expected = [e["table"] for e in status.get("expects", []) if e.get("table")]
                if not expected:
                    return  # the night is over
                command = f"{self.night}-{i}"
                reply = http.post(
                    f"/api/nights/{self.night}/tables/{expected[0]}/rolls",
                    json={"command_id": command, "roll_for_me": True},
                )
                if reply.status_code == 200:
                    self.acked[command] = reply.json()["seq"]
                elif reply.json().get("error") in ("not_seated", "seating_changed"):
                    http.post(  # a new round: the table's players sat down at their new seats
                        f"/api/nights/{self.night}/tables/{expected[0]}/seated",
                        json={"command_id": f"{command}-seated"},
                    )


def bunco(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [*bunco_command(), *args, "--json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_backup_during_play_restores_every_night_and_club_and_is_served(
    served: tuple[ServeProcess, str], tmp_path: Path
) -> None:
    server, url = served
    created = []
    for name in ("Friday", "Saturday"):
        reply = httpx.post(
            server.base + "/api/nights", json={"name": name, "players": EIGHT}, timeout=10
        )
        assert reply.status_code == 201, reply.text
        created.append(reply.json())
    table_token = httpx.post(
        server.base + "/api/join", json={"code": created[0]["tables"][0]["code"]}, timeout=10
    ).json()["token"]
    store = EventStore(url)
    clubs = ClubStore(store.engine)
    clubs.create("c1", "Tuesday Club", {"type": "club", "name": "Tuesday Club"}, "secret")
    clubs.record("c1", [{"type": "member", "name": "Ann", "email": "ann@example.org"}], 0)
    clubs.record("c1", [{"type": "night", "night": created[0]["night"]}], 1)
    hosts = [Host(server.base, c["night"], c["host_token"]) for c in created]
    for host in hosts:
        host.start()
    while sum(len(h.acked) for h in hosts) < 40:
        time.sleep(0.01)
    acked_before = [dict(h.acked) for h in hosts]
    file = tmp_path / ("copy.sqlite3" if url.startswith("sqlite") else "copy.bunco-backup")
    taken = bunco("backup", "--db", url, "--out", str(file))
    during = sum(len(h.acked) for h in hosts) - sum(len(a) for a in acked_before)
    time.sleep(0.3)  # a few more rolls after the backup
    for host in hosts:
        host.stop.set()
        host.join(10)
    assert during > 0  # rolls were acknowledged while the backup was being taken
    checked = bunco("backup", "--verify", str(file))
    assert checked["problems"] == [] and checked["nights_replayed"] == 2
    live = all_rows(store.engine)
    print(
        f"\n{taken['kind']} of {url.split(':')[0]}: {taken['bytes']:,} bytes in "
        f"{taken['seconds']} s while {during} rolls were acknowledged; "
        f"{taken['tables']['events']} events of {len(live['events'])} by the end"
    )

    def restored_into(target: str) -> None:
        done = bunco("restore", str(file), "--db", target)
        assert done["tables"] == taken["tables"]
        rows = all_rows(target)
        for table in ("nights", "tokens", "clubs", "club_events"):
            assert rows[table] == live[table], table  # nothing of these changed in play
        # each night's log: exactly the live log up to the backup's moment
        for night, acked in zip((c["night"] for c in created), acked_before, strict=True):
            backed = [r for r in named_rows(target, "events") if r["night_id"] == night]
            everything = [r for r in named_rows(store.engine, "events") if r["night_id"] == night]
            assert backed == everything[: len(backed)]
            seqs = {r["command_id"]: r["seq"] for r in backed}
            assert all(seqs.get(c) == s for c, s in acked.items())  # every roll acked before
        restored = ServeProcess(target, free_port(), tmp_path / "restored.log")
        restored.start()
        try:
            night = created[0]["night"]
            last = max(r["seq"] for r in named_rows(target, "events") if r["night_id"] == night)
            with httpx.Client(base_url=restored.base, timeout=10) as http:
                got = http.get(f"/api/nights/{night}", headers=bearer(created[0]["host_token"]))
                assert got.status_code == 200 and got.json()["seq"] == last
                viewer = http.get(
                    f"/api/nights/{created[1]['night']}/events",
                    headers=bearer(created[1]["viewer_token"]),
                )
                assert viewer.status_code == 200
                table = got.json()["status"]["expects"][0]["table"]
                phone = table_token if table == 1 else created[0]["host_token"]
                waits = table in got.json()["view"]["seating_waits"]
                if waits:  # between rounds: the table's players sit down first
                    seated = http.post(
                        f"/api/nights/{night}/tables/{table}/seated",
                        headers=bearer(phone),
                        json={"command_id": "after-restore-seated"},
                    )
                    assert seated.status_code == 200, seated.text
                rolled = http.post(
                    f"/api/nights/{night}/tables/{table}/rolls",
                    headers=bearer(phone),
                    json={"command_id": "after-restore", "roll_for_me": True},
                )
                assert rolled.status_code == 200, rolled.text
                assert rolled.json()["seq"] == last + 1 + waits
        finally:
            restored.stop()

    if url.startswith("sqlite"):
        restored_into(f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    else:
        with another_postgres() as target:
            restored_into(target)
    store.close()
