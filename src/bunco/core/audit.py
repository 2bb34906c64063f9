"""The audit list: every correction and every undo of a night, in words (what, who, when, why).

Corrections are kept by the night as they were made (:mod:`bunco.core.corrections`); an
undo leaves only ``{"type": "undo", "table": n}`` in the log, so what it took back is
found by folding the log again up to it (:func:`~bunco.core.undo.undo_effect`). ``who``
names the sender of each event where the caller knows it (the server knows whose token
sent it); a correction also carries it in its ``by``.

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> night = night.apply({"type": "undo", "table": 1, "at": "2026-11-27T20:01:00Z"})
>>> [e["what"] for e in audit_trail(night)]
["Undo of Ann's +2 (1 1 4) at table 1"]
"""

from collections.abc import Callable, Sequence
from typing import Literal, NotRequired

from typing_extensions import TypedDict

from bunco.core.corrections import Correction
from bunco.core.errors import BuncoError
from bunco.core.events import Event
from bunco.core.night import Night
from bunco.core.undo import entry_words, undo_effect


def _dice(faces: Sequence[int]) -> str:
    return " ".join(str(d) for d in faces)


def correction_words(c: Correction, night: Night) -> str:
    """A correction as the host would say it.

    ``Table 2, round 3: Bunco (3 3 3) moved from Ann to Bea``
    """
    where = f"Table {c.table}, round {c.round_no}" + (
        f" of set {c.set_no}" if night.sets > 1 else ""
    )
    r = c.record
    if c.change == "winner":
        was = " & ".join(c.winners_before) or "nobody"
        text = f"winner set to {' & '.join(c.winners_after)} (was {was})"
    elif r is not None and c.change == "move":
        text = (
            f"roll {c.roll}, {entry_words(r, night.rules)} ({_dice(r.dice)}), moved from "
            f"{r.credited or 'a ghost seat'} to {c.player}"
        )
    elif r is not None and c.change == "add_roll":
        text = f"roll added for {c.player}: {entry_words(r, night.rules)} ({_dice(r.dice)})"
    elif r is not None:
        text = (
            f"roll {c.roll} removed: {r.credited or 'a ghost seat'}'s "
            f"{entry_words(r, night.rules)} ({_dice(r.dice)})"
        )
    else:  # pragma: no cover - every change but a winner names its roll
        text = c.change
    if c.change != "winner" and c.scores_before != c.scores_after:
        text += f"; scores {_score(c.scores_before)} → {_score(c.scores_after)}"
    for rolloff in c.rolloffs:  # what it did to the roll-offs
        text += f"; {rolloff}"
    return f"{where}: {text}"


def _score(scores: Sequence[int]) -> str:
    return "–".join(str(s) for s in scores)


# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation.
class AuditEntry(TypedDict):
    """One correction or undo (:func:`audit_trail`), its keys in the order the audit list
    (``GET .../corrections``) and the report write them. ``set``, ``round`` and ``change``
    name a correction's round and change: an undo has none (the report leaves them out,
    the audit list's reply writes them as null)."""

    kind: Literal["correction", "undo"]
    what: str
    who: str | None
    at: str | None  # when it was entered, where the log has it
    why: str | None  # a correction's reason
    event: int  # its index in the night's events
    set: NotRequired[int | None]
    round: NotRequired[int | None]
    table: int
    change: NotRequired[str | None]


def audit_trail(night: Night, who: Callable[[int], str | None] | None = None) -> list[AuditEntry]:
    """Every correction and undo of ``night``, in the order they were made.

    Each entry: ``kind`` (``correction`` or ``undo``), ``what`` (in words), ``who``,
    ``at`` (the time it was entered, where the log has it), ``why`` (a correction's
    reason; ``None`` for an undo), ``event`` (its index in the night's events) and, for a
    correction, ``set``, ``round``, ``table`` and ``change``. ``who(i)`` names the sender
    of event ``i`` where the caller knows it.
    """
    if not any(e["type"] in ("undo", "correct") for e in night.events):
        return []
    _, entries = audit_more(Night.start(night.setup), night.events, 0, who)
    return entries


def audit_more(
    state: Night,
    events: Sequence[Event],
    start: int,
    who: Callable[[int], str | None] | None = None,
) -> tuple[Night, list[AuditEntry]]:
    """Fold ``events[start:]`` onto ``state`` (the night after ``events[:start]``): the
    night after them and the audit entries they add. A caller that keeps the night it got
    folds only the events stored since (a night's events are only ever appended to)."""
    out: list[AuditEntry] = []
    for index in range(start, len(events)):
        ev = events[index]
        if ev["type"] == "undo":
            try:
                what = "Undo of " + undo_effect(state, ev["table"]).what()
            except BuncoError:  # pragma: no cover - the log's undo was accepted once
                what = f"Undo at table {ev['table']}"
            at = ev.get("at")
            out.append(
                {
                    "kind": "undo",
                    "what": what,
                    "who": who(index) if who else None,
                    "at": at if isinstance(at, str) else None,
                    "why": None,
                    "event": index,
                    "table": ev["table"],
                }
            )
        state = state.apply(ev)
        if ev["type"] == "correct":
            c = state.corrections[-1]
            out.append(
                {
                    "kind": "correction",
                    "what": correction_words(c, state),
                    "who": c.by or (who(index) if who else None),
                    "at": c.at,
                    "why": c.reason,
                    "event": index,
                    "set": c.set_no,
                    "round": c.round_no,
                    "table": c.table,
                    "change": c.change,
                }
            )
    return state, out
