"""What an undo at a table would do, before anyone does it.

An undo removes the last roll or tally at a table and folds the round again without it
(:meth:`Night.apply` with ``{"type": "undo", "table": n}``). Most undos change only that
table's round in play; some reach further: the roll that rang the bell for the room
(every table was stopped by it), a ``winning-moves`` Bunco that ended the round
everywhere, or an entry of a round that is already over (the round reopens at every
table and the next round's seating is cancelled). :func:`undo_effect` works out which,
so a table's phone may do the first kind and only the host the second, after a question
that names what will be undone and what it reopens.

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> effect = undo_effect(night, 1)
>>> effect.question(), effect.host_only
("Undo Ann's +2 (1 1 4) at table 1?", False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typing_extensions import TypedDict

from bunco.core.events import StandingEvent
from bunco.core.host_shapes import SetRound
from bunco.core.night import Night
from bunco.core.rules import RollKind, RuleSet
from bunco.core.table import Phase, RollRecord

KIND_WORDS = {
    RollKind.MISS: "miss",
    RollKind.BUNCO: "Bunco",
    RollKind.LOW_BUNCO: "Low Bunco",
    RollKind.HIGH_BUNCO: "High Bunco",
    RollKind.WIPEOUT: "Wipeout",
}


def entry_words(record: RollRecord, rules: RuleSet) -> str:
    """A roll as a person says it: ``+2``, ``miss``, ``Bunco``, ``roll for high (12)``.

    >>> from bunco.core.presets import get_rules
    >>> from bunco.core.table import Phase, RollRecord
    >>> r = RollRecord(0, "Ann", "Ann", (4, 4, 4), 21, RollKind.BUNCO, Phase.PLAY, 1)
    >>> entry_words(r, get_rules("classic"))
    'Bunco'
    >>> entry_words(RollRecord(0, "Ann", "Ann", (0, 0, 0), 12, RollKind.POINTS, Phase.PAPER, 0),
    ...             get_rules("classic"))
    '12 points from the paper'
    """
    if record.phase is Phase.FIRST_ROLL:
        return f"roll for high ({sum(record.dice)})"
    if record.phase is Phase.PAPER:  # a line of the paper tally the host entered
        if record.kind in (RollKind.POINTS, RollKind.MISS):
            return f"{record.points} point{'' if record.points == 1 else 's'} from the paper"
        if record.kind is RollKind.BUNCO:
            return "Bunco from the paper"
        kind = rules.mini_label if record.kind is RollKind.MINI_BUNCO else KIND_WORDS[record.kind]
        return f"{kind.rstrip('!')} from the paper"
    if record.kind is RollKind.POINTS:
        return f"+{record.points}"
    if record.kind is RollKind.MINI_BUNCO:
        return rules.mini_label
    return KIND_WORDS.get(record.kind, record.kind.value)


class NoEntry(TypedDict):
    """No entry: the undo removed none that the night still held (an empty object)."""


class UndoView(TypedDict):
    """What an undo would do, as the pages ask the host (:meth:`UndoEffect.as_dict`)."""

    table: int
    entry: StandingEvent | NoEntry
    player: str | None
    kind: str | None
    points: int | None
    dice: list[int] | None
    reopens: SetRound | None
    cancels: str | None
    unrings: bool
    other_tables: list[int]
    host_only: bool
    what: str
    question: str


@dataclass(frozen=True, slots=True)
class UndoEffect:
    """An undo at ``table``: the entry it removes and everything else it changes."""

    table: int
    entry: StandingEvent | None  # the event removed (a roll or a tally)
    record: RollRecord | None  # what that entry scored, where it can be found
    after: Night  # the night after the undo
    reopens: tuple[int, int] | None  # (set, round) of a finished round it reopens
    cancels: str | None  # what the reopening cancels: the new seating, a roll-off, the prizes
    unrings: bool  # the bell rang for the room with this entry and stops ringing
    other_tables: tuple[int, ...]  # other tables whose round changes
    rules: RuleSet

    @property
    def host_only(self) -> bool:
        """Whether the undo reaches beyond its own table's round in play (the host's)."""
        return self.reopens is not None or self.unrings or bool(self.other_tables)

    def what(self) -> str:
        """``Ann's Bunco (5 5 5) at table 2``."""
        dice = None if self.entry is None or self.entry["type"] != "roll" else self.entry["dice"]
        faces = f" ({' '.join(str(d) for d in dice)})" if dice else ""
        if self.record is None:
            return f"the last entry{faces} at table {self.table}"
        name = self.record.roller
        return f"{name}'s {entry_words(self.record, self.rules)}{faces} at table {self.table}"

    def consequences(self) -> list[str]:
        """What else changes, in words; empty when only this table's round changes."""
        out = []
        if self.reopens is not None:
            set_no, round_no = self.reopens
            where = f"Round {round_no}" + (f" of set {set_no}" if self.after.sets > 1 else "")
            out.append(f"{where} reopens at every table")
            if self.cancels:
                out.append(f"{self.cancels} is cancelled")
        elif self.unrings:
            out.append("the bell is cancelled: every table plays on")
        elif self.other_tables:
            listed = ", ".join(str(t) for t in self.other_tables)
            out.append(f"table{'s' if len(self.other_tables) > 1 else ''} {listed} change too")
        return out

    def question(self) -> str:
        """``Undo Ann's Bunco (5 5 5) at table 2? Round 3 reopens at every table; ...``."""
        text = f"Undo {self.what()}?"
        more = "; ".join(self.consequences())
        return f"{text} {more[0].upper()}{more[1:]}." if more else text

    def as_dict(self) -> UndoView:
        r = self.record
        entry: StandingEvent | NoEntry = {}
        if self.entry is not None:  # without the client's command id and time
            entry = self.entry.copy()
            entry.pop("id", None)
            entry.pop("at", None)
        return {
            "table": self.table,
            "entry": entry,
            "player": r.roller if r else None,
            "kind": r.kind.value if r else None,
            "points": r.points if r else None,
            "dice": list(r.dice) if r else None,
            "reopens": None
            if self.reopens is None
            else {"set": self.reopens[0], "round": self.reopens[1]},
            "cancels": self.cancels,
            "unrings": self.unrings,
            "other_tables": list(self.other_tables),
            "host_only": self.host_only,
            "what": self.what(),
            "question": self.question(),
        }


def undo_effect(night: Night, table: int) -> UndoEffect:
    """What ``{"type": "undo", "table": table}`` would do to ``night``.

    Raises the engine's :class:`~bunco.core.errors.BuncoError` when there is nothing to
    undo there (or a later entry depends on it), exactly as the undo itself would.
    """
    after = night.apply({"type": "undo", "table": table})
    entry = _removed(night, after)
    reopens = None
    cancels = None
    if len(after.history) < len(night.history):
        last = night.history[-1]
        reopens = (last.set_no, last.round_no)
        cancels = _cancelled(night)
        record = _last_record(last.tables[table - 1].rolls if table <= len(last.tables) else ())
    else:
        record = _last_record(night.tables[table - 1].rolls if table <= len(night.tables) else ())
    unrings = reopens is None and night.bell and not after.bell
    others: tuple[int, ...] = ()
    if reopens is None:
        others = tuple(
            n
            for n, (a, b) in enumerate(zip(night.tables, after.tables, strict=False), start=1)
            if n != table and a != b
        )
    return UndoEffect(table, entry, record, after, reopens, cancels, unrings, others, night.rules)


def _removed(night: Night, after: Night) -> StandingEvent | None:
    """The effective event the undo took out (the first one ``after`` no longer has)."""
    start = len(night.prev_start.effective) if night.prev_start is not None else 0
    start = min(start, len(after.effective))
    i = start
    while i < len(after.effective) and night.effective[i] is after.effective[i]:
        i += 1
    return night.effective[i] if i < len(night.effective) else None


def _last_record(rolls: Sequence[RollRecord]) -> RollRecord | None:
    return rolls[-1] if rolls else None


def _cancelled(night: Night) -> str:
    """What a reopened round takes back, as the night stands now."""
    if night.phase == "over":
        return "the prizes"
    if night.phase == "rolloff" and night.rolloff is not None:
        return f"the roll-off for {night.rolloff.purpose}"
    if night.set_no != night.history[-1].set_no:
        return f"set {night.set_no}'s seating"
    return "the new seating"
