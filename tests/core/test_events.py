"""Event normalization returns exactly the shape its TypedDict declares, and one line per event."""

from __future__ import annotations

import json
from typing import Any, get_args, get_type_hints

import pytest

from bunco.core.events import EVENT_TYPES, Event, dump_event, normalize_event

SAMPLES: dict[str, dict[str, Any]] = {
    "roll": {"type": "roll", "table": 2, "dice": [6, 5, 2], "player": " Ann "},
    "tally": {"type": "tally", "table": 1, "outcome": "b"},
    "undo": {"type": "undo", "table": 3},
    "substitute": {"type": "substitute", "out": "Ann", "in": "Zed"},
    "join": {"type": "join", "player": "Ivy"},
    "leave": {"type": "leave", "player": "Ann"},
    "verify": {"type": "verify", "player": "Ann", "checker": "Bea"},
    "seat": {"type": "seat", "tables": [["Ann", None, "Cat", "Dee"]]},
    "end_night": {"type": "end_night"},
    "start_round": {"type": "start_round", "clock": "2026-11-27T20:00:00Z"},
    "seated": {"type": "seated", "table": 3},
    "time_up": {"type": "time_up", "set": 1, "round": 3},
    "judge": {"type": "judge", "prize": "best_costume", "group": "Team 1", "winner": " Ann "},
    "absent": {"type": "absent", "player": "Ann"},
    "present": {"type": "present", "player": "Ann"},
    "break": {"type": "break", "minutes": 10},
    "end_break": {"type": "end_break"},
    "drawing": {
        "type": "drawing",
        "candidates": ["Ann", "Bea"],
        "pick": 1,
        "winner": "Bea",
        "name": "Door prize",
    },
    "close_cards": {"type": "close_cards", "unverified": ["Ann", " Bea "]},
    "correct": {
        "type": "correct",
        "set": 1,
        "round": 2,
        "of_table": 3,
        "change": "add_roll",
        "player": " Ann ",
        "dice": [2, 2, 2],
        "reason": " never entered ",
        "by": "the host",
    },
    "close_night": {"type": "close_night", "by": "co-host 1 · Bea"},
    "wait_for_phone": {"type": "wait_for_phone", "of_table": 7, "entries": 6},
    "go_on": {"type": "go_on", "of_table": 7, "winner": " Eve ", "why": "host"},
}
SHAPES = {get_args(get_type_hints(t)["type"])[0]: t for t in get_args(Event)}


def test_every_event_type_has_a_typed_shape() -> None:
    assert set(SHAPES) == set(EVENT_TYPES) == set(SAMPLES)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_normalized_events_have_the_keys_their_type_declares(kind: str) -> None:
    shape = SHAPES[kind]
    event = normalize_event(SAMPLES[kind])
    assert event["type"] == kind
    assert (
        shape.__required_keys__ <= set(event) <= shape.__required_keys__ | shape.__optional_keys__
    )
    assert next(iter(event)) == "type"  # the canonical order starts with the type


def test_normalizing_gives_canonical_values_and_is_idempotent() -> None:
    assert normalize_event(SAMPLES["roll"]) == {
        "type": "roll", "table": 2, "dice": [6, 5, 2], "player": "Ann",
    }  # fmt: skip
    assert normalize_event(SAMPLES["tally"])["outcome"] == "bunco"  # type: ignore[typeddict-item]
    assert normalize_event(SAMPLES["undo"]) == {"type": "undo", "table": 3}
    for sample in SAMPLES.values():
        once = normalize_event(sample)
        assert normalize_event(once) == once
        assert dump_event(normalize_event(json.loads(dump_event(once)))) == dump_event(once)


def test_equal_events_give_the_same_line_whatever_order_their_keys_came_in() -> None:
    a = normalize_event({"dice": [1, 2, 3], "player": "Ann", "table": 1, "type": "roll"})
    b = normalize_event({"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Ann"})
    assert (
        dump_event(a)
        == dump_event(b)
        == ('{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Ann"}')
    )
    assert dump_event({"type": "join", "player": "Zoë"}) == '{"type": "join", "player": "Zoë"}'
