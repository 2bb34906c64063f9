"""The state of a held night, frozen (:class:`HeldState`): what the decision about a
command reads (:mod:`bunco.web.decision.decide`), and the table versions it is made of.

A state is a value at one seq: the night after that event (the engine's
:class:`~bunco.core.night.Night`, itself immutable), each table's version (a read-only
mapping of its own), the stored log and the command ids seen. Nothing a state answers
ever changes: the log and the command ids are one append-only :class:`History` shared
with the states after it, and each state reads it only up to its own committed seq
(:attr:`HeldState.log` is a read-only view of that length). Advancing gives a new state
(:meth:`HeldState.advanced`): a batch plans its commands one after the other on states
that hold its events not committed yet (``pending``); only :meth:`HeldState.committed_with`,
on the night's last state, adds to the history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, NotRequired, TypedDict, TypeVar, final, overload

from bunco.core.errors import BuncoError
from bunco.core.events import Event, RollEvent
from bunco.core.night import Night
from bunco.core.stored_event import StoredEvent, command_scope


@final
class DicelessRoll(TypedDict):
    """A roll asked of the server, which draws its dice (a :class:`~bunco.core.events.RollEvent`
    without them): at a table, or at none in a roll-off, for a player or whoever's turn."""

    type: Literal["roll"]
    table: NotRequired[int]
    player: NotRequired[str]


def with_dice(asked: DicelessRoll, dice: list[int]) -> RollEvent:
    """The roll ``asked`` with the ``dice`` the server drew."""
    roll: RollEvent = {"type": "roll", "dice": dice}
    if "table" in asked:
        roll["table"] = asked["table"]
    if "player" in asked:
        roll["player"] = asked["player"]
    return roll


TABLE_EVENTS = frozenset({"roll", "tally", "undo"})
"""The events of one table's play (a roll-off's have no table)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """What a command asks to write, as the rights read it (:mod:`bunco.web.decision.rights`):
    the event's ``kind`` (its type; ``drawing`` before the server draws) and its ``table``
    (``None``: the whole night or a roll-off).

    >>> Asked.of({"type": "roll", "table": 2, "dice": [1, 1, 4]})
    Asked(kind='roll', table=2)
    """

    kind: str
    table: int | None = None

    @classmethod
    def of(cls, event: Event | DicelessRoll) -> Asked:
        """What ``event`` asks."""
        return cls(event["type"], event_table(event))


K = TypeVar("K")
V = TypeVar("V")


def event_table(event: Event | DicelessRoll) -> int | None:
    """The table an event happened at (``None`` for the whole night or a roll-off).

    >>> event_table({"type": "roll", "table": 2}), event_table({"type": "end_night"})
    (2, None)
    """
    table = event.get("table")
    return table if isinstance(table, int) and not isinstance(table, bool) else None


def bump_versions(
    table_seq: dict[int | None, int], stored: StoredEvent, kind: str, moved: bool = False
) -> None:
    """Note ``stored`` as the version of its table (``-1``: roll-offs; ``None``: the night).

    ``moved``: the event changed the round, the set, the phase or the seating (a
    round-ending roll at one table, an undo that reopens a round, a reseating): every
    table's version becomes its seq, so an entry based on the table before the change is
    never applied after it (``None`` is the floor of every table's version). An event of
    the whole night that moves nothing (a verification, a judged prize, presence, a
    break, the start bell) changes no table's version: entries tapped before it still
    fit the table they were tapped at. Commands of the whole night are checked against
    the night's seq itself.
    """
    if stored.table is not None:
        table_seq[stored.table] = stored.seq
    elif kind in TABLE_EVENTS:
        table_seq[-1] = stored.seq
    if moved:
        table_seq[None] = max(table_seq.get(None, 0), stored.seq)


def moved(before: Night, after: Night) -> bool:
    """Whether going from ``before`` to ``after`` changed the round, set, phase or seating:
    what changes every table's version (:func:`bump_versions`)."""
    return (before.set_no, before.round_no, before.phase) != (
        after.set_no,
        after.round_no,
        after.phase,
    ) or before.seating != after.seating


def version_in(table_seq: Mapping[int | None, int], table: int | None) -> int:
    """The version a writer at ``table`` must send: its last event or the night's."""
    night_wide = table_seq.get(None, 0)
    if table is None:
        return max(night_wide, table_seq.get(-1, 0))
    return max(night_wide, table_seq.get(table, 0))


class History:
    """A night's committed log (index = seq) and the command ids in it: append-only,
    shared by the night's states, each of which reads it up to its own seq. A command id
    is one command of the night, whoever sends it: every token's ids share one space
    (the server's own callers each have theirs: :func:`~bunco.core.stored_event.command_scope`),
    and an id stored twice before that rule (by two tokens) answers with its first event."""

    __slots__ = ("_events", "_ids")

    def __init__(self, events: Iterable[StoredEvent] = ()) -> None:
        self._events: list[StoredEvent] = []
        self._ids: dict[tuple[str, str], int] = {}
        for stored in events:
            self.append(stored)

    def __len__(self) -> int:
        return len(self._events)

    def append(self, stored: StoredEvent) -> None:
        """Add the next committed event (only :meth:`HeldState.committed_with` does)."""
        assert stored.seq == len(self._events), (stored.seq, len(self._events))
        self._events.append(stored)
        if stored.command_id is not None:
            self._ids.setdefault((command_scope(stored.caller), stored.command_id), stored.seq)

    def seq_of(self, caller: str, command_id: str) -> int | None:
        """The seq of the event ``command_id`` stored in ``caller``'s space of ids, if any."""
        return self._ids.get((command_scope(caller), command_id))

    def upto(self, length: int) -> LogView:
        """The first ``length`` events, as a read-only view that never changes."""
        return LogView(self._events, length)


class LogView(Sequence[StoredEvent]):
    """The first events of a night's log (index = seq), read only: a view of a fixed
    length over the append-only log, so it stays the same as the log grows."""

    __slots__ = ("_events", "_length")

    def __init__(self, events: list[StoredEvent], length: int) -> None:
        self._events, self._length = events, length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> StoredEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[StoredEvent]: ...

    def __getitem__(self, index: int | slice) -> StoredEvent | list[StoredEvent]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step == 1:
                return self._events[start:stop]
            return [self._events[i] for i in range(start, stop, step)]
        if not -self._length <= index < self._length:
            raise IndexError(f"seq {index} is not in a log of {self._length} events")
        return self._events[index % self._length]


Versions = Mapping[int | None, int]
"""Each table's version (:func:`bump_versions`), read only."""


@dataclass(frozen=True, slots=True)
class HeldState:
    """A held night at ``seq``: see the module's docstring."""

    night_id: str
    night: Night
    seq: int
    versions: Versions
    """Each table's version (:func:`bump_versions`); this state's own, read only."""
    history: History
    """The committed log and command ids, shared: read up to :attr:`committed` only."""
    pending: tuple[StoredEvent, ...] = ()
    """Events of the batch being planned, after the committed ones (not stored yet)."""
    pending_ids: Mapping[tuple[str, str], StoredEvent] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """The command ids of :attr:`pending` (their space, command id) → the event, read only."""

    def __post_init__(self) -> None:
        for name in ("versions", "pending_ids"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):  # a copy of its own, read only
                object.__setattr__(self, name, MappingProxyType(_copied(value)))

    @property
    def committed(self) -> int:
        """The seq of the last committed event this state holds."""
        return self.pending[0].seq - 1 if self.pending else self.seq

    @property
    def log(self) -> LogView:
        """The committed log this state holds (index = seq), read only."""
        return self.history.upto(self.committed + 1)

    def version(self, table: int | None) -> int:
        """The version a writer at ``table`` must send (:func:`version_in`)."""
        return version_in(self.versions, table)

    def known(self, caller: str, command_id: str) -> StoredEvent | None:
        """The event stored for ``caller``'s ``command_id``, if this state holds one."""
        seq = self.history.seq_of(caller, command_id)
        if seq is not None and seq <= self.committed:
            return self.log[seq]
        if not self.pending_ids:
            return None
        return self.pending_ids.get((command_scope(caller), command_id))

    def since(self, after: int) -> list[StoredEvent]:
        """The events after seq ``after``, committed and pending."""
        start = max(after + 1, 0)
        return [*self.log[start:], *(e for e in self.pending if e.seq > after)]

    def advanced(self, stored: StoredEvent, after: Night) -> HeldState:
        """The state after ``stored`` (planned, not committed): ``after`` is the night
        with its event applied."""
        ids = self.pending_ids
        if stored.command_id is not None:
            more = _copied(ids)
            more[command_scope(stored.caller), stored.command_id] = stored
            ids = MappingProxyType(more)
        return HeldState(
            self.night_id,
            after,
            stored.seq,
            self._bumped(stored, after),
            self.history,
            (*self.pending, stored),
            ids,
        )

    def committed_with(self, stored: StoredEvent, after: Night) -> HeldState:
        """The state after ``stored``, which the store took: it goes into the shared
        history (this state must be the night's last: no pending event, the history
        ending at its seq)."""
        assert not self.pending and len(self.history) == self.seq + 1
        self.history.append(stored)
        return HeldState(
            self.night_id, after, stored.seq, self._bumped(stored, after), self.history
        )

    def _bumped(self, stored: StoredEvent, after: Night) -> Versions:
        versions = _copied(self.versions)
        bump_versions(versions, stored, after.events[-1]["type"], moved(self.night, after))
        return MappingProxyType(versions)


def _copied(mapping: Mapping[K, V]) -> dict[K, V]:
    """A dict of ``mapping``'s items (a read-only mapping's dict copied at C speed: not
    item by item)."""
    if isinstance(mapping, MappingProxyType):
        copied: dict[K, V] = mapping.copy()
        return copied
    return dict(mapping)


class NotReplayed(Exception):
    """A stored event the rules of this bunco do not apply (``seq``, ``error``)."""

    def __init__(self, seq: int, error: BuncoError) -> None:
        super().__init__(error.message)
        self.seq, self.error = seq, error


def replayed(night_id: str, events: Sequence[StoredEvent]) -> HeldState:
    """The state of a night loaded from the store: ``events`` is its stored log, the
    setup line first. Raises :class:`NotReplayed` if an event does not apply."""
    versions: dict[int | None, int] = {None: 0}
    stored = events[0]
    try:
        night = Night.start(stored.event)
        for stored in events[1:]:
            before, night = night, night.apply(stored.event)
            bump_versions(versions, stored, night.events[-1]["type"], moved(before, night))
    except BuncoError as exc:
        raise NotReplayed(stored.seq, exc) from None
    return HeldState(night_id, night, events[-1].seq, versions, History(events))


def started(night_id: str, night: Night, first: StoredEvent) -> HeldState:
    """The state of a night just created: its setup line (seq 0) only."""
    return HeldState(night_id, night, first.seq, {None: 0}, History([first]))
