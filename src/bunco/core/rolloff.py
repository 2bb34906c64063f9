"""A roll-off between players at no table: for a set winner or a tied prize.

000: "each player rolls all three dice. High total will roll first (but does not score
for this roll)", then they take turns rolling for the number of the round just
completed (Buncos count too, other three of a kinds do not); the first to 5 points wins. Ties for the high total
re-roll among themselves; after the first roller the others follow in the order given.

>>> from bunco.core.presets import get_rules
>>> r = RollOff.begin("set 1 winner", ("Ann", "Bea"), round_no=6, goal=5)
>>> r = r.roll((6, 6, 1), get_rules("wm")).roll((2, 2, 1), get_rules("wm"))
>>> r.order, r.roller
(('Ann', 'Bea'), 'Ann')
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import TypedDict

from bunco.core.dice import Dice, score_rolloff
from bunco.core.evolve import evolve
from bunco.core.rules import RollKind, RuleSet


class RollOffView(TypedDict):
    """A roll-off as the pages read it (:meth:`RollOff.as_dict`)."""

    purpose: str
    players: list[str]
    round: int
    goal: int
    rolling_for_order: bool
    order: list[str]
    points: dict[str, int]  # player → points so far, in rolling order
    roller: str | None
    winner: str | None


@dataclass(frozen=True, slots=True)
class RollOff:
    """The state of one roll-off."""

    purpose: str
    players: tuple[str, ...]
    round_no: int
    goal: int
    contenders: tuple[str, ...]  # still rolling for the high total; empty once the order is set
    totals: tuple[tuple[str, int], ...]
    order: tuple[str, ...]
    position: int
    points: tuple[int, ...]  # per player in ``order``
    winner: str | None = None
    rolls: tuple[tuple[str, Dice, int, RollKind], ...] = ()

    @classmethod
    def begin(cls, purpose: str, players: tuple[str, ...], *, round_no: int, goal: int) -> RollOff:
        return cls(
            purpose=purpose,
            players=players,
            round_no=round_no,
            goal=goal,
            contenders=players,
            totals=(),
            order=(),
            position=0,
            points=(),
        )

    @property
    def ordering(self) -> bool:
        """True while the players still roll for high total to decide who goes first."""
        return bool(self.contenders)

    @property
    def roller(self) -> str | None:
        if self.winner is not None:
            return None
        if self.ordering:
            return self.contenders[len(self.totals)]
        return self.order[self.position]

    def roll(self, dice: Dice, rules: RuleSet) -> RollOff:
        """Apply a roll by :attr:`roller`."""
        roller = self.roller
        assert roller is not None
        if self.ordering:
            totals = (*self.totals, (roller, sum(dice)))
            rolls = (*self.rolls, (roller, dice, 0, RollKind.MISS))
            if len(totals) < len(self.contenders):
                return evolve(self, totals=totals, rolls=rolls)
            best = max(t for _, t in totals)
            top = tuple(p for p, t in totals if t == best)
            if len(top) > 1:
                return evolve(self, contenders=top, totals=(), rolls=rolls)
            first = self.players.index(top[0])
            order = self.players[first:] + self.players[:first]
            return evolve(
                self,
                contenders=(),
                totals=(),
                order=order,
                position=0,
                points=(0,) * len(order),
                rolls=rolls,
            )
        score = score_rolloff(dice, self.round_no, rules)
        points = list(self.points)
        points[self.position] += score.points
        rolls = (*self.rolls, (roller, dice, score.points, score.kind))
        if points[self.position] >= self.goal:
            return evolve(self, points=tuple(points), winner=roller, rolls=rolls)
        position = self.position if score.turn_continues else (self.position + 1) % len(self.order)
        return evolve(self, points=tuple(points), position=position, rolls=rolls)

    def as_dict(self) -> RollOffView:
        return {
            "purpose": self.purpose,
            "players": list(self.players),
            "round": self.round_no,
            "goal": self.goal,
            "rolling_for_order": self.ordering,
            "order": list(self.order),
            "points": dict(zip(self.order, self.points, strict=True)),
            "roller": self.roller,
            "winner": self.winner,
        }
