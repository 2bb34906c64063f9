"""The engine side of ``bunco play``: fair turns, reproducible dice, bells, undo, roll-offs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bunco.core.errors import NotAllowedNow
from bunco.core.events import dump_event
from bunco.core.party_log import read_log, write_log
from bunco.party.night_report import night_report
from bunco.play.driver import Driver, play_auto
from bunco.play.logfile import PartyLog
from bunco.play.newnight import build_party
from bunco.play.roster import make_roster
from night_helpers import night_log


def new(rules: str, players: str, seed: int = 1, **kw: Any) -> tuple[Driver, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    party = build_party(rules, make_roster(players, [], all_bots=True), sets=1, seed=seed, **kw)
    return Driver.new(party, events.append), events


def test_tables_take_turns_round_robin_and_the_bell_rings_mid_play() -> None:
    driver, _ = new("classic", "12", seed=1)
    order: list[int | None] = []
    while not driver.night.bell:
        turn = driver.next_turn()
        assert turn is not None
        order.append(turn.table)
        driver.roll_for(turn)
    # Until the bell every table may roll, so the tables come in turn: 1, 2, 3, 1, 2, 3, ...
    assert order == [1, 2, 3] * (len(order) // 3) + [1, 2, 3][: len(order) % 3]
    assert order[-1] == 1  # the head table rang it
    counts = Counter(order)
    assert max(counts.values()) - min(counts.values()) <= 1
    # ... and the other tables were in the middle of their own round when it rang.
    night = driver.night
    for table in night.tables[1:]:
        assert len(table.rolls) >= len(night.tables[0].rolls) - 1 > 10
        assert table.status.value in ("finishing", "done", "tie_break")


def test_same_seed_same_night_and_the_log_replays_to_it() -> None:
    a, events_a = new("scil", "7", seed=42)
    b, events_b = new("scil", "7", seed=42)
    night_a, night_b = play_auto(a), play_auto(b)
    assert events_a == events_b
    assert night_report(night_a) == night_report(night_b)
    replayed = read_log(write_log(night_a.setup, events_a).splitlines())
    assert night_report(replayed) == night_report(night_a)
    c, events_c = new("scil", "7", seed=43)
    play_auto(c)
    assert events_c != events_a


def test_dice_are_drawn_from_the_seed_and_the_point_of_the_night() -> None:
    a, _ = new("classic", "4", seed=9)
    first = a.draw()
    assert first == a.draw()  # nothing happened in between
    assert all(1 <= d <= 6 for d in first)
    a.roll_for(a.next_turn(), (2, 3, 4))
    resumed = Driver.of(a.night)
    assert resumed.draw() == a.draw()


def test_events_name_the_roller_and_the_table() -> None:
    driver, events = new("classic", "8", seed=3)
    step = driver.roll_for(driver.next_turn(), (1, 1, 5))
    assert events == [{"type": "roll", "table": 1, "dice": [1, 1, 5], "player": "Ann"}]
    assert step.record is not None and step.record.points == 2
    assert driver.next_turn() is not None and driver.next_turn().table == 2  # type: ignore[union-attr]


def test_undo_last_removes_the_last_entry_at_its_table() -> None:
    driver, events = new("classic", "8", seed=3)
    driver.roll_for(driver.next_turn(), (1, 1, 5))  # table 1: +2
    driver.tally_for(driver.next_turn(), "bunco")  # type: ignore[arg-type]  # table 2: 21
    assert driver.night.tables[1].side_scores == (21, 0)
    driver.undo_last()
    assert events[-1] == {"type": "undo", "table": 2}
    assert driver.night.tables[1].side_scores == (0, 0)
    assert driver.night.tables[0].side_scores == (2, 0)
    driver.undo_last()
    assert driver.night.tables[0].side_scores == (0, 0)
    with pytest.raises(NotAllowedNow):
        driver.undo_last()


def _play_tied_wm_set(driver: Driver) -> None:
    """Ann wins rounds 1-3 and Bea 4-6, each with one Bunco: tied on W's and on B's."""
    while driver.night.phase == "playing":
        turn = driver.next_turn()
        assert turn is not None
        wants = "Ann" if driver.night.round_no <= 3 else "Bea"
        driver.tally_for(turn, "bunco" if turn.player == wants else "miss")


def test_a_tied_set_is_settled_by_a_roll_off_that_bots_roll() -> None:
    driver, events = new("winning-moves", "Ann,Bea")
    _play_tied_wm_set(driver)
    night = driver.night
    assert night.phase == "rolloff"
    assert night.set_results[0].settled_by == "pending_roll_off"
    turn = driver.next_turn()
    assert turn is not None and turn.table is None
    with pytest.raises(NotAllowedNow):
        driver.tally_for(turn, "bunco")  # a roll-off needs the faces
    final = play_auto(driver)
    assert final.phase == "over"
    assert final.set_results[0].settled_by == "roll_off"
    assert final.set_results[0].winner in ("Ann", "Bea")
    rolloff_rolls = [e for e in events if e["type"] == "roll" and "table" not in e]
    assert rolloff_rolls and all(len(e["dice"]) == 3 for e in rolloff_rolls)
    assert night_report(read_log(write_log(final.setup, events).splitlines())) == night_report(
        final
    )


def test_verify_for_prizes_is_off_unless_asked_and_then_the_staff_verify_after_the_last_round() -> (
    None
):
    driver, events = new("tournament", "8", seed=5)
    assert driver.night.rules.verify_for_prizes is False
    play_auto(driver)
    assert not [e for e in events if e["type"] == "verify"]
    checked, events = new("tournament", "8", seed=5, house_rules={"verify_for_prizes": "true"})
    night = play_auto(checked)
    verifies = [i for i, e in enumerate(events) if e["type"] == "verify"]
    last_roll = max(i for i, e in enumerate(events) if e["type"] == "roll" and "table" in e)
    assert len(verifies) == 8 and min(verifies) > last_roll  # after the last round, as 004
    assert all(events[i]["checker"] == "staff" for i in verifies)
    assert set(night.verified) == set(night.roster) and night.prizes
    unchecked = play_auto(new("tournament", "8", seed=5)[0])  # the same rolls, not verified
    assert [(p.category, p.value, p.candidates) for p in night.prizes] == [
        (p.category, p.value, p.candidates) for p in unchecked.prizes
    ]


def test_step_reports_round_end_and_moves() -> None:
    driver, _ = new("classic", "8", seed=2)
    step = None
    while driver.night.round_no == 1:
        step = driver.roll_for(driver.next_turn())
    assert step is not None and step.round_ended
    result = step.finished_round
    assert result is not None and result.round_no == 1
    moved = {m.player: m.to_table for m in step.moves}
    head, low = result.tables
    # classic: head winners stay, head losers go down; table 2 winners go up, losers stay.
    assert all(moved[p] == 1 for p in head.winners if p)
    assert all(moved[p] == 2 for p in head.losers if p)
    assert all(moved[p] == 1 for p in low.winners if p)
    assert all(moved[p] == 2 for p in low.losers if p)


def test_the_log_gets_the_normalized_event_and_the_state_moves_only_after_it_is_written() -> None:
    lines: list[str] = []
    driver = Driver.new(
        {"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]},
        lambda event: lines.append(dump_event(event)),
    )
    step = driver.submit({"player": "Ann", "outcome": "b", "table": 1, "type": "tally"})
    assert lines == ['{"type": "tally", "table": 1, "outcome": "bunco", "player": "Ann"}']
    assert step.event == driver.night.events[-1] and driver.last_table == 1

    def full_disk(event: object) -> None:
        raise OSError(28, "No space left on device")

    before = driver.night
    driver.sink = full_disk
    with pytest.raises(OSError):
        driver.roll_for(driver.next_turn(), dice=(1, 2, 3))
    assert driver.night is before  # the line was not written, so the night did not move
    driver.sink = lambda event: lines.append(dump_event(event))
    driver.roll_for(driver.next_turn(), dice=(1, 2, 3))
    assert len(lines) == 2 and len(driver.night.events) == 2


def test_the_terminal_log_is_the_night_log_byte_for_byte(tmp_path: Path) -> None:
    party = build_party("scil", make_roster("8", [], all_bots=True), sets=1, seed=5)
    log = PartyLog.create(tmp_path / "night.jsonl", party)
    night = play_auto(Driver.new(party, log.append))
    log.close()
    written = (tmp_path / "night.jsonl").read_text(encoding="utf-8").splitlines()
    assert written[1:] == night_log(night).splitlines()[1:]
    assert written[1:] == [dump_event(e) for e in night.events]
