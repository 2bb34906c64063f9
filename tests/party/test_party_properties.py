"""Random nights of every preset, 2 to 200 players, random dice: the invariants of
party_checks.py hold round after round (seats, table sizes, W/L, movement, partners)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from party_checks import check_movement, check_night, check_round_tables
from party_helpers import PRESETS, party

from bunco.core.night import Night
from bunco.core.party_log import read_log, write_log
from bunco.core.rules import Fill
from bunco.core.seating import table_sizes
from bunco.party.night_report import night_report

FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(night: Night, rng: random.Random, head: float) -> tuple[Night, list[dict[str, Any]]]:
    """Random dice until the night is over; the head table rolls with probability ``head``
    when it may (a busy head table ends rounds early and leaves ties everywhere else)."""
    events: list[dict[str, Any]] = []
    while night.phase != "over":
        event = play_one(night, rng, head)
        night = night.apply(event)
        events.append(event)
    return night, events


def play_one(night: Night, rng: random.Random, head: float) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
    if night.phase == "rolloff":
        return event
    if night.tables[0].roller is not None and rng.random() < head:
        event["table"] = 1
    else:
        event["table"], _ = rng.choice(night.expected_rollers())
    return event


def random_night(preset: str, players: int, seed: int, head: float, sets: int = 1) -> None:
    names = [f"P{i}" for i in range(players)]
    start = party(preset, names, sets=sets, seed=seed)
    night, events = play(start, random.Random(seed), head)
    report = night_report(night)
    assert len(report["rounds"]) == 6 * sets
    assert [(r["set"], r["round"]) for r in report["rounds"]] == [
        (s, r) for s in range(1, sets + 1) for r in range(1, 7)
    ]
    check_night(report, night.rules, names)
    again = read_log(write_log(start.setup, events).splitlines())
    assert night_report(again) == report


@pytest.mark.slow
@settings(FAST, max_examples=40)
@given(
    preset=st.sampled_from(PRESETS),
    players=st.integers(2, 24),
    seed=st.integers(0, 2**32 - 1),
    head=st.sampled_from([0.0, 0.2, 0.6]),
    sets=st.integers(1, 2),
)
def test_random_nights_up_to_24_players(
    preset: str, players: int, seed: int, head: float, sets: int
) -> None:
    random_night(preset, players, seed, head, sets)


@pytest.mark.slow
@settings(FAST, max_examples=8)
@given(
    preset=st.sampled_from(PRESETS),
    players=st.integers(25, 200),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_nights_up_to_200_players(preset: str, players: int, seed: int) -> None:
    random_night(preset, players, seed, head=0.3)


@pytest.mark.slow
def test_every_count_from_2_to_17_under_every_preset() -> None:
    """One random night per count and preset: every layout of one to five tables
    (each remainder mod 4, with tables of two and three at the end) comes up."""
    for preset in PRESETS:
        for players in range(2, 18):
            random_night(preset, players, seed=players, head=0.7)


# -- people come and go between rounds --------------------------------------------------------


def change_between_rounds(
    night: Night, rng: random.Random, seated: list[str], fresh: list[str]
) -> tuple[Night, dict[str, Any] | None]:
    """Maybe a join, a leave or a substitute; ``seated`` is updated to match."""
    choice = rng.random()
    if choice < 0.2:
        name = fresh.pop()
        seated.append(name)
        event: dict[str, Any] = {"type": "join", "player": name}
    elif choice < 0.4 and len(seated) > 2:
        name = rng.choice(seated)
        seated.remove(name)
        event = {"type": "leave", "player": name}
    elif choice < 0.6:
        out, new = rng.choice(seated), fresh.pop()
        seated[seated.index(out)] = new
        event = {"type": "substitute", "out": out, "in": new}
    else:
        return night, None
    return night.apply(event), event


@settings(FAST, max_examples=25)
@given(
    preset=st.sampled_from(PRESETS),
    players=st.integers(2, 30),
    seed=st.integers(0, 2**32 - 1),
)
def test_joins_leaves_and_substitutes_keep_everyone_seated_once(
    preset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    seated = [f"P{i}" for i in range(players)]
    fresh = [f"N{i}" for i in range(40)]
    night = party(preset, list(seated), seed=seed)
    seated_by_round: list[list[str]] = []  # who sits in each round, as tracked here
    changed_before: list[list[dict[str, Any]]] = []  # the change made before each round
    while night.phase != "over":
        if len(night.history) == len(seated_by_round) and night.phase == "playing":
            night, event = change_between_rounds(night, rng, seated, fresh)
            changed_before.append([event] if event else [])
            seated_by_round.append(list(seated))
        night = night.apply(play_one(night, rng, 0.3))
    report = night_report(night)
    rules = night.rules
    assert len(report["rounds"]) == 6
    for rnd, names in zip(report["rounds"], seated_by_round, strict=True):
        got = [p for t in rnd["tables"] for p in t["players"] if p is not None]
        assert sorted(got) == sorted(names), rnd["round"]
        sizes = [len(t["players"]) for t in rnd["tables"]]
        if rules.fill is Fill.INDIVIDUALS:
            assert sizes == list(table_sizes(len(names), rules)), rnd["round"]
        else:
            assert sizes == list(table_sizes(len(names), rules)) or set(sizes) == {4}, rnd["round"]
        check_round_tables(rnd, rules)
    for k in range(1, 6):
        if not changed_before[k]:
            check_movement(report["rounds"][k - 1], report["rounds"][k], rules)
    expected_changes = [
        {
            **{key: v for key, v in e.items() if key != "type"},
            "type": e["type"],
            "set": 1,
            "round": k + 1,
        }
        for k, events in enumerate(changed_before)
        for e in events
    ]
    assert report["changes"] == expected_changes
    marks: Counter[str] = Counter()
    for rnd in report["rounds"]:
        marks.update(p for t in rnd["tables"] for p in t["players"] if p)
    for name, card in report["players"].items():
        assert card["wins"] + card["losses"] == marks[name], name
