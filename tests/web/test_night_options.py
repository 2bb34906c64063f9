"""The decisions about a night's server options (bunco.web.decision.night_options): each a
pure change of the options as stored, refusing with a reason and no HTTP status."""

from __future__ import annotations

import doctest

import pytest

import bunco.store.events
import bunco.store.writers
from bunco.web.decision import night_options
from bunco.web.decision.night_options import (
    MAX_HELD,
    OptionRefused,
    announced,
    announcement_cleared,
    bots_chosen,
    call_cleared,
    cards_kept,
    dice_chosen,
    handled,
    host_called,
    key_kept,
    marked,
    room_of,
    set_aside,
)

AT, LATER = "2026-12-05T19:00:00+00:00", "2026-12-05T19:05:00+00:00"


@pytest.mark.parametrize("module", [night_options, bunco.store.events, bunco.store.writers])
def test_the_examples_hold(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.failed == 0


def test_bots_and_dice_keep_the_other_options() -> None:
    options = {"checkin": {"Ann": AT}, "bot_pace": 2.0}
    after = bots_chosen(["Bea", "Cat", "Bea"], None)(dict(options))
    assert after == {"checkin": {"Ann": AT}, "bot_pace": 2.0, "bots": ["Bea", "Cat"]}
    assert bots_chosen([], 0.5)(dict(after))["bot_pace"] == 0.5
    assert dice_chosen("phones")(options) == {**options, "dice": "phones"}


def test_a_mark_keeps_the_first_time_and_its_scan() -> None:
    first = marked("Ann", here=True, now=AT, command_id="scan-1")({})
    assert first == {"checkin": {"Ann": AT}, "checkin_ids": {"Ann": "scan-1"}}
    again = marked("Ann", here=True, now=LATER, command_id="scan-2")(first)
    assert again == first  # the first mark's time and scan stay
    taken_back = marked("Ann", here=False, now=LATER)(again)
    assert taken_back == {"checkin": {}, "checkin_ids": {}}


def test_set_aside_adds_each_entry_once_and_refuses_past_the_limit() -> None:
    entry = {"id": "e-1", "label": "Fay: +2"}
    once = set_aside(2, [entry, entry], AT)({})
    assert once["set_aside"] == [{**entry, "table": 2, "sent": AT, "handled": False}]
    assert set_aside(2, [entry], LATER)(once) == once  # a retry adds nothing
    assert len(set_aside(3, [entry], LATER)(once)["set_aside"]) == 2  # another table's
    full = {"set_aside": [{"table": 1, "id": f"x{n}"} for n in range(MAX_HELD)]}
    with pytest.raises(OptionRefused) as refused:
        set_aside(2, [entry], AT)(full)
    assert (refused.value.kind, refused.value.code) == ("conflict", "too_many")
    assert str(refused.value) == f"the host already holds {MAX_HELD} entries set aside"
    gone = handled(2, "e-1")(once)
    assert gone["set_aside"] == []
    with pytest.raises(OptionRefused) as missing:
        handled(2, "e-1")(gone)
    assert (missing.value.kind, missing.value.code) == ("missing", "no_such_entry")


def test_the_room_calls_and_the_announcement() -> None:
    called = host_called(3, "a die fell", AT)({})
    again = host_called(3, None, LATER)(called)
    assert room_of(again)["calls"] == {"3": {"table": 3, "at": AT, "note": "a die fell"}}
    shown = announced("c-1", "Cake at 9", AT)(again)
    assert room_of(shown)["announcement"] == {"id": "c-1", "text": "Cake at 9", "at": AT}
    assert announced("c-1", "Cake at 9", LATER)(shown) == shown  # the same command again
    cleared = call_cleared(3)(announcement_cleared(shown))
    assert room_of(cleared) == {"announcement": None, "calls": {}}
    with pytest.raises(OptionRefused) as missing:
        call_cleared(3)(cleared)
    assert missing.value.code == "no_such_call"


def test_join_cards_and_the_door_key_keep_what_was_kept_first() -> None:
    kept = cards_kept("join_cards", {1: ("abc", "t1"), 2: ("def", "t2")}, replace=False)({})
    replayed = cards_kept("join_cards", {1: ("zzz", "t9")}, replace=False)(kept)
    assert replayed["join_cards"]["1"] == {"code": "abc", "token": "t1"}
    renewed = cards_kept("join_cards", {1: ("zzz", "t9")}, replace=True)(kept)
    assert renewed["join_cards"]["1"] == {"code": "zzz", "token": "t9"}
    first = key_kept("door_key", "k1")({})
    assert key_kept("door_key", "k2")(first) == {"door_key": "k1"}
