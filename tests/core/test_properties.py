"""Hypothesis properties of the fold."""

from __future__ import annotations

import itertools

from helpers import party, play_randomly
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.core.party_log import read_log, write_log
from bunco.core.presets import PRESETS
from bunco.core.rules import RollKind
from bunco.core.table import Status
from bunco.party.night_report import night_report
from bunco.party.view import live_view

presets = st.sampled_from(sorted(PRESETS))
dice = st.tuples(*(st.integers(1, 6),) * 3)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def feed(
    night: Night, rolls: list[tuple[int, int, int]], picks: list[int]
) -> tuple[Night, list[dict]]:
    """Apply rolls at tables chosen by ``picks`` among those that may roll."""
    events = []
    for faces, pick in zip(rolls, itertools.cycle(picks or [0]), strict=False):
        if night.phase == "over":
            break
        rollers = night.expected_rollers()
        table, _ = rollers[pick % len(rollers)]
        event = {"type": "roll", "dice": list(faces)}
        if table is not None:
            event["table"] = table
        night = night.apply(event)
        events.append(event)
    return night, events


@SETTINGS
@given(
    preset=presets,
    players=st.integers(2, 14),
    rolls=st.lists(dice, max_size=300),
    picks=st.lists(st.integers(0, 5), max_size=10),
    cut=st.integers(0, 300),
)
def test_folding_step_by_step_equals_folding_at_once(preset, players, rolls, picks, cut) -> None:
    start = party(preset, [f"P{i}" for i in range(players)])
    night, events = feed(start, rolls, picks)
    once = read_log(write_log(start.setup, events).splitlines())
    assert night_report(once) == night_report(night) and live_view(once) == live_view(night)
    cut = min(cut, len(events))
    half = read_log(write_log(start.setup, events[:cut]).splitlines()).apply_all(events[cut:])
    assert live_view(half) == live_view(night)


@SETTINGS
@given(
    preset=presets,
    rolls=st.lists(dice, max_size=120),
    picks=st.lists(st.integers(0, 5), max_size=5),
    bad=st.sampled_from(
        [
            {"type": "roll", "table": 9, "dice": [1, 2, 3]},
            {"type": "roll", "table": 1, "dice": [1, 2, 7]},
            {"type": "roll", "table": 1, "dice": [1, 2]},
            {"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Nobody"},
            {"type": "tally", "table": 1, "outcome": "seven"},
            {"type": "substitute", "out": "Nobody", "in": "Zed"},
            {"type": "fly", "table": 1},
            {"type": "undo", "table": 7},
        ]
    ),
)
def test_a_refused_command_changes_nothing(preset, rolls, picks, bad) -> None:
    night, _ = feed(party(preset, [f"P{i}" for i in range(8)]), rolls, picks)
    before = (live_view(night), night_report(night), len(night.events))
    try:
        night.apply(bad)
    except BuncoError:
        pass
    else:
        raise AssertionError(f"{bad} was accepted")
    assert (live_view(night), night_report(night), len(night.events)) == before


@SETTINGS
@given(
    preset=presets,
    wipeout=st.booleans(),
    rolls=st.lists(dice, max_size=300),
    picks=st.lists(st.integers(0, 5), max_size=10),
)
def test_scores_never_go_down_except_by_wipeout(preset, wipeout, rolls, picks) -> None:
    night = Night.start(
        {
            "type": "party",
            "rules": preset,
            "players": [f"P{i}" for i in range(8)],
            "house_rules": {"wipeout": wipeout},
        }
    )
    for faces, pick in zip(rolls, itertools.cycle(picks or [0]), strict=False):
        if night.phase != "playing":
            break
        rollers = night.expected_rollers()
        table_no, _ = rollers[pick % len(rollers)]
        before = night.tables[table_no - 1].side_scores
        night = night.apply({"type": "roll", "table": table_no, "dice": list(faces)})
        if night.tables and night.tables[table_no - 1].rolls:
            table = night.tables[table_no - 1]
            after = table.side_scores
            went_down = any(a < b for a, b in zip(after, before, strict=True))
            assert not went_down or table.rolls[-1].kind is RollKind.WIPEOUT


ALL_FACES = list(itertools.product(range(1, 7), repeat=3))


@SETTINGS
@given(
    preset=presets,
    players=st.integers(2, 12),
    prefix=st.lists(dice, max_size=100),
    offset=st.integers(0, 215),
)
def test_a_round_always_ends(preset, players, prefix, offset) -> None:
    """Whatever came before, dice that keep coming (every face in turn) end the round."""
    night = party(preset, [f"P{i}" for i in range(players)])
    stream = itertools.chain(prefix, itertools.cycle(ALL_FACES[offset:] + ALL_FACES[:offset]))
    for count, faces in enumerate(stream):
        if night.round_no > 1 or night.phase != "playing":
            break
        table, _ = night.expected_rollers()[0]
        night = night.apply({"type": "roll", "table": table, "dice": list(faces)})
        assert count < 100 + 216 * 40, "the round did not end"
    assert night.history and night.history[0].round_no == 1
    assert all(t.winners for t in night.history[0].tables)


def test_random_nights_of_every_preset_finish_and_replay() -> None:
    for preset in sorted(PRESETS):
        for players in (2, 3, 5, 9, 12):
            start = party(preset, [f"P{i}" for i in range(players)], sets=2)
            night, events = play_randomly(start, seed=players)
            again = read_log(write_log(start.setup, events).splitlines())
            assert night_report(again) == night_report(night)
            assert night.phase == "over" and all(t.status is Status.DONE for t in night.tables)
            assert len(night.history) == 12
