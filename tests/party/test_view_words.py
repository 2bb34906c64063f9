"""The live view carries the night's words (what each kind of roll is called, the three of
a kind's short and plural names) and each tie-break's rule in a sentence, so the pages
show the server's words, house rules included."""

from __future__ import annotations

from typing import Any

import pytest

from bunco.core.night import Night
from bunco.party.view import live_view

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.mark.parametrize(
    ("preset", "mini", "minis", "trips"),
    [
        ("classic", "Mini", "Minis", "Mini Bunco"),
        ("tournament", "Mini", "Minis", "Mini Bunco"),
        ("scil", "Baby", "Babies", "Baby Bunco"),
        ("winning-moves", "Low/High", "Low/Highs", "Low/High Bunco"),
    ],
)
def test_each_preset_says_its_words(preset: str, mini: str, minis: str, trips: str) -> None:
    words = live_view(Night.start({"rules": preset, "players": EIGHT}))["words"]
    assert (words["mini"], words["minis"]) == (mini, minis)
    assert words["kinds"] == {
        "miss": "Miss",
        "bunco": "BUNCO!",
        "mini_bunco": trips,
        "low_bunco": "Low Bunco",
        "high_bunco": "High Bunco",
        "wipeout": "Wipeout!",
    }


def test_a_house_rule_name_is_the_pages_word() -> None:
    night = Night.start(
        {"rules": "classic", "players": EIGHT, "house_rules": {"mini_label": "Lucky Bunco"}}
    )
    words = live_view(night)["words"]
    assert (words["kinds"]["mini_bunco"], words["mini"], words["minis"]) == (
        "Lucky Bunco",
        "Lucky",
        "Luckies",
    )


def tied_table_two(rules: str, **house: Any) -> dict[str, Any]:
    """Table 2 tied 1-1 when the head table's Bunco ends the round (or rings the bell)."""
    night = Night.start({"rules": rules, "players": EIGHT, "house_rules": house})
    for dice in ([1, 2, 3], [2, 3, 4], [1, 2, 3], [2, 3, 4]):
        night = night.apply({"type": "roll", "table": 2, "dice": dice})
    night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 1], "player": "Ann"})
    if night.tables[0].roller is not None:  # classic: Ann finishes her turn
        night = night.apply({"type": "roll", "table": 1, "dice": [2, 3, 4]})
    table: dict[str, Any] = live_view(night)["tables"][1]
    assert table["status"] == "tie_break"
    return table


def test_a_tie_break_says_its_rule() -> None:
    assert tied_table_two("classic")["tie_break"]["text"] == (
        "Roll-off session 1: every tied player takes one turn; most points wins."
    )
    assert tied_table_two("tournament")["tie_break"]["text"] == (
        "Sudden death: the first roll showing a 1 wins."
    )
    wm = tied_table_two("winning-moves", roll_off_target=3)
    assert wm["rolling_for_high"] is True
    assert wm["tie_break"]["text"] == (
        "Each tied player rolls the three dice once: "
        "the highest total starts a roll-off to 3 points."
    )
