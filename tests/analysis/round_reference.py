"""The slow reference: the same rounds as the round kernel (``round_kernel``), one roll at a time.

It scores every roll with :func:`bunco.core.dice.score_roll` on the three faces and keeps
the table as plain Python objects, so that it reads like the rules. Tests feed it the same
dice streams as the kernel and compare every result; the benchmark times it.

>>> from bunco.core.presets import get_rules
>>> rules = get_rules("classic", {"team_target": 2})
>>> head = [(1, 1, 3), (2, 2, 2), (1, 4, 5), (2, 3, 4)]
>>> reference_rounds(rules, 1, head)[0]
ReferenceRound(winner=0, rolls=4, bell_roll=1, bunco_end=False, scores=(8, 0), other_scores=None)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from bunco.core.dice import RollScore, score_roll
from bunco.core.rules import AfterBell, RollKind, RuleSet


@dataclass(frozen=True, slots=True)
class ReferenceRound:
    """A round's result, as :class:`round_kernel.RoundResults` holds it per entry
    (``winner`` -1: tied on points, a tie-break follows)."""

    winner: int
    rolls: int
    bell_roll: int
    bunco_end: bool
    scores: tuple[int, int]
    other_scores: tuple[int, int] | None


@dataclass
class _Table:
    """A table of two teams; ``roller`` is the team holding the dice."""

    scores: list[int] = field(default_factory=lambda: [0, 0])
    roller: int = 0
    mid_turn: bool = False

    def roll(self, score: RollScore) -> None:
        """Add a roll's points to the roller's team (a wipeout zeroes them)."""
        if score.kind is RollKind.WIPEOUT:
            self.scores[self.roller] = 0
        else:
            self.scores[self.roller] += score.points

    def pass_dice(self, score: RollScore) -> None:
        self.mid_turn = score.turn_continues
        if not self.mid_turn:
            self.roller = 1 - self.roller


class StreamEnded(Exception):
    """A dice stream ran out in the middle of a round."""


def _next(stream: Iterator[Sequence[int]]) -> Sequence[int]:
    try:
        return next(stream)
    except StopIteration:
        raise StreamEnded from None


def reference_rounds(
    rules: RuleSet,
    round_no: int,
    head: Sequence[Sequence[int]],
    other: Sequence[Sequence[int]] | None = None,
    *,
    target: int | None = None,
) -> list[ReferenceRound]:
    """Play rounds from dice streams (lists of three faces) until a stream runs out.

    ``target`` defaults to ``rules.target(team=True, single_table=False)``.
    """
    goal = rules.target(team=True, single_table=False) if target is None else target
    finish = rules.after_bell is AfterBell.FINISH_TURN
    heads = iter(head)
    others = iter(other) if other is not None else None
    results: list[ReferenceRound] = []
    while True:
        try:
            results.append(_one_round(rules, round_no, goal, finish, heads, others))
        except StreamEnded:
            return results


def _one_round(
    rules: RuleSet,
    round_no: int,
    goal: int,
    finish: bool,
    heads: Iterator[Sequence[int]],
    others: Iterator[Sequence[int]] | None,
) -> ReferenceRound:
    table = _Table()
    side = _Table() if others is not None else None
    rolls = 0
    while True:
        if side is not None and others is not None:
            other_score = score_roll(_next(others), round_no, rules)
            side.roll(other_score)
            side.pass_dice(other_score)
        score = score_roll(_next(heads), round_no, rules)
        rolls += 1
        table.roll(score)
        if score.ends_round or table.scores[table.roller] >= goal:
            break
        table.pass_dice(score)
    bell_roll, bunco_end = rolls, score.kind is RollKind.BUNCO
    # after the bell a roller in mid-turn rolls on while the rolls continue the turn
    keep_on = finish and score.turn_continues
    while keep_on:
        score = score_roll(_next(heads), round_no, rules)
        rolls += 1
        table.roll(score)
        keep_on = score.turn_continues
    if side is not None and others is not None:
        keep_on = finish and side.mid_turn
        while keep_on:
            other_score = score_roll(_next(others), round_no, rules)
            side.roll(other_score)
            keep_on = other_score.turn_continues
    first, second = table.scores
    winner = 0 if first > second else 1 if second > first else -1
    return ReferenceRound(
        winner=winner,
        rolls=rolls,
        bell_roll=bell_roll,
        bunco_end=bunco_end,
        scores=(table.scores[0], table.scores[1]),
        other_scores=None if side is None else (side.scores[0], side.scores[1]),
    )
