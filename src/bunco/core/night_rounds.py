"""The round's flow: a round begins (its tables and first rollers), starts at the head
table's bell or a table's confirmed seating, rings its clock's bell, ends (the cards, the
next seating), and after six rounds the set ends (its winner, or a roll-off due).

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`end_round` is ``Night._end_round``),
so they take the night as ``self`` and return a new one.

>>> from bunco.core.night import Night
>>> night = Night.start({"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "start_round"})
>>> night.started, night.round_no
(True, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bunco.core.errors import NotAllowedNow, WrongTable
from bunco.core.events import SeatedEvent
from bunco.core.evolve import evolve
from bunco.core.rolloff import RollOff
from bunco.core.round_clock import RoundClock, TimeUpEvent
from bunco.core.round_results import RoundEnding, RoundResult, seat_counts, set_winner, table_result
from bunco.core.rules import AfterBell, FirstRoller, RuleSet, SetWinner
from bunco.core.seating import Tables, is_team_table, next_seating
from bunco.core.seating_confirm import needs_seating
from bunco.core.table import Status, TableRound

if TYPE_CHECKING:
    from bunco.core.night import Night


def begin_round(self: Night, seating: Tables, previous: RoundResult | None) -> Night:
    """The round begins with ``seating``: fresh tables, their targets and first rollers
    (left of the player who won there in ``previous``, where the rules say so), no bell."""
    rules = self.rules
    n = len(seating)
    first_rule = rules.first_roller_single_table if n == 1 else rules.first_roller
    tables = []
    for number, seats in enumerate(seating, start=1):
        team = is_team_table(len(seats), n, rules)
        first_seat = None
        if first_rule is FirstRoller.LEFT_OF_LAST_WINNER and previous is not None:
            first_seat = _left_of_winner(previous, number, seats, rules)
        tables.append(
            TableRound.begin(
                number,
                seats,
                team=team,
                target=rules.target(team=team, single_table=n == 1),
                round_no=self.round_no,
                rules=rules,
                first_roller=first_rule,
                first_seat=first_seat,
            )
        )
    return evolve(
        self,
        seating=seating,
        tables=tuple(tables),
        bell=False,
        bell_roll=None,
        started=False,
        clock=None,
        bell_at=None,
        awaited={},
        decided=frozenset(),
        rung_in=False,
        seated_tables=frozenset(),
        unseated=frozenset(),
    )


def new_period(self: Night) -> Night:
    """Mark that a new round or roll-off begins with the event being applied."""
    return evolve(self, round_start=None, prev_start=self.round_start)


def end_round(self: Night) -> Night:
    """The round ends: each table's result and the cards recorded, the next seating
    made; the next round begins, or after round 6 the set ends."""
    results = tuple(table_result(t) for t in self.tables)
    cards = dict(self.cards)
    for res in results:
        for seat, name in enumerate(res.seats):
            if name is None:
                continue
            cards[name] = cards[name].with_round(
                self.set_no,
                self.round_no,
                res.table,
                won=seat in res.winning_seats,
                points=res.seat_points[seat],
                **seat_counts(res.rolls, seat, name),
            )
    result = RoundResult(self.set_no, self.round_no, results, self.bell_roll)
    night = evolve(self, history=(*self.history, result), cards=cards)._new_period()
    upcoming = next_seating(self.seating, [r.winning_seats for r in results], self.rules)
    if self.round_no < 6:
        return evolve(night, round_no=self.round_no + 1)._begin_round(upcoming, result)
    return night._end_set(upcoming, result)


def end_set(self: Night, upcoming: Tables, last: RoundResult) -> Night:
    """The set ends, ``upcoming`` the next seating: its winner decided (a roll-off begins
    on a tie), then the next set or the night's end."""
    night = evolve(self, seating=upcoming, tables=(), bell=False, bell_roll=None, clock=None)
    if self.rules.set_winner is SetWinner.MOST_WINS:
        outcome = set_winner(self.set_no, self.cards, self.seated_in_set(self.set_no))
        night = evolve(night, set_results=(*night.set_results, outcome))
        if outcome.winner is None:
            rolloff = RollOff.begin(
                f"set {self.set_no} winner",
                outcome.tied_on_buncos,
                round_no=self.round_no,  # 000: the round just completed (6, or earlier after end_night)
                goal=self.rules.roll_off_target,
            )
            return evolve(night, phase="rolloff", rolloff=rolloff, rolloff_for=("set", self.set_no))
    return night._after_set(last)


def after_set(self: Night, last: RoundResult) -> Night:
    """After a set (and its roll-off): the next set begins, or the night ends."""
    if self.set_no < self.sets:
        night = evolve(self, set_no=self.set_no + 1, round_no=1, phase="playing")
        return night._begin_round(self.seating, last)
    return self._end_night()


def start_round(self: Night, clock: str | None = None) -> Night:
    """The head table rings the bell to start the round (000, 001, 003, 004).

    It begins the round at every table (:mod:`bunco.core.seating_confirm`); a round
    also starts with its first roll (the server takes one, from the night's second
    round on, only where the round has begun). Once started, the changes of
    between rounds (substitutes, joins, leaves, seating, ending the night) wait for
    the round's end, and the round before can no longer be undone. With timed rounds
    (``round_minutes``), ``clock`` is when the round's clock started.
    """
    if self.phase != "playing":
        doing = "a roll-off is under way" if self.phase == "rolloff" else "the night is over"
        raise NotAllowedNow(
            f"there is no round to start: {doing}",
            expected="start_round between rounds, before the round's first roll",
        )
    if self.started:
        raise NotAllowedNow(
            f"round {self.round_no} has already started",
            expected="the round's rolls; start_round only before its first roll",
        )
    if clock is None:
        return evolve(self, started=True, rung_in=True)
    if not self.rules.round_minutes:
        raise NotAllowedNow(
            "tonight's rounds are not timed, so a round has no clock to start",
            expected="start_round without a clock, or the house rule round_minutes",
        )
    timed = RoundClock(self.set_no, self.round_no, clock, self.rules.round_minutes)
    return evolve(self, started=True, rung_in=True, clock=timed)


def seated(self: Night, ev: SeatedEvent) -> Night:
    """A table confirms its new seating: the round begins there
    (:mod:`bunco.core.seating_confirm`)."""
    table = ev["table"]
    if self.phase != "playing":
        doing = "a roll-off is under way" if self.phase == "rolloff" else "the night is over"
        raise NotAllowedNow(
            f"there is no new seating to confirm: {doing}",
            expected="seated between rounds, once the players moved",
        )
    if not 1 <= table <= len(self.tables):
        raise WrongTable(
            f"there is no table {table}",
            expected=f"a table number from 1 to {len(self.tables)}",
        )
    if not needs_seating(self):
        why = (
            "the round has begun at every table (the head table's bell)"
            if self.rung_in
            else "nobody moves before this round"
        )
        raise NotAllowedNow(
            f"table {table} has no new seating to confirm: {why}",
            expected="seated between rounds of a party of more than one table, after its "
            "first round and before the head table's bell",
        )
    if self.begun_at(table):
        raise NotAllowedNow(
            f"round {self.round_no} has already begun at table {table}",
            expected="the round's rolls there",
        )
    return evolve(
        self, seated_tables=self.seated_tables | {table}, unseated=self.unseated - {table}
    )


def time_up(self: Night, ev: TimeUpEvent) -> Night:
    """Timed rounds: the round's clock reached zero and its bell rings for the room, as
    the head table's would. After it, play goes on as after any bell (``after_bell``),
    then each table settles on points, a tie by the rules' tie-break (the head table
    too: with a clock it can tie)."""
    named = f"round {ev['round']}" + (f" of set {ev['set']}" if self.sets > 1 else "")
    clock = self.clock
    if self.phase != "playing" or (ev["set"], ev["round"]) != (self.set_no, self.round_no):
        now = f"round {self.round_no}" if self.phase == "playing" else f"the {self.phase}"
        raise NotAllowedNow(
            f"the clock of {named} cannot ring: that round is not in play ({now} is)",
            expected="time_up for the round in play, once its clock reached zero",
        )
    if clock is None:
        raise NotAllowedNow(
            f"{named} has no clock running",
            expected="time_up only in a timed round, after its start_round with a clock",
        )
    if self.bell or clock.rung:
        raise NotAllowedNow(
            f"the bell has already rung in {named}",
            expected="no second bell; the tables finish the round",
        )
    night = self._ring_all(self.rules.after_bell is AfterBell.FINISH_TURN)
    ending = RoundEnding(self.set_no, self.round_no, None, None, "time")
    night = evolve(
        night, clock=evolve(clock, rung=True), bell_roll=ending, bell_at=len(self.effective)
    )
    if all(t.status is Status.DONE for t in night.tables) and not night.awaited:
        return night if night.holding else night._end_round()
    return night


def _left_of_winner(
    previous: RoundResult, number: int, seats: tuple[str | None, ...], rules: RuleSet
) -> int | None:
    """The seat left (or right, by the rules' direction) of the player whose roll won
    table ``number`` in the ``previous`` round, if that player sits at it now."""
    if number > len(previous.tables):
        return None
    clincher = previous.tables[number - 1].clincher
    if clincher is None or clincher not in seats:
        return None
    step = 1 if rules.direction.value == "left" else -1
    return (seats.index(clincher) + step) % len(seats)
