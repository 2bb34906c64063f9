"""The night: a pure fold of party-log events into the state of a whole Bunco night.

One table or two hundred and fifty, one set or four: the same value. ``apply`` checks an
event against the state and returns a new night, or raises a typed
:class:`~bunco.core.errors.BuncoError` and changes nothing.

>>> night = Night.start({"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> night.tables[0].side_scores, night.tables[0].roller
((2, 0), 'Ann')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from bunco.core import (
    night_changes,
    night_corrections,
    night_late_entries,
    night_prizes,
    night_rolls,
    night_rounds,
    night_undo,
)
from bunco.core import setup as setup_mod
from bunco.core.cards import Card
from bunco.core.corrections import Correction
from bunco.core.event_seq import EventSeq
from bunco.core.events import Event, StandingEvent, normalize_event
from bunco.core.evolve import evolve
from bunco.core.hosting import HostState, apply_host_event
from bunco.core.party_setup import PartySetup
from bunco.core.prizes import PrizeResult
from bunco.core.rolloff import RollOff
from bunco.core.round_clock import RoundClock
from bunco.core.round_results import RoundEnding, RoundResult, SetResult
from bunco.core.rules import RuleSet
from bunco.core.seating import Tables
from bunco.core.seating_confirm import needs_seating
from bunco.core.seating_partners import NightChange
from bunco.core.table import TableRound
from bunco.core.verification import Verification

NightPhase: TypeAlias = Literal["playing", "rolloff", "over"]
"""Where a night is: rounds being played (or between rounds), a roll-off due, or over."""

RolloffFor: TypeAlias = tuple[Literal["set", "prize"], int]
"""What a roll-off under way decides: ``("set", set_no)`` or ``("prize", index in prizes)``."""

CHECKPOINT_EVERY = 32
"""Standing events of a round between two of its checkpoints: an undo folds again at most
this many events (and those after its entry), however long the round."""
CHECKPOINTS_KEPT = 64
"""Checkpoints kept (the newest): they reach 2,048 standing events back, past the last entry
of every table of a 250-table room; an undo of an older entry folds the round again from
its start. A checkpoint may hold its own copy of the round's lists (after an undo), so
their number bounds what they cost in memory."""


@dataclass(frozen=True, slots=True)
class Night:
    """The whole state of a night. Build it with :meth:`start`; change it with :meth:`apply`."""

    setup: PartySetup
    rules: RuleSet
    roster: tuple[str, ...]
    sets: int
    groups: dict[str, tuple[str, ...]]
    set_no: int
    round_no: int
    seating: Tables
    tables: tuple[TableRound, ...]
    phase: NightPhase
    bell: bool = False
    bell_roll: RoundEnding | None = None  # the roll that rang the bell for the room this round
    started: bool = False
    history: tuple[RoundResult, ...] = ()
    cards: dict[str, Card] = field(default_factory=dict)
    set_results: tuple[SetResult, ...] = ()
    rolloff: RollOff | None = None
    rolloff_for: RolloffFor | None = None
    prizes: tuple[PrizeResult, ...] = ()
    traveler: str | None = None
    last_bunco: str | None = None
    verified: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    verifications: dict[str, Verification] = field(default_factory=dict)  # who, when
    prize_cards: dict[str, Card] | None = None  # the cards the prizes were decided from
    changes: tuple[NightChange, ...] = ()  # substitutes, joins, leaves, manual seatings
    events: EventSeq[Event] = field(
        default_factory=EventSeq.empty
    )  # every accepted event, undo included
    effective: EventSeq[StandingEvent] = field(
        default_factory=EventSeq.empty
    )  # the events that stand
    round_start: Night | None = None  # the night as the current round (or roll-off) began
    prev_start: Night | None = None  # ... and as the round before it began
    host: HostState = field(default_factory=HostState)  # judged prizes, presence, breaks, drawings
    corrections: tuple[Correction, ...] = ()  # the host's corrections of finished rounds
    closed: bool = False  # the host closed the night: results final, no more corrections
    clock: RoundClock | None = None  # timed rounds: the clock of the round under way
    # the room's bell this round: the index in ``effective`` of the event that rang it
    bell_at: int | None = None
    # the tables whose phones the room waits for this round: table → entries it holds
    # (None: its phone fell silent since its last entry); bunco.core.late_entries
    awaited: dict[int, int | None] = field(default_factory=dict)
    # the tables the host decided about this round (went on without their phone, or
    # entered who won there by hand): the room does not wait for their phones again
    decided: frozenset[int] = frozenset()
    # (set, round, table) of every table's round whose score the host entered from its
    # paper tally tonight (bunco.core.late_entries.paper_table)
    paper: frozenset[tuple[int, int, int]] = frozenset()
    # while an entry from before the bell is placed (the round folded again after it), the
    # round ends only once the whole fold is done, never half-way (bunco.core.late_entries)
    holding: bool = False
    # the round's start bell rang (start_round): the round has begun at every table
    rung_in: bool = False
    # the tables that confirmed their new seating this round (bunco.core.seating_confirm),
    # and those whose confirmation a reseating by the host dropped
    seated_tables: frozenset[int] = frozenset()
    unseated: frozenset[int] = frozenset()
    # the night every CHECKPOINT_EVERY standing events of the round under way (the newest
    # CHECKPOINTS_KEPT, oldest first): an undo folds again from the newest before its entry
    checkpoints: tuple[Night, ...] = field(default=(), compare=False, repr=False)

    # -- construction -----------------------------------------------------------------

    # -- construction -----------------------------------------------------------------
    @classmethod
    def start(cls, setup: object) -> Night:
        """A night from its party line; raises :class:`InvalidSetup` naming what is wrong."""
        party = setup_mod.normalize_setup(setup)
        rules = setup_mod.rules_of(party)
        seating = setup_mod.first_tables(party, rules)
        night = cls(
            setup=party,
            rules=rules,
            roster=tuple(party["players"]),
            sets=party["sets"],
            groups={k: tuple(v) for k, v in party.get("groups", {}).items()},
            set_no=1,
            round_no=1,
            seating=seating,
            tables=(),
            phase="playing",
            cards={p: Card() for p in party["players"]},
        )
        night = night._begin_round(seating, previous=None)
        return evolve(night, round_start=night)

    # -- questions ------------------------------------------------------------------------
    @property
    def single_table(self) -> bool:
        """Whether the night is played at one table."""
        return len(self.seating) == 1

    @property
    def seated(self) -> tuple[str, ...]:
        """The players seated this round, table by table."""
        return tuple(p for t in self.seating for p in t if p is not None)

    def expected_rollers(self) -> list[tuple[int | None, str]]:
        """Who may roll now: (table number or None for a roll-off, player)."""
        if self.phase == "rolloff" and self.rolloff is not None and self.rolloff.roller is not None:
            return [(None, self.rolloff.roller)]
        if self.phase != "playing":
            return []
        return [(t.number, t.roller) for t in self.tables if t.roller is not None]

    def begun_at(self, table: int) -> bool:
        """Whether the round in play has begun at ``table`` (:mod:`bunco.core.seating_confirm`):
        always but between rounds of a party of more than one table after its first round,
        where the head table's bell, the table's confirmed seating or an entry there begins it.
        """
        if not needs_seating(self) or not 1 <= table <= len(self.tables):
            return True
        return table in self.seated_tables or bool(self.tables[table - 1].rolls)

    def seated_in_set(self, set_no: int) -> tuple[str, ...]:
        """Players with at least one round in set ``set_no``, in roster order."""
        played = {
            n for r in self.history if r.set_no == set_no for t in r.tables for n in t.seats if n
        }
        return tuple(p for p in self.roster if p in played)

    def entries_after_bell(self, table_no: int) -> int:
        """The entries at table ``table_no`` since the room's bell this round (and a result
        the host entered there by hand): what a late entry there would come before."""
        if self.bell_at is None:
            return 0
        count = 0
        for ev in self.effective.slice(self.bell_at):
            if ev["type"] == "roll" or ev["type"] == "tally":
                count += ev.get("table") == table_no
            elif ev["type"] == "go_on":
                count += ev["of_table"] == table_no and ("winner" in ev or "points" in ev)
        return count

    def settled_by_hand(self, table_no: int) -> bool:
        """Whether the host entered table ``table_no``'s result by hand since the bell."""
        if self.bell_at is None:
            return False
        return any(
            ev["type"] == "go_on"
            and ev["of_table"] == table_no
            and ("winner" in ev or "points" in ev)
            for ev in self.effective.slice(self.bell_at)
        )

    def from_paper(self, set_no: int, round_no: int, table_no: int) -> bool:
        """Whether the host entered table ``table_no``'s score of that round from its paper
        tally (:func:`bunco.core.late_entries.paper_table`)."""
        return (set_no, round_no, table_no) in self.paper

    # -- the fold ---------------------------------------------------------------------------
    def apply(self, event: object) -> Night:
        """The night after ``event``; raises a :class:`BuncoError` and leaves ``self`` as it was."""
        ev = normalize_event(event)
        if ev["type"] == "undo":
            return self._undo(ev)
        if (ev["type"] == "roll" or ev["type"] == "tally") and ev.get("before_bell"):
            return self._before_bell(ev)
        night = self._apply_effective(ev)
        night = evolve(night, events=self.events.append(ev), effective=self.effective.append(ev))
        return night._marked()

    def _marked(self) -> Night:
        """This night as the round's start when a round or roll-off began with its last
        event (for undo), else with a checkpoint every :data:`CHECKPOINT_EVERY` standing
        events of the round."""
        if self.round_start is None:  # a round or roll-off began: remember it for undo
            return evolve(self, round_start=self, checkpoints=())
        if (len(self.effective) - len(self.round_start.effective)) % CHECKPOINT_EVERY == 0:
            kept = self.checkpoints[-(CHECKPOINTS_KEPT - 1) :] if CHECKPOINTS_KEPT > 1 else ()
            point = evolve(self, checkpoints=(), holding=False)
            return evolve(self, checkpoints=(*kept, point))
        return self

    def apply_all(self, events: Iterable[object]) -> Night:
        """The night after each of ``events`` in turn."""
        night = self
        for ev in events:
            night = night.apply(ev)
        return night

    def _apply_effective(self, ev: StandingEvent) -> Night:
        """The night after standing event ``ev`` (not an undo), by its type; the caller
        adds it to the log."""
        if ev["type"] == "roll" or ev["type"] == "tally":
            return self._roll(ev)
        if ev["type"] == "verify":
            return self._verify(ev)
        if ev["type"] == "end_night":
            return self._end_early()
        if ev["type"] == "start_round":
            return self._start_round(ev.get("clock"))
        if ev["type"] == "seated":
            return self._seated(ev)
        if ev["type"] == "time_up":
            return self._time_up(ev)
        if ev["type"] == "close_cards":
            return self._close_cards(ev)
        if ev["type"] == "correct":
            return self._correct(ev)
        if ev["type"] == "close_night":
            return self._close_night(ev)
        if ev["type"] == "wait_for_phone":
            return self._wait_for_phone(ev)
        if ev["type"] == "go_on":
            return self._go_on(ev)
        if ev["type"] == "absent" or ev["type"] == "present":
            return apply_host_event(self, ev)._decide_when_final()
        if (  # the host's records beside the dice (bunco.core.hosting)
            ev["type"] == "judge"
            or ev["type"] == "break"
            or ev["type"] == "end_break"
            or ev["type"] == "drawing"
        ):
            return apply_host_event(self, ev)
        return self._between_rounds(ev)

    # -- rolls (bunco.core.night_rolls) ------------------------------------------------------------
    _roll = night_rolls.roll
    _ending = night_rolls.ending
    _check_player = night_rolls.check_player
    _dice_of = night_rolls.dice_of
    _after_scoring = night_rolls.after_scoring
    _travels = night_rolls.travels
    _maybe_ring = night_rolls.maybe_ring
    _ring_all = night_rolls.ring_all
    _who_rolls_text = night_rolls.who_rolls_text

    # -- the round's flow (bunco.core.night_rounds) ------------------------------------------------
    _begin_round = night_rounds.begin_round
    _new_period = night_rounds.new_period
    _end_round = night_rounds.end_round
    _end_set = night_rounds.end_set
    _after_set = night_rounds.after_set
    _start_round = night_rounds.start_round
    _seated = night_rounds.seated
    _time_up = night_rounds.time_up

    # -- the prizes, the roll-offs and the verified cards (bunco.core.night_prizes) ----------------
    _end_night = night_prizes.end_night
    _prizes_of = night_prizes.prizes_of
    _prizes_again = night_prizes.prizes_again
    _prize_cards = night_prizes.prize_cards
    _prize_card = night_prizes.prize_card
    _next_prize_rolloff = night_prizes.next_prize_rolloff
    _rolloff_roll = night_prizes.rolloff_roll
    _verify = night_prizes.verify
    _decide_when_final = night_prizes.decide_when_final
    _close_cards = night_prizes.close_cards

    # -- the host's corrections (bunco.core.night_corrections) -------------------------------------
    _correct = night_corrections.correct
    _correct_running = night_corrections.correct_running
    _last_bunco_now = night_corrections.last_bunco_now
    _cards_from_history = night_corrections.cards_from_history
    _last_bunco = night_corrections.last_bunco
    _set_results_again = night_corrections.set_results_again
    _close_night = night_corrections.close_night

    # -- the host's changes between rounds (bunco.core.night_changes) ------------------------------
    _end_early = night_changes.end_early
    _between_rounds = night_changes.between_rounds
    _partners_kept = night_changes.partners_kept

    # -- store and forward at the bell (bunco.core.night_late_entries) -----------------------------
    _refuse_after_paper = night_late_entries.refuse_after_paper
    _before_bell = night_late_entries.before_bell
    _check_table_now = night_late_entries.check_table_now
    _wait_for_phone = night_late_entries.wait_for_phone
    _go_on = night_late_entries.go_on
    _paper = night_late_entries.paper
    _released = night_late_entries.released

    # -- undo (bunco.core.night_undo) --------------------------------------------------------------
    _undo = night_undo.undo
    _refuse_undo_after_paper = night_undo.refuse_undo_after_paper
    _base_for = night_undo.base_for
    _refold = night_undo.refold
