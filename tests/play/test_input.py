"""What people type: ``--players``/``--human`` and the lines typed at the prompt."""

from __future__ import annotations

import doctest
import importlib

import pytest

from bunco.core.errors import InvalidSetup
from bunco.play.commands import BadInput, PromptCommand, parse_command
from bunco.play.roster import BOT_NAMES, bot_names, make_roster, split_names


@pytest.mark.parametrize(
    "module",
    ["roster", "commands", "logfile", "driver", "render", "newnight"],
)
def test_doctests(module: str) -> None:
    mod = importlib.import_module(f"bunco.play.{module}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


# -- roster --------------------------------------------------------------------------------
def test_count_gives_bots_after_the_humans() -> None:
    r = make_roster("5", ["Zed", "Yan"])
    assert r.players == ("Zed", "Yan", "Ann", "Bea", "Cal")
    assert r.bots == ("Ann", "Bea", "Cal")
    assert r.humans == ("Zed", "Yan")


def test_count_without_humans_is_all_bots() -> None:
    assert make_roster("3", []).humans == ()


def test_bot_names_skip_a_human_of_the_same_name() -> None:
    r = make_roster("3", ["bea"])
    assert r.players == ("bea", "Ann", "Cal")


def test_forty_bots_have_distinct_names() -> None:
    names = bot_names(40, [])
    assert len(set(names)) == 40
    assert names[: len(BOT_NAMES)] == list(BOT_NAMES)
    assert names[len(BOT_NAMES)] == "Bot 27"


def test_names_are_humans_unless_some_are_marked() -> None:
    assert make_roster("Ann, Bo, Cy", []).bots == ()
    assert make_roster("Ann,Bo,Cy", ["Cy"]).bots == ("Ann", "Bo")
    assert make_roster("Ann Bo", [], all_bots=True).bots == ("Ann", "Bo")


def test_split_names_commas_keep_inner_spaces() -> None:
    assert split_names(" Mary Ann ,Bo,, Cy ") == ["Mary Ann", "Bo", "Cy"]


@pytest.mark.parametrize(
    ("spec", "humans", "says"),
    [
        ("1", [], "--players 1 is not a party"),
        ("Ann", [], "fewer than two players"),
        ("Ann,Ann", [], "'Ann' is named twice"),
        ("Ann,Bea", ["Cat"], "--human 'Cat' is not one of --players Ann, Bea"),
        ("2", ["A", "B", "C"], "3 humans do not fit in 2 players"),
        ("4", ["A", "a"], "--human 'a' is given twice"),
    ],
)
def test_bad_rosters_say_what_to_type(spec: str, humans: list[str], says: str) -> None:
    with pytest.raises(InvalidSetup) as err:
        make_roster(spec, humans)
    assert says in err.value.message
    assert err.value.expected


# -- the prompt ------------------------------------------------------------------------------
@pytest.mark.parametrize("line", ["", " ", "r", "roll"])
def test_digital_enter_rolls(line: str) -> None:
    assert parse_command(line, physical=False) == PromptCommand("roll")


@pytest.mark.parametrize(
    ("line", "kind"),
    [("u", "undo"), ("Q", "quit"), ("?", "help"), ("t", "tables"), ("c", "cards")],
)
def test_keys_work_in_both_modes(line: str, kind: str) -> None:
    assert parse_command(line, physical=False).kind == kind
    assert parse_command(line, physical=True).kind == kind


@pytest.mark.parametrize(
    ("line", "dice", "table"),
    [("4 4 1", (4, 4, 1), None), ("441", (4, 4, 1), None), ("6,5,2", (6, 5, 2), None),
     ("2: 3 3 3", (3, 3, 3), 2), ("t3: 125", (1, 2, 5), 3)],
)  # fmt: skip
def test_physical_faces(line: str, dice: tuple[int, int, int], table: int | None) -> None:
    assert parse_command(line, physical=True) == PromptCommand("faces", dice=dice, table=table)


@pytest.mark.parametrize(
    ("line", "outcome"),
    [("m", "miss"), ("1", "+1"), ("2", "+2"), ("b", "bunco"), ("x", "mini"), ("l", "low"),
     ("h", "high"), ("w", "wipeout"), ("Bunco", "bunco"), ("0", "miss")],
)  # fmt: skip
def test_physical_tallies(line: str, outcome: str) -> None:
    assert parse_command(line, physical=True) == PromptCommand("tally", outcome=outcome)


@pytest.mark.parametrize(
    ("line", "says"),
    [("4 4 7", "a die cannot show 7"), ("4 4", "got 2 dice"), ("zz", "'zz' is neither"),
     ("", "nothing typed"), ("0: b", "there is no table 0")],
)  # fmt: skip
def test_physical_mistakes(line: str, says: str) -> None:
    with pytest.raises(BadInput) as err:
        parse_command(line, physical=True)
    assert says in err.value.message
    assert err.value.expected is not None


def test_digital_refuses_dice() -> None:
    with pytest.raises(BadInput) as err:
        parse_command("4 4 1", physical=False)
    assert "Enter to roll" in (err.value.expected or "")
