"""Timed rounds on the server: its clock starts the round, counts it down and rings at zero.

The server's time is a :class:`~bunco.web.decision.timed_rounds.ShiftedClock` the tests move
forward: no test waits for a minute to pass.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import Night, cid, make_night  # noqa: E402

from bunco.web.app import create_app  # noqa: E402
from bunco.web.decision.timed_rounds import ShiftedClock  # noqa: E402


class Timed:
    """An app on ``url`` with a clock the test moves, and a timed night of eight."""

    def __init__(self, client: TestClient, clock: ShiftedClock, minutes: int = 10) -> None:
        self.client, self.clock = client, clock
        self.night: Night = make_night(client, house_rules={"round_minutes": minutes})

    def forward(self, **delta: float) -> None:
        self.clock.shift += timedelta(**delta)

    def clock_now(self) -> dict[str, Any]:
        reply = self.client.get(self.night.url("/clock"), headers=self.night.viewer)
        assert reply.status_code == 200, reply.text
        return dict(reply.json())

    def events(self) -> list[dict[str, Any]]:
        return [e for e in self.night.log()[1:]]


@pytest.fixture
def timed(db_url: str) -> Iterator[Timed]:
    """A timed night on SQLite: the clock's rules are decided above the store."""
    clock = ShiftedClock()
    with TestClient(create_app(db_url, bot_pace=0, clock=clock)) as client:
        yield Timed(client, clock)


@pytest.fixture
def timed_any(any_db_url: str) -> Iterator[Timed]:
    """A timed night on each database: where the clock's events are stored with an entry."""
    clock = ShiftedClock()
    with TestClient(create_app(any_db_url, bot_pace=0, clock=clock)) as client:
        yield Timed(client, clock)


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_the_first_entry_starts_the_clock_on_the_servers_time(timed_any: Timed) -> None:
    timed = timed_any
    night = timed.night
    before = timed.clock_now()
    assert before["clock"] is None and before["minutes"] == 10 and before["remaining_ms"] == 0
    reply = night.roll(1, [1, 2, 3], expected_seq=0)  # the clock's start changes no version
    assert reply.status_code == 200, reply.text
    start, roll = timed.events()
    assert start["type"] == "start_round" and roll == {
        "type": "roll",
        "table": 1,
        "dice": [1, 2, 3],
    }
    now = timed.clock_now()
    assert now["clock"]["started_at"] == start["clock"] and now["clock"]["rung"] is False
    assert _parse(now["clock"]["ends_at"]) - _parse(start["clock"]) == timedelta(minutes=10)
    assert 598_000 < now["remaining_ms"] <= 600_000
    assert night.state()["view"]["clock"] == now["clock"]  # every page reads it with the night
    timed.forward(minutes=4)
    assert 358_000 < timed.clock_now()["remaining_ms"] <= 360_000


def test_a_refused_first_entry_starts_no_clock(timed: Timed) -> None:
    night = timed.night
    reply = night.roll(1, [1, 2, 3], player="Bea")  # not Bea's turn
    assert reply.status_code == 409 and reply.json()["error"] == "not_your_turn"
    assert timed.events() == [] and timed.clock_now()["clock"] is None


def test_the_start_bell_carries_the_servers_time_not_the_callers(timed: Timed) -> None:
    night = timed.night
    timed.forward(minutes=-30)  # the server's time is what counts
    reply = timed.client.post(
        night.url("/events"),
        json={
            "command_id": cid(),
            "event": {"type": "start_round", "clock": "2000-01-01T00:00:00+00:00"},
        },
        headers=night.host,
    )
    assert reply.status_code == 200, reply.text
    (start,) = timed.events()
    assert start["clock"] != "2000-01-01T00:00:00+00:00"
    assert abs(
        _parse(start["clock"])
        - (datetime.now(_parse(start["clock"]).tzinfo) - timedelta(minutes=30))
    ) < timedelta(seconds=5)


def test_a_command_after_zero_rings_the_bell_first_and_is_handled_as_after_the_bell(
    timed_any: Timed,
) -> None:
    timed = timed_any
    night = timed.night
    assert night.roll(1, [1, 2, 3]).status_code == 200  # Ann +1, mid-turn
    assert night.roll(2, [2, 3, 4]).status_code == 200  # Eve misses: table 2 is 0-0
    timed.forward(minutes=10)
    # table 2's next roller (Fay) was not mid-turn: after the bell her roll is a tie-break roll
    reply = night.roll(1, [1, 1, 4])  # Ann rolls on: the turn under way counts
    assert reply.status_code == 200, reply.text
    assert reply.json()["entry"]["phase"] == "after_bell"
    kinds = [e["type"] for e in timed.events()]
    assert kinds == ["start_round", "roll", "roll", "time_up", "roll"]
    assert timed.events()[3] == {"type": "time_up", "set": 1, "round": 1}
    state = night.state()
    assert state["status"]["bell_roll"]["why"] == "time"
    assert state["view"]["clock"]["rung"] is True
    assert timed.clock_now()["remaining_ms"] == 0
    # the server's log replays to the same night
    assert night.roll(1, [2, 3, 4]).status_code == 200  # Ann misses: table 1 settled 3-0
    tables = night.state()["view"]["tables"]
    assert tables[0]["status"] == "done" and tables[1]["status"] == "tie_break"


def test_an_entry_after_zero_by_someone_not_mid_turn_is_refused_as_after_the_bell(
    timed: Timed,
) -> None:
    night = timed.night
    assert night.roll(1, [2, 3, 4]).status_code == 200  # Ann misses: Bea's turn, not mid-turn
    assert night.roll(2, [1, 3, 4]).status_code == 200  # Eve +1
    timed.forward(minutes=11)
    reply = night.roll(1, [1, 1, 1], player="Bea")  # table 1 was settled by the bell: 0-0 ...
    body = reply.json()
    # ... so Bea's roll is not play: at 0-0 the tie-break starts with the scorekeeper (Ann)
    assert reply.status_code == 409 and body["error"] == "not_your_turn", body
    assert [e["type"] for e in timed.events()] == ["start_round", "roll", "roll", "time_up"]


def test_a_page_asking_after_zero_rings_once_and_asking_again_rings_no_more(
    timed: Timed,
) -> None:
    night = timed.night
    assert night.roll(1, [2, 3, 4]).status_code == 200
    timed.forward(minutes=10, seconds=1)
    first = timed.clock_now()
    assert first["clock"]["rung"] is True and first["remaining_ms"] == 0
    timed.clock_now()
    tie = night.roll(2, [2, 3, 4])  # table 2 stood 0-0: Eve starts its tie-break
    assert tie.status_code == 200 and tie.json()["entry"]["phase"] == "tie_break", tie.text
    assert [e["type"] for e in timed.events()].count("time_up") == 1


def test_a_caller_cannot_ring_the_clock_early(timed: Timed) -> None:
    night = timed.night
    assert night.roll(1, [2, 3, 4]).status_code == 200
    timed.forward(minutes=7, seconds=30)
    reply = timed.client.post(
        night.url("/events"),
        json={"command_id": cid(), "event": {"type": "time_up", "set": 1, "round": 1}},
        headers=night.host,
    )
    body = reply.json()
    assert reply.status_code == 409 and body["error"] == "not_allowed_now", body
    assert "round 1's clock has 2:30 left" in body["message"]
    assert "time_up" not in [e["type"] for e in timed.events()]


def test_an_untimed_night_has_no_clock(client: TestClient) -> None:
    night = make_night(client)
    clocked = client.post(
        night.url("/events"),
        json={
            "command_id": cid(),
            "event": {"type": "start_round", "clock": "2026-11-27T20:00:00Z"},
        },
        headers=night.host,
    )
    assert clocked.status_code == 409 and "not timed" in clocked.json()["message"]
    assert night.roll(1, [1, 2, 3]).status_code == 200
    reply = client.get(night.url("/clock"), headers=night.viewer).json()
    assert reply["clock"] is None and reply["minutes"] == 0
    assert [e["type"] for e in night.log()[1:]] == ["roll"]


def test_a_bad_round_minutes_is_refused_when_the_night_is_made(client: TestClient) -> None:
    reply = client.post(
        "/api/nights",
        json={
            "name": "x",
            "rules": "classic",
            "players": ["Ann", "Bea"],
            "house_rules": {"round_minutes": 500},
        },
    )
    body = reply.json()
    assert reply.status_code == 422, body
    assert "round_minutes must be 0 to 240" in body["message"]


def _until(check: Any, what: str, timeout: float = 15.0) -> None:
    """Wait until ``check()`` holds (the server's timer runs on its own)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(0.02)


def _bells(night: Night) -> int:
    return [e["type"] for e in night.log()[1:]].count("time_up")


def test_the_servers_timer_rings_at_zero_with_nobody_asking(timed: Timed) -> None:
    night = timed.night
    assert night.roll(1, [2, 3, 4]).status_code == 200
    timed.forward(minutes=10)
    _until(lambda: _bells(night) == 1, "bell")
    assert night.state()["status"]["bell_roll"]["why"] == "time"


def test_a_clock_that_ran_out_while_the_server_was_down_rings_when_the_night_is_held_again(
    any_db_url: str,
) -> None:
    clock = ShiftedClock()
    with TestClient(create_app(any_db_url, bot_pace=0, clock=clock)) as client:
        night = make_night(client, house_rules={"round_minutes": 5})
        assert night.roll(1, [1, 2, 3]).status_code == 200
    clock.shift = timedelta(minutes=6)  # the server was down at zero
    with TestClient(create_app(any_db_url, bot_pace=0, clock=clock)) as client:
        again = Night(client, night.created)
        assert again.state()["status"]["bell"] in (False, True)  # loads the night
        _until(lambda: _bells(again) == 1, "bell after the restart")
        reply = again.roll(1, [1, 4, 5])  # Ann was mid-turn at the bell: she rolls on
        assert reply.status_code == 200 and reply.json()["entry"]["phase"] == "after_bell"
        assert _bells(again) == 1


def test_two_processes_asking_at_zero_store_one_bell(pg_url: str) -> None:
    clock = ShiftedClock()
    with (
        TestClient(create_app(pg_url, bot_pace=0, clock=clock)) as one,
        TestClient(create_app(pg_url, bot_pace=0, clock=clock)) as two,
    ):
        night = make_night(one, house_rules={"round_minutes": 5})
        other = Night(two, night.created)
        assert night.roll(1, [1, 2, 3]).status_code == 200
        _until(lambda: other.state()["view"]["clock"] is not None, "the clock on the other")
        clock.shift = timedelta(minutes=5)
        replies: list[Any] = []
        askers = [
            threading.Thread(
                target=lambda n=n: replies.append(
                    n.client.get(n.url("/clock"), headers=n.viewer).json()
                )
            )
            for n in (night, other, night, other)
        ]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
        assert all(r["clock"]["rung"] for r in replies), replies
        _until(lambda: other.state()["status"]["bell"], "the bell on the other process")
        assert _bells(night) == 1 and _bells(other) == 1
        # the tables settle by the rules after it, on either process
        assert other.roll(1, [2, 3, 4]).status_code == 200  # Ann finishes her turn
        assert night.state()["view"]["tables"][0]["status"] == "done"
