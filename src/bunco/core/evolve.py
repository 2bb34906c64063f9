"""A fast ``dataclasses.replace`` for the frozen, slotted values of the engine.

``dataclasses.replace`` calls ``__init__`` again; the fold makes several new values per
roll, so this copies the slots directly (no validation runs: use it only for values whose
constructors do not validate).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class P:
...     x: int
...     y: int
>>> evolve(P(1, 2), y=5)
P(x=1, y=5)
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...]] = {}


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass ``obj`` with ``changes``; raises TypeError for an unknown field."""
    cls = type(obj)
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES.setdefault(cls, tuple(f.name for f in dataclasses.fields(obj)))  # type: ignore[arg-type]
    new = object.__new__(cls)
    setter = object.__setattr__
    for name in names:
        setter(new, name, changes.pop(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(changes)}")
    return new
