"""The host enters a table's score from its paper tally (bunco.core.late_entries.paper_table):
the points decide who won there, the Buncos and Mini Buncos go on the cards, the paper
replaces the entries the server had of that round there, and the phone's entries of that
round are refused after it."""

from __future__ import annotations

from typing import Any

import pytest

from bunco.core.errors import InvalidEvent, InvalidSetup, NotAllowedNow, RoundOver
from bunco.core.events import dump_event
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.core.table import Phase, Status
from bunco.party.night_report import night_report
from bunco.party.sheets import master_sheet, round_lines, score_card, table_tally

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
PAPER = {"Eve": 6, "Fay": 23, "Gus": 2, "Hal": 1}


def waiting(rules: str = "classic") -> Night:
    """Ann scores +2 at the head table until the bell and ends her turn; table 2's phone
    entered nothing (0-0: a tie-break) and fell silent: the room waits for it."""
    night = Night.start({"rules": rules, "players": EIGHT})
    for _ in range(11):
        night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})
    night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})
    assert night.tables[1].status is Status.TIE_BREAK
    return night.apply({"type": "wait_for_phone", "of_table": 2})


def paper(night: Night, points: dict[str, Any], **more: Any) -> Night:
    return night.apply({"type": "go_on", "of_table": 2, "why": "host", "points": points, **more})


def test_the_paper_points_decide_the_table_and_go_on_the_cards() -> None:
    night = paper(waiting(), PAPER, buncos={"Fay": 1}, minis={"Eve": 1})
    assert night.round_no == 2 and not night.awaited  # the room moved on
    result = night.history[0].tables[1]
    assert result.side_scores == (8, 24) and result.seat_points == (6, 23, 2, 1)
    assert result.winners == ("Fay", "Hal") and result.losers == ("Eve", "Gus")
    assert result.tie_break is None and {r.phase for r in result.rolls} == {Phase.PAPER}
    cards = night.cards
    assert (cards["Fay"].wins, cards["Fay"].buncos, cards["Fay"].points) == (1, 1, 23)
    assert (cards["Hal"].wins, cards["Hal"].buncos, cards["Hal"].points) == (1, 0, 1)
    assert (cards["Eve"].losses, cards["Eve"].minis, cards["Eve"].points) == (1, 1, 6)
    assert (cards["Gus"].losses, cards["Gus"].minis, cards["Gus"].points) == (1, 0, 2)
    assert cards["Fay"].marks == ((1, 1, 2, "W"),) and night.last_bunco == "Fay"
    assert night.from_paper(1, 1, 2) and not night.from_paper(1, 1, 1)


def test_the_paper_replaces_the_entries_the_server_had_there() -> None:
    night = Night.start({"rules": "classic", "players": EIGHT})
    night = night.apply({"type": "tally", "table": 2, "outcome": "bunco"})  # Eve: 21
    for _ in range(11):
        night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})
    night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})
    night = night.apply({"type": "wait_for_phone", "of_table": 2, "entries": 6})
    assert night.tables[1].side_scores == (21, 0) and night.last_bunco == "Eve"
    night = paper(night, {"Eve": 3, "Fay": 12, "Gus": 5, "Hal": 10})  # the paper wins
    result = night.history[0].tables[1]
    assert result.side_scores == (8, 22) and result.winners == ("Fay", "Hal")
    assert night.cards["Eve"].buncos == 0 and night.cards["Eve"].points == 3
    assert night.last_bunco is None  # the Bunco the server had is not on the paper


def test_a_tie_on_paper_needs_who_won_and_a_winner_behind_is_refused() -> None:
    night = waiting()
    tie = {"Eve": 4, "Fay": 6, "Gus": 6, "Hal": 4}
    with pytest.raises(InvalidSetup, match=r"ties table 2 \(Eve & Gus 10, Fay & Hal 10\)") as exc:
        paper(night, tie)
    assert exc.value.expected.startswith('"winner": one of Eve & Gus, Fay & Hal')
    won = paper(night, tie, winner="Hal").history[0].tables[1]
    assert won.winners == ("Fay", "Hal") and won.side_scores == (10, 10)
    with pytest.raises(InvalidSetup, match="the winner Eve contradicts the paper tally") as exc:
        paper(night, PAPER, winner="Eve")
    assert "Fay & Hal are ahead" in exc.value.message
    assert paper(night, PAPER, winner="Fay").history[0].tables[1].winners == ("Fay", "Hal")
    with pytest.raises(InvalidSetup, match="Ann does not sit at table 2"):
        paper(night, tie, winner="Ann")


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ({"Eve": 6, "Fay": 23, "Gus": 2, "Ann": 1}, "Ann does not sit at table 2 this round"),
        ({"Eve": 6, "Fay": 23}, "the points of Gus, Hal are missing"),
    ],
)
def test_the_paper_names_the_players_of_the_table(points: dict[str, int], words: str) -> None:
    with pytest.raises(InvalidSetup, match=words) as exc:
        paper(waiting(), points)
    assert exc.value.expected == '"points": {"Eve": ..., "Fay": ..., "Gus": ..., "Hal": ...}'
    with pytest.raises(InvalidSetup, match="Cat does not sit at table 2 this round, so cannot"):
        paper(waiting(), PAPER, buncos={"Cat": 1})


@pytest.mark.parametrize("bad", [True, 1.0, "3", -1, 10_001, None, [3]])
def test_points_are_plain_whole_numbers(bad: object) -> None:
    points = {**PAPER, "Hal": bad}
    if bad is None:  # a name with no number
        with pytest.raises(InvalidEvent, match="for Hal None is not a whole number"):
            paper(waiting(), points)
        return
    with pytest.raises(InvalidEvent, match="is not a whole number from 0 to 10,000"):
        paper(waiting(), points)
    with pytest.raises(
        InvalidEvent, match=r"buncos for Fay .* is not a whole number from 0 to 100"
    ):
        paper(waiting(), PAPER, buncos={"Fay": bad if bad != 10_001 else 101})


def test_the_paper_shape_is_checked() -> None:
    with pytest.raises(InvalidEvent, match="points \\[1, 2\\] is not an object"):
        paper(waiting(), [1, 2])  # type: ignore[arg-type]
    with pytest.raises(InvalidEvent, match="buncos or minis come with the table's points"):
        waiting().apply({"type": "go_on", "of_table": 2, "buncos": {"Fay": 1}})
    with pytest.raises(InvalidEvent, match="names Fay twice"):
        paper(waiting(), {"Eve": 6, "Fay": 23, " Fay ": 1, "Gus": 2, "Hal": 1})


def test_the_paper_only_while_the_room_waits_for_the_table() -> None:
    night = Night.start({"rules": "classic", "players": EIGHT})
    night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})
    with pytest.raises(NotAllowedNow, match="not waiting for table 2's phone, and the bell"):
        paper(night, PAPER)
    done = paper(waiting(), PAPER)  # round 2 now: the room waits for nobody
    with pytest.raises(NotAllowedNow, match="not waiting for table 2's phone"):
        paper(done.apply({"type": "tally", "table": 1, "outcome": "+1"}), PAPER)


def test_the_paper_at_a_table_stuck_after_the_bell_without_a_wait() -> None:
    """No phone said it holds entries (so the room does not wait) but the table stands in
    the tie-break the bell put it in: the host may enter its score from the paper."""
    night = Night.start({"rules": "classic", "players": EIGHT})
    for _ in range(11):
        night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})
    night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})
    assert not night.awaited and night.tables[1].status is Status.TIE_BREAK
    night = paper(night, PAPER)
    assert night.round_no == 2 and night.history[0].tables[1].winners == ("Fay", "Hal")


def test_entries_of_that_table_are_refused_after_the_paper() -> None:
    """Table 3 still plays (Ike finishes his turn after the bell), so the round is open:
    table 2's phone's entries of it are refused, saying the paper has the score."""
    night = Night.start({"rules": "classic", "players": [*EIGHT, "Ike", "Jo", "Kim", "Lu"]})
    night = night.apply({"type": "tally", "table": 3, "outcome": "+1"})  # Ike, in mid-turn
    night = night.apply({"type": "tally", "table": 2, "outcome": "+1"})  # Eve, the same
    for _ in range(11):
        night = night.apply({"type": "tally", "table": 1, "outcome": "+2"})
    night = night.apply({"type": "tally", "table": 1, "outcome": "miss"})
    night = night.apply({"type": "wait_for_phone", "of_table": 2})
    night = paper(night, PAPER)
    assert night.round_no == 1 and night.tables[2].status is Status.FINISHING
    with pytest.raises(RoundOver, match="entered table 2's score of round 1 from the paper"):
        night.apply({"type": "tally", "table": 2, "outcome": "+1"})
    with pytest.raises(RoundOver, match="from the paper"):
        night.apply({"type": "tally", "table": 2, "outcome": "+1", "before_bell": True})
    with pytest.raises(NotAllowedNow, match="already entered table 2's score from the paper"):
        paper(night, PAPER)
    with pytest.raises(NotAllowedNow, match="from the paper: its entries there no longer"):
        night.apply({"type": "undo", "table": 2})
    night = night.apply({"type": "tally", "table": 3, "outcome": "miss"})  # table 3 ends
    assert night.round_no == 2 and night.history[0].tables[1].side_scores == (8, 24)


def test_a_table_of_individuals_from_the_paper() -> None:
    night = Night.start({"rules": "wm", "players": ["Ann", "Bea"]})
    night = night.apply({"type": "start_round"})
    night = night.apply({"type": "wait_for_phone", "of_table": 1})
    with pytest.raises(InvalidSetup, match=r"ties table 1 \(Ann 9, Bea 9\)"):
        night.apply({"type": "go_on", "of_table": 1, "points": {"Ann": 9, "Bea": 9}})
    night = night.apply(
        {"type": "go_on", "of_table": 1, "points": {"Ann": 5, "Bea": 21}, "buncos": {"Bea": 1}}
    )
    assert night.round_no == 2 and night.history[0].tables[0].winners == ("Bea",)
    assert (night.cards["Bea"].buncos, night.cards["Ann"].losses) == (1, 1)


def test_most_buncos_the_sheets_and_the_replay_count_the_paper() -> None:
    night = paper(waiting(), PAPER, buncos={"Fay": 2, "Hal": 1}, minis={"Eve": 1})
    night = night.apply({"type": "end_night"})
    most = next(p for p in night.prizes if p.category == "most_buncos")
    assert (most.winners, most.value) == (("Fay",), 2)
    lines = {n: ls[0] for n, ls in round_lines(night).items() if ls}
    assert (lines["Fay"].points, lines["Fay"].buncos, lines["Fay"].won) == (23, 2, True)
    assert (lines["Eve"].points, lines["Eve"].minis, lines["Eve"].won) == (6, 1, False)
    card = score_card(night, "Hal")
    assert (card["buncos"], card["points"], card["sets"][0]["rounds"][0]) == (1, 1, "W")
    sheet = {row["player"]: row for row in master_sheet(night, 1)}
    assert sheet["Fay"]["rounds"][0] == "WBB" and sheet["Fay"]["buncos"] == 2
    tally = table_tally(night.history[0].tables[1])
    assert (tally["us"], tally["them"], tally["totals"]) == ([6, 2], [23, 1], [8, 24])
    reported = night_report(night)["rounds"][0]["tables"]
    assert (reported[1]["paper"], reported[1]["rolls"], "paper" in reported[0]) == (True, 0, False)
    assert reported[1]["words"].endswith("(from the paper)")
    log = [dump_event(night.setup), *(dump_event(e) for e in night.events)]
    again = read_log(log)
    assert again.cards == night.cards and again.prizes == night.prizes


def test_a_correction_of_a_paper_round_keeps_its_points() -> None:
    night = paper(waiting(), PAPER, buncos={"Fay": 1})
    bunco = 3  # Eve's points, Fay's points, Fay's Bunco, ...
    assert night.history[0].tables[1].rolls[bunco - 1].kind.value == "bunco"
    fixed = night.apply(
        {
            "type": "correct",
            "set": 1,
            "round": 1,
            "of_table": 2,
            "change": "move",
            "roll": bunco,
            "player": "Hal",
            "reason": "Hal rolled it",
        }
    )
    assert fixed.history[0].tables[1].side_scores == (8, 24)
    assert (fixed.cards["Fay"].buncos, fixed.cards["Hal"].buncos) == (0, 1)
