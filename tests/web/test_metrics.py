"""``GET /metrics`` and the access log: exact counts after a known sequence of requests,
who may read the metrics (404 for anyone else), the access log's lines (path templates,
never a token or a code), and under ``--workers 2`` on PostgreSQL the processes' metrics
summed."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from web_helpers import EIGHT, bearer, make_night

from bunco.web.app import create_app
from pg_database import PG_URL, SKIP_REASON, wiped_postgres
from serve_process import ServeProcess, free_port

LOOPBACK = ("127.0.0.1", 50000)
ROLLS = 'route="/api/nights/{night_id}/tables/{table}/rolls"'


def values(text: str) -> dict[str, float]:
    """Each sample line of an exposition: its name with labels, and its value."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def test_metrics_count_a_known_sequence_exactly(db_url):
    with TestClient(create_app(db_url, bot_pace=0), client=LOOPBACK) as client:
        night = make_night(client)
        phone = night.table_token(1)
        assert night.roll(1, [2, 3, 5], command_id="r1", headers=phone).status_code == 200
        assert night.roll(1, [1, 2, 3], command_id="r2", headers=phone).status_code == 200
        assert night.roll(1, [2, 3, 5], command_id="r1", headers=phone).status_code == 200
        assert night.roll(1, [2, 3, 5], expected_seq=0, headers=phone).status_code == 409
        assert night.roll(2, [2, 3, 5], headers=phone).status_code == 403
        assert night.roll(1, [2, 3, 5], headers=bearer("x" * 32)).status_code == 401
        assert night.roll(1, [9, 3, 5], headers=phone).status_code == 422
        assert client.get(night.url(), headers=night.host).status_code == 200
        with client.websocket_connect(night.url(f"/ws?token={night.created['viewer_token']}")):
            got = values(client.get("/metrics").text)
    requests = {k: v for k, v in got.items() if k.startswith("bunco_http_requests_total")}
    assert requests == {
        'bunco_http_requests_total{method="POST",route="/api/nights",status="201"}': 1,
        'bunco_http_requests_total{method="POST",route="/api/join",status="200"}': 1,
        f'bunco_http_requests_total{{method="POST",{ROLLS},status="200"}}': 3,
        f'bunco_http_requests_total{{method="POST",{ROLLS},status="409"}}': 1,
        f'bunco_http_requests_total{{method="POST",{ROLLS},status="403"}}': 1,
        f'bunco_http_requests_total{{method="POST",{ROLLS},status="401"}}': 1,
        f'bunco_http_requests_total{{method="POST",{ROLLS},status="422"}}': 1,
        'bunco_http_requests_total{method="GET",route="/api/nights/{night_id}",status="200"}': 1,
    }  # the WebSocket counts when it closes, the scrape when it is answered
    assert got[f'bunco_http_request_duration_seconds_count{{method="POST",{ROLLS}}}'] == 7
    assert {k: v for k, v in got.items() if k.startswith("bunco_refusals_total")} == {
        'bunco_refusals_total{reason="stale"}': 1,
        'bunco_refusals_total{reason="forbidden"}': 1,
        'bunco_refusals_total{reason="unauthorized"}': 1,
        'bunco_refusals_total{reason="invalid_request"}': 1,
    }
    assert {k: v for k, v in got.items() if k.startswith("bunco_rolls_total")} == {
        'bunco_rolls_total{outcome="accepted"}': 2,
        'bunco_rolls_total{outcome="repeat"}': 1,
        'bunco_rolls_total{outcome="refused"}': 2,  # stale, and the other table's
        'bunco_rolls_total{outcome="failed"}': 0,
    }
    assert got["bunco_request_to_listener_seconds_count"] == 2  # the accepted ones
    assert got["bunco_open_websockets"] == 1 and got["bunco_nights_held"] == 1
    assert got["bunco_writer_queue_depth"] == 0


def test_the_rate_limits_are_counted(db_url):
    with TestClient(create_app(db_url, bot_pace=0), client=LOOPBACK) as client:
        for _ in range(11):  # ten wrong codes, then the slow path's one attempt
            client.post("/api/join", json={"code": "ZZZZZZ"})
        assert client.post("/api/join", json={"code": "ZZZZZZ"}).status_code == 429
        got = values(client.get("/metrics").text)
    assert got['bunco_refusals_total{reason="unknown_code"}'] == 11
    assert got['bunco_refusals_total{reason="too_many_attempts"}'] == 1
    assert got['bunco_rate_limited_total{limit="attempts"}'] == 1


def test_metrics_are_refused_to_anyone_else_as_a_path_that_is_not_there(db_url):
    app = create_app(db_url, metrics_token="s3cret-token", metrics_from=["10.1.2.0/24"])
    with TestClient(app, client=("203.0.113.5", 1234)) as outside:
        unknown = outside.get("/no/such/path")
        refused = outside.get("/metrics")
        assert (refused.status_code, refused.json()) == (404, unknown.json())
        assert outside.get("/metrics", headers=bearer("wrong")).status_code == 404
        assert outside.get("/metrics", headers=bearer("s3cret-token")).status_code == 200
    with TestClient(app, client=("10.1.2.9", 1234)) as allowed:
        assert allowed.get("/metrics").status_code == 200
    with TestClient(app, client=LOOPBACK) as here:
        assert here.get("/metrics").status_code == 200
        # through a proxy the server does not trust: the address is the proxy's
        through = here.get("/metrics", headers={"x-forwarded-for": "203.0.113.5"})
        assert through.status_code == 404
    with TestClient(create_app(db_url, keep_metrics=False), client=LOOPBACK) as off:
        assert off.get("/metrics").status_code == 404


def test_through_a_trusted_proxy_the_phones_address_counts(db_url, tmp_path):
    log = tmp_path / "access.jsonl"
    app = create_app(db_url, trusted_proxies=["127.0.0.1"], access_log=str(log))
    with TestClient(app, client=LOOPBACK) as client:
        phone = client.get("/metrics", headers={"x-forwarded-for": "203.0.113.5"})
        prometheus = client.get("/metrics", headers={"x-forwarded-for": "127.0.0.1"})
    assert (phone.status_code, prometheus.status_code) == (404, 200)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(line["client"], line["status"]) for line in lines] == [
        ("203.0.113.5", 404),
        ("127.0.0.1", 200),
    ]


def test_the_access_log_has_a_line_per_request_and_no_token(db_url, tmp_path):
    log = tmp_path / "access.jsonl"
    with TestClient(create_app(db_url, bot_pace=0, access_log=str(log))) as client:
        night = make_night(client)
        code = night.created["tables"][0]["code"]
        phone = night.table_token(1)
        night.roll(1, [2, 3, 5], headers=phone)
        client.get(f"/join/{code}")
        client.get(f"/night/{night.id}?token={night.created['host_token']}")
        client.get(night.url(f"/players/{EIGHT[0]}/card"), headers=night.viewer)
        with client.websocket_connect(night.url(f"/ws?token={night.created['viewer_token']}")):
            pass
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert [(line["method"], line["path"], line["status"]) for line in lines] == [
        ("POST", "/api/nights", 201),
        ("POST", "/api/join", 200),
        ("POST", "/api/nights/{night_id}/tables/{table}/rolls", 200),
        ("GET", "/join/{code}", 200),
        ("GET", "/night/{night_id}", 200),
        ("GET", "/api/nights/{night_id}/players/{name:path}/card", 200),
        ("GET", "/api/nights/{night_id}/ws", 101),
    ]
    for line in lines:
        assert set(line) == {"time", "method", "path", "status", "ms", "client"}
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
        assert line["ms"] >= 0 and line["client"] == "testclient"
    secrets = [night.created["host_token"], night.created["viewer_token"], code, night.id]
    secrets += [phone["Authorization"].split()[1], EIGHT[0]]
    assert not [s for s in secrets if s in text]


@pytest.mark.slow
@pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)
def test_two_worker_processes_metrics_are_summed(tmp_path, monkeypatch):
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))  # where the server makes its metrics' folder
    log = tmp_path / "access.jsonl"
    with wiped_postgres() as url:
        server = ServeProcess(
            url, free_port(), tmp_path / "serve.log", "--workers", "2", "--access-log", str(log)
        )
        try:
            server.start()
            for _ in range(40):  # a connection each: the two processes share them
                with httpx.Client(base_url=server.base, timeout=10) as http:
                    assert http.get("/pages/presets.json").status_code == 200
            text = httpx.get(server.base + "/metrics", timeout=10).text
            shared = list(folder.iterdir())
        finally:
            server.stop()
    got = values(text)
    route = '{method="GET",route="/pages/presets.json",status="200"}'
    assert got[f"bunco_http_requests_total{route}"] == 40
    pids = set(re.findall(r'^bunco_open_connections\{pid="(\d+)"\}', text, re.M))
    assert len(pids) == 2, text  # one line per live process
    assert len(shared) == 1 and shared[0].name.startswith("bunco-metrics-")
    assert not any(folder.iterdir())  # removed when the server stopped
    served = [json.loads(line) for line in log.read_text().splitlines()]
    assert sum(line["path"] == "/pages/presets.json" for line in served) == 40
    assert os.environ.get("PROMETHEUS_MULTIPROC_DIR") is None
    assert Path(server.log).read_text().count("Traceback") == 0
