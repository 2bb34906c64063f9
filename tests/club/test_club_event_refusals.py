"""A club event with a huge value in any field (a hand-edited club log, a script) is
refused as a Bunco error whose message quotes the value cut short: never a message of
thousands of characters, never another exception (Python has no text for an integer of
more than 4,300 digits)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import bunco.club.events as club_events
from bunco.club.events import CLUB_EVENT_TYPES, normalize_club_event
from bunco.core.errors import BuncoError
from huge_values import HUGE_VALUES

FIELDS = sorted(set(re.findall(r'(?:get\(|\[)"([a-z_]+)"', Path(club_events.__file__).read_text())))


@pytest.mark.parametrize("value", HUGE_VALUES)
def test_a_huge_value_in_any_field_of_any_club_event_gets_a_short_refusal(value: Any) -> None:
    assert len(FIELDS) >= 30  # the fields the module reads: date, month, night, email...
    refused = 0
    for kind in [*CLUB_EVENT_TYPES, value]:
        for field in FIELDS:
            try:
                normalize_club_event({"type": kind, field: value})
            except BuncoError as exc:
                refused += 1
                assert exc.expected, (kind, field)
                assert len(str(exc)) < 500, (field, len(str(exc)))
    assert refused >= len(FIELDS) * (len(CLUB_EVENT_TYPES) // 2)


def test_a_short_bad_value_is_quoted_whole() -> None:
    with pytest.raises(BuncoError) as err:
        normalize_club_event({"type": "plan", "date": "2026-13-01"})
    assert "'2026-13-01'" in str(err.value)
