"""What each entry a table's phone can send does in a round, as the engine scores it: the
projection a table's page counts its entries not sent yet with (the page holds no game
rules, docs/outbox.md).

Each entry's effect is ``[points, passes, unknown]``: the points the engine's
:func:`~bunco.core.dice.score_checked` gives it in the round's play, ``passes`` 1 when the
roll ends the turn (the dice pass on), and ``unknown`` 1 when the entry does more than
add its points and end or continue the turn, so the page cannot tell what follows it
until the server has it: a Wipeout (the roller's team back to 0), a Bunco that ends the
round at every table (``bunco_ends_round``). Every flag is 0 or 1, so that the 56 sets of
dice stay under a kilobyte.

>>> from bunco.core.presets import get_rules
>>> p = entry_projection(get_rules("winning-moves"), 3, ("miss", "+1", "bunco", "low"))
>>> p["round"], p["taps"], len(p["dice"])
(3, {'miss': [0, 1, 0], '+1': [1, 0, 0], 'bunco': [21, 0, 1], 'low': [7, 0, 0]}, 56)
>>> p["dice"]["1-3-5"], p["dice"]["3-3-4"], p["dice"]["6-6-6"]
([1, 0, 0], [2, 0, 0], [5, 0, 0])
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations_with_replacement

from bunco.core.dice import Dice, RollScore, score_checked, tally_dice
from bunco.core.rules import RollKind, RuleSet
from bunco.party.shapes import EntryProjection

DICE_SETS: tuple[Dice, ...] = tuple(combinations_with_replacement(range(1, 7), 3))
"""Every distinct set of three dice, each sorted: 56 of them."""


def dice_key(dice: Iterable[int]) -> str:
    """The key of a set of dice in the projection: its faces sorted, joined by "-".

    >>> dice_key((4, 1, 1))
    '1-1-4'
    """
    return "-".join(str(face) for face in sorted(dice))


def effect(score: RollScore) -> tuple[int, int, int]:
    """``(points, passes, unknown)`` of a roll the engine scored so (see the module)."""
    unknown = score.kind is RollKind.WIPEOUT or score.ends_round
    return (score.points, int(not score.turn_continues), int(unknown))


def entry_projection(rules: RuleSet, round_no: int, outcomes: Iterable[str]) -> EntryProjection:
    """What each entry does in round ``round_no`` of play under ``rules``: ``round``;
    ``taps``, each tally ``outcome`` of ``outcomes`` (those the table offers this round);
    ``dice``, each set of three dice by :func:`dice_key`. Worked out once per rules, round
    and outcomes; a fresh value each call (the caller may change it)."""
    taps, dice = _projection(rules, round_no, tuple(outcomes))
    return {
        "round": round_no,
        "taps": {outcome: list(e) for outcome, e in taps},
        "dice": {key: list(e) for key, e in dice},
    }


_Effects = tuple[tuple[str, tuple[int, int, int]], ...]


@lru_cache(maxsize=512)
def _projection(
    rules: RuleSet, round_no: int, outcomes: tuple[str, ...]
) -> tuple[_Effects, _Effects]:
    """The effects of :func:`entry_projection`, each the engine's score of its dice."""

    def scored(dice: Dice) -> tuple[int, int, int]:
        return effect(score_checked(dice, round_no, rules))

    taps = tuple((o, scored(tally_dice(o, round_no, rules))) for o in outcomes)
    return taps, tuple((dice_key(d), scored(d)) for d in DICE_SETS)
