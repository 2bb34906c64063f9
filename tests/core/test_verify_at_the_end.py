"""seeds/004: "all sheets will be collected by your Team's Assigned Staff and will be
retabulated for accuracy": every card is checked again at the end, changed or not. A card
verified at the break after round 4 and unchanged since is verified again after round 6;
the sheets then say it was checked at the end, by the end's checker."""

from __future__ import annotations

import random

from bunco.core.night import Night
from bunco.core.verification import verification_report, verified_text
from night_helpers import random_roll

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_every_card_is_checked_again_at_the_end_changed_or_not() -> None:
    rng = random.Random(4)
    night = Night.start(
        {
            "rules": "tournament",
            "players": PLAYERS,
            "groups": {"T1": PLAYERS[:4], "T2": PLAYERS[4:]},
        }
    )
    verified_after_4 = False
    while night.phase != "over" or night.prize_cards is None:
        if len(night.history) == 4 and not verified_after_4:
            for name in PLAYERS:
                night = night.apply({"type": "verify", "player": name, "checker": "Break staff"})
            verified_after_4 = True
        if night.phase == "over":  # the prizes wait for the cards: the end's check
            for name in PLAYERS:
                team = "T1" if name in PLAYERS[:4] else "T2"
                night = night.apply({"type": "verify", "player": name, "checker": f"{team} staff"})
            continue
        night, _ = random_roll(night, rng)
    report = verification_report(night)
    assert {n: (c["checker"], c["after"]) for n, c in report["cards"].items()} == {
        n: (f"{'T1' if n in PLAYERS[:4] else 'T2'} staff", {"set": 1, "round": 6}) for n in PLAYERS
    }
    assert verified_text(night, "Ann") == "verified by T1 staff at the end, after round 6"
    # an unchanged card can be checked once more after the prizes are decided: it stands
    again = night.apply({"type": "verify", "player": "Hal", "checker": "Head staff"})
    assert verified_text(again, "Hal") == "verified by Head staff at the end, after round 6"
    assert again.prizes == night.prizes
