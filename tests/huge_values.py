"""Values no field should hold, for the tests that every refusal quotes a bad value cut
short and never fails on it (the night's events and the club's)."""

from __future__ import annotations

import pytest

BIG = 10**600  # 601 digits: its text alone is 601 characters
HUGE_VALUES = [
    pytest.param([BIG, -BIG, [BIG, None, -BIG]], id="nested numbers"),  # Hypothesis's find
    pytest.param("x" * 5_000, id="long text"),
    pytest.param(10**5_000, id="no text"),  # Python has no text for over 4,300 digits
    pytest.param({"k" * 3_000: BIG}, id="dict"),
]
