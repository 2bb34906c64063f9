"""The examples in the docstrings of bunco.sheets run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "badges",
    "blank",
    "charts",
    "export",
    "filled",
    "pdfkit",
    "night_report_page",
    "signs",
    "wording",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"bunco.sheets.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
