"""The words the live pages show for a night's rules, so the browser holds no game wording
of its own: what each kind of roll is called (a ``scil`` three of a kind is a "Baby
Bunco"), the short and plural names of the preset's three of a kind for column headings,
and a table's tie-break rule in one sentence.

>>> from bunco.core.presets import get_rules
>>> words = night_words(get_rules("scil"))
>>> words["kinds"]["mini_bunco"], words["mini"], words["minis"]
('Baby Bunco', 'Baby', 'Babies')
>>> tie_break_text("roll_off_to_five", 3, 1, 5)
'Roll-off: the first side to 5 points wins.'
"""

from __future__ import annotations

from bunco.core.presets import TITLES
from bunco.core.rules import AfterBell, RollKind, RoundEnd, RuleSet
from bunco.party.shapes import NightWords

KIND_WORDS = {
    RollKind.MISS: "Miss",
    RollKind.BUNCO: "BUNCO!",
    RollKind.LOW_BUNCO: "Low Bunco",
    RollKind.HIGH_BUNCO: "High Bunco",
    RollKind.WIPEOUT: "Wipeout!",
}
"""Names of the kinds of roll every preset shares (a "points" roll is just its points)."""


def plural(label: str) -> str:
    """The plural of a three of a kind's short name, for a column heading.

    >>> plural("Mini Bunco"), plural("Baby Bunco"), plural("Low/High Bunco"), plural("Trips")
    ('Minis', 'Babies', 'Low/Highs', 'Trips')
    """
    short = label.removesuffix(" Bunco")
    if short == label:
        return label
    return f"{short[:-1]}ies" if short.endswith("y") else f"{short}s"


def night_words(rules: RuleSet) -> NightWords:
    """The night's words: ``kinds`` (roll kind → its name; a page adds ``+points`` where
    the kind scores), ``mini`` (the three of a kind's short name: "Mini", "Baby",
    "Low/High"), ``minis`` (its plural) and ``bell`` (what the room does once the bell
    has rung, :func:`bell_text`); ``rules``, the preset's name for the pages ("Classic
    party")."""
    kinds = {kind.value: word for kind, word in KIND_WORDS.items()}
    kinds[RollKind.MINI_BUNCO.value] = rules.mini_label
    return {
        "rules": TITLES.get(rules.name, rules.name),
        "kinds": kinds,
        "mini": rules.mini_label.removesuffix(" Bunco"),
        "minis": plural(rules.mini_label),
        "bell": bell_text(rules),
    }


def bell_text(rules: RuleSet) -> str:
    """What every table does once the bell has rung for the room, as these rules say.

    >>> from bunco.core.presets import get_rules
    >>> bell_text(get_rules("classic"))
    'Players finishing a turn roll on; tied tables then play their tie-break.'
    >>> bell_text(get_rules("scil"))
    'Every table stops now: nobody rolls on; tied tables play their tie-break.'
    >>> bell_text(get_rules("winning-moves"))
    'A Bunco ended the round at every table: nobody rolls on; tied tables play their tie-break.'
    """
    if rules.after_bell is AfterBell.FINISH_TURN:
        return "Players finishing a turn roll on; tied tables then play their tie-break."
    if rules.bunco_ends_round and rules.round_end is RoundEnd.EVERY_TABLE:
        return (
            "A Bunco ended the round at every table: nobody rolls on; tied tables play "
            "their tie-break."
        )
    return "Every table stops now: nobody rolls on; tied tables play their tie-break."


TIE_BREAK_NAMES = {
    "sudden_death": "sudden death",
    "sessions": "roll-off sessions",
    "roll_off_to_five": "a roll-off",
}


def result_text(
    winners: list[str],
    team: bool,
    scores: list[int],
    tie_rule: str | None,
    *,
    now: bool = False,
) -> str:
    """How a table's round was won, in one line: the score, or the tie-break that decided
    a tie (``tie_rule``, the tie-break's rule; never "won 0–0").

    >>> result_text(["Ann", "Cat"], True, [23, 1], None)
    'Ann & Cat won here 23–1'
    >>> result_text(["Bea"], False, [8, 21, 5], None)
    'Bea won here with 21'
    >>> result_text(["Eve", "Gus"], True, [0, 0], "sudden_death")
    'Eve & Gus won here on the tie-break (sudden death) after a 0–0 tie'
    >>> result_text([], True, [3, 3], None)
    'Nobody won here'
    >>> result_text(["Bea"], False, [8, 21, 5], None, now=True)  # the table's phone, round on
    'Bea wins with 21'
    """
    who = " & ".join(winners)
    verb = ("wins" if len(winners) == 1 else "win") if now else "won here"
    if not who:
        return f"Nobody {'wins' if now else 'won here'}"
    if tie_rule is not None:
        how = TIE_BREAK_NAMES.get(tie_rule, "a tie-break")
        level = max(scores) if scores else 0
        tie = f"a {level}–{level} tie" if team else f"a tie at {level}"
        return f"{who} {verb} on the tie-break ({how}) after {tie}"
    if team:
        return f"{who} {verb} {scores[0]}–{scores[1]}"
    return f"{who} {verb} with {max(scores)}"


def tie_why_text(
    rule: str,
    level: int,
    team: bool,
    round_no: int,
    goal: int,
    for_high: bool = False,
) -> str:
    """What the rules do next for a tie at a table when the bell rang (0–0 included), in
    words short enough for the table's phone above its taps: the one place the table's
    phone, the host's cards and the big screen read it from (RULES.md §3, "tie at a
    table"; the tie is broken at the table, before anyone moves).

    >>> tie_why_text("sessions", 0, True, 2, 5)
    'Tied 0–0 at the bell: no winner yet. Each tied player takes one turn here; most points wins (still tied: again).'
    >>> tie_why_text("sudden_death", 7, True, 4, 5)
    'Tied 7–7 at the bell: no winner yet. Keep taking turns here; the first roll showing a 4 wins.'
    >>> tie_why_text("roll_off_to_five", 0, True, 2, 5)
    'Tied 0–0 at the bell: no winner yet. Roll on here; the first side to 5 points wins.'
    >>> tie_why_text("roll_off_to_five", 3, False, 2, 3, for_high=True)
    'Tied at 3 points at the bell: no winner yet. Each tied player rolls once for high here; the highest starts a roll-off to 3.'
    """
    tie = f"Tied {level}–{level}" if team else f"Tied at {level} point{'' if level == 1 else 's'}"
    lead = f"{tie} at the bell: no winner yet. "
    if for_high:  # the tied players roll for who starts the tie-break first
        if rule == "roll_off_to_five":
            then = f"a roll-off to {goal}"
        elif rule == "sudden_death":
            then = f"sudden death (a {round_no} wins)"
        else:
            then = "a round of turns (most points wins)"
        return f"{lead}Each tied player rolls once for high here; the highest starts {then}."
    if rule == "sudden_death":
        return f"{lead}Keep taking turns here; the first roll showing a {round_no} wins."
    if rule == "roll_off_to_five":
        return f"{lead}Roll on here; the first side to {goal} points wins."
    return f"{lead}Each tied player takes one turn here; most points wins (still tied: again)."


def tie_break_text(
    rule: str, round_no: int, session: int, goal: int, for_high: bool = False
) -> str:
    """A table's tie-break rule in one sentence, as the scorekeeper's phone says it
    (``for_high``: the tied players are rolling for who starts it).

    >>> tie_break_text("sudden_death", 4, 1, 5)
    'Sudden death: the first roll showing a 4 wins.'
    >>> tie_break_text("sessions", 2, 3, 5)
    'Roll-off session 3: every tied player takes one turn; most points wins.'
    >>> tie_break_text("roll_off_to_five", 2, 1, 3, for_high=True)
    'Each tied player rolls the three dice once: the highest total starts a roll-off to 3 points.'

    The roll for high says no more of how it is entered: the table's page offers the totals
    3 to 18 to tap with real dice, "Roll for high" when the phones roll (docs/pages.md).
    """
    if for_high:
        return (
            "Each tied player rolls the three dice once: the highest total starts "
            f"a roll-off to {goal} points."
        )
    if rule == "sudden_death":
        return f"Sudden death: the first roll showing a {round_no} wins."
    if rule == "roll_off_to_five":
        return f"Roll-off: the first side to {goal} points wins."
    return f"Roll-off session {session}: every tied player takes one turn; most points wins."
