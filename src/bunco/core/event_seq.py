"""An append-only sequence that is cheap to extend and safe to share.

Each :class:`~bunco.core.night.Night` holds its events in an :class:`EventSeq`, and each
:class:`~bunco.core.table.TableRound` its round's rolls: a shared list and a length.
Appending to the newest value extends the list in place (amortised O(1)); appending to an
older value copies first, so no value ever sees a change. A fold that appends one item a
step is therefore linear, however long the round or the night.

>>> a = EventSeq.empty().append({"n": 1})
>>> b = a.append({"n": 2})
>>> c = a.append({"n": 3})
>>> [e["n"] for e in b], [e["n"] for e in c], len(a)
([1, 2], [1, 3], 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TypeVar, overload

E = TypeVar("E")


class EventSeq(Sequence[E]):
    """An immutable view of the first ``length`` items of a shared append-only list."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[E], length: int) -> None:
        self._items = items
        self._length = length

    @classmethod
    def empty(cls) -> EventSeq[E]:
        return cls([], 0)

    @classmethod
    def of(cls, events: Sequence[E]) -> EventSeq[E]:
        return cls(list(events), len(events))

    def append(self, event: E) -> EventSeq[E]:
        if self._length == len(self._items):
            self._items.append(event)
            return EventSeq(self._items, self._length + 1)
        return EventSeq([*self._items[: self._length], event], self._length + 1)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[E]:
        return islice(self._items, self._length)

    def __reversed__(self) -> Iterator[E]:
        items = self._items
        return (items[i] for i in range(self._length - 1, -1, -1))

    def __bool__(self) -> bool:
        return self._length > 0

    @overload
    def __getitem__(self, index: int) -> E: ...

    @overload
    def __getitem__(self, index: slice) -> list[E]: ...

    def __getitem__(self, index: int | slice) -> E | list[E]:
        if isinstance(index, slice):
            return self._items[: self._length][index]
        if not -self._length <= index < self._length:
            raise IndexError(index)
        return self._items[index % self._length] if index < 0 else self._items[index]

    def slice(self, start: int, stop: int | None = None) -> list[E]:
        end = self._length if stop is None else min(stop, self._length)
        return self._items[start:end]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EventSeq):
            return NotImplemented
        if self._length != other._length:
            return False
        return self._items is other._items or self.slice(0) == other.slice(0)

    def __hash__(self) -> int:
        return hash(self._length)

    def __repr__(self) -> str:
        return f"EventSeq({self._length} events)"
