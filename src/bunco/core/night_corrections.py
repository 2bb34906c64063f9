"""The host's corrections of a table's round: of a finished round (its result, the cards,
the set winners and the prizes follow) or of the round in play (its points follow), and
the closing of the night that makes the results final.

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`correct` is ``Night._correct``), so
they take the night as ``self`` and return a new one. What a correction changes in a
table's record is :mod:`bunco.core.corrections` and :mod:`bunco.core.running_corrections`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bunco.core import running_corrections
from bunco.core.cards import Card
from bunco.core.corrections import (
    CloseNightEvent,
    CorrectEvent,
    Correction,
    check_closable,
    check_correctable,
    correct_result,
)
from bunco.core.errors import NotAllowedNow, WrongTable
from bunco.core.evolve import evolve
from bunco.core.rolloff import RollOff
from bunco.core.round_results import SetResult, seat_counts, set_winner
from bunco.core.rules import RollKind, RoundEnd
from bunco.core.table import Phase, RollRecord

if TYPE_CHECKING:
    from bunco.core.night import Night


def correct(self: Night, ev: CorrectEvent) -> Night:
    """The host corrects a table's finished round: the round's result, the cards, the
    set winners and (once decided) the prizes follow; the seating that followed stands."""
    check_correctable(self.closed)
    set_no, round_no, table_no = ev["set"], ev["round"], ev["of_table"]
    where = f"table {table_no} in round {round_no}" + (f" of set {set_no}" if self.sets > 1 else "")
    index = next(
        (i for i, r in enumerate(self.history) if (r.set_no, r.round_no) == (set_no, round_no)),
        None,
    )
    if index is None:
        if self.phase == "playing" and (set_no, round_no) == (self.set_no, self.round_no):
            return self._correct_running(ev, where)
        named = f"round {round_no}" + (f" of set {set_no}" if self.sets > 1 else "")
        rounds = [
            f"{r.set_no}.{r.round_no}" if self.sets > 1 else str(r.round_no) for r in self.history
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
    night = evolve(night, cards=night._cards_from_history(), last_bunco=night._last_bunco(record))
    night, words = night._set_results_again()
    prizes_decided = self.prize_cards is not None and (
        self.phase == "over" or (self.rolloff_for is not None and self.rolloff_for[0] == "prize")
    )
    if prizes_decided:
        night, more = night._prizes_again()
        words += more
    if words:
        record = evolve(record, rolloffs=tuple(words))
        night = evolve(night, corrections=(*self.corrections, record))
    return night


def correct_running(self: Night, ev: CorrectEvent, where: str) -> Night:
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
    table, record = running_corrections.correct_running(
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


def last_bunco_now(self: Night) -> str | None:
    """Who rolled the night's last Bunco, after a correction of the round in play moved,
    added or removed one: the newest round with a Bunco decides it where its order is
    known (one table, or one Bunco in the round), else it stays as it was."""
    rounds: list[list[Sequence[RollRecord]]] = [[t.rolls for t in r.tables] for r in self.history]
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


def cards_from_history(self: Night) -> dict[str, Card]:
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


def last_bunco(self: Night, fixed: Correction) -> str | None:
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


def set_results_again(self: Night) -> tuple[Night, list[str]]:
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
            new = set_winner(old.set_no, self.cards, self.seated_in_set(old.set_no))
            among = ", ".join(old.tied_on_buncos)
            if self.rolloff_for != ("set", old.set_no) or new.tied_on_buncos == old.tied_on_buncos:
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
        new = set_winner(old.set_no, self.cards, self.seated_in_set(old.set_no))
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


def close_night(self: Night, ev: CloseNightEvent) -> Night:
    """The host closes the night: results final, no more corrections."""
    check_closable(self.phase, self.closed)
    return evolve(self, closed=True)
