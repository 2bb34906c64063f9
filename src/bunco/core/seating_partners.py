"""The partner rule on a host's seating: nobody on the same team two rounds in a row.

Part of :mod:`bunco.core.seating`. The engine's own moves keep ``no_repeat_partners``
(``scil``, seeds/003: "You may not be on the same team with someone two rounds in a
row"); a ``seat`` event, where the host seats everyone by hand, is checked here against
the round just played. A seating that puts a partnership back together is refused with
the rule named, unless the event says it overrides the rule
(``"overrides": ["no_repeat_partners"]``); the night then records which partnerships
were kept, so the cards and the replay show it.

>>> from bunco.core.presets import get_rules
>>> last = ((("A", "B", "C", "D"), True),)
>>> repeated_partners(last, (("A", "D", "C", "B"),), get_rules("scil"))
[('A', 'C'), ('D', 'B')]
>>> repeated_partners(last, (("A", "B", "D", "C"),), get_rules("scil"))
[]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from typing_extensions import TypedDict

from bunco.core.errors import InvalidSetup
from bunco.core.rules import RuleSet
from bunco.core.seating_layout import Seat, Tables, is_team_table, partner_seat

PARTNER_RULE = "no_repeat_partners"
"""The rule a host's seating may override, by this name in the event's ``overrides``."""

OVERRIDABLE = (PARTNER_RULE,)
"""Every rule name a ``seat`` event's ``overrides`` may list."""

RULE_WORDS = "nobody may be on the same team with someone two rounds in a row"


def _pairs(seats: Sequence[Seat]) -> list[tuple[str, str]]:
    """The two partnerships of a team table of four (ghosts are nobody's partner)."""
    out: list[tuple[str, str]] = []
    for s in (0, 1):
        a, b = seats[s], seats[partner_seat(s)]
        if a is not None and b is not None:
            out.append((a, b))
    return out


def repeated_partners(
    last_round: Sequence[tuple[Sequence[Seat], bool]], seating: Tables, rules: RuleSet
) -> list[tuple[str, str]]:
    """The partnerships of ``seating`` that were partnerships in ``last_round`` too.

    ``last_round`` holds each table of the round just played as (seats, played in
    teams). Pairs come in the order of the new seating, each as it sits (scorekeeper's
    side first). Only real people count: a ghost partners nobody.
    """
    before = {frozenset(pair) for seats, team in last_round if team for pair in _pairs(seats)}
    return [
        pair
        for table in seating
        if is_team_table(len(table), len(seating), rules)
        for pair in _pairs(table)
        if frozenset(pair) in before
    ]


class PartnerRuleBroken(InvalidSetup):
    """A host's seating that keeps partners together against ``no_repeat_partners``
    without overriding the rule (the API's ``partner_rule``: the host page offers to seat
    them so anyway)."""

    code = "partner_rule"


def check_partner_rule(
    last_round: Sequence[tuple[Sequence[Seat], bool]],
    seating: Tables,
    rules: RuleSet,
    overrides: Collection[str],
    *,
    preset: str,
    when: str,
) -> list[tuple[str, str]]:
    """The partnerships a host's seating keeps from ``last_round`` against the rule.

    Empty when the rules do not have ``no_repeat_partners`` or nobody is paired again.
    When somebody is and ``overrides`` does not name the rule, raises
    :class:`InvalidSetup` naming the pairs, the rule, and how to override it.
    ``when`` names the round just played ("set 1, round 2") for the message.
    """
    if not rules.no_repeat_partners:
        return []
    pairs = repeated_partners(last_round, seating, rules)
    if pairs and PARTNER_RULE not in overrides:
        shown = "; ".join(f"{a} & {b}" for a, b in pairs[:6]) + ("; …" if len(pairs) > 6 else "")
        raise PartnerRuleBroken(
            f"this seating keeps partners of {when} together ({shown}), and {preset} has the "
            f"rule {PARTNER_RULE}: {RULE_WORDS}",
            expected=(
                "new partners for everyone, or the seat event with "
                f'"overrides": ["{PARTNER_RULE}"] to seat them so anyway'
            ),
        )
    return pairs


NightChange = TypedDict(  # functional form: ``in`` is a Python keyword
    "NightChange",
    {
        "out": str,
        "in": str,
        "player": str,
        "tables": list[list[str | None]],
        "overrides": list[str],
        "partners_kept": list[list[str]],
        "type": str,
        "set": int,
        "round": int,
    },
    total=False,
)
"""A change between rounds as a night records it (``Night.changes``): the event's fields
(``out`` and ``in``, ``player``, ``tables`` and ``overrides``), the partnerships a host's
seating kept on purpose, then its ``type`` and the ``set`` and ``round`` it came before."""


def partners_kept(
    changes: Sequence[NightChange],
) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """(set, round) → the partnerships a host's seating kept together for that round,
    overriding the partner rule (from a night's ``changes``; the last seating stands).

    >>> partners_kept([{"type": "seat", "set": 1, "round": 2, "partners_kept": [["A", "C"]]}])
    {(1, 2): [('A', 'C')]}
    """
    out: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for change in changes:
        if change.get("type") != "seat":
            continue
        when = (change["set"], change["round"])
        pairs = change.get("partners_kept")
        if isinstance(pairs, list) and pairs:
            out[when] = [(str(a), str(b)) for a, b in pairs]
        else:
            out.pop(when, None)  # a later seating of the same gap replaces it
    return out


def kept_words(pairs: Sequence[tuple[str, str]]) -> str:
    """``Ann & Cat, Bea & Dee kept as partners by the host (overriding no_repeat_partners)``."""
    return (
        ", ".join(f"{a} & {b}" for a, b in pairs)
        + f" kept as partners by the host (overriding {PARTNER_RULE})"
    )
