"""Rule sets: presets by name and alias, house rules, clear errors."""

from __future__ import annotations

import dataclasses

import pytest

from bunco.core.errors import InvalidRuleValue, UnknownPreset, UnknownRule
from bunco.core.presets import PRESETS, get_rules
from bunco.core.rules import AfterBell, Direction, Movement, RoundEnd, RuleSet, TieBreak


def test_presets_and_aliases() -> None:
    assert set(PRESETS) == {"winning-moves", "classic", "scil", "tournament"}
    assert get_rules("WM").name == "winning-moves"
    assert get_rules("winning_moves") is PRESETS["winning-moves"]
    assert get_rules("tourney").name == "tournament"


def test_the_presets_differ_where_rules_md_says() -> None:
    wm, classic, scil, tour = (get_rules(n) for n in ("wm", "classic", "scil", "tournament"))
    assert (wm.round_end, classic.round_end) == (RoundEnd.EVERY_TABLE, RoundEnd.HEAD_TABLE)
    assert (classic.after_bell, tour.after_bell, scil.after_bell, wm.after_bell) == (
        AfterBell.FINISH_TURN,
        AfterBell.FINISH_TURN,
        AfterBell.STOP,
        AfterBell.STOP,
    )
    assert (classic.tie_break, wm.tie_break, scil.tie_break, tour.tie_break) == (
        TieBreak.SESSIONS,
        TieBreak.ROLL_OFF_TO_FIVE,
        TieBreak.SESSIONS,
        TieBreak.SUDDEN_DEATH,
    )
    assert scil.direction is Direction.RIGHT and classic.direction is Direction.LEFT
    assert (classic.movement, scil.movement, wm.movement, tour.movement) == (
        Movement.UP_DOWN,
        Movement.HEAD_LOSERS_TO_LAST,
        Movement.LOSERS_ROTATE,
        Movement.LOSERS_ROTATE,
    )
    assert wm.target(team=False, single_table=False) == 11
    assert wm.target(team=False, single_table=True) == 21
    assert classic.target(team=True, single_table=False) == 21


def test_unknown_preset_lists_the_valid_names() -> None:
    with pytest.raises(UnknownPreset) as err:
        get_rules("bingo")
    text = str(err.value)
    for name in ("winning-moves", "classic", "scil", "tournament", "wm"):
        assert name in text


def test_unknown_rule_lists_the_valid_names() -> None:
    with pytest.raises(UnknownRule) as err:
        get_rules("classic", {"bunko_points": 3})
    assert "bunco_points" in str(err.value) and "wipeout" in str(err.value)


def test_house_rules_are_typed_and_checked() -> None:
    rules = get_rules(
        "classic", {"team_target": "11", "wipeout": "yes", "tie_break": "sudden-death"}
    )
    assert (rules.team_target, rules.wipeout, rules.tie_break) == (11, True, TieBreak.SUDDEN_DEATH)
    with pytest.raises(InvalidRuleValue, match="true or false"):
        get_rules("classic", {"wipeout": "maybe"})
    with pytest.raises(InvalidRuleValue, match="one of sessions, roll_off_to_five, sudden_death"):
        get_rules("classic", {"tie_break": "coin"})
    with pytest.raises(InvalidRuleValue, match="at least 1"):
        get_rules("classic", {"team_target": 0})
    with pytest.raises(InvalidRuleValue, match="three faces"):
        get_rules("classic", {"traveling": "777"})
    for endless in (float("inf"), float("-inf"), float("nan")):  # was an OverflowError
        with pytest.raises(InvalidRuleValue, match="a whole number"):
            get_rules("classic", {"team_target": endless})


def test_every_field_can_be_a_house_rule() -> None:
    base = get_rules("classic")
    for f in dataclasses.fields(RuleSet):
        if f.name == "name":
            continue
        value = getattr(base, f.name)
        assert getattr(base.with_house_rules({f.name: value}), f.name) == value


def test_rule_sets_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        get_rules("classic").team_target = 5  # type: ignore[misc]
