"""A roll or a tally at a table: whose turn it is, the dice it stands for, what it scores,
the traveler and the last Bunco, and the bell it may ring.

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`roll` is ``Night._roll``), so they
take the night as ``self`` and return a new one; the round's end is
:func:`bunco.core.night_rounds.end_round`.

>>> from bunco.core.night import Night
>>> night = Night.start({"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> night.traveler, night.tables[0].side_scores
(None, (2, 0))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bunco.core.dice import Dice, tally_dice, total_dice
from bunco.core.errors import NotAllowedNow, NotYourTurn, RoundOver, WrongTable
from bunco.core.events import ScoringEvent
from bunco.core.evolve import evolve
from bunco.core.round_results import RoundEnding
from bunco.core.rules import AfterBell, RollKind, RoundEnd
from bunco.core.table import Phase, RollRecord, Status, TableRound

if TYPE_CHECKING:
    from bunco.core.night import Night


_DICE: tuple[Dice, ...] = tuple(
    (a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
)
"""The 216 throws of three dice, shared by every roll record (a night holds millions)."""


def roll(self: Night, ev: ScoringEvent) -> Night:
    """A roll or a tally at a table (or in the roll-off under way): scored there, then the
    bell it rings, and the round's end once every table has settled."""
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
    self._refuse_after_paper(table_no)
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


def ending(self: Night, table_no: int, record: RollRecord, why: str) -> Night:
    """This night with the round's ending: ``record`` at table ``table_no`` ended it, for
    ``why`` (:class:`~bunco.core.round_results.RoundEnding`)."""
    ending = RoundEnding(self.set_no, self.round_no, table_no, record, why)
    return evolve(self, bell_roll=ending)


def check_player(self: Night, ev: ScoringEvent, roller: str, table: TableRound | None) -> None:
    """Refuse a roll that names a player other than ``roller``, whose turn it is."""
    player = ev.get("player")
    if player is None or player == roller:
        return
    where = f" at table {table.number}" if table is not None else " in the roll-off"
    raise NotYourTurn(
        f"it is {roller}'s turn{where}, not {player}'s", expected=f"a roll by {roller}"
    )


def dice_of(self: Night, ev: ScoringEvent, needs_faces: bool, where: str) -> Dice:
    """The dice ``ev`` stands for: its faces, a total (only while rolling for high:
    ``needs_faces``), or a tally's outcome in this round."""
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


def after_scoring(self: Night, record: RollRecord) -> tuple[str | None, str | None]:
    """The traveler's holder and the last Bunco's roller after ``record``."""
    if record.phase is Phase.FIRST_ROLL:
        return self.traveler, self.last_bunco
    last_bunco = self.last_bunco
    if record.kind is RollKind.BUNCO and record.credited is not None:
        last_bunco = record.credited
    return (record.roller if self._travels(record) else self.traveler), last_bunco


def travels(self: Night, record: RollRecord) -> bool:
    """Whether ``record`` passes the traveler to its roller, by the rules' ``traveling``
    trigger (never in the round the rules leave out)."""
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


def maybe_ring(self: Night, table_no: int) -> Night:
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


def ring_all(self: Night, finish: bool) -> Night:
    """The bell rung for the room: every table finishes by the rules (``finish``: the
    roller in mid-turn rolls on)."""
    return evolve(self, bell=True, tables=tuple(t.bell(finish, self.rules) for t in self.tables))


def who_rolls_text(self: Night) -> str:
    """Who may roll now, in words for a refusal's ``expected`` (empty when nobody)."""
    rollers = self.expected_rollers()
    if not rollers:
        return ""
    return "a roll by " + ", ".join(f"{p} (table {t})" if t else p for t, p in rollers)
