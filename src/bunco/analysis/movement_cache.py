"""The movement lookups of big parties, and the score tables of rule sets, kept on disk
between runs.

Building the movement lookup of a party (:func:`bunco.analysis.night_kernel.movement_table`)
calls the engine's :func:`bunco.core.seating.next_seating` a few dozen times; at 1,000
players (250 tables, each seated by weighing its 24 seatings) that takes a second or
more, while a run of ten such nights plays in milliseconds. So the lookup of a party of
:data:`MIN_TABLES` tables or more is saved beside the compiled kernel (its
``__pycache__``, when that can be written) and loaded by later runs.

The file's name is a digest of everything the lookup is made from: the rule set, the
tables' sizes, and the sources of the seating modules and of the module that builds
the lookup; a change to any of them names another file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

import bunco.analysis.kernel
import bunco.core.seating
from bunco.core.rules import RuleSet

MIN_TABLES = 40
"""Parties with fewer tables build their lookup in well under a tenth of a second."""

SOURCES = ("seating.py", "seating_layout.py", "seating_moves.py", "seating_reseat.py")
"""The seating modules (of :mod:`bunco.core`) a lookup is read off."""


def folder() -> Path:
    """Where the lookups are kept: beside the compiled kernel."""
    return Path(bunco.analysis.kernel.__file__).parent / "__pycache__"


def digest(rules: RuleSet, sizes: tuple[int, ...], builder: str) -> str:
    """The name of a lookup: a digest of the rules, the sizes and the sources."""
    core = Path(bunco.core.seating.__file__).parent
    return _digest((rules, sizes), [*(core / name for name in SOURCES), Path(builder)])


def _digest(key: object, files: Sequence[Path]) -> str:
    h = hashlib.sha256(repr(key).encode())
    for path in files:
        h.update(path.read_bytes() if path.exists() else b"-")
    return h.hexdigest()[:32]


def cached(
    rules: RuleSet, sizes: tuple[int, ...], builder: str, build: Callable[[], NDArray[np.int32]]
) -> NDArray[np.int32]:
    """The lookup from disk, or ``build()`` (saved for next time when the party is big
    and the folder can be written). ``builder`` is the file of the code that builds it."""
    if len(sizes) < MIN_TABLES:
        return build()
    return kept(f"movement-{digest(rules, sizes, builder)}", build)


def kept_for(
    kind: str, key: object, files: Sequence[Path], build: Callable[[], NDArray[np.int32]]
) -> NDArray[np.int32]:
    """An array of ``kind`` made from ``key`` by the code of ``files``: from disk, or
    ``build()`` saved for next time (the score tables of a rule set, which take some
    30 ms to build, twice what a small run then needs to start its workers)."""
    return kept(f"{kind}-{_digest(key, files)}", build)


def kept(name: str, build: Callable[[], NDArray[np.int32]]) -> NDArray[np.int32]:
    """The array saved as ``name``, or ``build()`` saved under that name when the folder
    can be written."""
    path = folder() / f"{name}.npy"
    try:
        loaded: NDArray[np.int32] = np.load(path, allow_pickle=False)
        return loaded
    except (OSError, ValueError):
        pass
    table = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npy", delete=False) as tmp:
            np.save(tmp, table, allow_pickle=False)
        os.replace(tmp.name, path)
    except OSError:
        pass  # a folder we cannot write: build it every time
    return table
