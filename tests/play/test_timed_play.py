"""Timed rounds in ``bunco play``: the driver keeps the round's clock on a time it is given
(a test's, here: nothing waits), and its log replays to the same night."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bunco.core.errors import NotYourTurn
from bunco.core.events import Event
from bunco.core.party_log import read_log, write_log
from bunco.party.night_report import night_report
from bunco.play.driver import Driver, Turn, play_auto

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


class Time:
    """A clock a test moves."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def timed_driver(minutes: int = 5) -> tuple[Driver, list[Event], Time]:
    log: list[Event] = []
    party = {"type": "party", "rules": "classic", "players": EIGHT, "seed": 3}
    party["house_rules"] = {"round_minutes": minutes}
    driver = Driver.new(party, sink=log.append)
    time = Time()
    driver.clock = time
    return driver, log, time


def test_the_first_entry_starts_the_clock_and_zero_rings_the_bell_between_rolls() -> None:
    driver, log, time = timed_driver()
    driver.roll_for(Turn(1, "Ann"), (1, 2, 3))  # Ann +1, mid-turn
    assert [e["type"] for e in log] == ["start_round", "roll"]
    assert log[0] == {"type": "start_round", "clock": "2026-11-27T20:00:00+00:00"}
    time.now += timedelta(minutes=4, seconds=59)
    assert driver.ring_if_due() is None
    time.now += timedelta(seconds=1)
    step = driver.ring_if_due()
    assert step is not None and step.bell_rang and step.rang_by_clock
    assert log[-1] == {"type": "time_up", "set": 1, "round": 1}
    assert driver.ring_if_due() is None  # one bell
    assert [t.status.value for t in driver.night.tables] == ["finishing", "tie_break"]


def test_an_entry_after_zero_rings_the_bell_first_and_is_judged_after_it() -> None:
    driver, log, time = timed_driver()
    driver.roll_for(Turn(1, "Ann"), (2, 3, 4))  # Ann misses: Bea's turn, not mid-turn
    time.now += timedelta(minutes=6)
    with pytest.raises(NotYourTurn):  # 0-0 at the bell: the tie-break starts with Ann
        driver.roll_for(Turn(1, "Bea"), (1, 1, 1))
    assert [e["type"] for e in log] == ["start_round", "roll", "time_up"]  # the bell is logged
    assert driver.night.bell and driver.night.tables[0].roller == "Ann"


def test_a_timed_night_played_out_replays_from_its_log_to_the_same_result() -> None:
    driver, log, time = timed_driver(minutes=1)
    ticks = iter(range(10_000))

    def later() -> datetime:  # every entry takes two seconds of the clock
        return time.now + timedelta(seconds=2 * next(ticks))

    driver.clock = later
    night = play_auto(driver)
    kinds = [e["type"] for e in log]
    assert night.phase == "over" and kinds.count("start_round") == 6
    assert kinds.count("time_up") >= 1  # a minute is thirty entries: some rounds ran out
    text = write_log(night.setup, log)
    again = read_log(text.splitlines())
    assert night_report(again) == night_report(night)
    endings = [r.ended_by.why for r in again.history if r.ended_by is not None]
    assert "time" in endings


def test_the_house_rules_card_says_the_round_is_timed() -> None:
    from bunco.core.presets import get_rules
    from bunco.sheets.wording import house_changes, rule_lines

    timed = get_rules("tournament", {"round_minutes": 12})
    assert (
        "Timed rounds: each round has 12 minutes on the clock; at zero the bell rings for "
        "every table, as the head table's would."
    ) in rule_lines(timed)
    assert [c[:2] for c in house_changes(timed)] == [("round_minutes", "12")]
    assert not any("Timed" in line for line in rule_lines(get_rules("tournament")))
