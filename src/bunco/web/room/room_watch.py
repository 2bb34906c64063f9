"""What the host's dashboard flags at each table: the signs that a table needs a person.

The log says when each entry was stored; from it, per table, the time of its last entry
and of its recent ones, and how many of those showed three of a kind. Three flags come of
it (docs/room.md):

* ``silent``: a table still playing whose last entry (or the round's start) is older than
  the host's limit (5 minutes unless the host says otherwise): a stalled table, a dead
  phone, a scorekeeper who went for snacks;
* ``too_fast``: a table's last :data:`FAST_RUN` entries came in less time than dice are
  picked up, rolled and read that many times (:data:`FASTEST` seconds each on average):
  a phone tapping by itself, a scorekeeper entering a whole turn from memory. A run, not
  single gaps: the time an entry is stored wobbles with the Wi-Fi and the server's
  batching (one entry each 2.7 s came in gaps of 2.2 to 3.2 s), so two close gaps mean
  nothing, five entries in 4 s do. The misses the server writes for the turns passed
  (stored with no command of their own) count with the roll credited after them: one
  command, one tap;
* ``implausible``: four or more three-of-a-kinds among a table's last twenty entries,
  about 3 chances in 1,000 with fair dice (one in 36 per roll): worth a look at the dice;
* ``phone``: the table's phone holds entries of the round not sent yet, or fell silent
  since it was heard this round (:func:`phone_flag`): flagged before the bell and before
  the move, and the room waits for it at the round's end (docs/outbox.md).

>>> times = TableTimes()
>>> for second, trips in ((0, False), (1, False), (2, True), (3, False), (4, False)):
...     times.add(float(second), trips)
>>> times.fast_run(), times.trips()
(4.0, 1)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

FASTEST = 1.5
"""Seconds a roll takes at the least, on average over a run: pick up, roll, read, tap."""
FAST_RUN = 5
"""Entries whose span is looked at for ``too_fast``: the last five (four gaps)."""
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
    loose: bool = False
    """The last entry had no command of its own: the next one is the same tap."""

    def add(self, at: float, trips: bool, command: bool = True) -> None:
        """One entry stored at ``at``; ``command``: False for an entry the server wrote
        with no command of its own (a miss for a turn passed), which counts as one tap
        with the entry stored after it (a three of a kind among them still counts)."""
        if self.loose and self.times:
            self.times[-1] = at
            self.triples[-1] = self.triples[-1] or trips
            self.loose = not command
            return
        self.loose = not command
        self.times.append(at)
        self.triples.append(trips)
        self.entries += 1

    def undo(self) -> None:
        """The last entry was undone: it is no longer a sign of anything."""
        self.loose = False
        if self.times:
            self.times.pop()
            self.triples.pop()
        self.entries = max(0, self.entries - 1)

    @property
    def last(self) -> float | None:
        return self.times[-1] if self.times else None

    def fast_run(self) -> float | None:
        """Seconds the last :data:`FAST_RUN` entries took, first to last, when that is
        under :data:`FASTEST` seconds a gap on average (else, or with fewer entries,
        ``None``)."""
        if len(self.times) < FAST_RUN:
            return None
        recent = list(self.times)[-FAST_RUN:]
        span = recent[-1] - recent[0]
        return span if span < FASTEST * (FAST_RUN - 1) else None

    def trips(self) -> int:
        return sum(self.triples)


@dataclass
class RoomLog:
    """Every table's :class:`TableTimes`, read from a night's log up to ``seq``."""

    seq: int = 0
    tables: dict[int, TableTimes] = field(default_factory=dict)

    def read(
        self,
        seq: int,
        table: int | None,
        event: dict[str, Any],
        at: float,
        command: str | None = "",
    ) -> None:
        """Take one stored event in (in seq order); ``command``: the id it was stored
        under (``None``: written by the server with the command stored next)."""
        self.seq = seq
        kind = event.get("type")
        if table is None:
            return
        times = self.tables.setdefault(table, TableTimes())
        if kind == "undo":
            times.undo()
        elif kind == "roll":
            dice = event.get("dice") or []
            times.add(at, len(dice) == 3 and len(set(dice)) == 1, command is not None)
        elif kind == "tally":
            times.add(at, str(event.get("outcome", "")) in TRIPS_TALLIES, command is not None)


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
    ...     t.add(390.0 + s, True)  # five three-of-a-kinds a second apart
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
        run = times.fast_run()
        if run is not None:
            took = f"{run:.0f} s" if run >= 1 else "under a second"
            out.append(
                {
                    "kind": "too_fast",
                    "text": f"{FAST_RUN} entries in {took}: faster than dice are rolled",
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
