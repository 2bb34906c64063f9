"""Store and forward at the bell (bunco.core.late_entries): entries tapped before the bell
that reach the log after it count there, and the room waits for a phone that holds some."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bunco.core.errors import InvalidSetup, NotAllowedNow, NotYourTurn
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.core.table import Status

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
DOCS = Path(__file__).resolve().parents[2] / "docs"


def rung(rules: str = "classic", *, finish: bool = False) -> Night:
    """Ann scores +2 at the head table until the bell (22), table 2 entered nothing
    (0-0: a tie-break); ``finish``: Ann's miss ends her turn."""
    night = Night.start({"rules": rules, "players": EIGHT})
    for _ in range(11):
        night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})
    if finish:
        night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})
    return night


def late(night: Night, outcome: str, player: str | None = None, table: int = 2) -> Night:
    event = {"type": "tally", "table": table, "outcome": outcome, "before_bell": True}
    if player is not None:
        event["player"] = player
    return night.apply(event)


def test_six_entries_from_before_the_bell_drop_the_tie_break_and_count() -> None:
    night = rung()
    assert night.bell and night.tables[1].status is Status.TIE_BREAK
    for outcome, player in [
        ("+1", "Eve"),
        ("miss", "Eve"),
        ("+2", "Fay"),
        ("miss", "Fay"),
        ("miss", "Gus"),
        ("+1", "Hal"),
    ]:
        night = late(night, outcome, player)
    table = night.tables[1]
    assert table.side_scores == (1, 3) and table.tie_break is None
    assert (table.status, table.roller) == (Status.FINISHING, "Hal")  # in mid-turn at the bell
    night = night.apply({"type": "tally", "table": 2, "outcome": "miss"})  # Hal's last
    night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})  # Ann's last
    assert night.round_no == 2
    result = night.history[0].tables[1]
    assert result.side_scores == (1, 3) and result.winners == ("Fay", "Hal")
    assert night.cards["Hal"].points == 1 and night.cards["Eve"].losses == 1
    # the log replays to the same night, the entries where they were rolled
    again = Night.start(night.setup).apply_all(list(night.events))
    assert again.history[0].tables[1].side_scores == (1, 3)
    phases = [r.phase.value for r in night.history[0].tables[1].rolls]
    assert phases == ["play"] * 6 + ["after_bell"]


def test_a_tie_before_the_bell_begins_the_tie_break_again() -> None:
    night = late(late(rung(), "+1", "Eve"), "miss", "Eve")
    night = late(late(night, "+1", "Fay"), "miss", "Fay")
    table = night.tables[1]
    assert table.side_scores == (1, 1) and table.status is Status.TIE_BREAK
    assert table.tie_break is not None and table.tie_break.points == (0, 0)


def test_a_late_entry_names_the_roller_of_before_the_bell() -> None:
    with pytest.raises(NotYourTurn, match="it is Eve's turn at table 2, not Fay's"):
        late(rung(), "+1", "Fay")


def test_nothing_goes_before_the_bell_once_the_table_played_after_it() -> None:
    night = rung().apply({"type": "roll", "table": 2, "dice": [2, 3, 4]})  # tie-break roll
    with pytest.raises(NotAllowedNow, match="table 2 has 1 entry since the bell"):
        late(night, "+1")
    with pytest.raises(NotAllowedNow, match="the bell has not rung"):
        late(Night.start({"rules": "classic", "players": EIGHT}), "+1")


def test_an_entry_that_would_ring_the_bell_sooner_is_refused() -> None:
    """With the clock's bell, a late +2 at the head table would have rung the bell there
    first: what followed (the clock's bell, table 2's tie-break) no longer applies."""
    night = Night.start(
        {"rules": "classic", "players": EIGHT, "house_rules": {"round_minutes": 10}}
    ).apply({"type": "start_round", "clock": "2026-11-27T20:00:00+00:00"})
    for _ in range(10):
        night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})  # 20, Ann rolls on
    night = night.apply({"type": "time_up", "set": 1, "round": 1})
    assert night.tables[0].status is Status.FINISHING
    night = night.apply({"type": "roll", "table": 2, "dice": [2, 3, 4]})  # tie-break there
    with pytest.raises(NotAllowedNow, match="an entry from before the bell at table 1 cannot"):
        late(night, "+2", table=1)


def test_undo_takes_back_a_late_entry() -> None:
    night = late(rung(), "+1", "Eve")
    assert night.tables[1].status is Status.FINISHING
    back = night.apply({"type": "undo", "table": 2})
    assert back.tables[1].status is Status.TIE_BREAK and back.tables[1].side_scores == (0, 0)


def test_the_room_waits_for_a_phone_and_goes_on_when_released() -> None:
    night = rung().apply({"type": "wait_for_phone", "of_table": 2, "entries": 2})
    night = late(late(night, "+1", "Eve"), "miss", "Eve")  # table 2 settles 1-0
    night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})
    assert all(t.status is Status.DONE for t in night.tables)
    assert night.round_no == 1 and night.awaited == {2: 2}  # every table done: it waits
    with pytest.raises(NotAllowedNow, match="already waits"):
        night.apply({"type": "wait_for_phone", "of_table": 2})
    night = night.apply({"type": "go_on", "of_table": 2, "why": "sent"})
    assert night.round_no == 2 and night.history[0].tables[1].winners == ("Eve", "Gus")


def test_the_host_enters_who_won_from_the_paper_and_late_entries_then_stop() -> None:
    night = rung(finish=True).apply({"type": "wait_for_phone", "of_table": 2})
    with pytest.raises(InvalidSetup, match="Ann does not sit at table 2"):
        night.apply({"type": "go_on", "of_table": 2, "winner": "Ann", "why": "host"})
    night = night.apply({"type": "go_on", "of_table": 2, "winner": "Fay", "why": "host"})
    assert night.round_no == 2
    result = night.history[0].tables[1]
    assert result.winners == ("Fay", "Hal") and result.tie_break is None
    with pytest.raises(NotAllowedNow, match="the bell has not rung in round 2"):
        late(night, "+1", "Eve")  # the log holds no round: this is round 2's, where no bell rang


def test_a_result_by_hand_before_the_round_ends_refuses_late_entries() -> None:
    night = rung().apply({"type": "go_on", "of_table": 2, "winner": "Eve", "why": "host"})
    assert night.settled_by_hand(2) and 2 in night.decided
    with pytest.raises(NotAllowedNow, match="since the bell"):
        late(night, "+1", "Eve")
    with pytest.raises(NotAllowedNow, match="went on without"):
        night.apply({"type": "wait_for_phone", "of_table": 2})
    with pytest.raises(NotAllowedNow, match="is not waiting"):
        night.apply({"type": "go_on", "of_table": 1})


def test_the_party_log_example_folds_to_what_the_page_says() -> None:
    text = (DOCS / "party-log.md").read_text(encoding="utf-8")
    section = text[text.index("## Store and forward at the bell") :]
    (block,) = re.findall(r"^```text\n(.*?)^```", section, flags=re.S | re.M)[:1]
    lines = block.splitlines()
    head = lines[1]
    at = lines.index("...")
    full = [lines[0], *[head] * 11, *lines[at + 2 :]]
    assert lines[at + 1] == head
    night = read_log(full)
    assert [json.loads(line)["type"] for line in lines[at + 2 :]].count("tally") == 5
    result = night.history[0].tables[1]
    assert result.side_scores == (1, 2) and result.winners == ("Fay", "Hal")
    assert result.tie_break is None and night.round_no == 2 and not night.awaited


def test_a_late_entry_that_settles_the_last_table_keeps_the_room_waiting() -> None:
    """Every other table settled at the bell; the room waits for table 2's phone (written
    after the bell). Placing Eve's +1 and miss before the bell settles table 2 at the bell
    in the fold again: the round must not end half-way through that fold (the wait comes
    later in it), and ends with the phone's go_on."""
    night = rung(finish=True)
    night = late(night, "+1", "Eve").apply({"type": "wait_for_phone", "of_table": 2, "entries": 1})
    night = late(night, "miss", "Eve")
    assert night.round_no == 1 and night.awaited == {2: 1}
    assert all(t.status is Status.DONE for t in night.tables) and not night.holding
    night = night.apply({"type": "go_on", "of_table": 2, "why": "sent"})
    assert night.round_no == 2 and night.history[0].tables[1].side_scores == (1, 0)
    again = Night.start(night.setup).apply_all(list(night.events))
    assert again.round_no == 2 and not again.holding


def test_a_late_entry_that_settles_the_last_table_ends_the_round_when_nobody_waits() -> None:
    night = late(late(rung(finish=True), "+1", "Eve"), "miss", "Eve")
    assert night.round_no == 2 and not night.holding
    assert night.history[0].tables[1].winners == ("Eve", "Gus")
