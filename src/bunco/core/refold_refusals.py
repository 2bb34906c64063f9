"""What an undo or a late entry may not do when the round is folded again without (or
with) one entry: score another table's entries otherwise, or change what a host's
correction did.

An undo (:func:`bunco.core.night_undo.undo`) and an entry from before the bell
(:func:`bunco.core.night_late_entries.before_bell`) fold the round again from its start or
a checkpoint; these compare the night before with the night after and refuse, naming the
entries that would change and what to do instead. They read two nights and change neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bunco.core.corrections import Correction
from bunco.core.errors import NotAllowedNow
from bunco.core.events import StandingEvent
from bunco.core.table import Phase, RollRecord, TableRound


class _Table(Protocol):
    @property
    def rolls(self) -> Sequence[RollRecord]: ...


class _Round(Protocol):
    @property
    def tables(self) -> Sequence[_Table]: ...


class Night(Protocol):
    """What these refusals read of a night (:class:`~bunco.core.night.Night` has all of it;
    a protocol keeps core free of cycles)."""

    @property
    def history(self) -> Sequence[_Round]: ...
    @property
    def tables(self) -> Sequence[_Table]: ...
    @property
    def corrections(self) -> Sequence[Correction]: ...


def refuse_rescoring(
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


def refuse_late_rescoring(before: Night, after: Night, table_no: int) -> None:
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


def refuse_changed_corrections(before: Night, after: Night, kept: int, table_no: int) -> None:
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


def correction_depends(table_no: int, ev: StandingEvent, why: str) -> NotAllowedNow:
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
