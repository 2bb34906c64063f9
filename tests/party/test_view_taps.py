"""The table view names the tally buttons (words, hints, who-rolled questions), the typed
three of a kind that ask who rolled, and the partners: the pages hold no game rules."""

from __future__ import annotations

import pytest

from bunco.core.night import Night
from bunco.party.view import live_view

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def first_table(rules: str, **setup: object) -> dict[str, object]:
    night = Night.start({"rules": rules, "players": PLAYERS, **setup})
    return live_view(night)["tables"][0]


@pytest.mark.parametrize(
    ("preset", "labels", "points"),
    [
        ("classic", ["Miss", "+1", "+2", "Bunco", "Mini Bunco"], (21, 5)),
        ("tournament", ["Miss", "+1", "+2", "Bunco", "Mini Bunco"], (21, 5)),
        ("scil", ["Miss", "+1", "+2", "Bunco", "Baby Bunco"], (21, 5)),
        ("winning-moves", ["Miss", "+1", "+2", "Bunco", "Low Bunco", "High Bunco"], (21, 5)),
    ],
)
def test_each_preset_names_its_buttons(
    preset: str, labels: list[str], points: tuple[int, int]
) -> None:
    table = first_table(preset)
    taps = table["taps"]
    assert isinstance(taps, list)
    assert [t["label"] for t in taps] == labels
    hints = {t["outcome"]: t["hint"] for t in taps}
    assert hints["miss"] == "no 1s · dice pass" and hints["+2"] == "two 1s"
    assert hints["bunco"] == f"three 1s · {points[0]}"
    asks = [t["outcome"] for t in taps if t["asks_who"]]
    assert asks[0] == "bunco" and "miss" not in asks and "+1" not in asks
    # round 1: nothing is below the 1s
    assert ("low" in asks) is False


def test_possible_follows_the_engine_and_first_roll_asks_nothing() -> None:
    wm = first_table("winning-moves")
    assert {t["outcome"]: t["possible"] for t in wm["taps"]} == {
        "miss": True,
        "+1": True,
        "+2": True,
        "bunco": True,
        "low": False,
        "high": True,
    }
    assert wm["asks_who"] == [1, 2, 3, 4, 5, 6]
    scil = first_table("scil")  # scil rolls for high first: no tallies, typed dice ask nobody
    assert scil["status"] == "first_roll"
    assert not any(t["possible"] for t in scil["taps"]) and scil["asks_who"] == []


def test_a_house_rule_changes_the_hint() -> None:
    table = first_table("classic", house_rules={"bunco_points": 10, "mini_label": "Baby"})
    taps = {t["outcome"]: t for t in table["taps"]}
    assert taps["bunco"]["hint"] == "three 1s · 10"
    assert taps["mini"]["label"] == "Baby"


def test_the_wipeout_button_asks_who_rolled_it_after_round_one() -> None:
    night = Night.start({"rules": "classic", "players": PLAYERS, "house_rules": {"wipeout": True}})
    taps = {t["outcome"]: t for t in live_view(night)["tables"][0]["taps"]}
    assert taps["wipeout"] == {
        "outcome": "wipeout",
        "label": "Wipeout",
        "hint": "three 1s · team to 0",
        "possible": False,
        "asks_who": False,
    }  # round 1: three 1s are the Bunco


def test_partners_of_the_tables_and_of_the_next_seating() -> None:
    night = Night.start({"rules": "classic", "players": PLAYERS})
    view = live_view(night)
    assert view["tables"][0]["partners"] == ["Cat", "Dee", "Ann", "Bea"]
    assert view["next"]["partners"][0] == ["Cat", "Dee", "Ann", "Bea"]
    alone = live_view(Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat"]}))
    assert alone["tables"][0]["partners"] == [None, None, None]
