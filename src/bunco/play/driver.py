"""The engine side of ``bunco play``: who rolls next, drawing dice, applying and logging events.

No screen and no keyboard here: :class:`Driver` holds the night, picks the next roller
fairly across tables, draws reproducible dice, applies events and appends each accepted
one to the party log. :func:`play_auto` plays a whole night with bots.

>>> d = Driver.new({"type": "party", "rules": "classic", "players": ["Ann", "Bea"], "seed": 7})
>>> d.next_turn()
Turn(table=1, player='Ann')
>>> step = d.roll_for(d.next_turn())
>>> step.event["player"], len(step.event["dice"])
('Ann', 3)
>>> play_auto(d).phase
'over'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bunco.core.dice import Dice
from bunco.core.errors import BuncoError, NotAllowedNow
from bunco.core.events import Event, RollEvent, ScoringEvent, normalize_event
from bunco.core.night import Night
from bunco.core.round_results import RoundResult
from bunco.core.rules import RollKind, RoundEnd
from bunco.core.seating import Move, describe_moves
from bunco.core.table import Phase, RollRecord
from bunco.core.verification import awaiting_cards

EventSink = Callable[[Event], None]
Clock = Callable[[], datetime]
"""The time for timed rounds (house rule ``round_minutes``): the computer's, or a test's."""


def system_time() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Turn:
    """Who may roll now: a table (None for a roll-off at no table) and a player."""

    table: int | None
    player: str


@dataclass(frozen=True, slots=True)
class Step:
    """What one accepted event did, for the screen to tell."""

    event: Event  # as the log holds it (normalized)
    before: Night
    after: Night

    @property
    def table(self) -> int | None:
        """The table of a roll or tally (None for a roll-off roll and other events)."""
        if self.event["type"] == "roll" or self.event["type"] == "tally":
            return self.event.get("table")
        return None

    @property
    def record(self) -> RollRecord | None:
        """The roll just made at a table (None for roll-offs, undo and other events)."""
        table = self.table
        if table is None:
            return None
        if self.round_ended:
            rolls = self.after.history[-1].tables[table - 1].rolls
        else:
            rolls = self.after.tables[table - 1].rolls
        return rolls[-1] if rolls else None

    @property
    def bell_rang(self) -> bool:
        """The bell rang with this event: the head table reached its target, or a Bunco
        ended the round for everyone (``winning-moves``), or the round's clock reached zero."""
        if self.before.bell:
            return False
        if self.rang_by_clock:
            return True
        if not self.round_ended:
            return self.after.bell
        rec = self.record
        if rec is None or rec.phase is not Phase.PLAY:
            return False
        rules = self.before.rules
        if rec.kind is RollKind.BUNCO and rules.bunco_ends_round:
            return True
        head_rings = self.before.single_table or rules.round_end is RoundEnd.HEAD_TABLE
        return head_rings and self.table == 1

    @property
    def rang_by_clock(self) -> bool:
        """Timed rounds: the round's clock rang the bell with this step (its ``time_up``)."""
        if self.before.bell:
            return False
        if self.round_ended:
            ended = self.after.history[-1].ended_by
            return ended is not None and ended.why == "time"
        return self.after.bell_roll is not None and self.after.bell_roll.why == "time"

    @property
    def round_ended(self) -> bool:
        return len(self.after.history) > len(self.before.history)

    @property
    def finished_round(self) -> RoundResult | None:
        return self.after.history[-1] if self.round_ended else None

    @property
    def moves(self) -> list[Move]:
        """Who moves where for the next round (empty unless a round just ended and one follows)."""
        after = self.after
        if not self.round_ended or after.phase == "over":
            return []
        if after.rolloff_for is not None and (
            after.rolloff_for[0] == "prize" or after.set_no >= after.sets
        ):
            return []
        return describe_moves(self.before.seating, after.seating)


@dataclass
class Driver:
    """A night being played: the state, the dice seed, the bots and where events go."""

    night: Night
    seed: int
    bots: frozenset[str] = frozenset()
    sink: EventSink | None = None
    last_table: int = 0
    clock: Clock = system_time
    rung: Step | None = None  # timed rounds: the clock's bell logged before a refused entry

    @classmethod
    def new(cls, party: object, sink: EventSink | None = None) -> Driver:
        """A driver for a new night; ``party`` should carry ``seed`` and ``bots``."""
        night = Night.start(party)
        return cls.of(night, sink)

    @classmethod
    def of(cls, night: Night, sink: EventSink | None = None) -> Driver:
        """A driver for a night already under way (read from its log)."""
        seed = int(night.setup.get("seed", 0))
        return cls(night, seed, frozenset(night.setup.get("bots", ())), sink)

    # -- who rolls ---------------------------------------------------------------------
    def turns(self) -> list[Turn]:
        """Everyone who may roll now, in table order."""
        return [Turn(t, p) for t, p in self.night.expected_rollers()]

    def next_turn(self) -> Turn | None:
        """The next roll, taking tables round-robin so that every table moves at the same pace."""
        turns = self.turns()
        if not turns:
            return None
        for turn in turns:
            if turn.table is None or turn.table > self.last_table:
                return turn
        return turns[0]

    def is_bot(self, player: str) -> bool:
        return player in self.bots

    # -- dice and events ---------------------------------------------------------------------
    def draw(self) -> Dice:
        """Three faces, the same for the same seed and the same point of the night.

        >>> a = Driver.new({"type": "party", "players": ["A", "B"], "seed": 3})
        >>> a.draw() == Driver.new({"type": "party", "players": ["A", "B"], "seed": 3}).draw()
        True
        """
        rng = random.Random(f"{self.seed}/{len(self.night.events)}")
        return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))

    def roll_for(self, turn: Turn | None, dice: Dice | None = None) -> Step:
        """Roll for ``turn``: ``dice`` as given (physical) or drawn."""
        if turn is None:
            raise NotAllowedNow("nobody may roll now", expected="a new night")
        faces = dice if dice is not None else self.draw()
        event: RollEvent
        if turn.table is None:
            event = {"type": "roll", "dice": list(faces), "player": turn.player}
        else:
            event = {
                "type": "roll",
                "table": turn.table,
                "dice": list(faces),
                "player": turn.player,
            }
        return self.submit(event)

    def roll_for_in_time(self, turn: Turn) -> Step | None:
        """A bot's roll for ``turn``; ``None`` when the round's clock rang its bell first
        and the bell left ``turn`` no roll (the bell is logged, its step in :attr:`rung`;
        ask :meth:`next_turn` again)."""
        events = len(self.night.events)
        try:
            return self.roll_for(turn)
        except BuncoError:
            if len(self.night.events) > events:  # the clock's bell went in before it
                return None
            raise

    def tally_for(self, turn: Turn, outcome: str) -> Step:
        """A quick-tally outcome for ``turn``: at a table, or in a roll-off once its order
        is settled (the engine refuses a tally where the faces' total decides)."""
        if turn.table is None:
            return self.submit({"type": "tally", "outcome": outcome, "player": turn.player})
        return self.submit(
            {"type": "tally", "table": turn.table, "outcome": outcome, "player": turn.player}
        )

    def last_entry(self) -> ScoringEvent | None:
        """The last roll or tally that stands (at a table or in a roll-off), if any."""
        effective = self.night.effective
        for index in range(len(effective) - 1, -1, -1):
            event = effective[index]
            if event["type"] == "roll" or event["type"] == "tally":
                return event
        return None

    def last_entry_table(self) -> int | None:
        """The table of the last roll or tally that stands (None: none, or a roll-off roll)."""
        event = self.last_entry()
        table = None if event is None else event.get("table")
        return table if isinstance(table, int) else None

    def undo_last(self) -> Step:
        """Undo the last roll or tally that stands (physical dice); the engine may refuse."""
        table = self.last_entry_table()
        if table is None:
            raise NotAllowedNow(
                "there is no entry at a table to undo",
                expected="undo right after entering dice at a table (roll-off rolls stand)",
            )
        return self.submit({"type": "undo", "table": table})

    def submit(self, event: object) -> Step:
        """Apply ``event``: write it to the log, then move on. Refusals leave everything as it was.

        The log gets the event in its canonical form (as the night holds it), and only once
        the night has accepted it; the state moves only after the line is written, so a
        failed write leaves the driver on the night the log describes.
        """
        before = self.night
        normalized = normalize_event(event)
        timed = self._clock_events(normalized)
        night = before.apply_all(timed)
        try:
            after = night.apply(normalized)
        except BuncoError:
            if timed and timed[0]["type"] == "time_up":  # the bell rang all the same
                self._log(timed[:1])
                self.night = before.apply(timed[0])
                self.rung = Step(timed[0], before, self.night)
            raise
        self._log([*timed, normalized])
        self.night = after
        step = Step(normalized, before, after)
        if step.table is not None:
            self.last_table = step.table
        if len(after.history) != len(before.history):
            self.last_table = 0
            self.verify_at_end()
        return step

    def _log(self, events: list[Event]) -> None:
        if self.sink is not None:
            for event in events:
                self.sink(event)

    def _clock_events(self, event: Event) -> list[Event]:
        """Timed rounds, on :attr:`clock`: the round's bell (``time_up``) once its clock
        has reached zero, then the clock's start (``start_round`` with the time) before
        the round's first entry at a table (logged only if the entry is accepted)."""
        night = self.night
        if not night.rules.round_minutes or night.phase != "playing" or event["type"] == "time_up":
            return []
        now = self.clock()
        clock = night.clock
        if clock is not None and not night.bell and clock.due(now):
            return [
                normalize_event({"type": "time_up", "set": night.set_no, "round": night.round_no})
            ]
        entry = event["type"] in ("roll", "tally") and event.get("table") is not None
        if entry and not night.started:
            return [normalize_event({"type": "start_round", "clock": now.isoformat()})]
        return []

    def ring_if_due(self) -> Step | None:
        """Timed rounds: ring the round's bell now if its clock has reached zero (between
        two entries: nobody has to enter a roll for the bell to ring)."""
        night = self.night
        clock = night.clock
        if clock is None or night.bell or night.phase != "playing" or not clock.due(self.clock()):
            return None
        return self.submit({"type": "time_up", "set": night.set_no, "round": night.round_no})

    def verify_at_end(self) -> None:
        """With ``verify_for_prizes``, the staff verify every card after the last round, as
        seeds/004 does (the program kept the cards, so they stand as they are): then the
        prizes and their roll-offs follow."""
        for player in awaiting_cards(self.night):
            group = next((g for g, members in self.night.groups.items() if player in members), None)
            self.submit(
                {
                    "type": "verify",
                    "player": player,
                    "checker": f"{group} staff" if group else "staff",
                }
            )


def play_auto(driver: Driver, on_step: Callable[[Step], None] | None = None) -> Night:
    """Roll for everyone until the night is over; returns the final night."""
    while True:
        rung = driver.ring_if_due()  # timed rounds: the clock's bell between two rolls
        if rung is not None and on_step is not None:
            on_step(rung)
        turn = driver.next_turn()
        if turn is None:
            return driver.night
        step = driver.roll_for_in_time(turn)
        if step is None:
            continue  # the round's clock rang first: the turns are not what they were
        if on_step is not None:
            on_step(step)
