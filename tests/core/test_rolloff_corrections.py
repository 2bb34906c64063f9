"""Corrections until the night is closed: a correction during or after a prize roll-off
decides the prizes again (the roll-off cancelled, kept or rolled again as the corrected
standings say), the money and the audit list with it; closing the night ends them."""

from __future__ import annotations

import random

import pytest

from bunco.core.audit import audit_trail
from bunco.core.errors import NotAllowedNow
from bunco.core.night import Night
from bunco.core.rules import RollKind
from bunco.party.night_report import night_report
from night_helpers import party, random_roll

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
MONEY = {"currency": "$", "buy_in": "20", "payouts": [{"prize": "most_buncos", "amount": "100"}]}
SEED = 8
"""A classic night whose last round leaves Most Buncos tied between Ann and Gus."""


def tied() -> Night:
    night = party("classic", EIGHT, money=MONEY)
    rng = random.Random(SEED)
    while len(night.history) < 6:
        night, _ = random_roll(night, rng)
    assert night.phase == "rolloff" and night.rolloff is not None
    assert night.rolloff.purpose == "Most Buncos" and night.rolloff.players == ("Ann", "Gus")
    return night


def bunco_of(
    night: Night, player: str, *, to_not: tuple[str, ...] = (), remove: bool = False
) -> dict[str, object]:
    """A correction of one of ``player``'s Buncos: moved to a tablemate not in ``to_not``,
    or (``remove``) taken out."""
    for played in night.history:
        for res in played.tables:
            for number, r in enumerate(res.rolls, 1):
                if r.kind is RollKind.BUNCO and r.credited == player:
                    where = {"set": 1, "round": played.round_no, "of_table": res.table}
                    if remove:
                        return {"type": "correct", **where, "change": "remove_roll",
                                "roll": number, "reason": "never rolled"}  # fmt: skip
                    mate = next(p for p in res.seats if p and p != player and p not in to_not)
                    return {"type": "correct", **where, "change": "move", "roll": number,
                            "player": mate, "reason": "it was not theirs"}  # fmt: skip
    raise AssertionError(f"{player} rolled no Bunco")


def a_miss_added(night: Night) -> dict[str, object]:
    """A correction that changes no standing: a roll that scored nothing, never entered."""
    res = night.history[0].tables[0]
    player = next(p for p in res.seats if p)
    return {"type": "correct", "set": 1, "round": 1, "of_table": 1, "change": "add_roll",
            "player": player, "dice": [2, 3, 4], "reason": "a miss never entered"}  # fmt: skip


def rolled_off(night: Night) -> Night:
    """Every roll-off due, rolled to its end (seeded dice)."""
    rng = random.Random(1)
    while night.phase == "rolloff":
        night, _ = random_roll(night, rng)
    return night


def most_buncos(night: Night) -> tuple[tuple[str, ...], str]:
    prize = next(p for p in night.prizes if p.category == "most_buncos")
    return prize.winners, prize.settled_by


def paid(night: Night) -> dict[str, str]:
    return {p["player"]: p["amount"] for p in night_report(night)["payouts"]}


def test_a_correction_during_the_roll_off_that_breaks_the_tie_cancels_it():
    night = tied().apply({"type": "roll", "dice": [2, 3, 4]})  # Ann's first roll-off roll
    after = night.apply(bunco_of(night, "Ann", remove=True))
    assert most_buncos(after) == (("Gus",), "outright")
    # the next roll-off due (Half Wins and Half Losses, tied too) comes up instead
    assert after.rolloff is not None and after.rolloff.purpose == "Half Wins and Half Losses"
    assert paid(after) == {"Gus": "100.00"}
    [entry] = [e for e in audit_trail(after) if e["kind"] == "correction"]
    assert "Most Buncos: the roll-off among Ann, Gus is cancelled (Gus wins it)" in entry["what"]


def test_a_correction_that_ties_others_rolls_off_again_among_them():
    night = tied().apply({"type": "roll", "dice": [2, 3, 4]})
    fix = bunco_of(night, "Ann", to_not=("Gus",))
    after = night.apply(fix)
    assert after.phase == "rolloff" and after.rolloff is not None
    assert after.rolloff.players == ("Gus", fix["player"]) or after.rolloff.players == (
        fix["player"],
        "Gus",
    )
    assert after.rolloff.rolls == ()  # a roll-off of its own, begun afresh
    assert "is rolled off again among" in audit_trail(after)[-1]["what"]


def test_a_correction_that_keeps_the_tie_keeps_the_roll_off_going():
    night = tied().apply({"type": "roll", "dice": [2, 3, 4]})
    rolls = len(night.rolloff.rolls)  # type: ignore[union-attr]
    after = night.apply(a_miss_added(night))
    assert after.phase == "rolloff" and after.rolloff is not None
    assert len(after.rolloff.rolls) == rolls == 1  # the roll already made stands
    assert "Most Buncos: the roll-off goes on" in audit_trail(after)[-1]["what"]


def test_after_the_roll_off_its_winner_stands_or_the_prize_is_decided_again():
    night = tied()
    night = rolled_off(night)
    (winner,), how = most_buncos(night)
    assert how == "roll_off" and night.phase == "over"
    kept = night.apply(a_miss_added(night))
    assert most_buncos(kept) == ((winner,), "roll_off") and paid(kept) == {winner: "100.00"}
    assert "Most Buncos: the roll-off's winner stands" in audit_trail(kept)[-1]["what"]
    loser = "Gus" if winner == "Ann" else "Ann"
    moved = night.apply(bunco_of(night, winner, remove=True))
    assert most_buncos(moved) == ((loser,), "outright") and paid(moved) == {loser: "100.00"}


def test_closing_the_night_is_the_only_end_of_corrections():
    night = tied()
    night = rolled_off(night)
    fixed = night.apply(bunco_of(night, "Ann", remove=True))
    closed = fixed.apply({"type": "close_night"})
    with pytest.raises(NotAllowedNow, match="the host has closed the night"):
        closed.apply(a_miss_added(closed))
    # the log replays to the same night, roll-offs and all
    again = Night.start(closed.setup).apply_all(list(closed.events))
    assert most_buncos(again) == (("Gus",), "outright") and again.closed


def test_a_correction_during_a_set_roll_off_decides_the_set_again():
    """winning-moves: the set's winner is tied on wins and Buncos between Cat and Hal;
    a Bunco of Cat's that never happened leaves Hal the set: the roll-off is cancelled
    and the night goes on (here to its end and its prizes)."""
    night = party("winning-moves", EIGHT)
    rng = random.Random(23)
    while len(night.history) < 6:
        night, _ = random_roll(night, rng)
    assert night.rolloff_for == ("set", 1) and night.set_results[-1].tied_on_buncos == (
        "Cat",
        "Hal",
    )
    after = night.apply(bunco_of(night, "Cat", remove=True))
    assert after.set_results[-1].winner == "Hal" and after.rolloff_for != ("set", 1)
    assert after.phase in ("over", "rolloff") and after.prize_cards is not None
    assert (
        "set 1: the roll-off among Cat, Hal is cancelled (Hal wins the set)"
        in (audit_trail(after)[-1]["what"])
    )
    kept = night.apply(a_miss_added(night))
    assert kept.rolloff_for == ("set", 1) and kept.rolloff == night.rolloff
