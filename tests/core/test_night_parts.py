"""The night's parts (``bunco.core.night_*``) are functions that :class:`Night`'s class body
installs as its methods: each is installed once, under its name with a leading underscore;
a part never imports ``bunco.core.night`` when it runs (its ``Night`` is for the type
checker only, the import-linter contract lets exactly those imports through); and the
night keeps its slots (no ``__dict__``: a night holds millions of values)."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from types import FunctionType

import pytest

from bunco.core.night import Night

PARTS = [
    "bunco.core.night_changes",
    "bunco.core.night_corrections",
    "bunco.core.night_late_entries",
    "bunco.core.night_prizes",
    "bunco.core.night_rolls",
    "bunco.core.night_rounds",
    "bunco.core.night_undo",
]


def _methods_of(name: str) -> dict[str, FunctionType]:
    """The functions of part ``name`` that take the night as ``self``."""
    module = importlib.import_module(name)
    return {
        fn_name: fn
        for fn_name, fn in vars(module).items()
        if isinstance(fn, FunctionType)
        and fn.__module__ == name
        and next(iter(inspect.signature(fn).parameters), None) == "self"
    }


@pytest.mark.parametrize("name", PARTS)
def test_every_function_of_a_part_is_a_method_of_night(name: str) -> None:
    methods = _methods_of(name)
    assert methods, f"{name} has no method of the night"
    for fn_name, fn in methods.items():
        assert Night.__dict__.get(f"_{fn_name}") is fn, f"Night._{fn_name} is not {name}.{fn_name}"


def test_night_installs_only_the_parts_functions() -> None:
    installed = {
        attr: fn.__module__
        for attr, fn in Night.__dict__.items()
        if isinstance(fn, FunctionType)
        and fn.__module__.startswith("bunco.")
        and fn.__module__ != "bunco.core.night"
    }
    parts = {f"_{fn_name}": name for name in PARTS for fn_name in _methods_of(name)}
    assert installed == parts
    assert len(parts) == 48


PROBE = """
import json, sys
import {name}
sys.stdout.write(json.dumps("bunco.core.night" in sys.modules))
"""


@pytest.mark.parametrize("name", PARTS)
def test_a_part_does_not_import_the_night_when_it_runs(name: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(name=name)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(out.stdout) is False


def test_a_night_keeps_its_slots() -> None:
    night = Night.start({"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat"]})
    night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 1]})
    assert not hasattr(night, "__dict__")
    assert night.tables[0].side_scores[0] == 21
