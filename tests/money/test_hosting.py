"""The host's events beside the dice: judged prizes, presence, breaks and drawings."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from bunco.core.errors import BuncoError, InvalidEvent, NotAllowedNow
from bunco.core.hosting import drawing_event
from bunco.core.night import Night
from bunco.party.night_report import night_report
from bunco.party.view import live_view
from night_helpers import party, roll

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
GROUPS = {"Team 1": PLAYERS[:4], "Team 2": PLAYERS[4:]}


def tournament(**extra: Any) -> Night:
    return party("tournament", PLAYERS, groups=GROUPS, judged=["Best Costume"], **extra)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            {"prize": "best_hat", "group": "Team 1", "winner": "Ann"},
            "'best_hat' is not a judged prize",
        ),
        ({"prize": "best_costume", "winner": "Ann"}, "is judged per group, and None is not one"),
        (
            {"prize": "best_costume", "group": "Team 1", "winner": "Eve"},
            "'Eve' is not a player in Team 1",
        ),
        ({"prize": "group_best_costume", "winner": "Team 9"}, "'Team 9' is not a group"),
        ({"prize": "group_best_costume", "group": "Team 1", "winner": "Team 1"}, "names no group"),
        ({"prize": "best_costume", "group": "Team 1"}, "judge event needs a winner"),
        (
            {"prize": "best_costume", "group": "Team 1", "ranking": ["Ann", "Ann"]},
            "names someone twice",
        ),
    ],
)
def test_a_bad_judgement_is_refused_and_changes_nothing(
    event: dict[str, Any], message: str
) -> None:
    night = tournament()
    with pytest.raises(BuncoError) as caught:
        night.apply({"type": "judge", **event})
    assert message in caught.value.message and caught.value.expected
    assert night.host.judged == {}


def test_a_later_judgement_replaces_the_first() -> None:
    night = tournament().apply_all(
        [
            {"type": "judge", "prize": "best_costume", "group": "Team 1", "winner": "Ann"},
            {
                "type": "judge",
                "prize": "best_costume",
                "group": "Team 1",
                "ranking": ["Bea", "Cat"],
            },
            {"type": "judge", "prize": "group_best_costume", "winner": "Team 2"},
        ]
    )
    assert night_report(night)["judged"] == [
        {"prize": "best_costume", "group": "Team 1", "ranking": ["Bea", "Cat"]},
        {"prize": "group_best_costume", "group": None, "ranking": ["Team 2"]},
    ]


def test_presence_names_only_players_of_the_night() -> None:
    night = tournament()
    with pytest.raises(BuncoError, match="'Zed' is not a player tonight"):
        night.apply({"type": "absent", "player": "Zed"})
    gone = night.apply({"type": "absent", "player": "Cat"})
    assert live_view(gone)["absent"] == ["Cat"]
    assert live_view(gone.apply({"type": "present", "player": "Cat"}))["absent"] == []


def test_a_break_waits_for_the_round_and_ends_with_the_next_one() -> None:
    night = party("classic", PLAYERS[:4], tables=[PLAYERS[:4]])
    night = night.apply({"type": "break", "minutes": 5, "at": "2026-11-24T20:00:00+00:00"})
    assert live_view(night)["break"] == {
        "minutes": 5,
        "started_at": "2026-11-24T20:00:00+00:00",
        "after": None,
    }
    with pytest.raises(NotAllowedNow, match="a break is already under way"):
        night.apply({"type": "break"})
    night = roll(night, 1, 1, 1, 1)  # the first roll ends the break
    assert live_view(night)["break"] is None
    with pytest.raises(NotAllowedNow, match="round 1 is under way, so there can be no break"):
        night.apply({"type": "break"})
    with pytest.raises(NotAllowedNow, match="there is no break to end"):
        night.apply({"type": "end_break"})
    night = roll(night, 1, 2, 3, 4)  # round 1 is over
    night = night.apply({"type": "break", "minutes": 10})
    assert live_view(night)["break"]["after"] == {"set": 1, "round": 1}
    assert live_view(night.apply({"type": "end_break"}))["break"] is None
    with pytest.raises(InvalidEvent, match="a break of 0 minutes"):
        night.apply({"type": "break", "minutes": 0})


def test_a_drawing_is_among_those_present_and_can_leave_out_earlier_winners() -> None:
    night = party("classic", PLAYERS[:4]).apply({"type": "absent", "player": "Bea"})
    first = drawing_event(night, secrets.randbelow, name="Door prize")
    assert first["candidates"] == ["Ann", "Cat", "Dee"]
    assert first["winner"] == first["candidates"][first["pick"]]
    night = night.apply(first)
    again = drawing_event(night, lambda n: 0, exclude_winners=True)
    assert first["winner"] not in again["candidates"] and len(again["candidates"]) == 2
    night = night.apply(again)
    assert [d["name"] for d in night_report(night)["drawings"]] == ["Door prize", "Drawing 2"]


def test_a_drawing_with_nobody_present_is_refused() -> None:
    night = party("classic", ["Ann", "Bea"])
    night = night.apply_all(
        [{"type": "absent", "player": "Ann"}, {"type": "absent", "player": "Bea"}]
    )
    with pytest.raises(NotAllowedNow, match="nobody is present to win a drawing"):
        drawing_event(night, secrets.randbelow)
    with pytest.raises(NotAllowedNow, match="nobody is present to win a drawing"):
        night.apply({"type": "drawing", "candidates": [], "pick": 0, "winner": "Ann"})
