"""What a night's rounds and sets came to: the result values a night records, and the pure
functions that compute them from a table's finished round and the players' cards.

A :class:`~bunco.core.night.Night` keeps one :class:`RoundResult` per round played (each
with a :class:`TableResult` per table and the :class:`RoundEnding` that ended it) and one
:class:`SetResult` per set. Everything here reads values and returns new ones.

>>> from bunco.core.table import Phase, RollRecord
>>> from bunco.core.rules import RollKind
>>> rolls = [RollRecord(0, "Ann", "Ann", (1, 1, 1), 21, RollKind.BUNCO, Phase.PLAY, 0)]
>>> seat_counts(rolls, 0, "Ann")["buncos"]
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NotRequired, TypeAlias

from typing_extensions import TypedDict

from bunco.core.cards import Card
from bunco.core.rules import RollKind
from bunco.core.table import Phase, RollRecord, TableRound

SetSettledBy: TypeAlias = Literal["wins", "buncos", "roll_off", "pending_roll_off"]
"""How a set's winner was decided: most W's, most Buncos among the tied, a roll-off (or one due)."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """How one table's round ended."""

    table: int
    seats: tuple[str | None, ...]
    team: bool
    side_scores: tuple[int, ...]
    seat_points: tuple[int, ...]
    winners: tuple[str | None, ...]
    losers: tuple[str | None, ...]
    winning_seats: frozenset[int]
    tie_break: TieBreakView | None
    clincher: str | None  # the player whose roll won it (for left-of-winner starts)
    rolls: Sequence[RollRecord]  # the round's rolls (an EventSeq shared with the table)

    @property
    def from_paper(self) -> bool:
        """Whether the host entered this table's round from its paper tally (its record
        is the paper's lines, :func:`bunco.core.late_entries.paper_table`)."""
        return any(r.phase is Phase.PAPER for r in self.rolls)


class TieBreakView(TypedDict):
    """How a table's tie was broken: the rule, the tied sides' seats, their points."""

    rule: str
    tied: list[list[int]]
    points: list[int]
    sessions: int


@dataclass(frozen=True, slots=True)
class RoundEnding:
    """The roll that ended a round: where, by whom, with what dice, and why.

    ``why`` is ``"target"`` (the head table, or the only table, reached its target and
    rang the bell), ``"bunco"`` (a Bunco ended the round at every table) or
    ``"last_table"`` (the last table still playing settled: every table plays to its own
    target, or the bell had not rung room-wide) or ``"time"`` (timed rounds: the round's
    clock reached zero and rang the bell; no table and no roll: ``table`` and ``record``
    are ``None``).
    """

    set_no: int
    round_no: int
    table: int | None
    record: RollRecord | None
    why: str

    def as_dict(self) -> RoundEnded:
        """The ending as the night report writes it (no player and no dice for a clock's
        bell)."""
        r = self.record
        s, n, t, why = self.set_no, self.round_no, self.table, self.why
        if r is None:
            return {
                "set": s,
                "round": n,
                "table": t,
                "why": why,
                "player": None,
                "credited": None,
                "dice": None,
                "points": 0,
            }
        return {"set": s, "round": n, "table": t, "why": why, **roll_fields(r)}


class RollFields(TypedDict):
    """A roll as every reply writes it: who rolled, whom it counts for (None: a ghost), the
    dice, the points, the kind of roll and the phase it was rolled in."""

    player: str
    credited: str | None
    dice: list[int]
    points: int
    kind: str
    phase: str


class RoundEnded(TypedDict):
    """How a round ended (:meth:`RoundEnding.as_dict`): where and why, then the roll
    (a clock's bell: no player, no dice, no kind, no phase)."""

    set: int
    round: int
    table: int | None
    why: str
    player: str | None
    credited: str | None
    dice: list[int] | None
    points: int
    kind: NotRequired[str]
    phase: NotRequired[str]


def roll_fields(r: RollRecord) -> RollFields:
    """The fields of roll ``r`` (a round's ending, a command's ``entry``, a table's last roll)."""
    return {
        "player": r.roller,
        "credited": r.credited,
        "dice": list(r.dice),
        "points": r.points,
        "kind": r.kind.value,
        "phase": r.phase.value,
    }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round ended: each table's result and the roll that ended it."""

    set_no: int
    round_no: int
    tables: tuple[TableResult, ...]
    ended_by: RoundEnding | None = None  # the roll that ended the round (None: ended early)


@dataclass(frozen=True, slots=True)
class SetResult:
    """Who won a set, and how: most wins, then most Buncos among the tied, then a roll-off."""

    set_no: int
    winner: str | None
    tied_on_wins: tuple[str, ...]
    tied_on_buncos: tuple[str, ...]
    settled_by: SetSettledBy


def seat_counts(rolls: Sequence[RollRecord], seat: int, name: str) -> dict[str, int]:
    """What ``name`` rolled at ``seat`` in a round's ``rolls``, for the score card.

    ``minis`` counts every three of a kind that is not a Bunco; rolls for high to start
    and rolls for a ghost are nobody's.
    """
    mine = [
        r
        for r in rolls
        if r.seat == seat and r.credited == name and r.phase is not Phase.FIRST_ROLL
    ]
    return {
        "buncos": sum(r.kind is RollKind.BUNCO for r in mine),
        "minis": sum(
            r.kind in (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO) for r in mine
        ),
        "lows": sum(r.kind is RollKind.LOW_BUNCO for r in mine),
        "highs": sum(r.kind is RollKind.HIGH_BUNCO for r in mine),
        "wipeouts": sum(r.kind is RollKind.WIPEOUT for r in mine),
    }


def table_result(table: TableRound) -> TableResult:
    """The result of ``table``'s finished round, with the player whose roll won it."""
    side = table.winning_side
    clincher = None
    if side is not None:
        for record in reversed(table.rolls):
            if table.side_of(record.seat) == side and record.points > 0:
                clincher = record.roller
                break
        if clincher is None:
            clincher = table.roller_name(table.side_seats(side)[0])
    tb = table.tie_break
    return TableResult(
        table=table.number,
        seats=table.seats,
        team=table.team,
        side_scores=table.side_scores,
        seat_points=table.points,
        winners=table.winners,
        losers=table.losers,
        winning_seats=table.winning_seats,
        tie_break=None
        if tb is None
        else {
            "rule": tb.rule.value,
            "tied": [list(table.side_seats(s)) for s in tb.sides],
            "points": [tb.points[s] for s in range(len(tb.points))],
            "sessions": tb.session,
        },
        clincher=clincher,
        rolls=table.rolls,
    )


def set_winner(set_no: int, cards: Mapping[str, Card], players: Sequence[str]) -> SetResult:
    """Set ``set_no``'s winner among ``players`` from their ``cards``: most wins, then most
    Buncos among the tied; a tie on both is ``pending_roll_off``."""
    wins = {p: cards[p].set_wins(set_no) for p in players}
    best = max(wins.values(), default=0)
    top = tuple(p for p in players if wins[p] == best)
    if len(top) == 1:
        return SetResult(set_no, top[0], top, top, "wins")
    buncos = {p: cards[p].buncos_in_set(set_no) for p in top}
    most = max(buncos.values())
    still = tuple(p for p in top if buncos[p] == most)
    if len(still) == 1:
        return SetResult(set_no, still[0], top, still, "buncos")
    return SetResult(set_no, None, top, still, "pending_roll_off")
