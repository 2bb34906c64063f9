"""The examples in the docstrings of the club's modules (and its season sheets) hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bunco.club

MODULES = [info.name for info in pkgutil.iter_modules(bunco.club.__path__, "bunco.club.")]
MODULES += ["bunco.sheets.season", "bunco.store.clubs"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_month_modules_have_examples() -> None:
    for name in (
        "bunco.club.plans",
        "bunco.club.ladder",
        "bunco.club.calendar",
        "bunco.club.links",
        "bunco.club.reminders",
        "bunco.club.views",
    ):
        assert doctest.testmod(importlib.import_module(name)).attempted > 0, name
