"""Corrections of the round in play: the record changes, the turn and the bell do not, and
the table's undo folds the same way live and in a replay."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco.core.audit import audit_trail
from bunco.core.corrections import seat_points_of
from bunco.core.errors import BuncoError, InvalidSetup, NotAllowedNow
from bunco.core.night import Night
from bunco.core.party_log import read_log_stream
from bunco.core.table import Phase, Status
from night_helpers import night_log, party, roll

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def fix(night: Night, table: int = 1, **fields: Any) -> Night:
    event = {"type": "correct", "set": night.set_no, "round": night.round_no, "of_table": table}
    return night.apply({**event, "reason": "the table agreed", **fields})


def undo(night: Night, table: int = 1) -> Night:
    return night.apply({"type": "undo", "table": table})


def seen(night: Night) -> tuple[Any, ...]:
    """What a night shows: tables, rounds, cards, corrections, the last Bunco."""
    return (night.tables, night.history, night.cards, night.corrections, night.last_bunco)


def replayed(night: Night) -> Night:
    """The night folded again from its party log, as a restart or another process would."""
    return read_log_stream(io.BytesIO(night_log(night).encode()))


def turn(night: Night, table: int = 1) -> tuple[Any, ...]:
    t = night.tables[table - 1]
    return (t.roller, t.turn, t.in_turn, t.turn_count, t.status)


def two_rolls(table: int = 1) -> tuple[Night, tuple[str | None, ...]]:
    """A classic night of 8: table ``table``'s first player scored 2, then missed."""
    night = party("classic", EIGHT)
    night = roll(night, table, 1, 1, 4)
    night = roll(night, table, 2, 3, 4)
    return night, night.tables[table - 1].seats


def test_a_move_changes_the_points_at_once_and_leaves_the_turn_where_the_dice_are():
    night, seats = two_rolls()
    assert night.tables[0].side_scores == (2, 0) and night.tables[0].roller == seats[1]
    before = turn(night)
    after = fix(night, change="move", roll=1, player=seats[1])
    assert after.tables[0].side_scores == (0, 2)
    assert after.tables[0].points == (0, 2, 0, 0)
    assert turn(after) == before  # the roller, the turn and its count are the table's
    [c] = after.corrections
    assert (c.change, c.roll, c.scores_before, c.scores_after) == ("move", 1, (2, 0), (0, 2))
    assert c.record is not None and c.record.credited == seats[0]
    after = roll(after, 1, 1, 2, 3)  # the table plays on: Bea's +1 folds on top
    assert after.tables[0].side_scores == (0, 3) and after.tables[0].roller == seats[1]
    assert seen(replayed(after)) == seen(after)


def test_added_and_removed_rolls_change_points_not_whose_turn_it_is():
    night, seats = two_rolls()
    before = turn(night)
    added = fix(night, change="add_roll", player=seats[3], dice=[1, 5, 6])
    assert added.tables[0].side_scores == (2, 1) and turn(added) == before
    record = added.tables[0].rolls[-1]
    assert (record.credited, record.points, record.phase) == (seats[3], 1, Phase.PLAY)
    removed = fix(added, change="remove_roll", roll=1)
    assert removed.tables[0].side_scores == (0, 1) and turn(removed) == before
    assert [r.dice for r in removed.tables[0].rolls] == [(2, 3, 4), (1, 5, 6)]
    assert [c.change for c in removed.corrections] == ["add_roll", "remove_roll"]
    assert seen(replayed(removed)) == seen(removed)


def test_the_refusals_of_a_round_in_play_say_why():
    night, seats = two_rolls()
    with pytest.raises(NotAllowedNow, match="still being played: who won there is decided"):
        fix(night, change="winner", player=seats[1])
    with pytest.raises(InvalidSetup, match="table 1 in round 1 has 2 rolls, so there is no roll 3"):
        fix(night, change="move", roll=3, player=seats[1])
    with pytest.raises(InvalidSetup, match="did not play at table 1 in round 1"):
        fix(night, change="add_roll", player=night.tables[1].seats[0], dice=[1, 2, 3])
    with pytest.raises(NotAllowedNow, match="round 1 has not started"):
        fix(party("classic", EIGHT), change="add_roll", player=seats[0], dice=[1, 2, 3])
    scil = roll(party("scil", EIGHT), 1, 6, 6, 5)  # rolling for high to start
    with pytest.raises(NotAllowedNow, match="still rolling for high to decide who starts"):
        fix(scil, change="add_roll", player=scil.tables[0].seats[0], dice=[1, 2, 3])


def test_a_correction_that_would_ring_the_head_tables_bell_is_refused():
    night, seats = two_rolls()
    with pytest.raises(NotAllowedNow, match=r"brings .* to 23 at table 1.*target of 21.*bell"):
        fix(night, change="add_roll", player=seats[0], dice=[1, 1, 1])
    # table 2 does not ring the bell (the head table does): its points simply count
    other = roll(night, 2, 2, 3, 4)
    after = fix(other, table=2, change="add_roll", player=other.tables[1].seats[1], dice=[1, 1, 1])
    assert after.tables[1].side_scores == (0, 21) and not after.bell
    assert after.tables[1].status is Status.PLAYING and after.last_bunco == other.tables[1].seats[1]


def test_a_round_ending_bunco_cannot_be_added_before_the_bell():
    night = roll(party("winning-moves", EIGHT), 2, 2, 3, 4)
    with pytest.raises(NotAllowedNow, match="would end the round for every table"):
        fix(night, table=2, change="add_roll", player=night.tables[1].seats[0], dice=[1, 1, 1])


def test_undo_of_the_corrected_roll_is_refused_naming_the_correction():
    night, seats = two_rolls()
    moved = fix(night, change="move", roll=2, player=seats[2])
    with pytest.raises(NotAllowedNow, match=r"host's correction at table 1 \(move of roll 2"):
        undo(moved)
    # the host removes it instead; the table's own earlier entry can then be undone
    removed = fix(moved, change="remove_roll", roll=2)
    assert removed.tables[0].side_scores == (2, 0)
    with pytest.raises(NotAllowedNow, match="host's correction"):
        undo(removed)  # the last entry is the removed roll's: undoing it changes the remove


def test_undo_reaching_back_over_a_correction_keeps_it_and_folds_like_a_replay():
    night, seats = two_rolls()
    night = roll(roll(night, 1, 1, 2, 3), 1, 2, 3, 4)  # Bea: +1, then a miss
    moved = fix(night, change="move", roll=1, player=seats[2])
    assert moved.tables[0].points == (0, 1, 2, 0)
    once = undo(moved)  # Bea's miss
    assert once.tables[0].points == (0, 1, 2, 0) and once.tables[0].roller == seats[1]
    twice = undo(once)  # Bea's +1: the dice go back to her, the correction stands
    assert twice.tables[0].points == (0, 0, 2, 0) and twice.tables[0].roller == seats[1]
    three = undo(twice)  # Ann's miss
    assert three.tables[0].points == (0, 0, 2, 0) and three.tables[0].roller == seats[0]
    assert len(three.corrections) == 1
    with pytest.raises(NotAllowedNow, match="depends on it"):
        undo(three)  # Ann's +2 is the roll the host moved
    for state in (once, twice, three):
        assert seen(replayed(state)) == seen(state)


def test_undo_that_would_renumber_an_added_roll_is_refused():
    night, seats = two_rolls()
    added = fix(night, change="add_roll", player=seats[1], dice=[1, 5, 6])
    with pytest.raises(NotAllowedNow, match="names a roll this undo would change"):
        undo(added)
    later = roll(added, 1, 2, 3, 4)  # the table's entry after the added roll undoes freely
    assert undo(later).tables[0].rolls == added.tables[0].rolls


def test_the_finished_round_carries_the_corrected_rolls_and_takes_corrections_too():
    night = party("winning-moves", EIGHT)
    while night.tables[0].status is not Status.DONE:  # table 1 to its own target
        night = roll(night, 1, 1, 1, 2)
    seats = night.tables[0].seats
    winners = night.tables[0].winners
    loser = next(p for p in seats if p not in winners)
    moved = fix(night, change="move", roll=1, player=loser)  # a settled table, round in play
    assert moved.tables[0].winners == winners and moved.tables[0].status is Status.DONE
    assert moved.tables[0].side_scores != night.tables[0].side_scores
    ended = moved
    while len(ended.history) < 1:  # table 2 plays to its target; the round ends
        ended = roll(ended, 2, 1, 1, 2)
    result = ended.history[0].tables[0]
    assert result.rolls[0].credited == loser and result.side_scores == moved.tables[0].side_scores
    assert ended.cards[loser].points == sum(
        seat_points_of(result.rolls, 4, result.team)[i] for i, s in enumerate(seats) if s == loser
    )
    fixed = ended.apply(
        {
            "type": "correct",
            "set": 1,
            "round": 1,
            "of_table": 1,
            "change": "winner",
            "player": loser,
            "reason": "the scores after the move",
        }
    )
    assert loser in fixed.history[0].tables[0].winners
    trail = audit_trail(fixed)
    assert [e["change"] for e in trail] == ["move", "winner"]
    assert trail[0]["what"].startswith("Table 1, round 1: roll 1,")
    assert trail[0]["why"] == "the table agreed"
    assert seen(replayed(fixed)) == seen(fixed)


def _random_step(night: Night, rng: random.Random) -> Night:
    """A roll, a correction or an undo at a random table; the night as it was if refused."""
    tables = night.tables
    if not tables:
        return night
    number = rng.randint(1, len(tables))
    table = tables[number - 1]
    what = rng.random()
    try:
        if what < 0.7:
            return roll(night, number, *(rng.randint(1, 6) for _ in range(3)))
        if what < 0.8:
            return undo(night, number)
        people = [p for p in table.seats if p is not None]
        change = rng.choice(["move", "add_roll", "remove_roll"])
        fields: dict[str, Any] = {"change": change}
        if change != "remove_roll":
            fields["player"] = rng.choice(people)
        if change != "add_roll":
            fields["roll"] = rng.randint(1, len(table.rolls) + 1)
        else:
            fields["dice"] = [rng.randint(1, 6) for _ in range(3)]
        return fix(night, table=number, **fields)
    except BuncoError:
        return night


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(["classic", "winning-moves", "scil"]))
def test_random_entries_corrections_and_undos_fold_the_same_live_and_replayed(seed, rules):
    rng = random.Random(seed)
    night = party(rules, EIGHT)
    for _ in range(150):
        night = _random_step(night, rng)
        for t in night.tables:  # the points are always what the record says
            assert t.points == seat_points_of(t.rolls, len(t.seats), t.team)
    assert seen(replayed(night)) == seen(night)
    assert seen(Night.start(night.setup).apply_all(list(night.events))) == seen(night)
    assert night._cards_from_history() == night.cards


def test_a_timed_round_takes_corrections_before_and_after_its_clock_rings():
    night = party("classic", EIGHT, house_rules={"round_minutes": 10})
    night = night.apply({"type": "start_round", "clock": "2026-11-27T20:00:00+00:00"})
    seats = night.tables[1].seats
    night = fix(night, table=2, change="add_roll", player=seats[1], dice=[1, 5, 6])
    assert night.tables[1].side_scores == (0, 1) and night.clock is not None
    night = roll(night, 2, 1, 1, 4)  # +2 for table 2's first roller; the turn goes on
    rung = night.apply({"type": "time_up", "set": 1, "round": 1})
    assert rung.bell and rung.phase == "playing"
    # after the bell a side may pass the target by a correction: the bell has rung
    table = rung.tables[1]
    after = fix(rung, table=2, change="add_roll", player=seats[0], dice=[1, 1, 1])
    assert after.tables[1].side_scores == (23, 1) and turn(after, 2) == turn(rung, 2)
    rng = random.Random(7)
    for _ in range(500):  # the tables finish the round (a tie-break too)
        if after.history:
            break
        table_no = next(t for t, _ in after.expected_rollers())
        after = roll(after, table_no, *(rng.randint(1, 6) for _ in range(3)))
    result = after.history[0].tables[1]
    assert result.side_scores[0] >= 23 and seats[0] in result.winners
    assert table.status is not Status.DONE
    assert seen(replayed(after)) == seen(after)


def test_a_table_of_individuals_and_a_ghost_seat_take_corrections():
    alone = party("classic", ["Ann", "Bea", "Cat"])  # one table of three, each for themself
    alone = roll(alone, 1, 1, 1, 4)  # Ann +2
    moved = fix(alone, change="move", roll=1, player="Cat")
    table = moved.tables[0]
    assert table.side_scores == table.points and table.points[table.seats.index("Cat")] == 2
    assert sum(table.points) == 2 and moved.tables[0].roller == alone.tables[0].roller
    seven = party("classic", EIGHT[:7], house_rules={"fill": "ghosts"})  # a ghost seat
    ghost_table = next(n for n, t in enumerate(seven.tables, 1) if None in t.seats)
    ghost = seven.tables[ghost_table - 1].seats.index(None)
    for _ in range(4):  # misses until the ghost seat's turn (its partner rolls for it)
        if seven.tables[ghost_table - 1].turn == ghost:
            break
        seven = roll(seven, ghost_table, 2, 3, 4)
    assert seven.tables[ghost_table - 1].turn == ghost
    seven = roll(seven, ghost_table, 1, 1, 4)  # +2 for the ghost seat
    record = seven.tables[ghost_table - 1].rolls[-1]
    assert record.credited is None and record.seat == ghost
    number = len(seven.tables[ghost_table - 1].rolls)
    someone = next(p for p in seven.tables[ghost_table - 1].seats if p is not None)
    after = fix(seven, table=ghost_table, change="move", roll=number, player=someone)
    fixed = after.tables[ghost_table - 1]
    assert fixed.rolls[-1].credited == someone and fixed.points[ghost] == 0
    assert seen(replayed(after)) == seen(after)
