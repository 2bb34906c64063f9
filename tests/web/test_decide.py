"""The pure decision about an entry (:mod:`bunco.web.decision.decide`): a typed entry and a frozen
state of a held table in, accept / repeat / refuse with the reason out."""

from __future__ import annotations

from bunco.core.night import Night
from bunco.web.decision.decide import Entry, HeldTable, Tapped, decide_entry

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def held(**over: object) -> HeldTable:
    base: dict[str, object] = {
        "set_no": 1,
        "round_no": 2,
        "phase": "playing",
        "in_play": True,
        "done": False,
        "roller": "Fay",
        "version": 14,
        "seq": 20,
        "stage": "playing",
    }
    return HeldTable(**{**base, **over})  # type: ignore[arg-type]


def tapped(**over: object) -> Tapped:
    base: dict[str, object] = {
        "set_no": 1,
        "round_no": 2,
        "table": 2,
        "roller": "Fay",
        "based_on": 14,
        "at": "t",
        "stage": "playing",
    }
    return Tapped(**{**base, **over})  # type: ignore[arg-type]


def code(entry: Entry, state: HeldTable) -> str:
    decision = decide_entry(entry, state)
    return decision.code or decision.verdict


def test_each_rule_in_its_order() -> None:
    here = tapped()
    assert code(Entry("tally", 2, here, 14), held()) == "accept"
    assert code(Entry("tally", 2, None, 3), held()) == "accept"  # no context: the API's
    assert code(Entry("tally", 2, here, 14, repeats=9), held()) == "repeat"
    assert code(Entry("tally", 3, here, 14), held()) == "wrong_table"
    assert code(Entry("tally", 2, tapped(round_no=1), 14), held()) == "round_closed"
    assert code(Entry("tally", 2, here, 14), held(phase="over")) == "round_closed"
    assert code(Entry("tally", 2, here, 14), held(done=True)) == "round_closed"
    assert code(Entry("tally", 2, here, 9), held()) == "stale"
    assert code(Entry("tally", 2, here, 14), held(stage="tie_break")) == "round_closed"
    assert code(Entry("tally", 2, here, 14), held(roller="Gus")) == "roller_changed"
    # a roll of the turn under way when the bell rang is finished by the rules
    assert code(Entry("tally", 2, here, 14), held(stage="finishing")) == "accept"
    # an undo names no roller; a page that could not tell the roller does not check it
    assert code(Entry("undo", 2, here, 14), held(roller="Gus")) == "accept"
    assert code(Entry("tally", 2, tapped(roller=None), 14), held(roller="Gus")) == "accept"


def test_a_refusal_says_what_happened_and_what_is_expected() -> None:
    decision = decide_entry(Entry("tally", 2, tapped(round_no=1, set_no=1), 14), held())
    assert decision.kind == "conflict" and decision.refused
    assert decision.reason == (
        "this entry was tapped in round 1, which closed before it "
        "arrived (the night is now at round 2)"
    )
    assert "never moved into a later round" in decision.expected


def test_the_state_of_a_held_night() -> None:
    night = Night.start({"rules": "classic", "players": PLAYERS})
    state = HeldTable.of(night, 2, 0, 0)
    assert (state.round_no, state.roller, state.stage, state.in_play) == (1, "Eve", "playing", True)
    assert HeldTable.of(night, 5, 0, 0).in_play is False
