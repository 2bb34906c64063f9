"""Corrections of the round in play: the host fixes a table's record while it still plays.

A ``correct`` event (:mod:`bunco.core.corrections`) naming the round under way changes
that table's record at once: ``move`` (roll ``roll`` counts for ``player``, at that
player's seat), ``add_roll`` (``player`` rolled ``dice`` and it was never entered; it
comes last in the table's list) and ``remove_roll`` (roll ``roll`` never happened). The
table's points and side scores follow at once; its pages, the host's page and the big
screen show them through the normal live view. What a correction fixes is the record
(whose roll, whose points, whose Bunco; which rolls happened), never the play:

- **the turn stays where the dice are**: who rolls next, whether a turn goes on and the
  count of turns at the table are what the table's own entries made them; the table's next
  entries fold on top of the corrected points;
- **the bell is the table's**: a correction that would bring a side to the target where
  that rings the bell (the head table, the only table, or any table that plays to its own
  target) or add a round-ending Bunco (``winning-moves``) before the bell is refused. The
  bell is rung in the room by a roll at the table, and a bell rung from the host's phone
  would end a round no table saw end: the table enters its roll (which rings the bell), or
  the host makes the correction once the round has ended. A correction never un-rings a
  bell that rang either: the round's ending stands;
- **who won is decided when the round ends**: ``winner`` is refused on a round in play
  (after the round, a ``winner`` correction sets it); so are corrections at a table still
  rolling for high to decide who starts (no roll of play yet) and at a table in a
  tie-break (it was settled on the points as they stood: correct it once the round ends);
- a table that has settled while other tables play on (its W and L are decided) takes
  ``move``, ``add_roll`` and ``remove_roll`` as a finished round does: points, Buncos and
  Minis change, who won does not;
- the round's result, once it ends, carries the corrected rolls, and later corrections of
  the finished round work on it as on any other.

The table's own ``undo`` still takes back its last entry (the host's added rolls are not
the table's entries): the night folds the round again with the correction in its place,
so a live night and a replay of its log agree. An undo that would change what a
correction did (the roll it moved or removed is the entry undone, or the roll a
correction names would get another number) is refused with the correction named: the
host fixes that roll with another correction (:func:`bunco.core.night_undo.undo`).

>>> from bunco.core.presets import get_rules
>>> from bunco.core.table import TableRound
>>> rules = get_rules("classic")
>>> t = TableRound.begin(1, ("Ann", "Bea", "Cat", "Dee"), team=True, target=21, round_no=1, rules=rules)
>>> t = t.roll((1, 1, 4), rules)
>>> ev = {"type": "correct", "set": 1, "round": 1, "of_table": 1, "change": "move", "roll": 1,
...       "player": "Bea", "reason": "Bea rolled it"}
>>> fixed, record = correct_running(t, ev, rules, "table 1", rings=True, bell=False)
>>> fixed.side_scores, fixed.roller, record.scores_before, record.scores_after
((0, 2), 'Ann', (2, 0), (0, 2))
"""

from __future__ import annotations

from bunco.core.corrections import (
    CorrectEvent,
    Correction,
    changed_rolls,
    named_seats,
    seat_points_of,
)
from bunco.core.errors import NotAllowedNow
from bunco.core.event_seq import EventSeq
from bunco.core.evolve import evolve
from bunco.core.rules import RollKind, RuleSet
from bunco.core.table import Status, TableRound


def correct_running(
    table: TableRound,
    ev: CorrectEvent,
    rules: RuleSet,
    where: str,
    *,
    rings: bool,
    bell: bool,
) -> tuple[TableRound, Correction]:
    """``table`` (in the round under way) corrected by ``ev``, and the record of it.

    ``rings``: a side of this table reaching its target rings the bell (the head table,
    the only table, or a table playing to its own target); ``bell``: the bell has rung
    for the room. Raises a :class:`~bunco.core.errors.BuncoError` saying why a correction
    does not fit the table now (see the module docstring).
    """
    _check_table(table, ev, where)
    rolls, record, number = changed_rolls(table.seats, table.rolls, ev, rules, where)
    points = seat_points_of(rolls, len(table.seats), table.team)
    fixed = evolve(table, rolls=EventSeq.of(rolls), points=points)
    if table.status is Status.PLAYING and not bell:
        _check_bell(table, fixed, record.kind, ev, rules, where, rings=rings)
    at = ev.get("at")
    winners = named_seats(table.seats, table.winning_seats)
    return fixed, Correction(
        set_no=ev["set"],
        round_no=ev["round"],
        table=ev["of_table"],
        change=ev["change"],
        player=ev.get("player"),
        record=record,
        roll=number,
        winners_before=winners,
        winners_after=winners,
        scores_before=table.side_scores,
        scores_after=fixed.side_scores,
        reason=ev["reason"],
        by=ev.get("by"),
        at=at if isinstance(at, str) else None,
    )


def _check_table(table: TableRound, ev: CorrectEvent, where: str) -> None:
    """Refuse what a table in play cannot take now, saying what to do instead."""
    if ev["change"] == "winner":
        raise NotAllowedNow(
            f"{where} is still being played: who won there is decided when the round ends",
            expected="a winner correction once the round has ended; now move, add_roll or "
            "remove_roll",
        )
    if table.status is Status.FIRST_ROLL:
        raise NotAllowedNow(
            f"{where} is still rolling for high to decide who starts: no roll of play yet",
            expected="the correction once the table plays (its entries are undone at the table)",
        )
    if table.status is Status.TIE_BREAK:
        raise NotAllowedNow(
            f"{where} is in a tie-break, begun on the points as they stood",
            expected="the correction once the round has ended (then a winner correction "
            "if the winner changes)",
        )


def _check_bell(
    before: TableRound,
    after: TableRound,
    kind: RollKind,
    ev: CorrectEvent,
    rules: RuleSet,
    where: str,
    *,
    rings: bool,
) -> None:
    """Refuse a correction that would ring the bell (see the module docstring)."""
    if ev["change"] == "add_roll" and kind is RollKind.BUNCO and rules.bunco_ends_round:
        raise NotAllowedNow(
            f"a Bunco added at {where} would end the round for every table, and the bell "
            "is rung by a roll at a table",
            expected="the Bunco entered at the table (its roll rings the bell), or this "
            "correction once the round has ended",
        )
    if not rings:
        return
    reached = [
        side
        for side, (was, now) in enumerate(zip(before.side_scores, after.side_scores, strict=True))
        if now >= before.target > was
    ]
    if reached:
        seats = before.side_seats(reached[0])
        who = " & ".join(n for n in (before.seats[i] for i in seats) if n) or "a ghost seat"
        raise NotAllowedNow(
            f"this correction brings {who} to {after.side_scores[reached[0]]} at {where}, "
            f"the round's target of {before.target}, and the bell is rung by a roll at a table",
            expected="the roll entered at the table (it rings the bell), or this correction "
            "once the round has ended",
        )
