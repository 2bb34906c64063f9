"""What the host's dashboard flags at each table: the signs that a table needs a person.

The log says when each entry was stored; from it, per table, the time of its last entry
and of its recent ones, and how many of those showed three of a kind. Three flags come of
it (docs/room.md):

* ``silent``: a table still playing whose last entry (or the round's start) is older than
  the host's limit (5 minutes unless the host says otherwise): a stalled table, a dead
  phone, a scorekeeper who went for snacks;
* ``too_fast``: entries closer together than dice can be picked up, rolled and read
  (:data:`FASTEST` seconds) three times or more among a table's last ten: a phone
  tapping by itself, a scorekeeper entering a whole turn from memory;
* ``implausible``: four or more three-of-a-kinds among a table's last twenty entries,
  about 3 chances in 1,000 with fair dice (one in 36 per roll): worth a look at the dice;
* ``phone``: the table's phone holds entries of the round not sent yet, or fell silent
  since it was heard this round (:func:`phone_flag`): flagged before the bell and before
  the move, and the room waits for it at the round's end (docs/outbox.md).

>>> times = TableTimes()
>>> for second, trips in ((0, False), (1, False), (2, True), (3, False)):
...     times.add(float(second), trips)
>>> times.fast_gaps(), times.trips()
(3, 1)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

FASTEST = 2.5
"""Seconds: two entries at one table closer than this were not rolled in between."""
RECENT = 10
"""Entries looked at for ``too_fast``."""
FAST_GAPS = 3
"""Gaps under :data:`FASTEST` among the last :data:`RECENT` entries that raise the flag."""
TRIPS_WINDOW = 20
"""Entries looked at for ``implausible``."""
TRIPS_FLAG = 4
"""Three-of-a-kinds among the last :data:`TRIPS_WINDOW` entries that raise the flag."""
TRIPS_TALLIES = frozenset({"bunco", "mini", "low", "high", "wipeout"})


@dataclass
class TableTimes:
    """One table's recent entries: when each was stored (seconds, epoch) and whether it
    showed three of a kind."""

    times: deque[float] = field(default_factory=lambda: deque(maxlen=TRIPS_WINDOW))
    triples: deque[bool] = field(default_factory=lambda: deque(maxlen=TRIPS_WINDOW))
    entries: int = 0

    def add(self, at: float, trips: bool) -> None:
        self.times.append(at)
        self.triples.append(trips)
        self.entries += 1

    def undo(self) -> None:
        """The last entry was undone: it is no longer a sign of anything."""
        if self.times:
            self.times.pop()
            self.triples.pop()
        self.entries = max(0, self.entries - 1)

    @property
    def last(self) -> float | None:
        return self.times[-1] if self.times else None

    def fast_gaps(self) -> int:
        """Gaps under :data:`FASTEST` seconds between the last :data:`RECENT` entries."""
        recent = list(self.times)[-RECENT:]
        return sum(1 for a, b in pairwise(recent) if b - a < FASTEST)

    def trips(self) -> int:
        return sum(self.triples)


@dataclass
class RoomLog:
    """Every table's :class:`TableTimes`, read from a night's log up to ``seq``."""

    seq: int = 0
    tables: dict[int, TableTimes] = field(default_factory=dict)

    def read(self, seq: int, table: int | None, event: dict[str, Any], at: float) -> None:
        """Take one stored event in (in seq order)."""
        self.seq = seq
        kind = event.get("type")
        if table is None:
            return
        times = self.tables.setdefault(table, TableTimes())
        if kind == "undo":
            times.undo()
        elif kind == "roll":
            dice = event.get("dice") or []
            times.add(at, len(dice) == 3 and len(set(dice)) == 1)
        elif kind == "tally":
            times.add(at, str(event.get("outcome", "")) in TRIPS_TALLIES)


def round_start(entries: dict[int, tuple[TableTimes | None, int]]) -> float | None:
    """When the round under way began: the first entry of this round at any table
    (``entries``: per table its times and its entries this round); ``None`` while no table
    has entered anything this round."""
    firsts = []
    for times, rolls in entries.values():
        if times is not None and rolls > 0 and times.times:
            firsts.append(times.times[-min(rolls, len(times.times))])
    return min(firsts) if firsts else None


def flags(
    times: TableTimes | None,
    *,
    rolls: int,
    playing: bool,
    now: float,
    silent_after: float,
    started: float | None,
) -> list[dict[str, str]]:
    """What needs a person at one table: ``[{kind, text}]`` (see the module's doc).
    ``rolls``: its entries this round; ``started``: when the round began at the room's
    first table (:func:`round_start`; ``None``: not yet, so no table is silent).

    >>> t = TableTimes()
    >>> [f["kind"] for f in flags(t, rolls=0, playing=True, now=400.0, silent_after=300.0, started=0.0)]
    ['silent']
    >>> for s in range(5):
    ...     t.add(390.0 + s, True)
    >>> [f["kind"] for f in flags(t, rolls=5, playing=True, now=400.0, silent_after=300.0, started=0.0)]
    ['too_fast', 'implausible']
    """
    out = []
    last = times.last if times is not None and rolls > 0 else None
    quiet_since = last if last is not None else started
    if playing and quiet_since is not None and now - quiet_since >= silent_after:
        quiet = now - quiet_since
        span = f"{int(quiet // 60)} min" if quiet >= 60 else f"{int(quiet)} s"
        out.append(
            {
                "kind": "silent",
                "text": f"no entry for {span}"
                if last is not None
                else f"no entry this round after {span}",
            }
        )
    if times is not None:
        fast = times.fast_gaps()
        if fast >= FAST_GAPS:
            out.append(
                {
                    "kind": "too_fast",
                    "text": f"{fast} entries under {FASTEST:g} s apart",
                }
            )
        trips = times.trips()
        if trips >= TRIPS_FLAG:
            out.append(
                {
                    "kind": "implausible",
                    "text": f"{trips} three-of-a-kinds in {len(times.times)} entries",
                }
            )
    return out


def phone_flag(
    *, holds: int, oldest_age: float | None, silent: bool, heard_ago: float | None, awaited: bool
) -> dict[str, str] | None:
    """The ``phone`` flag of a table whose phone holds entries of the round or fell
    silent (``None`` otherwise).

    >>> phone_flag(holds=6, oldest_age=196.0, silent=True, heard_ago=212.7, awaited=True)["text"]
    'the room waits for its phone: 6 entries not sent yet, the oldest tapped 3 min 16 s ago'
    >>> phone_flag(holds=0, oldest_age=None, silent=True, heard_ago=75.0, awaited=False)["text"]
    'its phone is silent (heard 1 min 15 s ago): it may hold entries'
    """
    if not holds and not silent:
        return None
    if holds:
        text = f"{holds} entr{'y' if holds == 1 else 'ies'} not sent yet"
        if oldest_age is not None:
            text += f", the oldest tapped {_span(oldest_age)} ago"
    else:
        heard = "" if heard_ago is None else f" (heard {_span(heard_ago)} ago)"
        text = f"its phone is silent{heard}: it may hold entries"
    if awaited:
        text = f"the room waits for its phone: {text}" if holds else f"the room waits: {text}"
    return {"kind": "phone", "text": text}


def _span(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"
