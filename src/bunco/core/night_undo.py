"""Undo: the last entry at a table is removed by folding the round again without it, from
the round's start or its newest checkpoint before the entry (``Night.checkpoints``); the
same fold again places an entry from before the bell
(:func:`bunco.core.night_late_entries.before_bell`).

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`undo` is ``Night._undo``), so they
take the night as ``self`` and return a new one. What a fold again may not change is
:mod:`bunco.core.refold_refusals`.

>>> from bunco.core.night import Night
>>> night = Night.start({"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> night.apply({"type": "undo", "table": 1}).tables[0].side_scores
(0, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bunco.core.errors import BuncoError, NotAllowedNow
from bunco.core.events import ScoringEvent, StandingEvent, UndoEvent
from bunco.core.evolve import evolve
from bunco.core.refold_refusals import (
    correction_depends,
    refuse_changed_corrections,
    refuse_rescoring,
)

if TYPE_CHECKING:
    from bunco.core.night import Night


def undo(self: Night, ev: UndoEvent) -> Night:
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
                self._refuse_undo_after_paper(snapshot, table_no)
                base = self._base_for(index) if snapshot is self.round_start else snapshot
                rest = self.effective.slice(len(base.effective))
                del rest[index - len(base.effective)]
                after = self._refold(base, rest, ev, from_start=base is snapshot)
                refuse_rescoring(self, after, table_no, None if base is snapshot else base.tables)
                refuse_changed_corrections(self, after, len(base.corrections), table_no)
                return after
            began = began or candidate["type"] in ("roll", "tally", "start_round", "seated")
        if began:
            break
    raise NotAllowedNow(
        f"there is no entry at table {table_no} to undo",
        expected="undo right after a roll or tally at that table, in the same round",
    )


def refuse_undo_after_paper(self: Night, snapshot: Night, table_no: int) -> None:
    """Refuse an undo at a table whose score of that round (the round in play, or the
    one before when ``snapshot`` is its start) the host entered from the paper."""
    last = self.history[-1] if self.history else None
    if snapshot is self.round_start or last is None:
        at = (self.set_no, self.round_no)
    else:
        at = (last.set_no, last.round_no)
    if self.from_paper(*at, table_no):
        raise NotAllowedNow(
            f"the host entered table {table_no}'s score of round {at[1]} from the paper: "
            "its entries there no longer count, so there is none to undo",
            expected="the host's correction of that table's round",
        )


def base_for(self: Night, index: int) -> Night:
    """The newest checkpoint of the round under way from before standing event
    ``index`` (its first ``len(effective)`` events), else the round's start."""
    start = self.round_start
    assert start is not None
    for base in reversed(self.checkpoints):
        if len(base.effective) <= index:
            return base if base.round_start is start else start
    return start


def refold(
    self: Night,
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
            raise correction_depends(table or 0, later, exc.message) from None
        raise NotAllowedNow(
            f"the last entry at table {table} cannot be undone: a later entry depends on it "
            f"({exc.message})",
            expected="a correcting entry at that table instead",
        ) from None
    return evolve(night, events=self.events.append(ev))
