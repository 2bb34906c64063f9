"""A fast ``dataclasses.replace`` for the frozen, slotted values of the engine.

``dataclasses.replace`` calls ``__init__`` again; the fold makes several new values per
roll, so this copies the slots directly (no validation runs: use it only for values whose
constructors do not validate). The copy of each class is a small function made once, field
by field, that sets each slot through its descriptor: three times faster than a loop over
the field names, which matters for a log of a million events.

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
import types
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class _Make(Protocol):
    """The copy function of one dataclass: ``make(obj, changes)`` (``changes``: the keyword
    arguments of :func:`evolve`, each a field's new value)."""

    def __call__(self, obj: Any, changes: dict[str, Any], /) -> Any: ...


_MAKERS: dict[type, _Make] = {}


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None] | None:
    for klass in cls.__mro__:
        found = klass.__dict__.get(name)
        if found is not None:
            return found.__set__ if isinstance(found, types.MemberDescriptorType) else None
    return None


def _maker(cls: type) -> _Make:
    """The copy function of dataclass ``cls``: ``make(obj, changes)``."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    space: dict[str, Callable[..., object]] = {  # the names the generated code reads
        "new_": object.__new__,
        "cls": cls,
        "set_": object.__setattr__,
    }
    body = ["def make(obj, changes):", "    new = new_(cls)", "    take = changes.pop"]
    for i, name in enumerate(names):
        setter = _slot_setter(cls, name)
        value = f"take({name!r}) if {name!r} in changes else obj.{name}"
        if setter is None:
            body.append(f"    set_(new, {name!r}, {value})")
        else:
            space[f"set{i}"] = setter
            body.append(f"    set{i}(new, {value})")
    body += [
        "    if changes:",
        "        raise TypeError(f\"{cls.__name__} has no field(s) {', '.join(changes)}\")",
        "    return new",
    ]
    exec("\n".join(body), space)
    make: _Make = space["make"]
    return make


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass ``obj`` with ``changes``; raises TypeError for an unknown field."""
    cls = type(obj)
    make = _MAKERS.get(cls)
    if make is None:
        make = _MAKERS.setdefault(cls, _maker(cls))
    new: T = make(obj, changes)
    return new
