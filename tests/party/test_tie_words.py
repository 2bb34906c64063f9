"""A tie at the bell, 0–0 included, says in words what the rules do next, by preset: the
one sentence (``tie_break.why``) the table's phone, the host's cards and the big screen
show (bunco.party.words.tie_why_text; RULES.md §3, "tie at a table")."""

from __future__ import annotations

import pytest

from bunco.core.night import Night
from bunco.party.view import table_page
from night_helpers import party, roll

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]

NEXT = {
    "classic": "Each tied player takes one turn here; most points wins (still tied: again).",
    "tournament": "Keep taking turns here; the first roll showing a 1 wins.",
}


def tied_at_nothing(rules: str) -> Night:
    """The head table reaches 21 while table 2 has not scored: 0–0 when the bell rings."""
    night = party(rules, EIGHT)
    while not night.bell:
        night = roll(night, 1, 1, 1, 2)  # +2 for the roller's side each time
    while night.tables[0].roller is not None:  # the head table's finishing turn ends
        night = roll(night, 1, 2, 3, 4)
    while night.tables[1].status.value == "finishing":
        night = roll(night, 2, 2, 3, 4)
    return night


@pytest.mark.parametrize("rules", sorted(NEXT))
def test_a_nil_tie_at_the_bell_says_what_the_rules_do_next(rules: str) -> None:
    night = tied_at_nothing(rules)
    view = table_page(night, 2)["table"]
    assert view["status"] == "tie_break"
    assert view["team_scores"] == [0, 0]
    assert view["tie_break"]["why"] == "Tied 0–0 at the bell: no winner yet. " + NEXT[rules]


def test_a_tie_with_points_names_the_score() -> None:
    night = party("classic", EIGHT)
    night = roll(night, 2, 1, 2, 3)  # table 2: Eve's side +1, then a miss passes the dice
    night = roll(night, 2, 2, 3, 4)
    night = roll(night, 2, 1, 2, 3)  # Fay's side +1: 1–1
    night = roll(night, 2, 2, 3, 4)
    while not night.bell:
        night = roll(night, 1, 1, 1, 2)
    while night.tables[0].roller is not None:
        night = roll(night, 1, 2, 3, 4)
    while night.tables[1].status.value == "finishing":
        night = roll(night, 2, 2, 3, 4)
    view = table_page(night, 2)["table"]
    assert view["team_scores"] == [1, 1]
    assert view["tie_break"]["why"].startswith("Tied 1–1 at the bell: no winner yet.")
