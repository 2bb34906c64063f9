"""Timed rounds (house rule ``round_minutes``): the rule, the clock in the log, the bell at zero."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers import party, roll

from bunco.core.errors import InvalidEvent, InvalidRuleValue, NotAllowedNow, RoundOver, UnknownRule
from bunco.core.events import normalize_event
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.core.presets import PRESETS, get_rules
from bunco.core.round_clock import RoundClock, parse_time
from bunco.core.table import Status
from bunco.party.night_report import night_report
from night_helpers import night_log

EIGHT = [f"P{i}" for i in range(1, 9)]
START = "2026-11-27T20:00:00+00:00"


def timed(rules: str = "classic", minutes: int = 10, players: list[str] = EIGHT) -> Night:
    night = party(rules, players, house_rules={"round_minutes": minutes})
    return night.apply({"type": "start_round", "clock": START})


def time_up(night: Night, round_no: int = 1, set_no: int = 1) -> Night:
    return night.apply({"type": "time_up", "set": set_no, "round": round_no})


# -- the rule -------------------------------------------------------------------------------


def test_every_preset_has_no_clock_and_the_rule_takes_minutes_or_off() -> None:
    assert {p: r.round_minutes for p, r in PRESETS.items()} == dict.fromkeys(PRESETS, 0)
    rules = get_rules("tournament")
    assert rules.with_house_rules({"round_minutes": 12}).round_minutes == 12
    assert rules.with_house_rules({"round-minutes": "15"}).round_minutes == 15
    assert rules.with_house_rules({"round_minutes": "off"}).round_minutes == 0
    assert rules.with_house_rules({"round_minutes": "None"}).round_minutes == 0


@pytest.mark.parametrize(
    ("value", "message", "expected"),
    [
        (241, "round_minutes must be 0 to 240, got 241", "minutes from 1 to 240"),
        (-5, "round_minutes must be 0 to 240, got -5", "0 (off"),
        ("soon", "'soon' is not a valid value for house rule 'round_minutes'", "off, or minutes"),
        (12.5, "12.5 is not a valid value", "off, or minutes from 1 to 240"),
        (True, "True is not a valid value", "off, or minutes"),
    ],
)
def test_a_bad_clock_is_refused_saying_what_would_do(
    value: object, message: str, expected: str
) -> None:
    with pytest.raises(InvalidRuleValue) as caught:
        get_rules("classic").with_house_rules({"round_minutes": value})
    assert message in caught.value.message and expected in (caught.value.expected or "")


def test_a_mistyped_name_gets_the_nearest_rule() -> None:
    with pytest.raises(UnknownRule, match="round_minutes"):
        get_rules("classic").with_house_rules({"round_minute": 5})


# -- the clock ------------------------------------------------------------------------------


def test_the_clock_counts_down_on_the_time_it_is_given() -> None:
    clock = RoundClock(1, 1, START, 10)
    start = parse_time(START, "start")
    assert clock.ends_at == "2026-11-27T20:10:00+00:00"
    assert clock.remaining(start) == 600.0
    assert clock.remaining(start + timedelta(minutes=9, seconds=59)) == 1.0
    assert not clock.due(start + timedelta(minutes=9, seconds=59, milliseconds=999))
    assert (
        clock.due(start + timedelta(minutes=10))
        and clock.remaining(start + timedelta(hours=1)) == 0
    )
    assert not RoundClock(1, 1, START, 10, rung=True).due(start + timedelta(hours=1))
    # another offset is the same moment
    other = RoundClock(1, 1, "2026-11-27T21:00:00+01:00", 10)
    assert other.ends == clock.ends


def test_start_round_records_the_clock_and_the_fold_keeps_it() -> None:
    night = timed(minutes=12)
    assert night.started and night.clock == RoundClock(1, 1, START, 12)
    assert normalize_event({"type": "start_round", "clock": "2026-11-27T20:00:00Z"}) == {
        "type": "start_round",
        "clock": START,
    }
    stamped = datetime(2026, 11, 27, 20, 0, 1, 250000, tzinfo=UTC).isoformat()
    assert normalize_event({"type": "start_round", "clock": stamped})["clock"] == (
        "2026-11-27T20:00:01.250+00:00"
    )


@pytest.mark.parametrize(
    "clock", ["20:00", "2026-11-27T20:00:00", "yesterday", 1700000000, "", "x" * 41]
)
def test_a_clock_without_a_date_and_offset_is_refused(clock: object) -> None:
    with pytest.raises(InvalidEvent, match="not a time with its offset"):
        normalize_event({"type": "start_round", "clock": clock})


def test_an_untimed_night_has_no_clock_to_start_or_ring() -> None:
    night = party("classic", EIGHT)
    with pytest.raises(NotAllowedNow, match="not timed"):
        night.apply({"type": "start_round", "clock": START})
    with pytest.raises(NotAllowedNow, match="no clock running"):
        time_up(night.apply({"type": "start_round"}))


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "time_up", "set": 1, "round": 7}, "not a round number"),
        ({"type": "time_up", "set": 0, "round": 1}, "not a set number"),
        ({"type": "time_up", "round": 1}, "not a set number"),
        ({"type": "time_up", "set": 1, "round": "1"}, "not a round number"),
    ],
)
def test_a_malformed_time_up_is_refused(event: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidEvent, match=message):
        normalize_event(event)


def test_the_bell_rings_once_for_its_own_round_only() -> None:
    night = timed()
    with pytest.raises(NotAllowedNow, match="not in play"):
        time_up(night, round_no=2)
    night = time_up(roll(night, 1, 1, 2, 3))
    with pytest.raises(NotAllowedNow, match="already rung"):
        time_up(night)
    # a round that started with its first roll (no start bell) has no clock
    plain = roll(party("classic", EIGHT, house_rules={"round_minutes": 10}), 1, 1, 2, 3)
    with pytest.raises(NotAllowedNow, match="no clock running"):
        time_up(plain)


# -- the bell at zero -------------------------------------------------------------------------


def test_time_rings_the_bell_mid_turn_rollers_finish_and_ties_roll_off() -> None:
    night = timed("classic")
    night = roll(night, 1, 1, 2, 3)  # P1 scores 1, mid-turn
    night = roll(night, 2, 2, 2, 3)  # P5 misses: table 2 stands 0-0, nobody mid-turn
    night = time_up(night)
    assert night.bell and night.bell_roll is not None and night.bell_roll.why == "time"
    assert night.clock is not None and night.clock.rung
    t1, t2 = night.tables
    assert t1.status is Status.FINISHING and t1.roller == "P1"  # classic: rolls on
    assert t2.status is Status.TIE_BREAK  # 0-0: the tie-break sessions (001)
    night = roll(night, 1, 1, 1, 4)  # after the bell: counts
    night = roll(night, 1, 2, 3, 4)  # a miss: table 1 is settled
    assert night.tables[0].status is Status.DONE and night.tables[0].side_scores == (3, 0)
    with pytest.raises(RoundOver):
        roll(night, 1, 1, 2, 3)
    for dice in ([1, 4, 5], [3, 4, 5], [3, 4, 5], [3, 4, 5], [3, 4, 5]):
        night = roll(night, 2, *dice)  # P5 +1 then misses, the others miss: P5's team wins
    assert night.round_no == 2 and night.clock is None and not night.started
    ended = night.history[0].ended_by
    assert ended is not None and ended.as_dict() == {
        "set": 1,
        "round": 1,
        "table": None,
        "why": "time",
        "player": None,
        "credited": None,
        "dice": None,
        "points": 0,
    }
    report = night_report(night)["rounds"][0]["tables"]
    assert [t["winners"] for t in report] == [["P1", "P3"], ["P5", "P7"]]


def test_with_stop_after_the_bell_the_round_ends_at_once_when_nobody_is_tied() -> None:
    night = timed("scil")  # scil: nobody rolls on after the bell
    for table in (1, 2):
        night = roll(night, table, *([4, 4, 4] if table == 1 else [5, 5, 5]))  # roll for high
        night = roll(night, table, *([3, 3, 3] if table == 1 else [2, 2, 2]))
        night = roll(night, table, *([2, 2, 2] if table == 1 else [3, 3, 3]))
        night = roll(night, table, *([1, 1, 1] if table == 1 else [4, 4, 4]))
    seated = {t.number: t.status for t in night.tables}
    assert set(seated.values()) == {Status.PLAYING}
    night = roll(night, 1, 1, 2, 3)  # table 1's starter scores 1 ...
    night = roll(night, 2, 1, 4, 5)  # ... and table 2's
    night = time_up(night)  # stop: both settled on points at once, the round is over
    assert night.round_no == 2 and len(night.history) == 1
    assert night.history[0].ended_by is not None and night.history[0].ended_by.why == "time"


def test_the_head_table_can_tie_on_the_clock() -> None:
    night = time_up(timed("tournament"))  # nobody rolled: 0-0 everywhere
    assert [t.status for t in night.tables] == [Status.TIE_BREAK, Status.TIE_BREAK]
    night = roll(night, 1, 1, 5, 6)  # sudden death: the round's number wins at once
    assert night.tables[0].status is Status.DONE and night.tables[0].winners == ("P1", "P3")


def test_winning_moves_every_table_stops_at_the_clock() -> None:
    night = timed("winning-moves")
    night = roll(night, 1, 1, 2, 3)
    night = time_up(night)  # nobody rolls on: table 1 wins 1-0, table 2 ties 0-0
    assert night.tables[0].status is Status.DONE and night.tables[1].status is Status.TIE_BREAK


def test_a_log_with_timed_rounds_replays_to_the_same_night() -> None:
    night = timed("classic")
    night = roll(night, 1, 1, 2, 3)
    night = roll(night, 2, 2, 2, 3)
    night = time_up(night)
    night = roll(night, 1, 2, 3, 4)
    night = roll(night, 2, 1, 5, 6)
    for _ in range(4):
        night = roll(night, 2, 3, 4, 5)
    assert night.round_no == 2
    again = read_log(night_log(night).splitlines())
    assert night_report(again) == night_report(night)
    assert again.history[0].ended_by == night.history[0].ended_by


def test_an_undo_after_the_clock_keeps_the_bell() -> None:
    night = time_up(roll(timed("classic"), 1, 1, 2, 3))
    night = roll(night, 1, 1, 4, 5)  # after the bell: P1 rolls on
    undone = night.apply({"type": "undo", "table": 1})
    assert undone.bell and undone.clock is not None and undone.clock.rung
    assert undone.tables[0].status is Status.FINISHING and undone.tables[0].side_scores == (1, 0)


def test_the_party_log_page_example_folds_to_what_it_says() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "party-log.md").read_text("utf-8")
    section = text.split("## Timed rounds", 1)[1]
    example = section.split("```text\n", 1)[1].split("```", 1)[0]
    night = read_log(example.splitlines())
    assert night.bell_roll is not None and night.bell_roll.why == "time"
    assert night.tables[0].status is Status.FINISHING and night.tables[0].roller == "Ann"
    assert night.tables[1].status is Status.TIE_BREAK
