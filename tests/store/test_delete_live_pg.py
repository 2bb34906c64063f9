"""`bunco delete night` while two server processes serve the night on PostgreSQL
(skipped without BUNCO_TEST_PG_URL): within a second every token of the night is
refused on both processes, its WebSockets are closed, and its join codes join nothing;
another night goes on."""

from __future__ import annotations

import subprocess

import httpx
import pytest

from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import bunco_command, socket_closes, two_servers, until

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)]
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_a_deleted_nights_tokens_stop_working_on_every_process(tmp_path) -> None:
    with wiped_postgres() as url, two_servers(url, tmp_path) as (a, b):
        nights = [
            httpx.post(a.base + "/api/nights", json={"players": EIGHT}, timeout=10).json()
            for _ in range(2)
        ]
        gone, kept = nights
        phone = httpx.post(
            b.base + "/api/join", json={"code": gone["tables"][0]["code"]}, timeout=10
        ).json()["token"]
        query = f"token={gone['viewer_token']}&since=0"
        ready, closed = socket_closes(
            f"ws://127.0.0.1:{b.port}/api/nights/{gone['night']}/ws?{query}"
        )
        assert ready.wait(10)
        tokens = [gone["host_token"], gone["viewer_token"], phone]
        for server in (a, b):
            for token in tokens:  # each process has them in memory now
                reply = httpx.get(
                    f"{server.base}/api/nights/{gone['night']}",
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=10,
                )
                assert reply.status_code == 200
        done = subprocess.run(
            [*bunco_command(), "delete", "night", gone["night"], "--db", url, "--yes"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "1 night" in done.stdout

        def refused_everywhere() -> bool:
            return all(
                httpx.get(
                    f"{server.base}/api/nights/{gone['night']}",
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=10,
                ).status_code
                == 401
                for server in (a, b)
                for token in tokens
            )

        print(f"refused on both processes after {until(refused_everywhere):.2f} s")
        until(lambda: closed == [4401])
        joined = httpx.post(
            a.base + "/api/join", json={"code": gone["tables"][1]["code"]}, timeout=10
        )
        assert joined.status_code == 404
        other = httpx.get(
            f"{b.base}/api/nights/{kept['night']}",
            headers={"Authorization": f"Bearer {kept['host_token']}"},
            timeout=10,
        )
        assert other.status_code == 200
