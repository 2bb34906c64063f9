"""The night kernel against the night engine: the same dice, every result compared.

Each night is played twice: by the compiled kernel, and by :class:`bunco.core.night.Night`
fed the same dice in the same schedule (:func:`bunco.analysis.simulate.play_tick`). Every
roll at every table (seat, dice, phase, points), every table's seats, points, winners,
tie-break and clincher, every card, set winner, prize, the traveler, the last Bunco, the
number of dice used and the night's figures must be equal.
"""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kernel_nights import KernelNights, night_figures, play_nights

from bunco.analysis import simulate
from bunco.analysis.dice_codes import dice_to_codes
from bunco.analysis.night_kernel import (
    FIGURES,
    RULE_FIELDS,
    DiceStream,
    KernelUnsupported,
    check_kernel,
    kernel_refusal,
    movement_table,
    night_seeds,
    player_names,
    seat_places,
)
from bunco.analysis.simulate import (
    night_stats,
    play_night,
    play_tick,
    sim_rules,
    simulate_nights,
    simulate_summary,
    summarize,
    uses_kernel,
)
from bunco.analysis.table_odds import table_odds
from bunco.core.errors import InvalidSetup
from bunco.core.night import Night
from bunco.core.presets import get_rules
from bunco.core.rules import RuleSet
from bunco.core.seating import is_team_table, next_seating, table_sizes
from bunco.core.verification import awaiting_cards

CASES: list[tuple[str, dict[str, Any], int, int]] = [  # preset, house rules, players, sets
    ("classic", {}, 12, 2),
    ("scil", {}, 12, 1),
    ("tournament", {}, 12, 1),
    ("winning-moves", {}, 12, 2),
    ("classic", {"wipeout": True, "prize_ties": "shared"}, 12, 1),
    ("scil", {"tie_break": "sudden_death", "after_bell": "finish_turn"}, 12, 1),
    (
        "tournament",
        {"tie_break": "roll_off_to_five", "first_roller": "roll_for_high", "direction": "right"},
        12,
        1,
    ),
    ("winning-moves", {"after_bell": "finish_turn", "wipeout": True, "quick_game": True}, 12, 1),
    (
        "winning-moves",
        {"tie_break": "sessions", "first_roller": "left_of_last_winner", "direction": "right"},
        12,
        2,
    ),
    (
        "classic",
        {
            "first_roller": "left_of_last_winner",
            "round_end": "every_table",
            "traveling": "any_trips",
            "prizes": "traveling,last_bunco,most_wins,half_and_half,most_mini_buncos",
        },
        12,
        1,
    ),
    (
        "scil",
        {
            "traveling": "123",
            "traveling_excluded_round": 3,
            "bunco_ends_round": True,
            "prizes": "traveling,most_losses",
        },
        12,
        1,
    ),
    ("tournament", {"movement": "up_down", "team_target": 5, "roll_off_target": 2}, 12, 1),
    (
        "classic",
        {
            "movement": "head_losers_to_last",
            "no_repeat_partners": True,
            "set_winner": "most_wins",
            "bunco_points": 3,
            "target_die_points": 0,
        },
        12,
        1,
    ),
    ("winning-moves", {"bunco_points": 3, "tie_break": "sudden_death"}, 12, 1),
    ("classic", {}, 8, 1),
    ("scil", {"movement": "losers_rotate"}, 16, 1),
    # one table of four (teams), and any number of tables of four (past 64 players too)
    ("classic", {}, 4, 2),
    ("scil", {"wipeout": True}, 4, 1),
    ("tournament", {"single_table_target": 11}, 4, 1),
    ("winning-moves", {"single_table_teams": True}, 4, 3),
    ("winning-moves", {"single_table_teams": True, "first_roller": "roll_for_high"}, 4, 1),
    ("classic", {}, 36, 1),
    ("scil", {"set_winner": "most_wins"}, 40, 2),
    ("tournament", {"prize_ties": "roll_off"}, 68, 1),
    ("winning-moves", {}, 100, 1),
    ("classic", {"movement": "head_losers_to_last", "set_winner": "most_wins"}, 100, 1),
    ("scil", {"no_repeat_partners": False, "movement": "up_down"}, 200, 1),
    # one table of two or three, or of four individuals
    ("classic", {}, 2, 2),
    ("scil", {"tie_break": "roll_off_to_five"}, 3, 1),
    ("tournament", {"first_roller_single_table": "left_of_last_winner"}, 3, 2),
    ("winning-moves", {}, 4, 3),
    ("winning-moves", {"tie_break": "sessions", "direction": "right"}, 3, 2),
    # the winning-moves layouts for 5 to 11 players, in every preset
    *[
        (preset, {}, players, 2)
        for preset in ("winning-moves", "classic", "tournament")
        for players in (5, 6, 7, 9, 10, 11)
    ],
    ("winning-moves", {"tie_break": "sudden_death", "first_roller": "roll_for_high"}, 9, 1),
    ("classic", {"round_end": "every_table", "after_bell": "stop", "wipeout": True}, 7, 1),
    ("scil", {}, 5, 2),
    # counts past 12 that are not a multiple of four
    ("classic", {}, 13, 1),
    ("winning-moves", {}, 14, 1),
    ("tournament", {"movement": "head_losers_to_last"}, 39, 1),
    ("classic", {"fill": "individuals"}, 101, 1),
    # scil's ghosts
    *[("scil", {}, players, 1) for players in (6, 7, 9, 10, 11, 13, 15, 31)],
    ("scil", {"no_repeat_partners": False, "movement": "losers_rotate"}, 14, 2),
    (
        "classic",
        {"fill": "ghosts", "first_roller": "roll_for_high", "tie_break": "roll_off_to_five"},
        23,
        1,
    ),
]


def engine_view(night: Night, used: int) -> dict[str, Any]:
    """What the engine played, in the form of :meth:`KernelNights.view`."""
    rounds = []
    for result in night.history:
        tables = []
        for t in result.tables:
            tb = t.tie_break
            tables.append(
                {
                    "seats": list(t.seats),
                    "points": list(t.seat_points),
                    "winners": list(t.winners),
                    "tie_break": None
                    if tb is None
                    else {"sessions": tb["sessions"], "points": tb["points"]},
                    "clincher": t.clincher,
                    "rolls": [
                        [r.seat, int(dice_to_codes([r.dice])[0]), r.phase.value, r.points]
                        for r in t.rolls
                    ],
                }
            )
        rounds.append({"set": result.set_no, "round": result.round_no, "tables": tables})
    cards = {
        name: {
            "wins": c.wins,
            "losses": c.losses,
            "buncos": c.buncos,
            "minis": c.minis,
            "lows": c.lows,
            "highs": c.highs,
            "wipeouts": c.wipeouts,
            "points": c.points,
            "set_buncos": {s: n for s, n in c.set_buncos if n},
        }
        for name, c in night.cards.items()
    }
    sets = [
        {
            "winner": s.winner,
            "tied_on_wins": list(s.tied_on_wins),
            "tied_on_buncos": list(s.tied_on_buncos),
            "settled_by": s.settled_by,
        }
        for s in night.set_results
    ]
    prizes = [
        {
            "category": p.category,
            "value": p.value,
            "candidates": list(p.candidates),
            "winners": list(p.winners),
            "settled_by": p.settled_by,
        }
        for p in night.prizes
    ]
    return {
        "rounds": rounds,
        "cards": cards,
        "sets": sets,
        "prizes": prizes,
        "traveler": night.traveler,
        "last_bunco": night.last_bunco,
        "dice_used": used,
    }


def assert_same_night(engine: dict[str, Any], kernel: dict[str, Any]) -> None:
    """Equal, with the first difference named (round by round, table by table)."""
    for key in ("cards", "sets", "prizes", "traveler", "last_bunco", "dice_used"):
        assert engine[key] == kernel[key], key
    assert len(engine["rounds"]) == len(kernel["rounds"])
    for e_round, k_round in zip(engine["rounds"], kernel["rounds"], strict=True):
        where = f"set {e_round['set']} round {e_round['round']}"
        assert (e_round["set"], e_round["round"]) == (k_round["set"], k_round["round"]), where
        for n, (e_table, k_table) in enumerate(
            zip(e_round["tables"], k_round["tables"], strict=True), start=1
        ):
            assert e_table == k_table, f"{where} table {n}"


def assert_same_figures(night: Night, kernel: KernelNights, i: int) -> None:
    stats = night_stats(night)
    for key, value in zip(FIGURES, kernel.data["figures"][i].tolist(), strict=True):
        assert value == stats[key] or (math.isnan(value) and math.isnan(stats[key])), key
    ties = {
        p.value: float(t) for p, t in zip(kernel.rules.prizes, kernel.data["ties"][i], strict=True)
    }
    assert ties == stats["prize_ties"]


@pytest.mark.parametrize(("preset", "house", "players", "sets"), CASES)
def test_kernel_plays_the_engines_nights(
    preset: str, house: dict[str, Any], players: int, sets: int
) -> None:
    seeds = [1000 + 7 * len(house) + players, 2000 + len(preset)]
    kernel = play_nights(sim_rules(preset, house), players, sets, seeds=seeds)
    assert kernel.played == 2
    for i, seed in enumerate(seeds):
        dice = DiceStream(seed)
        night = play_night(preset, house, players=players, sets=sets, seed=seed, dice=dice)
        assert night.phase == "over"
        assert_same_night(engine_view(night, dice.used), kernel.view(i))
        assert_same_figures(night, kernel, i)


def _stream(rolls: list[tuple[int, int, int]], seed: int) -> np.ndarray:
    tail = np.random.default_rng(seed).integers(0, 216, size=30_000, dtype=np.uint8)
    return np.concatenate([dice_to_codes(rolls), tail])


def _both(preset: str, house: dict[str, Any], codes: np.ndarray) -> tuple[Night, dict[str, Any]]:
    kernel = play_nights(sim_rules(preset, house), 12, 1, codes=codes)
    dice = DiceStream(codes=codes)
    night = play_night(preset, house, players=12, sets=1, seed=0, dice=dice)
    view = kernel.view(0)
    assert_same_night(engine_view(night, dice.used), view)
    assert_same_figures(night, kernel, 0)
    return night, view


@pytest.mark.parametrize("after_bell", ["stop", "finish_turn"])
def test_bell_while_a_table_rolls_for_high(after_bell: str) -> None:
    # scil rolls for high (seats 1, 4, 3, 2); each tick takes table 3, then 2, then 1.
    # Table 3 ties four times on 10; tables 2 and 1 give seat 1 the 18; at the fifth tick
    # table 3 re-rolls, table 2 misses and the head table rolls a Bunco: the bell.
    ticks = [
        [(2, 3, 5), (6, 6, 6), (6, 6, 6)],
        [(2, 3, 5), (1, 2, 3), (1, 2, 3)],
        [(2, 3, 5), (1, 2, 4), (1, 2, 4)],
        [(2, 3, 5), (1, 2, 5), (1, 2, 5)],
        [(2, 3, 5), (2, 3, 4), (1, 1, 1)],
    ]
    _, view = _both("scil", {"after_bell": after_bell}, _stream([d for t in ticks for d in t], 4))
    head, second, third = view["rounds"][0]["tables"]
    assert head["rolls"][4] == [0, 0, "play", 21] and head["tie_break"] is None
    assert head["winners"] == ["P01", "P03"] and head["points"][0] >= 21
    assert [r[2] for r in second["rolls"][:5]] == ["first_roll"] * 4 + ["play"]
    assert [r[2] for r in third["rolls"][:6]] == ["first_roll"] * 5 + ["tie_break"]
    assert second["tie_break"] is not None and third["tie_break"] is not None
    assert second["points"] == third["points"] == [0, 0, 0, 0]


def test_bunco_at_the_last_table_before_the_head_table_rolls() -> None:
    night, view = _both("winning-moves", {}, _stream([(1, 1, 1)], 5))
    head, second, third = view["rounds"][0]["tables"]
    assert third["rolls"] == [[0, 0, "play", 21]] and third["winners"] == ["P09", "P11"]
    for table in (head, second):  # 0-0 at once: a roll-off to five, high total first
        assert table["tie_break"] is not None and max(table["tie_break"]["points"]) >= 5
        assert [r[2] for r in table["rolls"][:4]] == ["first_roll"] * 4
        assert all(r[2] != "play" for r in table["rolls"])
    assert night_stats(night)["head_bunco_end"] < 1  # round 1 does not count: no play there


def test_a_stream_that_runs_out() -> None:
    codes = np.random.default_rng(6).integers(0, 216, size=300, dtype=np.uint8)
    kernel = play_nights(sim_rules("classic", {}), 12, 1, codes=codes, nights=2)
    assert kernel.played == 0
    with pytest.raises(IndexError, match="ran out"):
        play_night("classic", {}, players=12, sets=1, seed=0, dice=DiceStream(codes=codes))
    with pytest.raises(IndexError):
        kernel.view(0)


def _first(rules_name: str, house: dict[str, Any], sets: int, found: Any) -> tuple[int, Any]:
    """The first seed (from 1) whose kernel night shows what ``found`` looks for."""
    rules = sim_rules(rules_name, house)
    for start in range(1, 2000, 100):
        kernel = play_nights(rules, 12, sets, seeds=range(start, start + 100))
        for i in range(kernel.played):
            if found(kernel.view(i)):
                return start + i, kernel.view(i)
    raise AssertionError("not found in 2000 nights")


def _engine_agrees(
    rules_name: str, house: dict[str, Any], sets: int, seed: int, view: dict[str, Any]
) -> None:
    dice = DiceStream(seed)
    night = play_night(rules_name, house, players=12, sets=sets, seed=seed, dice=dice)
    assert_same_night(engine_view(night, dice.used), view)


def test_rare_events_found_by_the_kernel_are_the_engines() -> None:
    def wiped_after_bell(view: dict[str, Any]) -> bool:
        return any(
            r[1] == 0 and r[2] == "after_bell" and rnd["round"] > 1
            for rnd in view["rounds"]
            for r in rnd["tables"][0]["rolls"]
        )

    def set_rolled_off(view: dict[str, Any]) -> bool:
        return any(s["settled_by"] == "roll_off" for s in view["sets"])

    def prize_rolled_off(view: dict[str, Any]) -> bool:
        return any(p["settled_by"] == "roll_off" for p in view["prizes"])

    for rules_name, house, sets, found in [
        ("classic", {"wipeout": True}, 1, wiped_after_bell),
        ("winning-moves", {}, 2, set_rolled_off),
        ("tournament", {}, 1, prize_rolled_off),
    ]:
        seed, view = _first(rules_name, house, sets, found)
        _engine_agrees(rules_name, house, sets, seed, view)


def test_unverified_cards_win_no_prizes() -> None:
    # tournament counts only checked cards; played straight through Night, nobody checks
    rules = get_rules("tournament", {"prizes": "most_buncos,most_wins,most_losses"})
    assert rules.verify_for_prizes
    kernel = play_nights(rules, 12, 1, seeds=[31])
    dice = DiceStream(31)
    night = Night.start(
        {
            "type": "party",
            "rules": "tournament",
            "players": player_names(12),
            "house_rules": {"prizes": "most_buncos,most_wins,most_losses"},
        }
    )
    while night.phase != "over":
        night = play_tick(night, dice)
    # the prizes wait for final cards: nobody checked one, so the host closes them all and
    # the prizes count what was verified of them (nothing), as the kernel plays it
    assert night.prizes == () and len(awaiting_cards(night)) == 12
    night = night.apply({"type": "close_cards", "unverified": list(awaiting_cards(night))})
    while night.phase != "over":
        night = play_tick(night, dice)
    view = kernel.view(0)
    assert_same_night(engine_view(night, dice.used), view)
    assert [p["settled_by"] for p in view["prizes"][:2]] == ["nobody", "nobody"]
    assert view["prizes"][2]["value"] >= 3


def test_simulate_uses_the_kernel_and_agrees_with_the_engine() -> None:
    assert uses_kernel("classic", {}, 12, 1) and uses_kernel("tournament", {}, 8, 4)
    assert uses_kernel("classic", {}, 10, 1) and uses_kernel("winning-moves", {}, 4, 1)
    assert uses_kernel("scil", {}, 7, 1) and uses_kernel("classic", {}, 1000, 1)
    assert not uses_kernel("classic", {}, 12, 5)
    args: dict[str, Any] = {"players": 12, "sets": 1, "parties": 3, "seed": 21, "workers": 1}
    fast = simulate_nights("scil", {"wipeout": True}, **args)
    slow = simulate_nights("scil", {"wipeout": True}, engine=True, **args)
    assert fast == slow
    assert summarize(fast) == summarize(slow)
    assert simulate_summary("scil", {"wipeout": True}, **args) == summarize(fast)
    assert simulate_summary("scil", {"wipeout": True}, engine=True, **args) == summarize(slow)
    assert simulate_nights("scil", {"wipeout": True}, **{**args, "parties": 2}) == fast[:2]


def test_kernel_nights_over_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "KERNEL_CHUNK", 2)  # five nights: three jobs
    args: dict[str, Any] = {"players": 12, "sets": 1, "parties": 5, "seed": 8}
    done: list[int] = []
    two = simulate_nights("tournament", {}, workers=2, progress=done.append, **args)
    assert done == [2, 2, 1]
    assert two == simulate_nights("tournament", {}, workers=1, **args)
    ten = simulate_nights("classic", {}, players=10, sets=1, parties=1, seed=3, workers=1)
    assert ten[0]["rounds"] == 6.0


def test_refusals() -> None:
    rules = get_rules("classic")
    for players in (2, 3, 4, 5, 10, 13, 36, 2000):
        assert kernel_refusal(rules, players, 4) is None
    assert kernel_refusal(get_rules("winning-moves"), 4) is None
    assert kernel_refusal(get_rules("scil"), 7) is None  # ghosts
    assert "2 to 2000" in str(kernel_refusal(rules, 2004))
    assert "2 to 2000" in str(kernel_refusal(rules, 1))
    assert "1 to 4" in str(kernel_refusal(rules, 12, 5))
    with pytest.raises(KernelUnsupported, match="2004 players: the kernel seats") as err:
        check_kernel(rules, 2004)
    assert "night engine" in str(err.value.expected)
    huge = get_rules("classic", {"bunco_points": 1_000_000})
    with pytest.raises(KernelUnsupported, match="1000000 points"):
        night_figures(huge, 12, 1, night_seeds(1, 1))
    with pytest.raises(ValueError, match="seeds or a stream"):
        play_nights(rules, 12, 1)


def test_timed_rounds_are_neither_simulated_nor_given_odds() -> None:
    """A round that ends on a clock depends on how fast the room rolls: the kernel, the
    engine's simulation and ``odds --set`` refuse it, saying so."""
    timed = get_rules("classic", {"round_minutes": 15})
    assert kernel_refusal(timed, 12) == f"round_minutes 15: {simulate.TIMED_REFUSAL}"
    with pytest.raises(InvalidSetup, match="round_minutes 15: a timed round ends") as err:
        simulate.sim_rules("classic", {"round_minutes": 15})
    assert err.value.expected and "round_minutes 0 (off)" in err.value.expected
    assert simulate.sim_rules("classic", {"round_minutes": 0}).round_minutes == 0


def test_a_movement_that_is_not_a_lookup_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """If a movement rule ever seated a table from more tables than the lookup keeps, or
    by other tables' results, the kernel would refuse the party rather than play it."""
    import bunco.analysis.night_kernel as kernel

    def everyone_rotates(tables: Any, winners: Any, rules: RuleSet) -> Any:
        flat = [seat for table in tables for seat in table]
        shift = 1 + sum(1 for w in winners if 0 in w)  # depends on every table's result
        flat = flat[shift:] + flat[:shift]
        return tuple(tuple(flat[4 * k : 4 * k + 4]) for k in range(len(tables)))

    monkeypatch.setattr(kernel, "next_seating", everyone_rotates)
    with pytest.raises(KernelUnsupported, match=r"gets players from|depends on other"):
        movement_table.__wrapped__(get_rules("classic"), (4,) * 12)


@pytest.mark.parametrize("preset", ["classic", "scil", "tournament", "winning-moves"])
def test_movement_follows_the_rules(preset: str) -> None:
    """Every winner/loser pattern: who goes to which table (RULES.md §6), and everyone
    who stays at a table gets a new partner."""
    rules = get_rules(preset)
    move = movement_table(rules, (4, 4, 4))
    for pattern in range(8):
        won = [pattern >> k & 1 for k in range(3)]
        winners = [{k * 4 + s for s in ((1, 3) if won[k] else (0, 2))} for k in range(3)]
        losers = [{k * 4 + s for s in range(4)} - winners[k] for k in range(3)]
        expected = {
            "up_down": [winners[0] | winners[1], winners[2] | losers[0], losers[1] | losers[2]],
            "head_losers_to_last": [
                winners[0] | winners[1],
                winners[2] | losers[1],
                losers[0] | losers[2],
            ],
            "losers_rotate": [
                winners[0] | losers[2],
                winners[1] | losers[0],
                winners[2] | losers[1],
            ],
        }[rules.movement.value]
        for k in range(3):
            seats = seat_places(move, won)[k]
            assert set(seats) == expected[k], (pattern, k)
            for a, b in ((seats[0], seats[2]), (seats[1], seats[3])):
                old_partners = a // 4 == b // 4 and a % 2 == b % 2
                stayed = a // 4 == k
                assert not (old_partners and (stayed or rules.no_repeat_partners)), (pattern, k)


@pytest.mark.parametrize("preset", ["classic", "scil", "tournament", "winning-moves"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 9, 10, 11, 13, 22, 59, 160])
def test_movement_lookup_is_next_seating(preset: str, players: int) -> None:
    """The per-table lookup gives what next_seating gives, for random winners, at every
    layout (tables of two and three, ghosts' tables as tables of four)."""
    rules = get_rules(preset, {"fill": "individuals"})
    sizes = tuple(table_sizes(players, rules))
    move = movement_table(rules, sizes)
    labels = tuple(tuple(f"{4 * k + s}" for s in range(n)) for k, n in enumerate(sizes))
    draw = np.random.default_rng(players)
    teams = [is_team_table(n, len(sizes), rules) for n in sizes]
    for _ in range(6):
        won = [
            int(draw.integers(0, 2 if team else n)) for n, team in zip(sizes, teams, strict=True)
        ]
        after = next_seating(
            labels,
            [
                (frozenset({1, 3}) if w else frozenset({0, 2})) if team else frozenset({w})
                for w, team in zip(won, teams, strict=True)
            ],
            rules,
        )
        assert [seat_places(move, won)[k][:n] for k, n in enumerate(sizes)] == [
            [int(str(label)) for label in t] for t in after
        ]


def test_every_layout_has_a_movement_lookup() -> None:
    """Every preset with every movement rule and partner rule, every count to 40 (one to
    ten tables, each way a count falls short of full tables), a few above: the lookup
    builds (so no party the kernel accepts is refused later)."""
    for preset in ("classic", "scil", "tournament", "winning-moves"):
        for movement in ("up_down", "head_losers_to_last", "losers_rotate"):
            for no_repeat in (True, False):
                rules = get_rules(preset, {"movement": movement, "no_repeat_partners": no_repeat})
                for players in [*range(2, 41), 53, 70, 101, 402, 999]:
                    movement_table(rules, tuple(table_sizes(players, rules)))


def test_dice_streams() -> None:
    one = DiceStream(11)
    first = [one() for _ in range(5000)]
    again = DiceStream(11)
    assert [again() for _ in range(5000)] == first and one.used == 5000
    assert [DiceStream(12)() for _ in range(3)] != first[:3]
    codes = dice_to_codes(first)
    counts = np.bincount(codes, minlength=216)  # 216 equally likely codes: chi-square
    chi2 = float(((counts - 5000 / 216) ** 2 / (5000 / 216)).sum())
    assert 140 < chi2 < 300  # 215 degrees of freedom
    assert night_seeds(5, 10)[4:].tolist() == night_seeds(5, 6, start=4).tolist()
    assert len(set(night_seeds(5, 1000).tolist())) == 1000


def test_kernel_nights_agree_with_the_exact_odds() -> None:
    for preset, keys in [
        ("classic", ("head_rolls", "head_first_team_win", "head_bunco_end", "non_head_tie_rate")),
        # rolling for high takes each table its own number of ticks: the non-head tables
        # are then not exactly in step with the head table, as the odds assume
        ("scil", ("head_rolls", "head_first_team_win", "head_bunco_end")),
    ]:
        rules = sim_rules(preset, {})
        figures, _ = night_figures(rules, 12, 1, night_seeds(99, 20_000))
        exact = table_odds(rules, 1)
        assert exact.non_head is not None
        values = {
            "head_rolls": exact.expected_rolls,
            "head_first_team_win": exact.first_team_win_probability,
            "head_bunco_end": exact.bunco_end_probability,
            "non_head_tie_rate": exact.non_head.tie_probability,
        }
        for key in keys:
            column = figures[:, FIGURES.index(key)]
            mean = float(column.mean())
            se = float(column.std(ddof=1) / math.sqrt(len(column)))
            assert abs(mean - values[key]) < 4 * se, (preset, key, mean, se, values[key])


def test_every_rule_field_is_played_or_refused() -> None:
    """A new RuleSet field must be handled by the kernel (or its parties refused) and
    listed in RULE_FIELDS, else this fails."""
    names = {f.name for f in dataclasses.fields(RuleSet)}
    assert names == set(RULE_FIELDS), names ^ set(RULE_FIELDS)


HOUSE_OPTIONS: dict[str, list[Any]] = {
    "wipeout": [True, False],
    "quick_game": [True],
    "after_bell": ["stop", "finish_turn"],
    "tie_break": ["sessions", "roll_off_to_five", "sudden_death"],
    "first_roller": ["scorekeeper", "roll_for_high", "left_of_last_winner"],
    "direction": ["left", "right"],
    "round_end": ["head_table", "every_table"],
    "bunco_ends_round": [True, False],
    "movement": ["up_down", "head_losers_to_last", "losers_rotate"],
    "no_repeat_partners": [True, False],
    "set_winner": ["most_wins", "none"],
    "prize_ties": ["shared", "roll_off"],
    "traveling": ["off", "any_trips", "bunco", "mini_bunco", "123"],
    "team_target": [5, 21],
    "bunco_points": [3, 21],
    "low_trips_continues": [True, False],
    "first_roller_single_table": ["scorekeeper", "roll_for_high", "left_of_last_winner"],
    "single_table_target": [5, 21],
    "single_table_teams": [True, False],
    "individual_target": [5, 11, 21],
    "fill": ["ghosts", "individuals"],
}


@settings(
    max_examples=int(os.environ.get("BUNCO_KERNEL_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    preset=st.sampled_from(["classic", "scil", "tournament", "winning-moves"]),
    house=st.dictionaries(st.sampled_from(sorted(HOUSE_OPTIONS)), st.none(), max_size=6),
    players=st.one_of(st.integers(2, 13), st.integers(14, 50)),
    sets=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_kernel_equals_engine_property(
    preset: str, house: dict[str, None], players: int, sets: int, seed: int, data: Any
) -> None:
    """Any preset, house rules, number of players and sets: the kernel plays the
    engine's night roll for roll, card for card, prize for prize."""
    rules = {k: data.draw(st.sampled_from(HOUSE_OPTIONS[k]), label=k) for k in house}
    kernel = play_nights(sim_rules(preset, rules), players, sets, seeds=[seed])
    dice = DiceStream(seed)
    night = play_night(preset, rules, players=players, sets=sets, seed=seed, dice=dice)
    assert_same_night(engine_view(night, dice.used), kernel.view(0))
    assert_same_figures(night, kernel, 0)


def test_summary_in_chunks_over_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks folded as moments give the figures of all the nights at once."""
    monkeypatch.setattr(simulate, "KERNEL_CHUNK", 2)
    monkeypatch.setattr(simulate, "ENGINE_CHUNK", 2)
    for players, engine in ((12, False), (10, True)):
        args: dict[str, Any] = {
            "players": players,
            "sets": 1,
            "parties": 5,
            "seed": 4,
            "engine": engine,
        }
        done: list[int] = []
        chunked = simulate_summary("classic", {}, workers=2, progress=done.append, **args)
        assert sum(done) == 5 and (done == [2, 2, 1]) != engine
        whole = summarize(simulate_nights("classic", {}, workers=1, **args))
        assert chunked["parties"] == whole["parties"] == 5
        for part in ("figures", "prize_ties"):
            assert chunked[part].keys() == whole[part].keys()
            for key, value in whole[part].items():
                for stat in ("mean", "se"):
                    assert chunked[part][key][stat] == pytest.approx(
                        value[stat], nan_ok=True, rel=1e-12, abs=1e-15
                    ), key


def test_the_compiled_nights_know_the_sources_they_inline() -> None:
    """Numba's cache of ``run_nights`` notices changes to its own file only: the digest
    of the kernel's other modules kept in that file must be theirs."""
    from bunco.analysis.kernel import night

    assert night.sources_digest() == night.KERNEL_SOURCES, (
        "a kernel module changed: set KERNEL_SOURCES in bunco/analysis/kernel/night.py to "
        f"{night.sources_digest()!r} so that Numba compiles run_nights again"
    )


def test_only_self_contained_kernel_functions_are_cached() -> None:
    """A compiled function cached by Numba must not call into another file (its cache
    would outlive a change there): only the entry points are cached, and
    ``run_nights`` keeps the digest of what it calls."""
    import pathlib
    import re

    from bunco.analysis import kernel

    cached = {}
    for path in sorted(pathlib.Path(kernel.__file__).parent.glob("*.py")):
        cached[path.stem] = re.findall(r"@njit\(cache=True[^)]*\)\ndef (\w+)", path.read_text())
    assert {k: v for k, v in cached.items() if v} == {
        "dice": ["night_seeds", "fill_codes", "seed_state"],
        "night": ["run_nights"],
    }


@pytest.mark.parametrize(
    "name",
    ["bunco.analysis.night_kernel", "bunco.analysis.kernel.layout", "bunco.analysis.kernel.night"],
)
def test_the_kernels_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
