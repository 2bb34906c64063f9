"""The four presets of RULES.md, by name, with aliases and house rules.

>>> get_rules("wm").name
'winning-moves'
>>> get_rules("classic", {"quick_game": "true"}).target(team=True, single_table=False)
11
"""

from __future__ import annotations

from collections.abc import Mapping

from bunco.core.errors import UnknownPreset, did_you_mean
from bunco.core.rules import (
    AfterBell,
    Direction,
    Fill,
    FirstRoller,
    HouseRuleValue,
    Movement,
    Prize,
    RollKind,
    RoundEnd,
    RuleSet,
    SetWinner,
    TieBreak,
)

WINNING_MOVES = RuleSet(
    name="winning-moves",
    bunco_ends_round=True,
    low_trips_points=7,
    low_trips_kind=RollKind.LOW_BUNCO,
    high_trips_kind=RollKind.HIGH_BUNCO,
    mini_label="Low/High Bunco",
    first_roller=FirstRoller.SCOREKEEPER,
    first_roller_single_table=FirstRoller.LEFT_OF_LAST_WINNER,
    single_table_teams=False,
    individual_target=11,
    round_end=RoundEnd.EVERY_TABLE,
    after_bell=AfterBell.STOP,
    tie_break=TieBreak.ROLL_OFF_TO_FIVE,
    set_winner=SetWinner.MOST_WINS,
    movement=Movement.LOSERS_ROTATE,
)

CLASSIC = RuleSet(
    name="classic",
    mini_label="Mini Bunco",
    tie_break=TieBreak.SESSIONS,
    prizes=(
        Prize.MOST_BUNCOS,
        Prize.MOST_WINS,
        Prize.MOST_LOSSES,
        Prize.HALF_AND_HALF,
        Prize.LAST_BUNCO,
    ),
    movement=Movement.UP_DOWN,
)

SCIL = RuleSet(
    name="scil",
    low_trips_continues=False,
    high_trips_continues=False,
    mini_label="Baby Bunco",
    direction=Direction.RIGHT,
    first_roller=FirstRoller.ROLL_FOR_HIGH,
    first_roller_single_table=FirstRoller.ROLL_FOR_HIGH,
    after_bell=AfterBell.STOP,
    tie_break=TieBreak.SESSIONS,
    prizes=(Prize.MOST_BUNCOS, Prize.MOST_MINI_BUNCOS, Prize.MOST_WINS, Prize.MOST_LOSSES),
    movement=Movement.HEAD_LOSERS_TO_LAST,
    fill=Fill.GHOSTS,
    no_repeat_partners=True,
)

TOURNAMENT = RuleSet(
    name="tournament",
    mini_label="Mini Bunco",
    tie_break=TieBreak.SUDDEN_DEATH,
    prizes=(Prize.MOST_BUNCOS, Prize.MOST_MINI_BUNCOS, Prize.MOST_WINS),
    prize_groups=True,
    verify_for_prizes=True,
    must_be_present=True,
    breaks_after_rounds=(2, 4, 6),
    movement=Movement.LOSERS_ROTATE,
    no_repeat_partners=True,
)

PRESETS: dict[str, RuleSet] = {
    "winning-moves": WINNING_MOVES,
    "classic": CLASSIC,
    "scil": SCIL,
    "tournament": TOURNAMENT,
}

ALIASES: dict[str, str] = {
    "wm": "winning-moves",
    "winning_moves": "winning-moves",
    "winningmoves": "winning-moves",
    "box": "winning-moves",
    "bunco-for-two": "winning-moves",
    "party": "classic",
    "standard": "classic",
    "baby": "scil",
    "tourney": "tournament",
    "tour": "tournament",
}

SUMMARIES: dict[str, str] = {
    "winning-moves": "Low/High Buncos, a true Bunco ends the round, tables play to 21 each, most W's wins",
    "classic": (
        "the usual party: head table ends every round, roll on after the bell, winners up / losers down"
    ),
    "scil": "head table ends the round, Baby Bunco ends the turn, head losers drop to the low table, ghosts",
    "tournament": (
        "Mini Buncos, head table ends the round, sudden-death ties, losers walk clockwise, prize groups"
    ),
}

TITLES: dict[str, str] = {
    "winning-moves": "Winning Moves box rules",
    "classic": "Classic party",
    "scil": "Club rules (SCIL)",
    "tournament": "Charity tournament",
}
"""Each preset's name for the pages a host reads (the ids above stay the names in the
command line, the API and the party log)."""

PLAYS: dict[str, str] = {
    "winning-moves": (
        "The rules printed in the Bunco box: every table plays to 21, a Bunco ends the round "
        "at every table, and whoever wins the most rounds wins."
    ),
    "classic": (
        "The usual party: the head table's 21 rings the bell for everyone, winners move up "
        "a table and losers move down."
    ),
    "scil": (
        "A club's rules: players roll to see who starts, a Baby Bunco ends your turn, and "
        "nobody partners the same person twice."
    ),
    "tournament": (
        "For a fundraiser: prizes for each group of players, cards checked before prizes, "
        "and a break after rounds 2, 4 and 6."
    ),
}
"""How each preset plays, in one plain sentence for a host choosing the rules."""

SOURCES: dict[str, str] = {
    "winning-moves": "seeds/000 (Box of Bunco, Winning Moves) and seeds/002 (Bunco for two)",
    "classic": "seeds/001 (Bunco: the usual party rules, with the Example of Play)",
    "scil": "seeds/003 (SCIL Bunco)",
    "tournament": "seeds/004 (a charity Bunco tournament)",
}


def preset_name(name: str) -> str:
    """The canonical preset name for a name or alias; raises :class:`UnknownPreset`."""
    key = name.strip().lower()
    if key in PRESETS:
        return key
    if key in ALIASES:
        return ALIASES[key]
    raise UnknownPreset(
        f"unknown preset {name!r}" + did_you_mean(key, [*PRESETS, *ALIASES]),
        expected="one of " + ", ".join(PRESETS) + " (aliases: " + ", ".join(sorted(ALIASES)) + ")",
    )


def get_rules(name: str, house_rules: Mapping[str, HouseRuleValue] | None = None) -> RuleSet:
    """The preset ``name`` with ``house_rules`` applied."""
    return PRESETS[preset_name(name)].with_house_rules(house_rules or {})
