"""The server on PostgreSQL (skipped unless BUNCO_TEST_PG_URL names a database to wipe)."""

from __future__ import annotations

import pytest
import test_concurrency as races
from fastapi.testclient import TestClient
from web_helpers import make_night

from bunco.web.app import create_app
from pg_database import PG_URL, SKIP_REASON

pytestmark = pytest.mark.skipif(not PG_URL, reason=SKIP_REASON)


def test_races_on_postgres(pg_url):
    races.test_two_phones_racing_at_one_table_one_wins_one_gets_409(pg_url)
    races.test_writers_at_different_tables_never_conflict(pg_url)
    races.test_a_retried_command_id_is_applied_once(pg_url)


def test_a_night_on_postgres_survives_a_restart(pg_url):
    with TestClient(create_app(pg_url, bot_pace=0)) as first:
        assert first.get("/api/health").json()["database"] == "postgresql"
        night = make_night(first)
        night.play_round()
        assert night.seat(1).status_code == 200  # the players moved: table 1 sits down
        night.roll(1, [1, 1, 4], command_id="pg-before")
        before = night.state()
    with TestClient(create_app(pg_url, bot_pace=0)) as second:
        night.client = second
        after = night.state()
        assert after["view"] == before["view"] and after["seq"] == before["seq"]
        assert night.roll(1, [1, 1, 4], command_id="pg-before").json()["duplicate"] is True
        with second.websocket_connect(
            f"/api/nights/{night.id}/ws?token={night.created['viewer_token']}"
            f"&since={after['seq'] - 1}"
        ) as ws:
            assert ws.receive_json()["type"] == "hello"
            assert ws.receive_json()["seq"] == after["seq"]
