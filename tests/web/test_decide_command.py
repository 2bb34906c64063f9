"""The server's one decision (:func:`bunco.web.decision.decide.decide`), with no server: a typed
command, a frozen state of a held night and the dice in; accept, repeat or refuse with
the reason out. Each refusal the command path answers today is one row here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from bunco.core.night import Night
from bunco.store import StoredEvent
from bunco.web.decision.commands import Drawing, Given, Intent, MyTurnRoll, NightCommand, RollForMe
from bunco.web.decision.decide import decide
from bunco.web.decision.entry_rules import Tapped
from bunco.web.decision.frozen_state import HeldState, started
from bunco.web.decision.rights import (
    Check,
    host_only,
    host_or_head_table,
    own_turn,
    table_writer,
    undo_writer,
)
from bunco.web.gate.principal import Principal
from bunco.web.night.command_path import STATUS_OF_KIND, as_error, stored_events

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
SETUP = {"type": "party", "rules": "classic", "players": PLAYERS}
WHEN = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
HOST = Principal("n1", "host", caller="host")
TABLE_1 = Principal("n1", "table", table=1, caller="t1")
TABLE_2 = Principal("n1", "table", table=2, caller="t2")
ANN = Principal("n1", "player", player="Ann", caller="ann")  # rolls first at table 1
BEA = Principal("n1", "player", player="Bea", caller="bea")
VIEWER = Principal("n1", "viewer", caller="v")


class Loaded:
    """Dice and picks given in advance (the server's come from :mod:`secrets`)."""

    def __init__(self, dice: list[int], picks: tuple[int, ...] = ()) -> None:
        self._dice, self._picks = dice, list(picks)
        self.asked: list[int] = []

    def dice(self) -> list[int]:
        return list(self._dice)

    def below(self, n: int) -> int:
        self.asked.append(n)
        return self._picks.pop(0) % n


def fresh() -> HeldState:
    """A night of two tables, round 1, nothing rolled yet (seq 0)."""
    first = StoredEvent("n1", 0, None, None, json.dumps(SETUP), WHEN)
    return started("n1", Night.start(SETUP), first)


def accepted(
    state: HeldState, command: NightCommand, luck: Any = None, *, commit: bool = False
) -> HeldState:
    """``state`` after ``command``, which must be accepted (as a batch plans it; with
    ``commit``, as the night is once the store took it)."""
    decision = decide(command, state, luck or Loaded([2, 3, 5]))
    assert decision.verdict == "accept", decision
    for stored, step in zip(
        stored_events(command, decision, state, WHEN), decision.steps, strict=True
    ):
        state = (
            state.committed_with(stored, step.after)
            if commit
            else state.advanced(stored, step.after)
        )
    return state


def cmd(
    intent: Intent | Mapping[str, Any],
    *,
    command_id: str = "c",
    caller: str = "x",
    expected_seq: int | None = None,
    authorize: Check | None = None,
    tapped: Tapped | None = None,
) -> NightCommand:
    return NightCommand.of(
        intent,
        command_id=command_id,
        caller=caller,
        expected_seq=expected_seq,
        authorize=authorize,
        tapped=tapped,
    )


def roll(table: int | None, dice: list[int] | None = None, **more: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "roll", "dice": dice or [2, 3, 5], **more}
    if table is not None:
        event["table"] = table
    return event


def after_one_roll() -> HeldState:
    """Table 1 rolled once (seq 1, table 1's version 1), committed."""
    return accepted(fresh(), cmd(roll(1), command_id="r1", caller="t1"), commit=True)


# (what, command, state, status, code)
REFUSALS: list[tuple[str, NightCommand, HeldState, int, str]] = [
    (
        "id reused for another request",
        cmd(roll(1, [6, 6, 6]), command_id="r1", caller="t1"),
        after_one_roll(),
        409,
        "id_reused",
    ),
    ("a viewer writes", cmd(roll(1), authorize=table_writer(VIEWER, 1)), fresh(), 403, "forbidden"),
    (
        "a table's phone at another table",
        cmd(roll(2), authorize=table_writer(TABLE_1, 2)),
        fresh(),
        403,
        "forbidden",
    ),
    (
        "a table's phone in a roll-off",
        cmd(roll(None), authorize=table_writer(TABLE_1, None)),
        fresh(),
        403,
        "forbidden",
    ),
    (
        "a table's phone sends a night's event",
        cmd({"type": "end_night"}, authorize=table_writer(TABLE_1, None)),
        fresh(),
        403,
        "forbidden",
    ),
    (
        "a player tallies",
        cmd({"type": "tally", "table": 1, "outcome": "miss"}, authorize=table_writer(ANN, 1)),
        fresh(),
        403,
        "forbidden",
    ),
    (
        "a player rolls out of turn",
        cmd(roll(1, player="Bea"), authorize=table_writer(BEA, 1)),
        fresh(),
        409,
        "not_your_turn",
    ),
    (
        "a player's own roll, not their turn anywhere",
        cmd(MyTurnRoll("Bea", [1, 2, 3]), authorize=own_turn(BEA)),
        fresh(),
        409,
        "not_your_turn",
    ),
    (
        "a night's command by a table",
        cmd({"type": "end_night"}, authorize=host_only(TABLE_1)),
        fresh(),
        403,
        "forbidden",
    ),
    (
        "the bell from another table than the head table",
        cmd({"type": "start_round"}, authorize=host_or_head_table(TABLE_2)),
        fresh(),
        403,
        "forbidden",
    ),
    (
        "a table's phone undoes what reopens the round for everyone",
        cmd({"type": "undo", "table": 1}, authorize=undo_writer(TABLE_1, 1)),
        accepted(after_one_roll(), cmd(roll(1, [1, 1, 1]), command_id="r2")),
        403,
        "forbidden",
    ),
    (
        "an entry sent to another table than it was tapped at",
        cmd(roll(2), tapped=Tapped(1, 1, 1, "Ann", 0, "t")),
        fresh(),
        422,
        "wrong_table",
    ),
    (
        "an entry tapped in a round that closed",
        cmd(roll(1), tapped=Tapped(1, 2, 1, "Ann", 0, "t")),
        fresh(),
        409,
        "round_closed",
    ),
    (
        "an entry tapped for another roller",
        cmd(roll(1), tapped=Tapped(1, 1, 1, "Bea", 0, "t")),
        fresh(),
        409,
        "roller_changed",
    ),
    (
        "an entry based on an older version of its table",
        cmd(roll(1), expected_seq=0, tapped=Tapped(1, 1, 1, "Ann", 0, "t", "playing")),
        after_one_roll(),
        409,
        "stale",
    ),
    ("a table's version it missed", cmd(roll(1), expected_seq=0), after_one_roll(), 409, "stale"),
    ("a version the night never had", cmd(roll(1), expected_seq=7), fresh(), 409, "stale"),
    (
        "a night's command after any event",
        cmd({"type": "end_night"}, expected_seq=0),
        after_one_roll(),
        409,
        "stale",
    ),
    ("the engine: dice that are not dice", cmd(roll(1, [7, 1, 1])), fresh(), 422, "invalid_dice"),
    ("the engine: a roll at a table that is not there", cmd(roll(9)), fresh(), 422, "wrong_table"),
    (
        "the engine: the night ended in a round under way",
        cmd({"type": "end_night"}),
        after_one_roll(),
        409,
        "not_allowed_now",
    ),
]


@pytest.mark.parametrize(
    ("what", "command", "state", "status", "code"), REFUSALS, ids=[row[0] for row in REFUSALS]
)
def test_each_refusal_has_its_reason(
    what: str, command: NightCommand, state: HeldState, status: int, code: str
) -> None:
    decision = decide(command, state, Loaded([2, 3, 5]))
    assert (decision.verdict, decision.code) == ("refuse", code)
    assert decision.kind is not None and STATUS_OF_KIND[decision.kind] == status
    assert decision.reason and decision.expected  # what was wrong and what is expected
    error = as_error(decision)  # the status the API answers, as it always did
    assert (error.status, error.code, error.message) == (status, code, decision.reason)


def test_a_command_id_used_before_is_a_repeat_of_its_event() -> None:
    state = after_one_roll()
    decision = decide(cmd(roll(1), command_id="r1", caller="t1"), state, Loaded([6, 6, 6]))
    assert (decision.verdict, decision.repeats) == ("repeat", 1)
    assert decision.stored is state.log[1]
    # a command id is one command of the night, whoever sends it (another phone of the
    # table, the host): the same request is a repeat, another request is refused
    again = decide(cmd(roll(1), command_id="r1", caller="t2"), state, Loaded([1, 1, 1]))
    assert (again.verdict, again.repeats) == ("repeat", 1)
    other = decide(cmd(roll(2), command_id="r1", caller="t2"), state, Loaded([1, 1, 1]))
    assert other.code == "id_reused"
    # the server's own callers have spaces of their own
    assert (
        decide(cmd(roll(1), command_id="r1", caller="bot"), state, Loaded([1, 1, 1])).verdict
        == "accept"
    )


def test_a_repeat_inside_the_batch_finds_the_event_not_stored_yet() -> None:
    state = accepted(after_one_roll(), cmd(roll(1), command_id="r2", caller="t1"))
    assert state.pending and state.committed == 1 and state.seq == 2
    again = decide(cmd(roll(1), command_id="r2", caller="t1"), state, Loaded([1, 1, 1]))
    assert (again.verdict, again.repeats) == ("repeat", 2)
    reused = decide(cmd(roll(2), command_id="r2", caller="t1"), state, Loaded([1, 1, 1]))
    assert (reused.code, reused.extra) == ("id_reused", {"seq": 2})


def test_accept_gives_the_normalized_event_and_the_night_after_it() -> None:
    state = after_one_roll()
    roller = state.night.tables[0].roller  # Ann missed: the next player's turn
    assert roller != "Ann"
    decision = decide(
        cmd(
            roll(1, [1, 2, 4]),
            expected_seq=1,
            authorize=table_writer(TABLE_1, 1),
            tapped=Tapped(1, 1, 1, roller, 1, "t", "playing"),
        ),
        state,
        Loaded([6, 6, 6]),
    )
    assert decision.verdict == "accept" and decision.after is not None
    assert decision.event == {"type": "roll", "table": 1, "dice": [1, 2, 4]}
    assert decision.after.events[-1] == decision.event
    assert state.night.events[-1]["dice"] == [2, 3, 5]  # the state is left as it was
    assert state.seq == 1 and state.version(1) == 1


def test_a_stale_refusal_lists_the_events_missed_at_that_table_only() -> None:
    state = accepted(after_one_roll(), cmd(roll(2), command_id="r2", caller="t2"))
    decision = decide(cmd(roll(1), expected_seq=0), state, Loaded([1, 1, 1]))
    assert decision.code == "stale"
    assert decision.extra is not None and decision.extra["current_seq"] == 1
    assert [e["seq"] for e in decision.extra["missed"]] == [1]  # not table 2's event
    night = decide(cmd({"type": "end_night"}, expected_seq=0), state, Loaded([1, 1, 1]))
    assert night.extra is not None
    assert [e["seq"] for e in night.extra["missed"]] == [1, 2]  # pending ones too


def test_an_entry_refused_where_it_was_tapped_says_where_the_night_is() -> None:
    decision = decide(
        cmd(roll(1), tapped=Tapped(1, 2, 1, "Ann", 0, "t")), fresh(), Loaded([1, 1, 1])
    )
    assert decision.extra is not None
    assert decision.extra["now"] == {"set": 1, "round": 1, "phase": "playing", "roller": "Ann"}
    assert decision.extra["tapped"]["round"] == 2


def test_the_server_rolls_with_the_dice_it_is_given() -> None:
    decision = decide(cmd(RollForMe({"type": "roll", "table": 1})), fresh(), Loaded([4, 4, 4]))
    assert decision.event is not None and decision.event["dice"] == [4, 4, 4]
    mine = decide(cmd(MyTurnRoll("Ann"), authorize=own_turn(ANN)), fresh(), Loaded([1, 1, 2]))
    assert mine.event == {"type": "roll", "table": 1, "dice": [1, 1, 2], "player": "Ann"}
    given = decide(cmd(MyTurnRoll("Ann", [3, 3, 1])), fresh(), Loaded([1, 1, 2]))
    assert given.event is not None and given.event["dice"] == [3, 3, 1]


def test_a_refused_roll_for_me_draws_no_dice() -> None:
    class Counting(Loaded):
        rolled = 0

        def dice(self) -> list[int]:
            Counting.rolled += 1
            return super().dice()

    decision = decide(
        cmd(RollForMe({"type": "roll", "table": 1}), expected_seq=4), fresh(), Counting([1, 1, 1])
    )
    assert decision.code == "stale" and Counting.rolled == 0


def test_a_drawing_picks_among_the_players_present_with_the_luck_given() -> None:
    luck = Loaded([1, 1, 1], picks=(2,))
    decision = decide(cmd(Drawing(name="door prize"), authorize=host_only(HOST)), fresh(), luck)
    assert decision.verdict == "accept" and decision.event is not None
    assert luck.asked == [8]
    assert decision.event["type"] == "drawing" and decision.event["winner"] == PLAYERS[2]
    refused = decide(
        cmd(Drawing(), authorize=host_only(TABLE_1)), fresh(), Loaded([1, 1, 1], picks=(0,))
    )
    assert refused.code == "forbidden"


def test_the_given_event_is_the_request_fingerprinted() -> None:
    a = cmd(Given(roll(1)), expected_seq=3)
    b = cmd(roll(1), expected_seq=3)
    assert a.request == b.request and a.request is not None
    assert cmd(RollForMe(roll(1)), expected_seq=3).request != a.request
    assert cmd(Drawing()).request is None


def test_the_batch_state_is_a_value() -> None:
    state = after_one_roll()
    later = accepted(state, cmd(roll(1), command_id="r2"))
    assert (state.seq, later.seq) == (1, 2)
    assert state.version(1) == 1 and later.version(1) == 2
    assert state.known("x", "r2") is None and later.known("x", "r2") is not None
    with pytest.raises(AttributeError):
        state.seq = 5  # type: ignore[misc]


def test_nothing_a_state_answers_changes_after_it_was_made() -> None:
    state = after_one_roll()
    with pytest.raises(TypeError):
        state.versions[1] = 9  # type: ignore[index]
    with pytest.raises(TypeError):
        state.pending_ids["x", "y"] = state.log[1]  # type: ignore[index]
    log = state.log
    later = accepted(state, cmd(roll(1), command_id="r2"), commit=True)
    # the history grew; the earlier state reads it up to its own seq only
    assert (len(log), len(state.log), len(later.log)) == (2, 2, 3)
    with pytest.raises(IndexError):
        state.log[2]
    assert log[-1] is state.log[1] and log[:] == [state.log[0], state.log[1]]
    assert state.known("x", "r2") is None and later.known("x", "r2") is later.log[2]
    assert state.since(0) == [state.log[1]] and (state.version(1), later.version(1)) == (1, 2)
    # only the night's last state commits
    with pytest.raises(AssertionError):
        accepted(state, cmd(roll(1), command_id="r3"), commit=True)
