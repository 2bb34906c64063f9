"""The exact part of ``bunco odds --set``, kept on disk between runs.

Composing a set's exact figures from the round chains takes 0.3 to 2 CPU seconds (a
12-player ``classic`` set about 0.5, ``winning-moves`` about 2), and they depend on
nothing but the rule set, the party and the code that composes them. So they are kept
as JSON beside the compiled kernel (:func:`bunco.analysis.movement_cache.folder`, when
that can be written), named after a digest of the rule set, the players, the sets, the
NumPy version and the sources of every module of :mod:`bunco.analysis` and
:mod:`bunco.core` (:func:`name`): a change to any of them names another file, and a
later run recomposes. Floats are written as Python writes them (the shortest text that
reads back to the same float), so a kept part gives byte for byte the same output.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

import bunco.analysis
import bunco.core
from bunco.analysis import movement_cache
from bunco.analysis.odds_shapes import ExactPart
from bunco.core.rules import RuleSet

VERSION = 1
"""The layout of a kept file (raised when it changes)."""


def sources() -> list[Path]:
    """The modules the exact part may read: all of :mod:`bunco.analysis` (but the compiled
    kernel's package) and :mod:`bunco.core`."""
    out: list[Path] = []
    for package in (bunco.analysis, bunco.core):
        out += sorted(Path(str(package.__file__)).parent.glob("*.py"))
    return out


def name(rules: RuleSet, players: int, sets: int) -> str:
    """The file a party's exact part is kept in."""
    digest = hashlib.sha256(repr((VERSION, rules, players, sets, np.__version__)).encode())
    for path in sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return f"exact-{digest.hexdigest()[:32]}.json"


def kept(rules: RuleSet, players: int, sets: int, compose: Callable[[], ExactPart]) -> ExactPart:
    """The exact part from disk, or ``compose()`` (JSON: lists, floats, strings, None),
    saved for next time where the folder can be written. A file that cannot be read
    back is composed again."""
    path = movement_cache.folder() / name(rules, players, sets)
    try:
        loaded: ExactPart = json.loads(path.read_text())  # written below, by this code
        return loaded
    except (OSError, ValueError):
        pass
    part = compose()
    text = json.dumps(part)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".json", delete=False) as tmp:
            tmp.write(text)
        os.replace(tmp.name, path)
    except OSError:
        pass  # a folder we cannot write: compose it every time
    again: ExactPart = json.loads(text)  # what a later run reads: the same values
    return again
