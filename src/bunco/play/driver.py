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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bunco.core.dice import Dice
from bunco.core.errors import NotAllowedNow
from bunco.core.events import Event, ScoringEvent, normalize_event
from bunco.core.night import Night, RoundResult
from bunco.core.rules import RollKind, RoundEnd
from bunco.core.seating import Move, describe_moves
from bunco.core.table import Phase, RollRecord
from bunco.core.verification import awaiting_cards

EventSink = Callable[[Event], None]


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
        ended the round for everyone (``winning-moves``)."""
        if self.before.bell:
            return False
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

    @classmethod
    def new(cls, party: Mapping[str, Any], sink: EventSink | None = None) -> Driver:
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
        event: dict[str, Any] = {"type": "roll"}
        if turn.table is not None:
            event["table"] = turn.table
        event.update(dice=list(faces), player=turn.player)
        return self.submit(event)

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

    def submit(self, event: Mapping[str, Any]) -> Step:
        """Apply ``event``: write it to the log, then move on. Refusals leave everything as it was.

        The log gets the event in its canonical form (as the night holds it), and only once
        the night has accepted it; the state moves only after the line is written, so a
        failed write leaves the driver on the night the log describes.
        """
        before = self.night
        normalized = normalize_event(event)
        after = before.apply(normalized)
        if self.sink is not None:
            self.sink(normalized)
        self.night = after
        step = Step(normalized, before, after)
        if step.table is not None:
            self.last_table = step.table
        if len(after.history) != len(before.history):
            self.last_table = 0
            self.verify_at_end()
        return step

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
        turn = driver.next_turn()
        if turn is None:
            return driver.night
        step = driver.roll_for(turn)
        if on_step is not None:
            on_step(step)
