"""Corrections of finished rounds: the result, the cards, set winners and prizes follow."""

from __future__ import annotations

import random

import pytest

from bunco.core.audit import audit_trail
from bunco.core.errors import InvalidEvent, InvalidSetup, NotAllowedNow, WrongTable
from bunco.core.events import dump_event, normalize_event
from bunco.core.night import Night
from bunco.core.party_log import read_log_stream
from bunco.core.rules import RollKind
from bunco.core.table import Phase
from night_helpers import party, random_roll

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
SEED_OVER = 3
"""A seed whose night ends with every prize decided (no roll-off)."""


def played(rounds: int, seed: int = 3, rules: str = "classic") -> Night:
    night = party(rules, EIGHT)
    rng = random.Random(seed)
    while len(night.history) < rounds:
        night, _ = random_roll(night, rng)
    return night


def fix(night: Night, **fields: object) -> Night:
    return night.apply(
        {"type": "correct", "set": 1, "of_table": 1, "reason": "the table agreed", **fields}
    )


def first_play_roll(night: Night, round_no: int, table: int = 1) -> int:
    rolls = night.history[round_no - 1].tables[table - 1].rolls
    return next(i for i, r in enumerate(rolls, 1) if r.phase is Phase.PLAY and r.points > 0)


def test_cards_counted_again_from_history_equal_the_cards_of_the_fold():
    night = played(6)
    assert night._cards_from_history() == night.cards


def test_a_winner_correction_two_rounds_back_swaps_the_w_and_l_on_the_cards():
    night = played(3)
    res = night.history[0].tables[0]
    loser, winner = res.losers[0], res.winners[0]
    after = fix(night, round=1, change="winner", player=loser, by="the host")
    fixed = after.history[0].tables[0]
    assert set(fixed.winners) == set(res.losers) and set(fixed.losers) == set(res.winners)
    assert after.cards[loser].wins == night.cards[loser].wins + 1
    assert after.cards[loser].losses == night.cards[loser].losses - 1
    assert after.cards[winner].wins == night.cards[winner].wins - 1
    assert (1, 1, 1, "W") in after.cards[loser].marks
    assert after.seating == night.seating and after.tables == night.tables  # play goes on
    [c] = after.corrections
    assert (c.change, c.by, c.reason) == ("winner", "the host", "the table agreed")
    assert set(c.winners_before) == set(res.winners)


def test_moving_a_bunco_moves_it_on_the_cards_and_the_points_with_it():
    night = played(2)
    res = night.history[0].tables[0]
    number = first_play_roll(night, 1)
    record = res.rolls[number - 1]
    to = next(p for p in res.seats if p is not None and p != record.credited)
    assert record.credited is not None
    after = fix(night, round=1, change="move", roll=number, player=to)
    fixed = after.history[0].tables[0]
    assert fixed.rolls[number - 1].credited == to
    seat_from, seat_to = res.seats.index(record.credited), res.seats.index(to)
    assert fixed.seat_points[seat_from] == res.seat_points[seat_from] - record.points
    assert fixed.seat_points[seat_to] == res.seat_points[seat_to] + record.points
    assert after.cards[to].points == night.cards[to].points + record.points
    assert fixed.winners == res.winners  # the winner changes only with a winner correction


def test_adding_a_missed_bunco_and_removing_it_again():
    night = played(2)
    res = night.history[1].tables[0]
    who = res.seats[1]
    assert who is not None
    added = fix(night, round=2, change="add_roll", player=who, dice=[2, 2, 2])
    fixed = added.history[1].tables[0]
    assert fixed.rolls[-1].kind is RollKind.BUNCO and fixed.rolls[-1].credited == who
    assert added.cards[who].buncos == night.cards[who].buncos + 1
    assert added.cards[who].points == night.cards[who].points + 21
    assert added.last_bunco == who or any(
        r.kind is RollKind.BUNCO for t in night.tables for r in t.rolls
    )
    removed = fix(added, round=2, change="remove_roll", roll=len(fixed.rolls))
    assert removed.cards == night.cards
    words = [e["what"] for e in audit_trail(removed)]
    assert words == [
        f"Table 1, round 2: roll added for {who}: Bunco (2 2 2); scores "
        f"{res.side_scores[0]}–{res.side_scores[1]} → "
        f"{res.side_scores[0]}–{res.side_scores[1] + 21}",
        f"Table 1, round 2: roll {len(fixed.rolls)} removed: {who}'s Bunco (2 2 2); "
        f"scores {res.side_scores[0]}–{res.side_scores[1] + 21} → "
        f"{res.side_scores[0]}–{res.side_scores[1]}",
    ]


def test_prizes_follow_a_correction_after_the_last_round():
    night = played(6, seed=SEED_OVER)
    assert night.phase == "over"
    [leader] = next(p for p in night.prizes if p.label == "Most Buncos").winners
    buncos = {name: card.buncos for name, card in night.cards.items()}
    # a Bunco of the leader's, credited to a tablemate who had one fewer: the prize moves
    found = [
        (played_round.round_no, res.table, number, to)
        for played_round in night.history
        for res in played_round.tables
        for number, r in enumerate(res.rolls, 1)
        if r.kind is RollKind.BUNCO and r.credited == leader
        for to in res.seats
        if to is not None
        and to != leader
        and buncos[to] == buncos[leader] - 1
        and all(b < buncos[leader] - 1 for n, b in buncos.items() if n not in (leader, to))
    ]
    round_no, table, number, to = found[0]
    after = fix(night, round=round_no, of_table=table, change="move", roll=number, player=to)
    assert after.cards[to].buncos == buncos[leader] and after.cards[leader].buncos == buncos[to]
    assert after.phase == "over"
    assert next(p for p in after.prizes if p.label == "Most Buncos").winners == (to,)
    assert after.prize_cards == after.cards


def test_refusals_say_what_was_wrong():
    night = played(3)
    with pytest.raises(NotAllowedNow, match="round 4 has not started: no table has entered a roll"):
        fix(night, round=4, change="winner", player="Ann")
    with pytest.raises(NotAllowedNow, match="round 6 was not played tonight"):
        fix(night, round=6, change="winner", player="Ann")
    with pytest.raises(WrongTable, match="no table 3"):
        fix(night, round=1, of_table=3, change="winner", player="Ann")
    seats = night.history[0].tables[0].seats
    stranger = next(p for p in EIGHT if p not in seats)
    with pytest.raises(InvalidSetup, match=f"'{stranger}' did not play at table 1 in round 1"):
        fix(night, round=1, change="winner", player=stranger)
    count = len(night.history[0].tables[0].rolls)
    with pytest.raises(InvalidSetup, match=f"has {count} rolls, so there is no roll {count + 1}"):
        fix(night, round=1, change="remove_roll", roll=count + 1)
    winner = night.history[0].tables[0].winners[0]
    with pytest.raises(NotAllowedNow, match="already won"):
        fix(night, round=1, change="winner", player=winner)


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"change": "swap"}, "not a change the host can make"),
        ({"reason": ""}, "reason '' is not a short text"),
        ({"reason": "x" * 201}, "is not a short text"),
        ({"round": 7}, "'round' 7 is not a whole number from 1 to 6"),
        ({"round": "2"}, "'round' '2' is not a whole number"),
        ({"change": "add_roll", "dice": [7, 1, 1]}, "7"),
        ({"change": "move"}, "'roll' None is not a whole number"),
    ],
)
def test_a_malformed_correction_is_refused_with_what_was_expected(bad, message):
    event = {
        "type": "correct",
        "set": 1,
        "round": 1,
        "of_table": 1,
        "change": "winner",
        "player": "Ann",
        "roll": 1,
        "reason": "agreed",
        **bad,
    }
    if bad.get("change") == "move":
        del event["roll"]
    with pytest.raises(InvalidEvent if "dice" not in bad else Exception, match=message):
        normalize_event(event)


def test_closing_the_night_ends_the_corrections_and_replay_keeps_everything(tmp_path):
    night = played(6, seed=SEED_OVER)
    res = night.history[1].tables[1]
    with pytest.raises(NotAllowedNow, match="cannot be closed yet"):
        played(2).apply({"type": "close_night"})
    night = night.apply(
        {
            "type": "correct",
            "set": 1,
            "round": 2,
            "of_table": 2,
            "change": "winner",
            "player": res.losers[0],
            "reason": "miscounted",
            "by": "co-host 1 · Bea",
        }
    )
    rng = random.Random(5)
    while night.phase == "rolloff":  # the correction may tie a prize: rolled off as usual
        night, _ = random_roll(night, rng)
    night = night.apply({"type": "close_night", "by": "the host"})
    assert night.closed
    with pytest.raises(NotAllowedNow, match="closed the night"):
        fix(night, round=1, change="winner", player=night.history[0].tables[0].losers[0])
    log = tmp_path / "night.jsonl"
    lines = [dump_event(night.setup), *(dump_event(e) for e in night.events)]
    log.write_text("\n".join(lines) + "\n")
    with log.open("rb") as raw:
        again = read_log_stream(raw)
    assert again.cards == night.cards and again.prizes == night.prizes and again.closed
    [entry] = audit_trail(again)
    assert entry["who"] == "co-host 1 · Bea" and entry["why"] == "miscounted"
    assert entry["what"].startswith("Table 2, round 2: winner set to ")


def test_the_audit_list_names_undos_too():
    night = played(1)
    table, _ = night.expected_rollers()[0]
    assert table is not None
    night = night.apply({"type": "roll", "table": table, "dice": [1, 2, 3]})
    night = night.apply({"type": "undo", "table": table, "at": "2026-11-27T20:00:00+00:00"})
    [entry] = audit_trail(night, lambda i: "table 1's phone")
    assert entry["kind"] == "undo" and entry["who"] == "table 1's phone"
    assert entry["what"].startswith("Undo of ") and "(1 2 3) at table" in entry["what"]
    assert entry["at"] == "2026-11-27T20:00:00+00:00"
