"""Score cards: what each player writes down over a night.

>>> card = Card().with_round(1, 1, 2, won=True, points=12, buncos=1, lows=0, highs=1, minis=1)
>>> card.wins, card.buncos, card.marks
(1, 1, ((1, 1, 2, 'W'),))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from typing_extensions import TypedDict


class CardMark(TypedDict):
    """One round on a score card: where it was played and whether it was won (W) or lost (L)."""

    set: int
    round: int
    table: int
    result: str


class CardTotals(TypedDict):
    """A score card's figures (:meth:`Card.totals`): what the night's card and the printed
    score card both show."""

    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    low_buncos: int
    high_buncos: int
    wipeouts: int
    points: int


class CardView(CardTotals):
    """A score card as the report and the pages read it (:meth:`Card.as_dict`): its figures
    and its rounds."""

    rounds: list[CardMark]


@dataclass(frozen=True, slots=True)
class Card:
    """One player's score card across the night.

    ``minis`` counts every three of a kind that is not a Bunco (Mini, Baby, Low and High);
    ``lows`` and ``highs`` split it where the rules name them apart.
    """

    marks: tuple[tuple[int, int, int, str], ...] = ()  # (set, round, table, "W"/"L")
    wins: int = 0
    losses: int = 0
    buncos: int = 0
    minis: int = 0
    lows: int = 0
    highs: int = 0
    wipeouts: int = 0
    points: int = 0
    set_buncos: tuple[tuple[int, int], ...] = ()  # (set, buncos rolled in that set)

    def with_round(
        self,
        set_no: int,
        round_no: int,
        table: int,
        *,
        won: bool,
        points: int,
        buncos: int,
        minis: int,
        lows: int,
        highs: int,
        wipeouts: int = 0,
    ) -> Card:
        """The card after one round at one table."""
        counts = dict(self.set_buncos)
        counts[set_no] = counts.get(set_no, 0) + buncos
        return replace(
            self,
            marks=(*self.marks, (set_no, round_no, table, "W" if won else "L")),
            wins=self.wins + won,
            losses=self.losses + (not won),
            buncos=self.buncos + buncos,
            minis=self.minis + minis,
            lows=self.lows + lows,
            highs=self.highs + highs,
            wipeouts=self.wipeouts + wipeouts,
            points=self.points + points,
            set_buncos=tuple(sorted(counts.items())),
        )

    def set_wins(self, set_no: int) -> int:
        return sum(1 for s, _, _, m in self.marks if s == set_no and m == "W")

    def buncos_in_set(self, set_no: int) -> int:
        return dict(self.set_buncos).get(set_no, 0)

    def totals(self) -> CardTotals:
        """The card's figures, by the names the report gives them."""
        return {
            "wins": self.wins,
            "losses": self.losses,
            "buncos": self.buncos,
            "mini_buncos": self.minis,
            "low_buncos": self.lows,
            "high_buncos": self.highs,
            "wipeouts": self.wipeouts,
            "points": self.points,
        }

    def as_dict(self) -> CardView:
        """The card's figures and its rounds (each a :class:`CardMark`)."""
        rounds: list[CardMark] = [
            {"set": s, "round": r, "table": t, "result": m} for s, r, t, m in self.marks
        ]
        return {**self.totals(), "rounds": rounds}
