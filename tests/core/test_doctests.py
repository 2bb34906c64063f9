"""The examples in the docstrings of the engine, the party sheets and the odds hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bunco.analysis
import bunco.core
import bunco.party


def _with_examples() -> list[str]:
    names = []
    for package in (bunco.core, bunco.party, bunco.analysis):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            if any(test.examples for test in doctest.DocTestFinder().find(module)):
                names.append(info.name)
    return names


MODULES = _with_examples()


def test_the_engine_has_examples() -> None:
    assert "bunco.party.night_report" in MODULES and "bunco.core.events" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
