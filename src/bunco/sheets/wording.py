"""The words printed on the sheets, taken from the rule set (never from a preset's name).

>>> from bunco.core.presets import get_rules
>>> minis_header(get_rules("scil")), minis_header(get_rules("wm"))
('Baby Buncos', 'Low/High Buncos')
>>> print(rule_lines(get_rules("winning-moves"))[1])
Three of the round's number is a Bunco: 21 points, and it ends the round at once, at every table.
>>> house_changes(get_rules("classic", {"wipeout": True}))[0][:2]
('wipeout', 'yes')
"""

from __future__ import annotations

import dataclasses
import enum

from bunco.core.presets import PRESETS, SUMMARIES
from bunco.core.prizes import LABELS
from bunco.core.rules import (
    AfterBell,
    Direction,
    Fill,
    FirstRoller,
    Movement,
    RollKind,
    RoundEnd,
    RuleSet,
    SetWinner,
    TieBreak,
    rule_docs,
)

US, THEM = "Us", "Them"
WIN, LOSS = "W", "L"


def minis_header(rules: RuleSet) -> str:
    """The score-card column for three of a kind that is not a Bunco (plural)."""
    return rules.mini_label + "s"


def kind_name(kind: RollKind, rules: RuleSet) -> str:
    """What the sheets call a roll of this kind.

    >>> from bunco.core.presets import get_rules
    >>> kind_name(RollKind.MINI_BUNCO, get_rules("scil")), kind_name(RollKind.LOW_BUNCO, get_rules("wm"))
    ('Baby Bunco', 'Low Bunco')
    """
    if kind is RollKind.BUNCO:
        return "Bunco"
    if kind is RollKind.LOW_BUNCO:
        return "Low Bunco"
    if kind is RollKind.HIGH_BUNCO:
        return "High Bunco"
    if kind is RollKind.MINI_BUNCO:
        return rules.mini_label if "/" not in rules.mini_label else "Mini Bunco"
    return kind.value.replace("_", " ")


def preset_title(rules: RuleSet) -> str:
    """The preset's name, with "+ house rules" when any rule differs from it."""
    return rules.name + (" + house rules" if house_changes(rules) else "")


def prize_labels(rules: RuleSet) -> list[str]:
    """The prize categories of the rule set, as the sheets name them."""
    out = []
    for prize in rules.prizes:
        if prize.value == "most_mini_buncos":
            out.append(f"Most {minis_header(rules)}")
        else:
            out.append(LABELS[prize.value])
    if rules.prize_groups:
        out.append(LABELS["group_most_buncos"])
    return out


def _value_text(value: object) -> str:
    """A rule's value in words: yes/no, names without underscores, lists joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value).replace("_", " ")
    if isinstance(value, tuple):
        return ", ".join(_value_text(v) for v in value) or "none"
    return str(value)


def house_changes(rules: RuleSet) -> list[tuple[str, str, str]]:
    """``(rule, new value in words, what the rule means)`` for every rule that differs from
    the preset."""
    base = PRESETS.get(rules.name)
    if base is None:
        return []
    docs = rule_docs()
    out = []
    for f in dataclasses.fields(rules):
        mine, theirs = getattr(rules, f.name), getattr(base, f.name)
        if f.name == "traveling" and mine != theirs:
            out.append((f.name, _traveling_roll(rules), "The roll that passes the traveler."))
        elif f.name != "name" and mine != theirs:
            out.append((f.name, _value_text(mine), docs[f.name]))
    return out


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _go_on(continues: bool) -> str:
    return "roll again" if continues else "the turn ends"


def _trips_lines(rules: RuleSet) -> list[str]:
    low = (rules.low_trips_kind, rules.low_trips_points, rules.low_trips_continues)
    high = (rules.high_trips_kind, rules.high_trips_points, rules.high_trips_continues)
    if low == high:
        return [
            f"Any other three of a kind is a {kind_name(low[0], rules)}: "
            f"{_points(low[1])}, {_go_on(low[2])}."
        ]
    return [
        f"Three of a kind below the round's number is a {kind_name(low[0], rules)}: "
        f"{_points(low[1])}, {_go_on(low[2])}.",
        f"Three of a kind above it is a {kind_name(high[0], rules)}: "
        f"{_points(high[1])}, {_go_on(high[2])}.",
    ]


def _target_line(rules: RuleSet) -> str:
    if rules.quick_game:
        return "Quick game: every table plays to 11 points."
    parts = [f"partners at a table of four play to {rules.team_target}"]
    parts.append(f"individuals at a table of two or three to {rules.individual_target}")
    parts.append(f"a one-table game to {rules.single_table_target}")
    return "Targets: " + "; ".join(parts) + "."


_ROUND_END = {
    RoundEnd.HEAD_TABLE: "When a side at the head table (table 1) reaches its target, it rings "
    "the bell: the round ends at every table.",
    RoundEnd.EVERY_TABLE: "Every table plays until a side there reaches its target.",
}
_AFTER_BELL = {
    AfterBell.FINISH_TURN: "After the bell, a player in the middle of a turn keeps rolling "
    "until a roll scores nothing.",
    AfterBell.STOP: "After the bell nobody rolls on.",
}
_FIRST = {
    FirstRoller.SCOREKEEPER: "The scorekeeper (seat 1) rolls first",
    FirstRoller.ROLL_FOR_HIGH: "Everyone at the table rolls once; the highest total starts",
    FirstRoller.LEFT_OF_LAST_WINNER: "The scorekeeper starts round 1, then the player to the "
    "left of the last round's winner",
}
_MOVES = {
    Movement.UP_DOWN: "After each round winners move up a table (the head table's winners "
    "stay) and losers move down (the last table's losers stay).",
    Movement.HEAD_LOSERS_TO_LAST: "After each round winners move up a table (the head table's "
    "winners stay); the head table's losers go to the last table, all other losers stay.",
    Movement.LOSERS_ROTATE: "After each round winners stay; losers move on to the next table "
    "(the last table's losers to table 1).",
}


def head_table_text(rules: RuleSet, target: int, team: bool) -> str:
    """What the head table's bell does, for its tally page and its sign.

    >>> from bunco.core.presets import get_rules
    >>> head_table_text(get_rules("classic"), 21, True)
    'The bell is here. When a team here reaches 21, ring the bell: the round ends at every table.'
    >>> head_table_text(get_rules("wm"), 21, True)
    'The bell is here: ring it to start each round, and three times when a Bunco ends the round.'
    """
    if rules.round_end is RoundEnd.HEAD_TABLE:
        side = "team" if team else "player"
        return (
            f"The bell is here. When a {side} here reaches {target}, ring the bell: the "
            "round ends at every table."
        )
    if rules.bunco_ends_round:
        return (
            "The bell is here: ring it to start each round, and three times when a Bunco "
            "ends the round."
        )
    return "The bell is here: ring it to start each round."


def after_bell_text(rules: RuleSet) -> str:
    """What players do when the bell ends the round (the signs say it at every table)."""
    if rules.after_bell is AfterBell.FINISH_TURN:
        return (
            "After the bell, finish your turn: keep rolling until a roll scores nothing, then stop."
        )
    return "At the bell, stop rolling: nobody rolls on."


def tie_broken_text(rules: RuleSet, rule: str) -> str:
    """How a tie at a table was broken, for a filled tally.

    >>> from bunco.core.presets import get_rules
    >>> tie_broken_text(get_rules("wm"), "roll_off_to_five")
    'tie broken by a roll-off to 5'
    """
    return {
        TieBreak.SESSIONS.value: "tie broken by extra turns",
        TieBreak.ROLL_OFF_TO_FIVE.value: f"tie broken by a roll-off to {rules.roll_off_target}",
        TieBreak.SUDDEN_DEATH.value: "tie broken by sudden death",
    }.get(rule, "tie broken by " + rule.replace("_", " "))


def _tie_line(rules: RuleSet) -> str:
    if rules.tie_break is TieBreak.SESSIONS:
        return (
            "A tie at a table: every tied player takes one more turn, the scorekeeper first, "
            "until the tie is broken."
        )
    if rules.tie_break is TieBreak.ROLL_OFF_TO_FIVE:
        return f"A tie at a table: a roll-off until one side scores {rules.roll_off_target}."
    return (
        "A tie at a table: sudden death, keep taking turns; the first roll showing the "
        "round's number wins."
    )


def _traveling_roll(rules: RuleSet) -> str:
    """The roll that passes the traveler, in words ("off" when there is none)."""
    trigger = rules.traveling
    if trigger == "off":
        return "off"
    return {
        "bunco": "a Bunco",
        "mini_bunco": f"a {kind_name(RollKind.MINI_BUNCO, rules)}",
        "any_trips": "any three of a kind",
    }.get(trigger, "-".join(c for c in trigger if c.isdigit()))


def _traveling_line(rules: RuleSet) -> str | None:
    if rules.traveling == "off":
        return None
    line = (
        f"Traveling: whoever rolls {_traveling_roll(rules)} takes the traveler; whoever "
        "holds it at the end wins"
    )
    if rules.traveling_excluded_round:
        line += f" (not in round {rules.traveling_excluded_round})"
    return line + "."


def rule_lines(rules: RuleSet) -> list[str]:
    """The house-rules card: every rule of the night in plain words, in playing order."""
    pass_to = "left (clockwise)" if rules.direction is Direction.LEFT else "right"
    lines = [
        f"Round r (1 to 6): roll three dice; each die showing r scores "
        f"{_points(rules.target_die_points)} and you roll again.",
        f"Three of the round's number is a Bunco: {_points(rules.bunco_points)}, "
        + (
            "and it ends the round at once, at every table."
            if rules.bunco_ends_round
            else f"{_go_on(rules.bunco_continues)}."
        ),
        *_trips_lines(rules),
        f"Anything else ends your turn: pass the dice to the {pass_to}.",
    ]
    if rules.wipeout:
        lines.append(
            "Wipeout: three 1's after round 1 wipe out your side's points for the "
            "round and end the turn."
        )
    lines.append(_target_line(rules))
    if rules.first_roller_single_table is rules.first_roller:
        lines.append(f"{_FIRST[rules.first_roller]}.")
    else:
        single = _FIRST[rules.first_roller_single_table]
        lines.append(
            f"{_FIRST[rules.first_roller]}; at a one-table game: {single[0].lower()}{single[1:]}."
        )
    lines.append(_ROUND_END[rules.round_end])
    if rules.round_minutes:
        lines.append(
            f"Timed rounds: each round has {rules.round_minutes} minutes on the clock; at zero "
            "the bell rings for every table, as the head table's would."
        )
    lines += [_AFTER_BELL[rules.after_bell], _tie_line(rules)]
    lines.append(
        "Everyone at a table writes W (won) or L (lost) for the round; at a table of "
        "four both partners of the winning side get the W. Only the roller marks a "
        f"Bunco or a {rules.mini_label}."
    )
    lines.append(_MOVES[rules.movement] + " Everyone who stays at a table gets a new partner.")
    if rules.no_repeat_partners:
        lines.append("Nobody partners the same person two rounds running.")
    if rules.fill is Fill.GHOSTS:
        lines.append(
            "Empty seats are ghosts: the ghost's partner rolls for both; a ghost's "
            "Buncos count for nobody."
        )
    if rules.set_winner is SetWinner.MOST_WINS:
        lines.append(
            "The set's winner has the most W's; tied, the most Buncos (B's) among "
            f"them; still tied, a roll-off to {rules.roll_off_target} points."
        )
    labels = prize_labels(rules)
    if labels:
        tie = "shared" if rules.prize_ties.value == "shared" else "rolled off"
        lines.append("Prizes: " + ", ".join(labels) + f" (a tie is {tie}).")
    if rules.verify_for_prizes:
        lines.append(
            f"Buncos, {minis_header(rules)} and Wins count for prizes once a checker has "
            "verified your card."
        )
    if rules.breaks_after_rounds:
        lines.append("Breaks after rounds " + ", ".join(map(str, rules.breaks_after_rounds)) + ".")
    travel = _traveling_line(rules)
    if travel:
        lines.append(travel)
    return lines


def summary(rules: RuleSet) -> str:
    """The preset's one-line summary ("" for a custom set)."""
    return SUMMARIES.get(rules.name, "")
