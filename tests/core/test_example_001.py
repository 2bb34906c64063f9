"""001's "Example of Play" replayed at one head table under `classic`."""

from __future__ import annotations

from helpers import party, roll

from bunco.core.table import Status
from bunco.party.night_report import night_report


def test_example_of_play() -> None:
    # Stacy (scorekeeper), Carol, Wanda, Hannah sit clockwise; Stacy & Wanda are partners.
    night = party("classic", ["Stacy", "Carol", "Wanda", "Hannah"])
    night = roll(night, 1, 1, 1, 4, player="Stacy")  # two 1's: 2 points, rolls again
    night = roll(night, 1, 1, 2, 3, player="Stacy")  # a single 1: 1 more
    night = roll(night, 1, 2, 3, 4, player="Stacy")  # no 1's: passes to Carol
    assert night.tables[0].roller == "Carol"
    night = roll(night, 1, 1, 5, 6, player="Carol")
    night = roll(night, 1, 1, 2, 6, player="Carol")
    night = roll(night, 1, 3, 4, 5, player="Carol")
    night = roll(night, 1, 5, 5, 5, player="Wanda")  # three of a kind, not a Bunco: 5, again
    night = roll(night, 1, 2, 3, 4, player="Wanda")
    night = roll(night, 1, 1, 1, 1, player="Hannah")  # Bunco: 21, the bell rings
    table = night.tables[0]
    assert night.bell and table.status is Status.FINISHING and table.roller == "Hannah"
    night = roll(night, 1, 2, 3, 4, player="Hannah")  # no points: her turn and the round end
    first = night_report(night)["rounds"][0]["tables"][0]
    assert first["points"] == {"Stacy": 3, "Carol": 2, "Wanda": 5, "Hannah": 21}
    # The text says "Stacy and Wanda earned a total of 5 points"; by its own rolls they earned
    # 3 (Stacy) + 5 (Wanda) = 8. Carol and Hannah: 2 + 21 = 23, as the text says.
    assert first["team_scores"] == [8, 23]
    assert first["winners"] == ["Carol", "Hannah"]
    assert first["losers"] == ["Stacy", "Wanda"]
    cards = night_report(night)["players"]
    assert cards["Hannah"]["buncos"] == 1 and cards["Carol"]["buncos"] == 0
    assert cards["Wanda"]["mini_buncos"] == 1
    assert [cards[p]["wins"] for p in ("Stacy", "Carol", "Wanda", "Hannah")] == [0, 1, 0, 1]
    assert night.round_no == 2
