"""Where every rule value of every preset comes from.

``RULE_SOURCES[preset][field]`` says why the preset has the value it has, in one of
three forms (the first words tell which):

- ``seeds/NNN: “quote”`` — the seed document says so; the quote is its own text
  (sometimes followed by a short note, or by a second quote);
- ``RULES.md §N: …`` — the seed is silent or contradicts itself and RULES.md decides;
- ``bunco default: …`` — neither says, and the value is what the engine does when the
  rule never comes up for that preset (or what a group playing it would expect).

The preset pages in ``docs/presets/`` are generated from this table
(``scripts/gen_preset_docs.py``), so it must name every field of every preset.

>>> RULE_SOURCES["winning-moves"]["bunco_points"]
'seeds/000: “A true Bunco immediately ends the round and scores 21 points.”'
>>> source_kind(RULE_SOURCES["scil"]["after_bell"])
'rules'
>>> seed_quotes(RULE_SOURCES["tournament"]["tie_break"])[0][0]
'004'
"""

from __future__ import annotations

import re
from typing import Literal

SEED_FILES: dict[str, tuple[str, str]] = {
    "000": ("000_1b4a537de993236d.txt", "Box of Bunco (Winning Moves): one table, party, 5-11"),
    "001": ("001_ba6d58fd9bd33b4d.txt", "Bunco: the usual party rules, with an Example of Play"),
    "002": ("002_dc0f2c8b30e14448.txt", "Bunco for two (Winning Moves)"),
    "003": ("003_3a7c83c3906777a7.txt", "SCIL Bunco"),
    "004": ("004_4e76f44e4b4d25f9.txt", "a Bunco tournament with prize groups and staff checkers"),
}
"""The five seed documents of ``rules/seeds/``: short id → (file name, what it is)."""

SourceKind = Literal["seed", "rules", "default"]

_QUOTE = re.compile(r"seeds/(\d{3}): “([^”]+)”")

_NO_TRAVEL = "RULES.md §7: Traveling is an optional rule (from seeds/001) the host switches on; off"
_NO_TRAVEL_ROUND = "RULES.md §7: matters only with a Traveling trigger; 0 excludes no round"
_NO_CLOCK = (
    "bunco default: off (0); no seed times its rounds: a bell ends them (RULES.md §3); "
    "a clock is a house rule for big events"
)
_NO_WIPEOUT = "RULES.md §7: Wipeout is a common house rule, not in the seeds; off"
_NO_QUICK = "RULES.md §7: the quick game (targets of 11, from seeds/000) is an option; off"
_NO_GROUPS = "bunco default: prize groups are the tournament's (seeds/004); no groups"
_NO_VERIFY = "bunco default: only seeds/004 has checkers; every count stands as rolled"
_NO_PRESENCE = (
    "bunco default: only seeds/004 asks winners to be present; a host switches it on "
    "(the party line's must_be_present)"
)
_NO_BREAKS = "bunco default: the seed names no breaks inside a set"
_PRIZE_TIES = (
    "RULES.md §4: a tie for a prize is settled by a roll-off (seeds/003) or shared, "
    "as the host chooses; roll-off unless the host says otherwise"
)
_PRIZE_ROLL_OFF = (
    "bunco default: used only when a tied prize is rolled off (RULES.md §4), which follows "
    "the roll-off of seeds/000, first to 5 points"
)
_INDIVIDUALS = (
    "RULES.md §6: a count that is not a multiple of four gets tables of two or three "
    "individuals, as winning-moves does"
)
_INDIVIDUAL_21 = "RULES.md §2: a table's target is 21 points, team or individual"
_ONE_TABLE_21 = "RULES.md §3: a game of one table is won by the first to 21"

WINNING_MOVES: dict[str, str] = {
    "target_die_points": (
        "seeds/000: “she scores 1 point for each die showing this number and rolls again.”"
    ),
    "bunco_points": "seeds/000: “A true Bunco immediately ends the round and scores 21 points.”",
    "bunco_continues": (
        "bunco default: a Bunco ends the round at once, so nobody rolls after it; with the "
        "house rule bunco_ends_round=false the roller rolls again as in every other preset"
    ),
    "bunco_ends_round": (
        "seeds/000: “Whenever a true Bunco is rolled at any table, the rolling players shouts out "
        '"Bunco!", the bell is rung three times, and the round ends at ALL tables.”'
    ),
    "low_trips_points": (
        "seeds/000: “Low Buncos score 7 points.”; seeds/002: “Low Buncos score seven points.”"
    ),
    "low_trips_kind": (
        "seeds/000: “LOW BUNCO: A three-of-a-kind that is lower than the number of the round”"
    ),
    "low_trips_continues": "seeds/000: “The round continues and the player rolls again.”",
    "high_trips_points": (
        "seeds/000: “High Buncos score 5 points.”; seeds/002: “High Buncos score five points.”"
    ),
    "high_trips_kind": (
        "seeds/000: “HIGH BUNCO: A three-of-a-kind that is higher than the number of the round”"
    ),
    "high_trips_continues": "seeds/000: “The round continues and the player rolls again.”",
    "mini_label": (
        "seeds/000: “Whenever a Low Bunco or High Bunco is rolled, the player immediately "
        "scores bonus points”"
    ),
    "wipeout": _NO_WIPEOUT,
    "direction": (
        "seeds/000: “the dice are passed to the player on the left.”; "
        "seeds/002: “the dice are passed to the other player.”"
    ),
    "first_roller": "seeds/000: “The scorekeeper at each table rolls first.”",
    "first_roller_single_table": (
        "seeds/000: “The player to the left of the round's winner picks up the dice and rolls "
        "first to start Round #2.” (the scorekeeper starts round 1)"
    ),
    "single_table_teams": (
        "seeds/000: “Play continues in this manner until one player accumulates 21 points and "
        "wins the round.” (one table: everyone for themselves, four players too)"
    ),
    "team_target": (
        "seeds/000: “The round ends whenever one team accumulates 21 combined points between "
        "it's two players.”"
    ),
    "individual_target": (
        "seeds/000: “When playing as individuals, their goal is to accumulate 11 points, to win "
        "the round at their table.”"
    ),
    "single_table_target": (
        "seeds/000: “Play continues in this manner until one player accumulates 21 points and "
        "wins the round.”"
    ),
    "quick_game": (
        "seeds/000: “for a quicker game, make 11 points the goal to win each round.” "
        "(an option, off unless the host chooses it)"
    ),
    "round_end": (
        "seeds/000: “The other tables keep playing until there is a winning team at each table”"
    ),
    "after_bell": (
        "RULES.md §3: nobody rolls on; a table stops when it has its winner, and a Bunco ends "
        "the round at every table at once"
    ),
    "tie_break": "seeds/000: “If there is a tie, hold a roll off until one team scores 5 points.”",
    "roll_off_target": (
        "seeds/000: “In a roll off, the first player to reach 5 points wins the roll off”"
    ),
    "round_minutes": _NO_CLOCK,
    "set_winner": (
        'seeds/000: “When the Set ends, the player with the most "W\'s" wins the game.”'
    ),
    "prizes": (
        "seeds/000: “Prizes may be awarded (everyone chips in to cover the cost)” — but it names "
        "no categories: the set's winner is the result (RULES.md §4)"
    ),
    "prize_ties": (
        "bunco default: the preset has no prize categories; if the host adds some, a tie is "
        "rolled off (RULES.md §4)"
    ),
    "prize_groups": _NO_GROUPS,
    "verify_for_prizes": _NO_VERIFY,
    "must_be_present": _NO_PRESENCE,
    "breaks_after_rounds": (
        "seeds/000: “it is always a good idea to take breaks after each Set” — a set's end "
        "needs no rule, so no breaks inside a set"
    ),
    "movement": (
        "seeds/000: “those from Table One move to the vacant chairs at Table Two; those from "
        "Table Two move to Table Three; those from Table Three move to Table One.”"
    ),
    "fill": (
        "seeds/000: “When five play, seat three at one table and two at the second table.” "
        "(tables of two or three individuals, RULES.md §6)"
    ),
    "no_repeat_partners": (
        "seeds/000: “one of them shifts to a vacant chair at the table, in order to create "
        "all-new teams in the next round.” (only those who stay must split, RULES.md §6)"
    ),
    "traveling": _NO_TRAVEL,
    "traveling_excluded_round": _NO_TRAVEL_ROUND,
}

CLASSIC: dict[str, str] = {
    "target_die_points": (
        "seeds/001: “For every number rolled that matches the round number, one point is "
        "awarded to that player.”"
    ),
    "bunco_points": "seeds/001: “it's called a Bunco and the player earns 21 points.”",
    "bunco_continues": (
        'seeds/001: “The player must call out "Bunco!" to receive 21 points, and then must '
        "keep rolling”"
    ),
    "bunco_ends_round": (
        "seeds/001: “When the head table has earned 21 points, the round is over.” "
        "(a Bunco elsewhere does not end it)"
    ),
    "low_trips_points": (
        "seeds/001: “If a player rolls three of another number that doesn't match the number "
        "of the current round (for example, rolling three 6's in round 4), the player earns "
        "5 points instead.”"
    ),
    "low_trips_kind": (
        "RULES.md §1: seeds/001 gives the roll no name; the sheets call it a Mini Bunco, "
        "below the number or above it"
    ),
    "low_trips_continues": "seeds/001: “A player keeps rolling until they score no points.”",
    "high_trips_points": (
        "seeds/001: “(for example, rolling three 6's in round 4), the player earns 5 points "
        "instead.”"
    ),
    "high_trips_kind": (
        "RULES.md §1: seeds/001 gives the roll no name; the sheets call it a Mini Bunco, "
        "below the number or above it"
    ),
    "high_trips_continues": (
        "seeds/001: “it is not a Bunco. Wanda earns 5 points instead and continues rolling.”"
    ),
    "mini_label": (
        'RULES.md §1: the five-point three of a kind is a "mini" (seeds/001 gives it no name)'
    ),
    "wipeout": _NO_WIPEOUT,
    "direction": "seeds/001: “Then the dice are passed to the player on the left.”",
    "first_roller": (
        "seeds/001: “the scorekeeper at each table picks up the three dice and begins rolling "
        "them.”"
    ),
    "first_roller_single_table": (
        "RULES.md §2: the table's scorekeeper rolls first (seeds/001 describes a party)"
    ),
    "single_table_teams": (
        "seeds/001: “The players who sit opposite of each other are partners for the first round.”"
    ),
    "team_target": "seeds/001: “When the head table has earned 21 points, the round is over.”",
    "individual_target": _INDIVIDUAL_21,
    "single_table_target": _ONE_TABLE_21,
    "quick_game": _NO_QUICK,
    "round_end": (
        "seeds/001: “The round ends when the head table accumulates at least 21 points.”"
    ),
    "after_bell": (
        "seeds/001: “all players who are taking their turn when the round ends, including the "
        "player who rang the bell, continue rolling until one of their rolls earns them no "
        "points”"
    ),
    "tie_break": (
        "seeds/001: “Each player is given a session to roll and accumulate points for their "
        "team to end the tie.”"
    ),
    "roll_off_target": _PRIZE_ROLL_OFF,
    "round_minutes": _NO_CLOCK,
    "set_winner": 'seeds/001: “At the end of a game, there are typically multiple "winners."”',
    "prizes": (
        "seeds/001: “The hostess may choose to create award categories and offer prizes to the "
        "players.” — its list, less Traveling, which needs a trigger (RULES.md §7)"
    ),
    "prize_ties": _PRIZE_TIES,
    "prize_groups": _NO_GROUPS,
    "verify_for_prizes": _NO_VERIFY,
    "must_be_present": _NO_PRESENCE,
    "breaks_after_rounds": _NO_BREAKS,
    "movement": (
        "seeds/001: “The losing team from the head table should move to the middle table "
        "(table #2).”; seeds/001: “The winning team from table #2 moves to the head table.”"
    ),
    "fill": "seeds/001: “But really, any number can play.” — " + _INDIVIDUALS,
    "no_repeat_partners": (
        "seeds/001: “one of the players should move over a chair so they will have a different "
        "partner for the next round.” (only those who stay must split)"
    ),
    "traveling": (
        "seeds/001: “If you choose to add Traveling to your game” — off until the host names "
        "the trigger (RULES.md §7)"
    ),
    "traveling_excluded_round": (
        "seeds/001: “ANY round (except round 5).” — an example; 0 excludes no round until the "
        "host names one"
    ),
}

SCIL: dict[str, str] = {
    "target_die_points": (
        "seeds/003: “The two teammates will record 1 point for any 1's rolled on their score "
        "sheet.”"
    ),
    "bunco_points": "seeds/003: “The two teammates will record 21 points on their score sheet.”",
    "bunco_continues": (
        'seeds/003: “If any of the dice comes up as a "1", then keep rolling.” (a Bunco shows '
        "the number three times)"
    ),
    "bunco_ends_round": (
        "seeds/003: “Play continues until a team at the Head Table earns 21 points.”"
    ),
    "low_trips_points": (
        "seeds/003: “If a person rolls three of a kind of a number other than 1, it is a "
        '"Baby Bunco", which gives 5 points to the team.”'
    ),
    "low_trips_kind": (
        "seeds/003: “If a person rolls three of a kind of a number other than 1, it is a "
        '"Baby Bunco"” (one kind, below the number or above it)'
    ),
    "low_trips_continues": (
        "seeds/003: “When no 1's are rolled, give the dice to the next player.” — RULES.md §1: "
        "a Baby Bunco shows none of the round's number, so the turn ends"
    ),
    "high_trips_points": (
        "seeds/003: “If a person rolls three of a kind of a number other than 1, it is a "
        '"Baby Bunco", which gives 5 points to the team.”'
    ),
    "high_trips_kind": (
        "seeds/003: “If a person rolls three of a kind of a number other than 1, it is a "
        '"Baby Bunco"” (one kind, below the number or above it)'
    ),
    "high_trips_continues": (
        "seeds/003: “When no 1's are rolled, give the dice to the next player.” — RULES.md §1: "
        "a Baby Bunco shows none of the round's number, so the turn ends"
    ),
    "mini_label": (
        "seeds/003: “Only the person who rolls the Baby Bunco, scores the Baby Bunco.” "
        "(its score sheet says Mini Buncos; the rules' name is used)"
    ),
    "wipeout": _NO_WIPEOUT,
    "direction": "seeds/003: “Play proceeds to right.”",
    "first_roller": "seeds/003: “Roll dice at each table to decide who starts (high score).”",
    "first_roller_single_table": (
        "seeds/003: “Roll dice at each table to decide who starts (high score).” "
        "(a game of one table too, RULES.md §2)"
    ),
    "single_table_teams": "seeds/003: “Teams consist of people sitting opposite each other.”",
    "team_target": "seeds/003: “Play continues until a team at the Head Table earns 21 points.”",
    "individual_target": (
        _INDIVIDUAL_21 + " (scil seats individuals only where ghosts cannot fill, e.g. 5 players)"
    ),
    "single_table_target": _ONE_TABLE_21,
    "quick_game": _NO_QUICK,
    "round_end": (
        'seeds/003: “At this point, they yell "Bunco" and ring the bell to end the round.”'
    ),
    "after_bell": ("RULES.md §3: nobody rolls on; the bell ends the round at every table"),
    "tie_break": (
        "RULES.md §3: seeds/003 is silent on a tie at a table; roll-off sessions, as classic"
    ),
    "roll_off_target": (
        "seeds/003: “we will have a roll-off to determine the ultimate winner.” — it does not "
        "say how, so the roll-off of seeds/000, first to 5 points"
    ),
    "round_minutes": _NO_CLOCK,
    "set_winner": (
        "seeds/003: “We will recognize the following winners:” (prizes, no single winner)"
    ),
    "prizes": (
        "seeds/003: “We will recognize the following winners:” — Most Buncos, Most Baby Buncos, "
        "Most Wins, Most Losses"
    ),
    "prize_ties": (
        "seeds/003: “If there is a tie for one of these categories, we will have a roll-off to "
        "determine the ultimate winner.”"
    ),
    "prize_groups": _NO_GROUPS,
    "verify_for_prizes": _NO_VERIFY,
    "must_be_present": _NO_PRESENCE,
    "breaks_after_rounds": _NO_BREAKS,
    "movement": (
        "seeds/003: “Losing teams will stay at their tables, except for the losing team of the "
        "Head Table. They'll move to the Low Table.”"
    ),
    "fill": ('seeds/003: “If you are missing one player, you can choose to play with a "ghost."”'),
    "no_repeat_partners": (
        "seeds/003: “You may not be on the same team with someone two rounds in a row”"
    ),
    "traveling": _NO_TRAVEL,
    "traveling_excluded_round": _NO_TRAVEL_ROUND,
}

TOURNAMENT: dict[str, str] = {
    "target_die_points": (
        "seeds/004: “One point is awarded for each target number rolled successfully.”"
    ),
    "bunco_points": "seeds/004: “Rolling BUNCO is worth 21 points”",
    "bunco_continues": (
        "seeds/004: “Rolling BUNCO is worth 21 points, but the player has to yell it out to get "
        "credit for it and continues their turn.”"
    ),
    "bunco_ends_round": "seeds/004: “The Round is over when the HEAD table reaches 21 points.”",
    "low_trips_points": "seeds/004: “The team gets 5 points on the Tally Sheet.”",
    "low_trips_kind": (
        "seeds/004: “MINI BUNCO! Is when rolling 3 of a kind of any number except the current "
        "target number.”"
    ),
    "low_trips_continues": (
        "seeds/004: “the player must raise their hand to get credit for it and continues their "
        "turn.”"
    ),
    "high_trips_points": (
        "seeds/004: “For example, rolling '5', '5', '5' in Round 3 earns 5 points”"
    ),
    "high_trips_kind": (
        "seeds/004: “MINI BUNCO! Is when rolling 3 of a kind of any number except the current "
        "target number.”"
    ),
    "high_trips_continues": (
        "seeds/004: “the player must raise their hand to get credit for it and continues their "
        "turn.”"
    ),
    "mini_label": (
        "seeds/004: “MINI BUNCO! Is when rolling 3 of a kind of any number except the current "
        "target number.”"
    ),
    "wipeout": _NO_WIPEOUT,
    "direction": "seeds/004: “the dice are passed to the player on the left.”",
    "first_roller": "seeds/004: “The scorekeeper at each table is the first to roll.”",
    "first_roller_single_table": (
        "seeds/004: “The scorekeeper at each table is the first to roll.” "
        "(a game of one table too, RULES.md §2)"
    ),
    "single_table_teams": (
        "seeds/004: “The scorekeeper records the cumulative score on the Table Tally as the "
        "temporary team score.”"
    ),
    "team_target": "seeds/004: “The Round is over when the HEAD table reaches 21 points.”",
    "individual_target": _INDIVIDUAL_21,
    "single_table_target": _ONE_TABLE_21,
    "quick_game": _NO_QUICK,
    "round_end": "seeds/004: “They ring the bell and the round is over for the entire room.”",
    "after_bell": (
        "seeds/004: “the player rolling the dice finishes their turn, rolling until they do not "
        "hit a target number”"
    ),
    "tie_break": (
        "seeds/004: “Ties in the round will be decided by continuing to roll. The first person to "
        "roll the target number wins the Round for their team.”"
    ),
    "roll_off_target": _PRIZE_ROLL_OFF,
    "round_minutes": _NO_CLOCK,
    "set_winner": (
        "seeds/004: “We will be awarding the winners their prize money immediately at the end of "
        "the event.” (prizes, no single winner)"
    ),
    "prizes": (
        "seeds/004: “Each Team will have the following winners paid:” — Most Bunco's, Most "
        "Mini's, Most Wins (Best Costume is not decided by the dice)"
    ),
    "prize_ties": _PRIZE_TIES + " (seeds/004 is silent)",
    "prize_groups": (
        "seeds/004: “Be sure to write your NAME & TEAM NUMBER on your individual score card!”; "
        "seeds/004: “Team with Overall Most Bunco's”"
    ),
    "verify_for_prizes": (
        "seeds/004: “Assigned Staff will highlight to verify each of the following on your score "
        "cards:” — Bunco, Mini Bunco, Wins"
    ),
    "must_be_present": (
        "seeds/004: “Please do not leave the Tournament Room, you must be present with a valid "
        "ID to win!” (RULES.md §4: on by default in tournament)"
    ),
    "breaks_after_rounds": (
        "seeds/004: “Breaks will be immediately following the 2nd, 4th & final round”"
    ),
    "movement": (
        "seeds/004: “the winner's stay and the losers walk to the next table clockwise from A to "
        "B, from B to C and from C to A.”"
    ),
    "fill": _INDIVIDUALS,
    "no_repeat_partners": (
        "seeds/004: “The winners and losers cannot have the same partner in consecutive rounds.”"
    ),
    "traveling": _NO_TRAVEL,
    "traveling_excluded_round": _NO_TRAVEL_ROUND,
}

RULE_SOURCES: dict[str, dict[str, str]] = {
    "winning-moves": WINNING_MOVES,
    "classic": CLASSIC,
    "scil": SCIL,
    "tournament": TOURNAMENT,
}
"""Preset name → rule field (every field of ``RuleSet`` but ``name``) → its source."""


def source_kind(source: str) -> SourceKind:
    """``seed``, ``rules`` or ``default``: which of the three forms ``source`` takes.

    >>> source_kind("bunco default: no breaks")
    'default'
    """
    if source.startswith("seeds/"):
        return "seed"
    if source.startswith("RULES.md §"):
        return "rules"
    if source.startswith("bunco default:"):
        return "default"
    raise ValueError(
        f"a rule source must start with seeds/, RULES.md § or bunco default:, got {source!r}"
    )


def seed_quotes(source: str) -> list[tuple[str, str]]:
    """Every ``(seed id, quoted text)`` in ``source``, in order.

    >>> seed_quotes('seeds/000: “Low Buncos score 7 points.”; seeds/002: “Low Buncos …”')
    [('000', 'Low Buncos score 7 points.'), ('002', 'Low Buncos …')]
    """
    return [(m.group(1), m.group(2)) for m in _QUOTE.finditer(source)]
