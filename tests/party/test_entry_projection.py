"""The table page's ``projection``: what each tally and each of the 56 sets of three dice
does in the table's round is the engine's own scoring, so the page that counts its
entries not sent yet with it holds no game rules (docs/outbox.md)."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import bunco.party.entry_projection as entry_projection_module
from bunco.core.dice import score_roll, tally_dice
from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.core.presets import get_rules
from bunco.core.rules import RollKind
from bunco.party.entry_projection import DICE_SETS, dice_key, entry_projection
from bunco.party.view import table_page

PLAYERS = ["Ann", "Bea", "Cat", "Dee"]
WIPEOUT: dict[str, Any] = {"wipeout": True}


def night_in_round_2(preset: str, house_rules: dict[str, Any]) -> Night:
    """A one-table night in round 2, its roller's side at 2 points, the others at 0
    (``winning-moves``' single table plays as individuals): round 1
    ends with Ann's Bunco (21: the bell, then her miss; in ``winning-moves`` the Bunco ends
    it, and Bea, left of the winner, starts round 2)."""
    night = Night.start({"rules": preset, "players": PLAYERS, "house_rules": house_rules})
    night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 1]})
    if night.round_no == 1:
        night = night.apply({"type": "roll", "table": 1, "dice": [3, 4, 5]})
    roller = night.tables[0].roller
    assert night.round_no == 2 and roller == ("Bea" if preset == "winning-moves" else "Ann")
    night = night.apply({"type": "roll", "table": 1, "dice": [2, 2, 5]})
    table = night.tables[0]
    assert table.roller == roller and sorted(table.side_scores, reverse=True)[:2] == [2, 0]
    return night


def engine(score: Any) -> list[int]:
    """``[points, passes, unknown]`` of a score of the engine, as the projection says it."""
    unknown = score.kind is RollKind.WIPEOUT or score.ends_round
    return [score.points, int(not score.turn_continues), int(unknown)]


def test_the_modules_examples() -> None:
    result = doctest.testmod(entry_projection_module)
    assert result.attempted >= 3 and result.failed == 0


def test_every_set_of_three_dice_once() -> None:
    keys = [dice_key(d) for d in DICE_SETS]
    assert len(keys) == len(set(keys)) == 56
    assert keys[0] == "1-1-1" and keys[-1] == "6-6-6" and "1-1-4" in keys
    assert dice_key([6, 1, 4]) == dice_key((4, 6, 1)) == "1-4-6"


@pytest.mark.parametrize(
    ("preset", "house_rules"),
    [("classic", {}), ("classic", WIPEOUT), ("winning-moves", {}), ("scil", {})],
)
@pytest.mark.parametrize("round_no", range(1, 7))
def test_the_projection_is_the_engines_score_of_every_entry(
    preset: str, house_rules: dict[str, Any], round_no: int
) -> None:
    rules = get_rules(preset, house_rules)
    possible = []
    for outcome in ("miss", "+1", "+2", "bunco", "mini", "low", "high", "wipeout"):
        try:
            tally_dice(outcome, round_no, rules)
        except BuncoError:  # not an entry of this round or of these rules
            continue
        possible.append(outcome)
    projection = entry_projection(rules, round_no, possible)
    assert projection["round"] == round_no
    assert len(projection["dice"]) == 56
    for faces in DICE_SETS:
        for order in (faces, faces[::-1]):  # the engine scores the dice in any order
            expected = engine(score_roll(order, round_no, rules))
            assert projection["dice"][dice_key(order)] == expected, (order, round_no)
    assert list(projection["taps"]) == possible
    for outcome in possible:
        score = score_roll(tally_dice(outcome, round_no, rules), round_no, rules)
        assert projection["taps"][outcome] == engine(score), (outcome, round_no)


def test_known_entries_of_classic_and_winning_moves() -> None:
    classic = entry_projection(get_rules("classic"), 4, ["miss", "+1", "+2", "bunco", "mini"])
    assert classic["dice"]["4-4-4"] == [21, 0, 0]  # Bunco, roll again
    assert classic["dice"]["2-2-2"] == classic["dice"]["6-6-6"] == [5, 0, 0]  # Mini Buncos
    assert classic["dice"]["1-4-4"] == [2, 0, 0] and classic["dice"]["3-4-6"] == [1, 0, 0]
    assert classic["dice"]["1-2-3"] == [0, 1, 0]  # a miss: the dice pass on
    assert classic["taps"] == {
        "miss": [0, 1, 0],
        "+1": [1, 0, 0],
        "+2": [2, 0, 0],
        "bunco": [21, 0, 0],
        "mini": [5, 0, 0],
    }
    wm = entry_projection(get_rules("winning-moves"), 3, ["bunco", "low", "high"])
    assert wm["dice"]["3-3-3"] == [21, 0, 1]  # the Bunco ends the round: unknown after
    assert wm["dice"]["1-1-1"] == [7, 0, 0] and wm["dice"]["5-5-5"] == [5, 0, 0]
    assert wm["taps"] == {"bunco": [21, 0, 1], "low": [7, 0, 0], "high": [5, 0, 0]}
    scil = entry_projection(get_rules("scil"), 3, [])
    assert scil["dice"]["2-2-2"] == [5, 1, 0]  # a Baby Bunco ends the turn there
    wipeout = get_rules("classic", WIPEOUT)
    assert entry_projection(wipeout, 1, [])["dice"]["1-1-1"] == [21, 0, 0]  # round 1: Bunco
    later = entry_projection(wipeout, 2, ["wipeout"])
    assert later["dice"]["1-1-1"] == later["taps"]["wipeout"] == [0, 1, 1]


@pytest.mark.parametrize(("preset", "house_rules"), [("classic", WIPEOUT), ("winning-moves", {})])
def test_the_table_page_projects_what_the_table_does_with_each_entry(
    preset: str, house_rules: dict[str, Any]
) -> None:
    """The projection sent with the table's page, against the table itself: each entry
    applied to the night adds its points to the roller's side and passes the dice or not;
    where it says ``unknown``, the entry does more (the side back to 0, the round over)."""
    night = night_in_round_2(preset, house_rules)
    page = table_page(night, 1)
    projection = page["projection"]
    assert projection["round"] == page["round"] == 2
    assert list(projection["taps"]) == [
        t["outcome"] for t in page["table"]["taps"] if t["possible"]
    ]
    before = night.tables[0]
    side = before.side_of(before.turn)
    entries = [({"type": "roll", "dice": list(d)}, dice_key(d)) for d in DICE_SETS]
    entries += [({"type": "tally", "outcome": o}, o) for o in projection["taps"]]
    unknown = set()
    for event, key in entries:
        effect = projection["taps" if event["type"] == "tally" else "dice"][key]
        after = night.apply({**event, "table": 1})
        points, passes, cannot_tell = effect
        if cannot_tell:
            unknown.add(key)
            ended = after.round_no != night.round_no
            wiped = after.round_no == 2 and after.tables[0].side_scores[side] == 0
            assert ended or wiped, key
            continue
        table = after.tables[0]
        assert table.side_scores[side] == 2 + points, key
        assert sum(table.side_scores) == 2 + points, key  # the others' stay at 0
        assert (table.roller != before.roller) == bool(passes), key
    if preset == "classic":  # three 1s in round 2: the Wipeout
        assert unknown == {"1-1-1", "wipeout"}
        assert projection["dice"]["2-2-2"] == [21, 0, 0]
    else:  # the Bunco ends the round at every table
        assert unknown == {"2-2-2", "bunco"}
        assert projection["taps"]["low"] == projection["dice"]["1-1-1"] == [7, 0, 0]


def test_no_projection_for_a_table_not_in_play_and_none_in_the_whole_view() -> None:
    night = night_in_round_2("classic", {})
    assert table_page(night, 2)["projection"] is None
    assert "scoring" not in table_page(night, 1)["table"]  # the page holds no rules
