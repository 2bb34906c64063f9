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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from bunco.core import setup as setup_mod
from bunco.core.cards import Card
from bunco.core.corrections import (
    CloseNightEvent,
    CorrectEvent,
    Correction,
    check_closable,
    check_correctable,
    correct_result,
)
from bunco.core.dice import Dice, tally_dice, total_dice
from bunco.core.errors import (
    BuncoError,
    InvalidEvent,
    InvalidSetup,
    NotAllowedNow,
    NotYourTurn,
    RoundOver,
    WrongTable,
)
from bunco.core.event_seq import EventSeq
from bunco.core.events import (
    ChangeEvent,
    Event,
    ScoringEvent,
    StandingEvent,
    UndoEvent,
    VerifyEvent,
    normalize_event,
)
from bunco.core.evolve import evolve
from bunco.core.host_events import CloseCardsEvent
from bunco.core.hosting import HostState, apply_host_event
from bunco.core.late_entries import GoOnEvent, WaitForPhoneEvent
from bunco.core.names import name_key, same_name
from bunco.core.prizes import PrizeResult, decide_prizes, rolloffs_again
from bunco.core.rolloff import RollOff
from bunco.core.round_clock import RoundClock, TimeUpEvent
from bunco.core.rules import (
    AfterBell,
    FirstRoller,
    PrizeTies,
    RollKind,
    RoundEnd,
    RuleSet,
    SetWinner,
)
from bunco.core.running_corrections import correct_running
from bunco.core.seating import Tables, is_team_table, next_seating, reseat, validate_seating
from bunco.core.seating_partners import check_partner_rule
from bunco.core.table import Phase, RollRecord, Status, TableRound
from bunco.core.verification import Verification, awaiting_cards, figures, waiting_for_cards

_DICE: tuple[Dice, ...] = tuple(
    (a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
)
"""The 216 throws of three dice, shared by every roll record (a night holds millions)."""

NightPhase: TypeAlias = Literal["playing", "rolloff", "over"]
"""Where a night is: rounds being played (or between rounds), a roll-off due, or over."""

SetSettledBy: TypeAlias = Literal["wins", "buncos", "roll_off", "pending_roll_off"]
"""How a set's winner was decided: most W's, most Buncos among the tied, a roll-off (or one due)."""

RolloffFor: TypeAlias = tuple[Literal["set", "prize"], int]
CHECKPOINT_EVERY = 32
"""Standing events of a round between two of its checkpoints: an undo folds again at most
this many events (and those after its entry), however long the round."""
CHECKPOINTS_KEPT = 64
"""Checkpoints kept (the newest): they reach 2,048 standing events back, past the last entry
of every table of a 250-table room; an undo of an older entry folds the round again from
its start. A checkpoint may hold its own copy of the round's lists (after an undo), so
their number bounds what they cost in memory."""
"""What a roll-off under way decides: ``("set", set_no)`` or ``("prize", index in prizes)``."""


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
    tie_break: dict[str, Any] | None
    clincher: str | None  # the player whose roll won it (for left-of-winner starts)
    rolls: Sequence[RollRecord]  # the round's rolls (an EventSeq shared with the table)


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

    def as_dict(self) -> dict[str, Any]:
        r = self.record
        where = {"set": self.set_no, "round": self.round_no, "table": self.table, "why": self.why}
        if r is None:
            return {**where, "player": None, "credited": None, "dice": None, "points": 0}
        return {
            **where,
            "player": r.roller,
            "credited": r.credited,
            "dice": list(r.dice),
            "points": r.points,
            "kind": r.kind.value,
            "phase": r.phase.value,
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    set_no: int
    round_no: int
    tables: tuple[TableResult, ...]
    ended_by: RoundEnding | None = None  # the roll that ended the round (None: ended early)


@dataclass(frozen=True, slots=True)
class SetResult:
    set_no: int
    winner: str | None
    tied_on_wins: tuple[str, ...]
    tied_on_buncos: tuple[str, ...]
    settled_by: SetSettledBy


@dataclass(frozen=True, slots=True)
class Night:
    """The whole state of a night. Build it with :meth:`start`; change it with :meth:`apply`."""

    setup: dict[str, Any]
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
    changes: tuple[dict[str, Any], ...] = ()  # substitutes, joins, leaves, manual seatings
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
    # while an entry from before the bell is placed (the round folded again after it), the
    # round ends only once the whole fold is done, never half-way (bunco.core.late_entries)
    holding: bool = False
    # the night every CHECKPOINT_EVERY standing events of the round under way (the newest
    # CHECKPOINTS_KEPT, oldest first): an undo folds again from the newest before its entry
    checkpoints: tuple[Night, ...] = field(default=(), compare=False, repr=False)

    # -- construction -----------------------------------------------------------------
    @classmethod
    def start(cls, setup: Mapping[str, Any]) -> Night:
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
        return len(self.seating) == 1

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(p for t in self.seating for p in t if p is not None)

    def expected_rollers(self) -> list[tuple[int | None, str]]:
        """Who may roll now: (table number or None for a roll-off, player)."""
        if self.phase == "rolloff" and self.rolloff is not None and self.rolloff.roller is not None:
            return [(None, self.rolloff.roller)]
        if self.phase != "playing":
            return []
        return [(t.number, t.roller) for t in self.tables if t.roller is not None]

    # -- the fold ---------------------------------------------------------------------------
    def apply(self, event: Mapping[str, Any]) -> Night:
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

    def apply_all(self, events: Sequence[Mapping[str, Any]]) -> Night:
        night = self
        for ev in events:
            night = night.apply(ev)
        return night

    def _apply_effective(self, ev: StandingEvent) -> Night:
        if ev["type"] == "roll" or ev["type"] == "tally":
            return self._roll(ev)
        if ev["type"] == "verify":
            return self._verify(ev)
        if ev["type"] == "end_night":
            return self._end_early()
        if ev["type"] == "start_round":
            return self._start_round(ev.get("clock"))
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

    # -- rolls ----------------------------------------------------------------------------------
    def _roll(self, ev: ScoringEvent) -> Night:
        if self.phase == "over":
            raise RoundOver("the night is over", expected="no more rolls; start a new night")
        table_no = ev.get("table")
        if self.phase == "rolloff":
            return self._rolloff_roll(ev)
        if table_no is None:
            raise WrongTable(
                "this roll names no table and no roll-off is due",
                expected=f"a table number from 1 to {len(self.tables)}",
            )
        if table_no > len(self.tables):
            raise WrongTable(
                f"there is no table {table_no}",
                expected=f"a table number from 1 to {len(self.tables)}",
            )
        table = self.tables[table_no - 1]
        roller = table.roller
        if roller is None:
            raise RoundOver(
                f"the round is over at table {table_no}",
                expected=self._who_rolls_text() or "the next round",
            )
        self._check_player(ev, roller, table)
        dice = self._dice_of(ev, table.rolling_for_high, f"table {table_no}")
        was_playing = table.status is Status.PLAYING
        new_table = table.roll(dice, self.rules)
        tables = list(self.tables)
        tables[table_no - 1] = new_table
        record = new_table.rolls[-1]
        traveler, last_bunco = self._after_scoring(record)
        night = evolve(
            self, started=True, tables=tuple(tables), traveler=traveler, last_bunco=last_bunco
        )
        if was_playing:
            night = night._maybe_ring(table_no)
            if night.bell and not self.bell:
                bunco = record.kind is RollKind.BUNCO and self.rules.bunco_ends_round
                night = night._ending(table_no, record, "bunco" if bunco else "target")
                night = evolve(night, bell_at=len(self.effective))
        if all(t.status is Status.DONE for t in night.tables):
            if night.bell_roll is None:
                night = night._ending(table_no, record, "last_table")
            if not night.awaited and not night.holding:  # else the room waits for a phone
                night = night._end_round()
        return night

    def _ending(self, table_no: int, record: RollRecord, why: str) -> Night:
        ending = RoundEnding(self.set_no, self.round_no, table_no, record, why)
        return evolve(self, bell_roll=ending)

    def _check_player(self, ev: ScoringEvent, roller: str, table: TableRound | None) -> None:
        player = ev.get("player")
        if player is None or player == roller:
            return
        where = f" at table {table.number}" if table is not None else " in the roll-off"
        raise NotYourTurn(
            f"it is {roller}'s turn{where}, not {player}'s", expected=f"a roll by {roller}"
        )

    def _dice_of(self, ev: ScoringEvent, needs_faces: bool, where: str) -> Dice:
        if ev["type"] == "roll":
            faces = ev["dice"]  # checked by normalize_event
            return _DICE[faces[0] * 36 + faces[1] * 6 + faces[2] - 43]  # one tuple per throw
        total = ev.get("total")
        if total is not None:
            if not needs_faces:
                raise NotAllowedNow(
                    f"{where} is not rolling for high, so a total cannot stand for the dice",
                    expected="the three faces or a quick tally",
                )
            return total_dice(total)
        if needs_faces:
            raise NotAllowedNow(
                f"{where} is rolling for high total, so a tally cannot stand for the dice",
                expected="the three faces, e.g. 6 5 2, or the total they show",
            )
        return tally_dice(ev["outcome"], self.round_no, self.rules)

    def _after_scoring(self, record: RollRecord) -> tuple[str | None, str | None]:
        """The traveler's holder and the last Bunco's roller after ``record``."""
        if record.phase is Phase.FIRST_ROLL:
            return self.traveler, self.last_bunco
        last_bunco = self.last_bunco
        if record.kind is RollKind.BUNCO and record.credited is not None:
            last_bunco = record.credited
        return (record.roller if self._travels(record) else self.traveler), last_bunco

    def _travels(self, record: RollRecord) -> bool:
        trigger = self.rules.traveling
        if trigger == "off" or self.round_no == self.rules.traveling_excluded_round:
            return False
        trips = record.kind in (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO)
        if trigger == "bunco":
            return record.kind is RollKind.BUNCO
        if trigger == "mini_bunco":
            return trips
        if trigger == "any_trips":
            return trips or record.kind is RollKind.BUNCO
        faces = sorted(int(c) for c in trigger if c.isdigit())
        return sorted(record.dice) == faces

    def _maybe_ring(self, table_no: int) -> Night:
        """Ring the bell if the roll just made at ``table_no`` ends the round somewhere."""
        table = self.tables[table_no - 1]
        last = table.rolls[-1]
        finish = self.rules.after_bell is AfterBell.FINISH_TURN
        if last.kind is RollKind.BUNCO and self.rules.bunco_ends_round and last.phase is Phase.PLAY:
            return self._ring_all(finish)
        if not table.last_roll_reached_target:
            return self
        if self.single_table or self.rules.round_end is RoundEnd.HEAD_TABLE:
            if table_no == 1:
                return self._ring_all(finish)
            return self
        tables = list(self.tables)
        tables[table_no - 1] = table.bell(finish, self.rules)
        return evolve(self, tables=tuple(tables))

    def _ring_all(self, finish: bool) -> Night:
        return evolve(
            self, bell=True, tables=tuple(t.bell(finish, self.rules) for t in self.tables)
        )

    def _who_rolls_text(self) -> str:
        rollers = self.expected_rollers()
        if not rollers:
            return ""
        return "a roll by " + ", ".join(f"{p} (table {t})" if t else p for t, p in rollers)

    # -- rounds ------------------------------------------------------------------------------------
    def _begin_round(self, seating: Tables, previous: RoundResult | None) -> Night:
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
        )

    def _new_period(self) -> Night:
        """Mark that a new round or roll-off begins with the event being applied."""
        return evolve(self, round_start=None, prev_start=self.round_start)

    def _end_round(self) -> Night:
        results = tuple(_table_result(t) for t in self.tables)
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

    def _end_set(self, upcoming: Tables, last: RoundResult) -> Night:
        night = evolve(self, seating=upcoming, tables=(), bell=False, bell_roll=None, clock=None)
        if self.rules.set_winner is SetWinner.MOST_WINS:
            outcome = _set_winner(self.set_no, self.cards, self.seated_in_set(self.set_no))
            night = evolve(night, set_results=(*night.set_results, outcome))
            if outcome.winner is None:
                rolloff = RollOff.begin(
                    f"set {self.set_no} winner",
                    outcome.tied_on_buncos,
                    round_no=self.round_no,  # 000: the round just completed (6, or earlier after end_night)
                    goal=self.rules.roll_off_target,
                )
                return evolve(
                    night, phase="rolloff", rolloff=rolloff, rolloff_for=("set", self.set_no)
                )
        return night._after_set(last)

    def seated_in_set(self, set_no: int) -> tuple[str, ...]:
        """Players with at least one round in set ``set_no``, in roster order."""
        played = {
            n for r in self.history if r.set_no == set_no for t in r.tables for n in t.seats if n
        }
        return tuple(p for p in self.roster if p in played)

    def _after_set(self, last: RoundResult) -> Night:
        if self.set_no < self.sets:
            night = evolve(self, set_no=self.set_no + 1, round_no=1, phase="playing")
            return night._begin_round(self.seating, last)
        return self._end_night()

    def _end_night(self, cards: dict[str, Card] | None = None) -> Night:
        """Decide the prizes (from ``cards`` when given, else from the cards as they stand).

        With ``verify_for_prizes`` the prizes wait for every present player's card to be
        final (bunco.core.verification): until then the night is over with no prizes.
        """
        if cards is None and self.rules.verify_for_prizes and self.host.closed_unverified is None:
            waiting = evolve(
                self,
                prizes=(),
                prize_cards=None,
                phase="over",
                tables=(),
                rolloff=None,
                rolloff_for=None,
            )
            if awaiting_cards(waiting):
                return waiting
        cards = self._prize_cards() if cards is None else cards
        night = evolve(
            self,
            prizes=tuple(self._prizes_of(cards)),
            prize_cards=cards,
            phase="over",
            tables=(),
            rolloff=None,
            rolloff_for=None,
        )
        return night._next_prize_rolloff()

    def _prizes_of(self, cards: dict[str, Card]) -> list[PrizeResult]:
        return decide_prizes(
            [p.value for p in self.rules.prizes],
            cards,
            shared=self.rules.prize_ties is PrizeTies.SHARED,
            last_bunco=self.last_bunco,
            traveler=self.traveler,
            groups=self.groups if self.rules.prize_groups else None,
            mini_label=self.rules.mini_label,
        )

    def _prizes_again(self) -> tuple[Night, list[str]]:
        """The prizes decided again from the corrected cards (a correction after they were
        decided): a roll-off whose prize is tied again among the same players is kept (its
        winner, or the roll-off under way goes on); one whose tie the correction broke is
        cancelled; a new tie is rolled off. Returns the night and what became of each
        roll-off, in words."""
        under_way = (
            self.rolloff_for[1] if self.rolloff_for and self.rolloff_for[0] == "prize" else None
        )
        cards = self._prize_cards()
        prizes, resume, words = rolloffs_again(self.prizes, self._prizes_of(cards), under_way)
        night = evolve(
            self,
            prizes=tuple(prizes),
            prize_cards=cards,
            phase="over",
            tables=(),
            rolloff=None,
            rolloff_for=None,
        )
        if resume is not None:
            return evolve(
                night, phase="rolloff", rolloff=self.rolloff, rolloff_for=("prize", resume)
            ), words
        night = night._next_prize_rolloff()
        if night.rolloff is not None and night.rolloff_for is not None:
            prize = night.prizes[night.rolloff_for[1]]
            named = prize.label + (f" ({prize.group})" if prize.group else "")
            fresh = f"{named}: a roll-off among {', '.join(prize.candidates)} is due"
            if not any(w.startswith(f"{named}:") for w in words):
                words.append(fresh)
        return night, words

    def _prize_cards(self) -> dict[str, Card]:
        """The cards prizes count: with ``verify_for_prizes``, the last verified figures."""
        if not self.rules.verify_for_prizes:
            return self.cards
        return {name: self._prize_card(name) for name in self.cards}

    def _prize_card(self, name: str) -> Card:
        card = self.cards[name]
        if not self.rules.verify_for_prizes:
            return card
        buncos, minis, wins = self.verified.get(name, (0, 0, 0))
        return Card(buncos=buncos, minis=minis, wins=wins, losses=card.losses, points=card.points)

    def _next_prize_rolloff(self) -> Night:
        for index, prize in enumerate(self.prizes):
            if prize.settled_by == "pending_roll_off":
                label = prize.label + (f" ({prize.group})" if prize.group else "")
                rolloff = RollOff.begin(  # for the round just completed, as a set's roll-off
                    label, prize.candidates, round_no=self.round_no, goal=self.rules.roll_off_target
                )
                return evolve(self, phase="rolloff", rolloff=rolloff, rolloff_for=("prize", index))
        return evolve(self, phase="over", rolloff=None, rolloff_for=None)

    def _rolloff_roll(self, ev: ScoringEvent) -> Night:
        rolloff = self.rolloff
        assert rolloff is not None and self.rolloff_for is not None
        if ev.get("table") is not None:
            raise NotAllowedNow(
                f"a roll-off for {rolloff.purpose} is due, not play at a table",
                expected=f"a roll with no table by {rolloff.roller}",
            )
        roller = rolloff.roller
        assert roller is not None
        self._check_player(ev, roller, None)
        dice = self._dice_of(ev, rolloff.ordering, "the roll-off")
        done = rolloff.roll(dice, self.rules)
        night = evolve(self, rolloff=done, started=True)
        if done.winner is None:
            return night
        what, index = self.rolloff_for
        night = evolve(night, rolloff=None, rolloff_for=None)
        if what == "set":
            sets = list(night.set_results)
            sets[-1] = evolve(sets[-1], winner=done.winner, settled_by="roll_off")
            night = evolve(night, set_results=tuple(sets))._new_period()
            return night._after_set(self.history[-1])
        prizes = list(night.prizes)
        prizes[index] = evolve(prizes[index], winners=(done.winner,), settled_by="roll_off")
        return evolve(night, prizes=tuple(prizes))._next_prize_rolloff()

    # -- between rounds ------------------------------------------------------------------------
    def _verify(self, ev: VerifyEvent) -> Night:
        """A checker verifies a card: what it shows now counts for prizes (004)."""
        name = ev["player"]
        if name not in self.cards:
            raise InvalidSetup(
                f"{name!r} is not a player tonight", expected="one of " + ", ".join(self.roster)
            )
        card = self.cards[name]
        last = self.history[-1] if self.history else None
        seen = Verification(
            ev.get("checker"), figures(card), None if last is None else (last.set_no, last.round_no)
        )
        night = evolve(
            self,
            verified={**self.verified, name: seen.figures},
            verifications={**self.verifications, name: seen},
        )
        if not self.rules.verify_for_prizes:
            return night
        if waiting_for_cards(self):  # 004: the staff verify after the last round
            return night._decide_when_final()
        prizes_decided = self.phase == "over" or (
            self.rolloff_for is not None and self.rolloff_for[0] == "prize"
        )
        if not prizes_decided or self.verified.get(name) == seen.figures:
            return night  # during the night, or nothing the prizes count changed
        started = any(p.settled_by == "roll_off" for p in self.prizes) or (
            self.rolloff is not None and bool(self.rolloff.rolls)
        )
        if started:
            raise NotAllowedNow(
                "the prize roll-offs have begun, so cards can no longer be verified",
                expected="verifications before the first roll-off roll",
            )
        # only this card changed: decide again from the cards used last time, one replaced
        cards = dict(self.prize_cards) if self.prize_cards is not None else None
        if cards is not None:
            cards[name] = night._prize_card(name)
        return night._end_night(cards)

    def _decide_when_final(self) -> Night:
        """After the last round, the prizes once every present player's card is final."""
        if not (self.rules.verify_for_prizes and waiting_for_cards(self)):
            return self
        return self if awaiting_cards(self) else self._end_night()

    def _close_cards(self, ev: CloseCardsEvent) -> Night:
        """The host gives the prizes from the cards as verified, naming those that are not."""
        if not self.rules.verify_for_prizes:
            raise NotAllowedNow(
                "tonight's cards need no verifying, so there are none to close",
                expected="close_cards only on a night that verifies cards for prizes",
            )
        if not waiting_for_cards(self):
            doing = (
                "the prizes are decided"
                if self.prize_cards is not None
                else ("the last round has not been played")
            )
            raise NotAllowedNow(
                f"there are no cards to close: {doing}",
                expected="close_cards after the last round, while the prizes wait for cards",
            )
        waiting = awaiting_cards(self)
        if sorted(ev["unverified"]) != sorted(waiting):
            raise InvalidEvent(
                "the cards not verified as they stand are "
                + ", ".join(waiting)
                + ", not "
                + (", ".join(ev["unverified"]) or "none"),
                expected='"unverified": [' + ", ".join(f'"{p}"' for p in waiting) + "]",
            )
        return apply_host_event(self, ev)._end_night()

    # -- corrections (bunco.core.corrections) ------------------------------------------------
    def _correct(self, ev: CorrectEvent) -> Night:
        """The host corrects a table's finished round: the round's result, the cards, the
        set winners and (once decided) the prizes follow; the seating that followed stands."""
        check_correctable(self.closed)
        set_no, round_no, table_no = ev["set"], ev["round"], ev["of_table"]
        where = f"table {table_no} in round {round_no}" + (
            f" of set {set_no}" if self.sets > 1 else ""
        )
        index = next(
            (i for i, r in enumerate(self.history) if (r.set_no, r.round_no) == (set_no, round_no)),
            None,
        )
        if index is None:
            if self.phase == "playing" and (set_no, round_no) == (self.set_no, self.round_no):
                return self._correct_running(ev, where)
            named = f"round {round_no}" + (f" of set {set_no}" if self.sets > 1 else "")
            rounds = [
                f"{r.set_no}.{r.round_no}" if self.sets > 1 else str(r.round_no)
                for r in self.history
            ]
            if self.phase == "playing":
                rounds.append(
                    (f"{self.set_no}.{self.round_no}" if self.sets > 1 else str(self.round_no))
                    + " in play"
                )
            raise NotAllowedNow(
                f"{named} was not played tonight",
                expected="a round played tonight (" + ", ".join(rounds) + ")"
                if rounds
                else "a correction once a round is under way",
            )
        played = self.history[index]
        if table_no > len(played.tables):
            raise WrongTable(
                f"round {round_no} of set {set_no} was played at {len(played.tables)} tables, "
                f"so there is no table {table_no}",
                expected=f"a table number from 1 to {len(played.tables)}",
            )
        result, record = correct_result(played.tables[table_no - 1], ev, self.rules, where)
        tables = list(played.tables)
        tables[table_no - 1] = result
        history = list(self.history)
        history[index] = evolve(played, tables=tuple(tables))
        night = evolve(self, history=tuple(history), corrections=(*self.corrections, record))
        night = evolve(
            night, cards=night._cards_from_history(), last_bunco=night._last_bunco(record)
        )
        night, words = night._set_results_again()
        prizes_decided = self.prize_cards is not None and (
            self.phase == "over"
            or (self.rolloff_for is not None and self.rolloff_for[0] == "prize")
        )
        if prizes_decided:
            night, more = night._prizes_again()
            words += more
        if words:
            record = evolve(record, rolloffs=tuple(words))
            night = evolve(night, corrections=(*self.corrections, record))
        return night

    def _correct_running(self, ev: CorrectEvent, where: str) -> Night:
        """The host corrects a table's record in the round in play
        (:mod:`bunco.core.running_corrections`): its points follow at once, the turn and
        the bell stay where the table's entries left them."""
        table_no = ev["of_table"]
        if not self.started:
            raise NotAllowedNow(
                f"round {self.round_no} has not started: no table has entered a roll",
                expected="a correction once the round is under way",
            )
        if table_no > len(self.tables):
            raise WrongTable(
                f"round {self.round_no} is played at {len(self.tables)} tables, "
                f"so there is no table {table_no}",
                expected=f"a table number from 1 to {len(self.tables)}",
            )
        head_rings = self.single_table or self.rules.round_end is RoundEnd.HEAD_TABLE
        table, record = correct_running(
            self.tables[table_no - 1],
            ev,
            self.rules,
            where,
            rings=table_no == 1 or not head_rings,
            bell=self.bell,
        )
        tables = list(self.tables)
        tables[table_no - 1] = table
        night = evolve(self, tables=tuple(tables), corrections=(*self.corrections, record))
        if record.record is None or record.record.kind is not RollKind.BUNCO:
            return night
        return evolve(night, last_bunco=night._last_bunco_now())

    def _last_bunco_now(self) -> str | None:
        """Who rolled the night's last Bunco, after a correction of the round in play moved,
        added or removed one: the newest round with a Bunco decides it where its order is
        known (one table, or one Bunco in the round), else it stays as it was."""
        rounds: list[list[Sequence[RollRecord]]] = [
            [t.rolls for t in r.tables] for r in self.history
        ]
        rounds.append([t.rolls for t in self.tables])
        for tables in reversed(rounds):
            buncos = [
                [
                    r.credited
                    for r in rolls
                    if r.kind is RollKind.BUNCO and r.phase is not Phase.FIRST_ROLL and r.credited
                ]
                for rolls in tables
            ]
            found = [name for at_table in buncos for name in at_table]
            if not found:
                continue
            if len(tables) == 1 or len(found) == 1:
                return found[-1]
            return self.last_bunco
        return None

    def _cards_from_history(self) -> dict[str, Card]:
        """Every card counted again from the rounds as they now stand."""
        cards = {name: Card() for name in self.cards}
        for played in self.history:
            for res in played.tables:
                for seat, name in enumerate(res.seats):
                    if name is not None:
                        cards[name] = cards[name].with_round(
                            played.set_no,
                            played.round_no,
                            res.table,
                            won=seat in res.winning_seats,
                            points=res.seat_points[seat],
                            **seat_counts(res.rolls, seat, name),
                        )
        return cards

    def _last_bunco(self, fixed: Correction) -> str | None:
        """Who rolled the night's last Bunco after ``fixed``: it changes only where the
        corrected round is the last with a Bunco and holds one Bunco (within a round the
        log keeps each table's order, not the room's)."""
        later = [
            r
            for played in self.history
            if (played.set_no, played.round_no) > (fixed.set_no, fixed.round_no)
            for t in played.tables
            for r in t.rolls
        ]
        later += [r for t in self.tables for r in t.rolls]
        if any(r.kind is RollKind.BUNCO and r.phase is not Phase.FIRST_ROLL for r in later):
            return self.last_bunco
        played = next(
            p for p in self.history if (p.set_no, p.round_no) == (fixed.set_no, fixed.round_no)
        )
        buncos = [
            r.credited
            for t in played.tables
            for r in t.rolls
            if r.kind is RollKind.BUNCO and r.phase is not Phase.FIRST_ROLL and r.credited
        ]
        return buncos[0] if len(buncos) == 1 else self.last_bunco

    def _set_results_again(self) -> tuple[Night, list[str]]:
        """Each finished set's winner decided again from the corrected cards; a correction
        that would call for a roll-off the night has passed is refused. The set roll-off
        under way goes on if the set is tied again among the same players, is cancelled if
        the set now has its winner (the night goes on), and is begun again among the players
        tied now otherwise. Returns the night and what became of that roll-off, in words."""
        results = []
        words: list[str] = []
        settle: SetResult | None = None
        for old in self.set_results:
            if old.settled_by == "pending_roll_off":
                new = _set_winner(old.set_no, self.cards, self.seated_in_set(old.set_no))
                among = ", ".join(old.tied_on_buncos)
                if (
                    self.rolloff_for != ("set", old.set_no)
                    or new.tied_on_buncos == old.tied_on_buncos
                ):
                    results.append(old)
                    continue
                if new.winner is not None:
                    words.append(f"set {old.set_no}: the roll-off among {among} is cancelled "
                                 f"({new.winner} wins the set)")  # fmt: skip
                    settle = new
                else:
                    words.append(f"set {old.set_no}: the roll-off among {among} is rolled off "
                                 f"again among {', '.join(new.tied_on_buncos)}")  # fmt: skip
                results.append(new)
                continue
            new = _set_winner(old.set_no, self.cards, self.seated_in_set(old.set_no))
            if old.settled_by == "roll_off" and new.winner is None:
                if new.tied_on_buncos != old.tied_on_buncos:
                    raise NotAllowedNow(
                        f"set {old.set_no}'s roll-off was among {', '.join(old.tied_on_buncos)}; "
                        f"this correction ties {', '.join(new.tied_on_buncos)} instead",
                        expected="a correction that keeps who rolled off for the set",
                    )
                new = old
            elif new.winner is None:
                raise NotAllowedNow(
                    f"this correction ties set {old.set_no} between "
                    f"{', '.join(new.tied_on_buncos)}, which a roll-off would settle and the night "
                    "has passed that point",
                    expected="a correction that leaves the set one winner",
                )
            results.append(new)
        night = evolve(self, set_results=tuple(results))
        if self.phase != "rolloff" or self.rolloff_for is None or self.rolloff_for[0] != "set":
            return night, words
        if settle is not None:  # the set has its winner: the night goes on
            night = evolve(night, rolloff=None, rolloff_for=None)._new_period()
            return night._after_set(self.history[-1]), words
        current = night.set_results[-1]
        if words and current.winner is None:  # tied among others: their roll-off
            assert self.rolloff is not None
            rolloff = RollOff.begin(
                self.rolloff.purpose,
                current.tied_on_buncos,
                round_no=self.round_no,
                goal=self.rules.roll_off_target,
            )
            night = evolve(night, rolloff=rolloff)
        return night, words

    def _close_night(self, ev: CloseNightEvent) -> Night:
        """The host closes the night: results final, no more corrections."""
        check_closable(self.phase, self.closed)
        return evolve(self, closed=True)

    def _start_round(self, clock: str | None = None) -> Night:
        """The head table rings the bell to start the round (000, 001, 003, 004).

        Optional: a round also starts with its first roll. Once started, the changes of
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
            return evolve(self, started=True)
        if not self.rules.round_minutes:
            raise NotAllowedNow(
                "tonight's rounds are not timed, so a round has no clock to start",
                expected="start_round without a clock, or the house rule round_minutes",
            )
        timed = RoundClock(self.set_no, self.round_no, clock, self.rules.round_minutes)
        return evolve(self, started=True, clock=timed)

    def _time_up(self, ev: TimeUpEvent) -> Night:
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

    def _end_early(self) -> Night:
        """The host ends the night between rounds: the rounds played so far are the night.

        The set under way ends where it is (its winner decided as after round 6, roll-off
        and all); a night that was between sets simply ends. Prizes follow as usual.
        """
        if self.phase != "playing" or self.started:
            doing = (
                "a roll-off is under way"
                if self.phase == "rolloff"
                else (
                    "the night is already over" if self.phase == "over" else "a round is under way"
                )
            )
            raise NotAllowedNow(
                f"the night can only be ended between rounds, and {doing}",
                expected="end_night before the first roll of a round (finish or undo the round first)",
            )
        if not self.history:
            raise NotAllowedNow(
                "no round has been played yet, so there is nothing to end",
                expected="end_night after at least one finished round",
            )
        last = self.history[-1]
        change = {"type": "end_night", "set": self.set_no, "round": self.round_no}
        night = evolve(
            self,
            changes=(*self.changes, change),
            set_no=last.set_no,
            round_no=last.round_no,
            sets=last.set_no,
            tables=(),
            bell=False,
            bell_roll=None,
        )._new_period()
        if last.set_no == self.set_no:
            return night._end_set(self.seating, last)
        return night._end_night()

    def _between_rounds(self, ev: ChangeEvent) -> Night:
        if self.phase != "playing" or self.started:
            raise NotAllowedNow(
                f"a {ev['type']} can only happen between rounds",
                expected=(
                    f"the {ev['type']} after this round ends, before the next round's first roll"
                ),
            )
        kind = ev["type"]
        roster = self.roster
        kept: list[tuple[str, str]] = []  # partnerships a host's seating keeps on purpose
        if ev["type"] == "substitute":
            out, new = ev["out"], ev["in"]
            if out not in self.seated:
                raise InvalidSetup(
                    f"{out!r} is not seated", expected="a seated player: " + ", ".join(self.seated)
                )
            if new in self.seated:
                raise InvalidSetup(
                    f"{new!r} is already seated", expected="someone not playing this round"
                )
            seating = tuple(tuple(new if s == out else s for s in t) for t in self.seating)
        elif ev["type"] == "join":
            seating = reseat(self.seating, self.rules, join=[ev["player"]])
        elif ev["type"] == "leave":
            seating = reseat(self.seating, self.rules, leave=[ev["player"]])
        else:
            seating = validate_seating(ev["tables"], self.seated, self.rules)
            kept = self._partners_kept(seating, ev.get("overrides", ()))
        added = [p for t in seating for p in t if p is not None and p not in roster]
        if added:
            known = {name_key(p): p for p in roster}
            for name in added:
                same = same_name(name, known)
                if same is not None:
                    raise InvalidSetup(
                        f"{name!r} and the player {same!r} are the same name",
                        expected=f"{same!r} as the roster spells it, or a name that tells "
                        "them apart (case, spacing and look-alike letters are ignored)",
                    )
        cards = {**self.cards, **{p: Card() for p in added}}
        change = {k: v for k, v in ev.items() if k not in ("type", "id", "at")}
        if kept:
            change["partners_kept"] = [list(pair) for pair in kept]
        change.update({"type": kind, "set": self.set_no, "round": self.round_no})
        night = evolve(
            self, roster=roster + tuple(added), cards=cards, changes=(*self.changes, change)
        )
        last = self.history[-1] if self.history else None
        return night._begin_round(seating, last if self.round_no > 1 or self.set_no > 1 else None)

    def _partners_kept(self, seating: Tables, overrides: Sequence[str]) -> list[tuple[str, str]]:
        """The partnerships a host's seating keeps from the round just played, where the
        rules forbid it (003): refused unless the seat event overrides the rule."""
        if not self.history:
            return []
        last = self.history[-1]
        preset = self.setup["rules"] + (
            " with house rules" if self.setup.get("house_rules") else ""
        )
        return check_partner_rule(
            [(t.seats, t.team) for t in last.tables],
            seating,
            self.rules,
            overrides,
            preset=preset,
            when=f"set {last.set_no}, round {last.round_no}",
        )

    # -- store and forward at the bell (bunco.core.late_entries) ------------------------------
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
                count += ev["of_table"] == table_no and "winner" in ev
        return count

    def settled_by_hand(self, table_no: int) -> bool:
        """Whether the host entered table ``table_no``'s result by hand since the bell."""
        if self.bell_at is None:
            return False
        return any(
            ev["type"] == "go_on" and ev["of_table"] == table_no and "winner" in ev
            for ev in self.effective.slice(self.bell_at)
        )

    def _before_bell(self, ev: ScoringEvent) -> Night:
        """An entry tapped before the bell that arrives after it: placed at the end of
        its table's play before the bell, the bell then applied to the table again; every
        other table's entries score as they did."""
        table_no = ev.get("table")
        named = f"round {self.round_no}" + (f" of set {self.set_no}" if self.sets > 1 else "")
        if self.phase != "playing":
            raise RoundOver(
                "the round this entry was tapped in is over: the room has moved on",
                expected="the host's correction of that round",
            )
        if table_no is None or not 1 <= table_no <= len(self.tables):
            raise WrongTable(
                f"there is no table {table_no} in {named}",
                expected=f"a table number from 1 to {len(self.tables)}",
            )
        if self.bell_at is None:
            raise NotAllowedNow(
                f"the bell has not rung in {named}, so nothing comes before it yet",
                expected="the entry without before_bell",
            )
        later = self.entries_after_bell(table_no)
        if later:
            raise NotAllowedNow(
                f"table {table_no} has {later} entr{'y' if later == 1 else 'ies'} since the "
                "bell, so an entry from before it can no longer be placed",
                expected=f"the host's correction of table {table_no}'s round",
            )
        plain: dict[str, Any] = {k: v for k, v in ev.items() if k != "before_bell"}
        base = self._base_for(self.bell_at)
        rest = self.effective.slice(len(base.effective))
        rest.insert(self.bell_at - len(base.effective), normalize_event(plain))  # type: ignore[arg-type]

        def refused(event: StandingEvent, exc: BuncoError) -> BuncoError:
            if event.get("table") == table_no and event["type"] in ("roll", "tally"):
                return type(exc)(f"{exc.message} (before the bell)", expected=exc.expected)
            return NotAllowedNow(
                f"an entry from before the bell at table {table_no} cannot be placed: "
                f"what followed no longer applies ({exc.message})",
                expected=f"the host's correction of table {table_no}'s round",
            )

        after = self._refold(
            base, rest, ev, from_start=base is self.round_start, refused=refused, hold=True
        )
        _refuse_late_rescoring(self, after, table_no)
        _refuse_changed_corrections(self, after, len(base.corrections), table_no)
        after = evolve(after, holding=False)
        if all(t.status is Status.DONE for t in after.tables) and not after.awaited:
            return after._end_round()  # the round ends with this entry
        return after

    def _check_table_now(self, table_no: int) -> None:
        if table_no > len(self.tables):
            raise WrongTable(
                f"there is no table {table_no} this round",
                expected=f"a table number from 1 to {len(self.tables)}",
            )

    def _wait_for_phone(self, ev: WaitForPhoneEvent) -> Night:
        """The round does not end without this table's phone (it holds entries of it)."""
        table_no = ev["of_table"]
        if self.phase != "playing" or not self.started:
            raise NotAllowedNow(
                "no round is under way, so the room has nothing to wait for",
                expected="wait_for_phone during a round",
            )
        self._check_table_now(table_no)
        if table_no in self.awaited or table_no in self.decided:
            doing = "already waits for" if table_no in self.awaited else "went on without"
            raise NotAllowedNow(
                f"the room {doing} table {table_no}'s phone this round",
                expected="go_on once its entries are in, or the host's decision",
            )
        return evolve(self, awaited={**self.awaited, table_no: ev.get("entries")})

    def _go_on(self, ev: GoOnEvent) -> Night:
        """The room stops waiting for a table's phone; with ``winner``, the host entered
        who won there from the table's paper tally (its tie-break, if any, dropped). The
        round ends once every table has settled and no phone is waited for."""
        table_no, winner = ev["of_table"], ev.get("winner")
        if self.phase != "playing":
            raise NotAllowedNow(
                "no round is under way: the room has moved on",
                expected="go_on during the round it waits in",
            )
        self._check_table_now(table_no)
        tables = self.tables
        if winner is None and table_no not in self.awaited:
            raise NotAllowedNow(
                f"the room is not waiting for table {table_no}'s phone",
                expected="go_on for a table the room waits for, or with who won there",
            )
        if winner is not None:
            table = tables[table_no - 1]
            if not self.bell and table_no not in self.awaited:
                raise NotAllowedNow(
                    f"table {table_no} plays on before the bell: its entries decide who wins there",
                    expected="who won there once the bell has rung",
                )
            if winner not in table.seats:
                raise InvalidSetup(
                    f"{winner} does not sit at table {table_no} this round",
                    expected="one of " + ", ".join(p for p in table.seats if p),
                )
            side = table.side_of(table.seats.index(winner))
            settled = evolve(
                table, status=Status.DONE, winning_side=side, in_turn=False, tie_break=None
            )
            tables = (*tables[: table_no - 1], settled, *tables[table_no:])
        awaited = {t: n for t, n in self.awaited.items() if t != table_no}
        decided = self.decided | {table_no} if ev.get("why") != "sent" else self.decided
        night = evolve(self, tables=tables, awaited=awaited, decided=decided)
        if all(t.status is Status.DONE for t in tables) and not awaited and not self.holding:
            if night.bell_roll is None:
                ending = RoundEnding(self.set_no, self.round_no, None, None, "last_table")
                night = evolve(night, bell_roll=ending)
            night = night._end_round()
        return night

    # -- undo -------------------------------------------------------------------------------------
    def _undo(self, ev: UndoEvent) -> Night:
        """Remove the last roll or tally at a table by folding the round again without it."""
        table_no = ev["table"]
        for snapshot in (self.round_start, self.prev_start):
            if snapshot is None:
                break
            start = len(snapshot.effective)
            began = False  # the round under way has begun: the one before it is closed
            for index in range(len(self.effective) - 1, start - 1, -1):
                candidate = self.effective[index]
                if candidate["type"] in ("roll", "tally") and candidate.get("table") == table_no:
                    base = self._base_for(index) if snapshot is self.round_start else snapshot
                    rest = self.effective.slice(len(base.effective))
                    del rest[index - len(base.effective)]
                    after = self._refold(base, rest, ev, from_start=base is snapshot)
                    _refuse_rescoring(
                        self, after, table_no, None if base is snapshot else base.tables
                    )
                    _refuse_changed_corrections(self, after, len(base.corrections), table_no)
                    return after
                began = began or candidate["type"] in ("roll", "tally", "start_round")
            if began:
                break
        raise NotAllowedNow(
            f"there is no entry at table {table_no} to undo",
            expected="undo right after a roll or tally at that table, in the same round",
        )

    def _base_for(self, index: int) -> Night:
        """The newest checkpoint of the round under way from before standing event
        ``index`` (its first ``len(effective)`` events), else the round's start."""
        start = self.round_start
        assert start is not None
        for base in reversed(self.checkpoints):
            if len(base.effective) <= index:
                return base if base.round_start is start else start
        return start

    def _refold(
        self,
        snapshot: Night,
        rest: list[StandingEvent],
        ev: UndoEvent | ScoringEvent,
        *,
        from_start: bool = True,
        refused: Callable[[StandingEvent, BuncoError], BuncoError] | None = None,
        hold: bool = False,
    ) -> Night:
        """Fold ``rest`` again on ``snapshot``: the start of a round (``from_start``), or a
        checkpoint of the round under way, whose own checkpoints still hold; ``ev`` (an
        undo, or an entry placed before the bell) goes into the log. ``refused`` says why
        an event of ``rest`` that no longer applies refuses ``ev`` (an undo's words by
        default). ``hold``: the round does not end during the fold (the caller ends it)."""
        # a round's start is its own round start, and no checkpoint of the round is before
        # it; a checkpoint stays the newest one, with those before it
        if from_start:
            night = evolve(snapshot, round_start=snapshot, checkpoints=())
        else:
            kept = self.checkpoints
            at = next(i for i, c in enumerate(kept) if c is snapshot)
            night = evolve(snapshot, checkpoints=kept[: at + 1])
        if hold:
            night = evolve(night, holding=True)
        try:
            for later in rest:
                night = night._apply_effective(later)
                night = evolve(night, effective=night.effective.append(later))._marked()
        except BuncoError as exc:
            if refused is not None:
                raise refused(later, exc) from None
            table = ev.get("table")
            if later["type"] == "correct":
                raise _correction_depends(table or 0, later, exc.message) from None
            raise NotAllowedNow(
                f"the last entry at table {table} cannot be undone: a later entry depends on it "
                f"({exc.message})",
                expected="a correcting entry at that table instead",
            ) from None
        return evolve(night, events=self.events.append(ev))


def _refuse_rescoring(
    before: Night, after: Night, table_no: int, kept: tuple[TableRound, ...] | None = None
) -> None:
    """Refuse an undo at ``table_no`` that would score another table's entries otherwise
    (a ``winning-moves`` Bunco that ended the round everywhere: without it, the tie-break
    another table played would count as ordinary rolls). An undo changes only what it
    names; the entries that depend on it are undone first, one by one. ``kept``: the
    tables at the checkpoint the round was folded again from (their rolls stand as they
    were, so only those after it are compared)."""
    reopened = len(after.history) < len(before.history)
    old_rolls = [t.rolls for t in (before.history[-1].tables if reopened else before.tables)]
    for number, (rolls, new) in enumerate(zip(old_rolls, after.tables, strict=False), start=1):
        if number == table_no:
            continue
        same = len(kept[number - 1].rolls) if kept and number <= len(kept) else 0
        was = [_as_scored(r) for r in rolls[same:]]
        now = [_as_scored(r) for r in new.rolls[same:]]
        changed = sum(a != b for a, b in zip(was, now, strict=False)) + abs(len(was) - len(now))
        if not changed:
            continue
        tie_breaks = any(r.phase is Phase.TIE_BREAK for r in rolls)
        what = (
            f"table {number}'s {changed} tie-break entr{'y' if changed == 1 else 'ies'}"
            if tie_breaks
            else f"{changed} entr{'y' if changed == 1 else 'ies'} at table {number}"
        )
        raise NotAllowedNow(
            f"the last entry at table {table_no} cannot be undone alone: {what} would be "
            "scored again as ordinary rolls",
            expected=f"undo the entries at table {number} first (the last one first), "
            f"then this one; or a correcting entry at table {table_no}",
        )


def _refuse_late_rescoring(before: Night, after: Night, table_no: int) -> None:
    """Refuse an entry placed before the bell at ``table_no`` that would score another
    table's entries otherwise (the head table's entry that would ring the bell sooner, say):
    a late entry changes its own table only."""
    ended = len(after.history) > len(before.history)
    now = [t.rolls for t in (after.history[-1].tables if ended else after.tables)]
    for number, (old, new) in enumerate(zip(before.tables, now, strict=False), start=1):
        if number == table_no:
            continue
        if [_as_scored(r) for r in old.rolls] != [_as_scored(r) for r in new]:
            raise NotAllowedNow(
                f"an entry from before the bell at table {table_no} cannot be placed: "
                f"table {number}'s entries would score otherwise",
                expected=f"the host's correction of table {table_no}'s round",
            )


def _refuse_changed_corrections(before: Night, after: Night, kept: int, table_no: int) -> None:
    """Refuse an undo at ``table_no`` that would change what a host's correction did
    (after the ``kept`` corrections it leaves alone): the roll a correction moved or
    removed, or the number it names, would be another (bunco.core.running_corrections)."""
    for was, now in zip(before.corrections[kept:], after.corrections[kept:], strict=True):
        if (was.roll, was.record, was.player) != (now.roll, now.record, now.player):
            raise NotAllowedNow(
                f"the last entry at table {table_no} cannot be undone: the host's correction "
                f"at table {was.table} ({was.change} of roll {was.roll}: {was.reason}) names "
                "a roll this undo would change",
                expected="the host corrects that roll instead (remove_roll or move)",
            )


def _correction_depends(table_no: int, ev: StandingEvent, why: str) -> NotAllowedNow:
    """The refusal of an undo whose entry a later correction of the host depends on."""
    assert ev["type"] == "correct"
    roll = f" of roll {ev['roll']}" if "roll" in ev else ""
    return NotAllowedNow(
        f"the last entry at table {table_no} cannot be undone: the host's correction at "
        f"table {ev['of_table']} ({ev['change']}{roll}: {ev['reason']}) depends on it ({why})",
        expected="the host corrects that roll instead (remove_roll or move)",
    )


def _as_scored(record: RollRecord) -> tuple[Any, ...]:
    """What an entry scored, with what it was for (a roll after the bell is a roll)."""
    phase = Phase.PLAY if record.phase is Phase.AFTER_BELL else record.phase
    return (record.roller, record.credited, record.dice, record.points, record.kind, phase)


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


def _left_of_winner(
    previous: RoundResult, number: int, seats: tuple[str | None, ...], rules: RuleSet
) -> int | None:
    if number > len(previous.tables):
        return None
    clincher = previous.tables[number - 1].clincher
    if clincher is None or clincher not in seats:
        return None
    step = 1 if rules.direction.value == "left" else -1
    return (seats.index(clincher) + step) % len(seats)


def _table_result(table: TableRound) -> TableResult:
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


def _set_winner(set_no: int, cards: Mapping[str, Card], players: Sequence[str]) -> SetResult:
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
