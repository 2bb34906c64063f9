"""One table in one round: turns, targets, the bell, tie-breaks, W and L.

A :class:`TableRound` is an immutable value. Every method returns a new value; the
night (:mod:`bunco.core.night_rolls`) decides when the bell rings and hands it to the table.

>>> from bunco.core.presets import get_rules
>>> rules = get_rules("classic")
>>> t = TableRound.begin(1, ("Ann", "Bea", "Cat", "Dee"), team=True, target=21, round_no=1,
...                      rules=rules)
>>> t.roller, t.status
('Ann', <Status.PLAYING: 'playing'>)
>>> t = t.roll((1, 1, 4), rules)
>>> t.side_scores, t.roller
((2, 0), 'Ann')
>>> t.roll((2, 3, 4), rules).roller
'Bea'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from bunco.core.dice import Dice, score_checked, score_rolloff
from bunco.core.errors import RoundOver
from bunco.core.event_seq import EventSeq
from bunco.core.evolve import evolve
from bunco.core.rules import Direction, FirstRoller, RollKind, RuleSet, TieBreak

Seat = str | None


class Status(enum.StrEnum):
    """Where a table is in its round."""

    FIRST_ROLL = "first_roll"  # rolling for high to decide who starts
    PLAYING = "playing"
    FINISHING = "finishing"  # the bell has rung; the roller in mid-turn rolls on
    TIE_BREAK = "tie_break"
    DONE = "done"


class Phase(enum.StrEnum):
    """What a recorded roll was for."""

    FIRST_ROLL = "first_roll"
    PLAY = "play"
    AFTER_BELL = "after_bell"
    TIE_BREAK = "tie_break"
    PAPER = "paper"  # a line of the table's paper tally the host entered (core.late_entries)


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One roll made at a table: who rolled, whom it counts for, what it scored."""

    seat: int
    roller: str
    credited: str | None  # None when rolled for a ghost
    dice: Dice
    points: int
    kind: RollKind
    phase: Phase
    turn: int  # turn counter within the round, for the table tally


@dataclass(frozen=True, slots=True)
class TieBreakState:
    """A tie-break in progress: the tied sides, their extra points and the rolling order."""

    rule: TieBreak
    sides: tuple[int, ...]
    points: tuple[int, ...]  # per side of the table (only tied sides change)
    order: tuple[int, ...]  # seats that take turns, in order
    position: int  # index into ``order`` of the seat rolling now
    session: int
    contenders: tuple[int, ...] = ()  # seats still rolling for high total to decide who starts
    high_rolls: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class TableRound:
    """The state of one table during one round."""

    number: int
    seats: tuple[Seat, ...]
    team: bool
    target: int
    round_no: int
    direction: Direction
    points: tuple[int, ...]
    turn: int
    in_turn: bool
    turn_count: int
    status: Status
    contenders: tuple[int, ...] = ()
    first_rolls: tuple[tuple[int, int], ...] = ()
    tie_break: TieBreakState | None = None
    winning_side: int | None = None
    rolls: EventSeq[RollRecord] = field(default_factory=EventSeq.empty)  # shared, append-only

    # -- construction ---------------------------------------------------------------
    @classmethod
    def begin(
        cls,
        number: int,
        seats: tuple[Seat, ...],
        *,
        team: bool,
        target: int,
        round_no: int,
        rules: RuleSet,
        first_roller: FirstRoller = FirstRoller.SCOREKEEPER,
        first_seat: int | None = None,
    ) -> TableRound:
        """A table at the start of a round; ``first_seat`` is used for left-of-winner starts."""
        table = cls(
            number=number,
            seats=seats,
            team=team,
            target=target,
            round_no=round_no,
            direction=rules.direction,
            points=(0,) * len(seats),
            turn=0,
            in_turn=False,
            turn_count=0,
            status=Status.PLAYING,
        )
        if first_roller is FirstRoller.ROLL_FOR_HIGH:
            order = table.turn_order(0, [i for i, s in enumerate(seats) if s is not None])
            return evolve(table, status=Status.FIRST_ROLL, contenders=order, turn=order[0])
        if first_roller is FirstRoller.LEFT_OF_LAST_WINNER and first_seat is not None:
            return evolve(table, turn=first_seat % len(seats))
        return table

    # -- questions --------------------------------------------------------------------
    def side_of(self, seat: int) -> int:
        """Team 0 (seats 1&3) or 1 (seats 2&4) at a team table; the seat itself otherwise."""
        return seat % 2 if self.team else seat

    @property
    def sides(self) -> tuple[int, ...]:
        return (0, 1) if self.team else tuple(range(len(self.seats)))

    def side_seats(self, side: int) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.seats)) if self.side_of(i) == side)

    @property
    def side_scores(self) -> tuple[int, ...]:
        """Points per side this round (tie-break points not included)."""
        p = self.points
        if self.team:
            return (p[0] + p[2], p[1] + p[3])
        return p

    def roller_name(self, seat: int) -> str:
        """Who physically rolls for ``seat``: the player, or a ghost's partner."""
        name = self.seats[seat]
        if name is not None:
            return name
        partner = self.seats[(seat + 2) % len(self.seats)] if self.team else None
        if partner is None:
            raise RoundOver(
                f"table {self.number} seat {seat + 1} has nobody to roll",
                expected="a seated player",
            )
        return partner

    @property
    def roller(self) -> str | None:
        """Who rolls next at this table, or None when the table's round is settled."""
        if self.status is Status.DONE:
            return None
        return self.roller_name(self.turn)

    @property
    def winners(self) -> tuple[Seat, ...]:
        if self.winning_side is None:
            return ()
        return tuple(self.seats[i] for i in self.side_seats(self.winning_side))

    @property
    def losers(self) -> tuple[Seat, ...]:
        if self.winning_side is None:
            return ()
        return tuple(s for i, s in enumerate(self.seats) if self.side_of(i) != self.winning_side)

    @property
    def winning_seats(self) -> frozenset[int]:
        return frozenset(() if self.winning_side is None else self.side_seats(self.winning_side))

    def next_seat(self, seat: int) -> int:
        step = 1 if self.direction is Direction.LEFT else -1
        return (seat + step) % len(self.seats)

    def turn_order(self, start: int, seats: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        """``seats`` in the order the dice travel, starting at ``start`` or the next one after it."""
        order: list[int] = []
        seat = start
        for _ in range(len(self.seats)):
            if seat in seats:
                order.append(seat)
            seat = self.next_seat(seat)
        return tuple(order)

    # -- the bell -------------------------------------------------------------------
    def bell(self, finish_turn: bool, rules: RuleSet) -> TableRound:
        """The round is over here: a roller in mid-turn rolls on if ``finish_turn``, else settle."""
        if self.status is Status.PLAYING and finish_turn and self.in_turn:
            return evolve(self, status=Status.FINISHING)
        if self.status in (Status.PLAYING, Status.FIRST_ROLL):
            return self.settle(rules)
        return self

    def settle(self, rules: RuleSet) -> TableRound:
        """Decide the winner on points, or start the preset's tie-break."""
        scores = self.side_scores
        best = max(scores)
        tied = tuple(s for s in self.sides if scores[s] == best)
        if len(tied) == 1:
            return evolve(self, status=Status.DONE, winning_side=tied[0], in_turn=False)
        tied_seats = [i for i in range(len(self.seats)) if self.side_of(i) in tied]
        contenders: tuple[int, ...] = ()
        if rules.tie_break is TieBreak.SUDDEN_DEATH:
            # "Ties ... are decided by continuing to roll" (004): the rotation goes on.
            order = self.turn_order(self.turn, tied_seats)
        else:
            order = self.turn_order(0, tied_seats)
            if rules.tie_break is TieBreak.ROLL_OFF_TO_FIVE:
                # 000: "each player rolls all three dice. High total will roll first"
                contenders = tuple(i for i in order if self.seats[i] is not None) or order
        state = TieBreakState(
            rule=rules.tie_break,
            sides=tied,
            points=(0,) * len(self.sides),
            order=order,
            position=0,
            session=1,
            contenders=contenders,
        )
        first = contenders[0] if contenders else order[0]
        return evolve(self, status=Status.TIE_BREAK, tie_break=state, turn=first, in_turn=False)

    @property
    def rolling_for_high(self) -> bool:
        """True while players roll for high total (who starts the round or the roll-off)."""
        if self.status is Status.FIRST_ROLL:
            return True
        return (
            self.status is Status.TIE_BREAK
            and self.tie_break is not None
            and bool(self.tie_break.contenders)
        )

    # -- rolling --------------------------------------------------------------------
    def roll(self, dice: Dice, rules: RuleSet) -> TableRound:
        """Apply one roll by whoever's turn it is; raises :class:`RoundOver` if nobody may roll."""
        if self.status is Status.DONE:
            raise RoundOver(
                f"the round is over at table {self.number}",
                expected="no more rolls here until the next round starts",
            )
        if self.status is Status.FIRST_ROLL:
            return self._first_roll(dice)
        if self.status is Status.TIE_BREAK:
            return self._tie_break_roll(dice, rules)
        score = score_checked(dice, self.round_no, rules)
        phase = Phase.PLAY if self.status is Status.PLAYING else Phase.AFTER_BELL
        points = list(self.points)
        if score.kind is RollKind.WIPEOUT:
            for i in self.side_seats(self.side_of(self.turn)):
                points[i] = 0
        else:
            points[self.turn] += score.points
        table = evolve(
            self,
            points=tuple(points),
            rolls=self.rolls.append(self._record(dice, score.points, score.kind, phase)),
        )
        if score.turn_continues:
            return evolve(table, in_turn=True)
        if self.status is Status.FINISHING:
            passed = evolve(
                table, turn=self.next_seat(self.turn), in_turn=False, turn_count=self.turn_count + 1
            )
            return passed.settle(rules)
        return evolve(
            table, turn=self.next_seat(self.turn), in_turn=False, turn_count=self.turn_count + 1
        )

    @property
    def last_roll_reached_target(self) -> bool:
        """True when the last roll brought its side to the target (used for the bell)."""
        if not self.rolls or self.status is not Status.PLAYING:
            return False
        last = self.rolls[-1]
        if last.phase is not Phase.PLAY:
            return False
        return self.side_scores[self.side_of(last.seat)] >= self.target

    def _record(self, dice: Dice, points: int, kind: RollKind, phase: Phase) -> RollRecord:
        return RollRecord(
            seat=self.turn,
            roller=self.roller_name(self.turn),
            credited=self.seats[self.turn],
            dice=dice,
            points=points,
            kind=kind,
            phase=phase,
            turn=self.turn_count,
        )

    def _first_roll(self, dice: Dice) -> TableRound:
        record = self._record(dice, 0, RollKind.MISS, Phase.FIRST_ROLL)
        rolled = (*self.first_rolls, (self.turn, sum(dice)))
        position = self.contenders.index(self.turn) + 1
        if position < len(self.contenders):
            return evolve(
                self,
                first_rolls=rolled,
                turn=self.contenders[position],
                rolls=self.rolls.append(record),
            )
        best = max(total for _, total in rolled)
        top = tuple(seat for seat, total in rolled if total == best)
        if len(top) == 1:
            return evolve(
                self,
                status=Status.PLAYING,
                turn=top[0],
                contenders=(),
                first_rolls=(),
                rolls=self.rolls.append(record),
            )
        return evolve(
            self, contenders=top, first_rolls=(), turn=top[0], rolls=self.rolls.append(record)
        )

    def _tie_break_roll(self, dice: Dice, rules: RuleSet) -> TableRound:
        tb = self.tie_break
        assert tb is not None
        if tb.contenders:
            return self._roll_for_first(tb, dice)
        score = score_rolloff(dice, self.round_no, rules)
        side = self.side_of(self.turn)
        points = list(tb.points)
        if tb.rule is TieBreak.SUDDEN_DEATH:
            return self._sudden_death_roll(tb, dice, score.kind, rules)
        record = self._record(dice, score.points, score.kind, Phase.TIE_BREAK)
        points[side] += score.points
        tb = evolve(tb, points=tuple(points))
        if tb.rule is TieBreak.ROLL_OFF_TO_FIVE and points[side] >= rules.roll_off_target:
            return self._tie_won(tb, side, record)
        if score.turn_continues:
            return evolve(self, tie_break=tb, in_turn=True, rolls=self.rolls.append(record))
        return self._tie_pass(tb, record, rules)

    def _sudden_death_roll(
        self, tb: TieBreakState, dice: Dice, kind: RollKind, rules: RuleSet
    ) -> TableRound:
        """A sudden-death roll (004): "Ties in the round will be decided by continuing to
        roll. The first person to roll the target number wins the Round for their team."

        The round goes on with its own turn rules: a roll that shows the round's number
        wins; a three of a kind of another number is what it is in play (a Mini Bunco,
        credited to its roller) and keeps the turn where the rules say it does ("continues
        their turn", 004); anything else passes the dice on.
        """
        side = self.side_of(self.turn)
        if self.round_no in dice:
            points = list(tb.points)
            points[side] += 1
            record = self._record(dice, 1, kind, Phase.TIE_BREAK)
            return self._tie_won(evolve(tb, points=tuple(points)), side, record)
        played = score_checked(dice, self.round_no, rules)
        if played.kind in (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO):
            record = self._record(dice, 0, played.kind, Phase.TIE_BREAK)
            if played.turn_continues:
                return evolve(self, tie_break=tb, in_turn=True, rolls=self.rolls.append(record))
            return self._tie_pass(tb, record, rules)
        return self._tie_pass(tb, self._record(dice, 0, kind, Phase.TIE_BREAK), rules)

    def _roll_for_first(self, tb: TieBreakState, dice: Dice) -> TableRound:
        """A roll for high total before a roll-off to five; the high roller starts."""
        record = self._record(dice, 0, RollKind.MISS, Phase.FIRST_ROLL)
        rolled = (*tb.high_rolls, (self.turn, sum(dice)))
        rolls = self.rolls.append(record)
        position = tb.contenders.index(self.turn) + 1
        if position < len(tb.contenders):
            tb = evolve(tb, high_rolls=rolled)
            return evolve(self, tie_break=tb, turn=tb.contenders[position], rolls=rolls)
        best = max(total for _, total in rolled)
        top = tuple(seat for seat, total in rolled if total == best)
        if len(top) > 1:
            return evolve(
                self, tie_break=evolve(tb, contenders=top, high_rolls=()), turn=top[0], rolls=rolls
            )
        order = self.turn_order(top[0], list(tb.order))
        tb = evolve(tb, contenders=(), high_rolls=(), order=order, position=0)
        return evolve(self, tie_break=tb, turn=top[0], rolls=rolls)

    def _tie_won(self, tb: TieBreakState, side: int, record: RollRecord) -> TableRound:
        return evolve(
            self,
            tie_break=tb,
            status=Status.DONE,
            winning_side=side,
            in_turn=False,
            rolls=self.rolls.append(record),
        )

    def _tie_pass(self, tb: TieBreakState, record: RollRecord, rules: RuleSet) -> TableRound:
        """The roller's tie-break turn ends: next in order, or the end of a session."""
        position = tb.position + 1
        rolls = self.rolls.append(record)
        if position < len(tb.order):
            return evolve(
                self,
                tie_break=evolve(tb, position=position),
                turn=tb.order[position],
                in_turn=False,
                rolls=rolls,
                turn_count=self.turn_count + 1,
            )
        if tb.rule is TieBreak.SESSIONS:
            best = max(tb.points[s] for s in tb.sides)
            still = tuple(s for s in tb.sides if tb.points[s] == best)
            if len(still) == 1:
                return evolve(
                    self,
                    tie_break=tb,
                    status=Status.DONE,
                    winning_side=still[0],
                    in_turn=False,
                    rolls=rolls,
                )
            seats = [i for i in range(len(self.seats)) if self.side_of(i) in still]
            order = self.turn_order(0, seats)
            tb = evolve(tb, sides=still, order=order, position=0, session=tb.session + 1)
            return evolve(
                self,
                tie_break=tb,
                turn=order[0],
                in_turn=False,
                rolls=rolls,
                turn_count=self.turn_count + 1,
            )
        tb = evolve(tb, position=0, session=tb.session + 1)
        return evolve(
            self,
            tie_break=tb,
            turn=tb.order[0],
            in_turn=False,
            rolls=rolls,
            turn_count=self.turn_count + 1,
        )
