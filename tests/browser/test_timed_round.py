"""A timed round (house rule round_minutes) in real Chromium: the round's clock on a table's
phone and on the big screen counts down on the server's time, and at zero the bell rings.

The server runs in this process with a clock the test moves
(:class:`~bunco.web.decision.timed_rounds.ShiftedClock`): the round's ten minutes are jumped over
to their last seconds, so nothing waits for a minute to pass. The pages opened after the
jump show what the server says is left, not the ten minutes a phone would count from the
round's start.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, expect

from bunco.web.app import create_app
from bunco.web.decision.timed_rounds import ShiftedClock
from serve_process import free_port

from .conftest import PHONE, TV, Pages, axe

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
SERIOUS = ("serious", "critical")


class ClockServer:
    """The night server on a free port, in a thread of this process, on a moved clock."""

    def __init__(self, folder: Path) -> None:
        self.clock = ShiftedClock()
        app = create_app(f"sqlite:///{folder / 'timed.sqlite3'}", bot_pace=0, clock=self.clock)
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ClockServer:
        self.thread.start()
        deadline = time.monotonic() + 120  # a busy machine starts slowly
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), (
                "the server did not start"
            )
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    def api(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        reply = httpx.request(method, self.base + path, headers=headers, timeout=10, **kwargs)
        assert reply.status_code < 400, reply.text
        return reply.json()


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[ClockServer]:
    with ClockServer(tmp_path) as server:
        yield server


def test_a_timed_round_shows_its_clock_on_the_table_and_the_big_screen_and_rings_at_zero(
    browser: Browser, clock_server: ClockServer
) -> None:
    server = clock_server
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Timed night",
            "rules": "classic",
            "players": EIGHT,
            "house_rules": {"round_minutes": 10},
        },
    )
    night, host = created["night"], created["host_token"]
    roll = {"command_id": "first", "dice": [1, 2, 3]}  # Ann +1: starts the clock, mid-turn
    server.api("POST", f"/api/nights/{night}/tables/1/rolls", host, json=roll)
    # the round's last minute on the server's clock
    server.clock.shift = timedelta(minutes=9)
    pages = Pages(browser, server.base)
    try:
        code = created["tables"][0]["code"]
        table = pages.open(f"/join/{code}", PHONE, name="table 1")
        table.wait_for_url(f"**/n/{night}/table/1")
        screen = pages.open(f"/n/{night}/screen?token={created['viewer_token']}", TV, "screen")
        expect(screen.locator("body")).to_have_attribute("data-ready", "yes")
        for page in (table, screen):
            clock = page.locator("#round-clock")
            expect(clock).to_be_visible()
            expect(clock).to_have_attribute("role", "timer")
            # what the server says is left (a minute), never the phone's own ten minutes
            expect(clock.locator(".round-clock-time")).to_have_text(
                re.compile(r"^(1:00|0:[1-5]\d)$")
            )
        phone_size = table.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector('.round-clock')).fontSize)"
        )
        assert phone_size >= 14
        found = [(v["id"], v["nodes"]) for v in axe(table) if v["impact"] in SERIOUS]
        found += [(v["id"], v["nodes"]) for v in axe(screen) if v["impact"] in SERIOUS]
        assert found == []
        # zero: the server rings the bell for the room; both pages hear it
        server.clock.shift += timedelta(minutes=1)
        for page in (table, screen):
            expect(page.locator("body")).to_have_attribute("data-clock", "rung", timeout=20_000)
            expect(page.locator("#round-clock .round-clock-time")).to_have_text(
                "Time! The bell has rung"
            )
        expect(table.locator("#bell-text")).to_contain_text(
            "Time! The round's clock rang the bell."
        )
        expect(screen.locator("#bell-line")).to_have_text("Time! The round's clock rang the bell.")
        assert int(table.evaluate("() => document.body.dataset.rang || '0'")) >= 1
        assert int(screen.evaluate("() => document.body.dataset.rang || '0'")) >= 1
        events = server.api("GET", f"/api/nights/{night}/events", host)
        kinds = [e["event"]["type"] for e in events["events"]]
        assert kinds.count("time_up") == 1, kinds
        assert pages.errors == []
    finally:
        pages.close()
