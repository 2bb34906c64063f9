"""The right words in every preset: the bell banner, prize names and how a table was won
come from the rule set, so no page says a rule the night does not play."""

from __future__ import annotations

import random

import pytest

from bunco.core.presets import PRESETS, get_rules
from bunco.core.rules import AfterBell
from bunco.party.night_report import table_result_dict
from bunco.party.view import live_view
from bunco.party.words import bell_text
from bunco.web.pages.night_pages import presets_document
from night_helpers import party, random_roll

TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_bell_banner_says_what_the_preset_does_after_the_bell(name):
    rules = get_rules(name)
    words = bell_text(rules)
    rolls_on = "Players finishing a turn roll on" in words
    assert rolls_on == (rules.after_bell is AfterBell.FINISH_TURN)
    assert ("nobody rolls on" in words) == (rules.after_bell is AfterBell.STOP)


def test_scil_and_winning_moves_do_not_say_players_roll_on():
    for name in ("scil", "winning-moves"):
        night = party(name, TWELVE)
        assert "roll on." not in str(live_view(night)["words"]["bell"]).replace(
            "nobody rolls on", ""
        )


def test_prize_names_follow_the_preset_on_the_set_up_page_and_the_night():
    labels = {p["name"]: p["prize_labels"] for p in presets_document()["presets"]}
    assert labels["scil"]["most_mini_buncos"] == "Most Baby Buncos"
    assert labels["classic"]["most_mini_buncos"] == "Most Mini Buncos"
    assert labels["winning-moves"]["most_mini_buncos"] == "Most Low/High Buncos"
    night = party("scil", TWELVE, prizes=["most_buncos", "most_mini_buncos"])
    rng = random.Random(2)
    while night.phase == "playing":
        night, _ = random_roll(night, rng)
    assert "Most Baby Buncos" in [p.label for p in night.prizes]
    assert "Mini" not in str(live_view(night)["prizes"])


def test_a_tie_break_win_says_how_it_was_won_never_a_bare_tie_score():
    seen = 0
    for seed in range(40):
        night = party("classic", TWELVE[:8])
        rng = random.Random(seed)
        while len(night.history) < 2:
            night, _ = random_roll(night, rng)
        for played in night.history:
            for res in played.tables:
                doc = table_result_dict(res)
                if res.tie_break is not None:
                    seen += 1
                    assert "on the tie-break" in doc["words"]
                    a, b = res.side_scores
                    assert f"won here {a}–{b}" not in doc["words"]
                else:
                    assert doc["words"].endswith(
                        f"won here {res.side_scores[0]}–{res.side_scores[1]}"
                    )
        if seen >= 2:
            break
    assert seen >= 2
