"""Seating and movement: hand-worked seatings for each preset and RULES.md §6's table."""

from __future__ import annotations

import pytest

from bunco.core.errors import InvalidSetup
from bunco.core.presets import PRESETS, get_rules
from bunco.core.seating import (
    Move,
    describe_moves,
    first_seating,
    ghost_seats,
    is_team_table,
    next_seating,
    reseat,
    table_sizes,
    validate_seating,
)

WM = get_rules("winning-moves")
CLASSIC = get_rules("classic")
SCIL = get_rules("scil")
TOURNAMENT = get_rules("tournament")

A_TO_Z = [chr(ord("A") + i) for i in range(26)]


def players(n: int) -> list[str]:
    return A_TO_Z[:n]


def w(*seats: int) -> frozenset[int]:
    return frozenset(seats)


def table_sets(tables: tuple[tuple[str | None, ...], ...]) -> list[set[str | None]]:
    return [set(t) for t in tables]


# -- table sizes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (2, (2,)),
        (3, (3,)),
        (4, (4,)),
        (5, (3, 2)),
        (6, (4, 2)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (4, 3, 2)),
        (10, (4, 4, 2)),
        (11, (4, 4, 3)),
        (12, (4, 4, 4)),
        (13, (4, 4, 3, 2)),
        (17, (4, 4, 4, 3, 2)),
        (18, (4, 4, 4, 4, 2)),
        (19, (4, 4, 4, 4, 3)),
    ],
)
def test_table_sizes_with_individual_tables(n: int, sizes: tuple[int, ...]) -> None:
    for name in ("winning-moves", "classic", "tournament"):
        assert table_sizes(n, PRESETS[name]) == sizes


@pytest.mark.parametrize(
    ("n", "sizes", "ghosts"),
    [
        (2, (2,), (0,)),
        (3, (3,), (0,)),
        (4, (4,), (0,)),
        (5, (3, 2), (0, 0)),  # two tables of four would need three ghosts
        (6, (4, 4), (1, 1)),
        (7, (4, 4), (0, 1)),
        (8, (4, 4), (0, 0)),
        (9, (4, 4, 4), (1, 1, 1)),
        (10, (4, 4, 4), (0, 1, 1)),
        (11, (4, 4, 4), (0, 0, 1)),
        (13, (4, 4, 4, 4), (0, 1, 1, 1)),
        (14, (4, 4, 4, 4), (0, 0, 1, 1)),
    ],
)
def test_table_sizes_with_ghosts(n: int, sizes: tuple[int, ...], ghosts: tuple[int, ...]) -> None:
    assert table_sizes(n, SCIL) == sizes
    assert ghost_seats(n, SCIL) == ghosts


@pytest.mark.parametrize("bad", [0, 1, -3, True, 2.0, "4", None])
def test_table_sizes_refuses_too_few_or_non_numbers(bad: object) -> None:
    with pytest.raises(InvalidSetup) as err:
        table_sizes(bad, CLASSIC)  # type: ignore[arg-type]
    assert err.value.expected == "2 or more players"


def test_team_tables() -> None:
    assert is_team_table(4, 3, WM)
    assert is_team_table(4, 1, CLASSIC)
    assert not is_team_table(4, 1, WM)  # one-table winning-moves: four individuals
    assert not is_team_table(3, 2, CLASSIC)
    assert not is_team_table(2, 1, SCIL)


# -- first seating and host seatings ----------------------------------------------------


def test_first_seating_in_order() -> None:
    assert first_seating(players(9), WM) == (("A", "B", "C", "D"), ("E", "F", "G"), ("H", "I"))
    assert first_seating(players(10), SCIL) == (
        ("A", "B", "C", "D"),
        ("E", "F", "G", None),
        ("H", "I", "J", None),
    )
    assert first_seating(players(3), SCIL) == (("A", "B", "C"),)
    assert first_seating(players(5), SCIL) == (("A", "B", "C"), ("D", "E"))


@pytest.mark.parametrize(
    ("names", "fragment"),
    [
        (["A"], "at least 2 players"),
        (["A", "A", "B"], "'A' appears twice"),
        (["A", ""], "is not a player's name"),
        (["A", 3], "is not a player's name"),
        ("AB", "must be a list of names"),
    ],
)
def test_first_seating_refuses_bad_player_lists(names: object, fragment: str) -> None:
    with pytest.raises(InvalidSetup) as err:
        first_seating(names, CLASSIC)  # type: ignore[arg-type]
    assert fragment in err.value.message


def test_validate_seating_accepts_a_host_seating() -> None:
    given = [["D", "C", "B", "A"], ["E", "F"]]
    assert validate_seating(given, players(6), CLASSIC) == (("D", "C", "B", "A"), ("E", "F"))
    ghosts = [["A", "B", "C", None], ["D", None, "E", "F"]]
    assert validate_seating(ghosts, players(6), SCIL) == (
        ("A", "B", "C", None),
        ("D", None, "E", "F"),
    )


@pytest.mark.parametrize(
    ("tables", "rules", "fragment", "expected"),
    [
        ([["A", "B", "C"], ["D", "Zed"]], CLASSIC, "'Zed' is not one of the", "missing: 'E'"),
        ([["A", "B", "C"], ["D"]], CLASSIC, "table 2 has 1 seats", "2, 3 or 4 seats"),
        ([["A", "B", "C", "D", "E"]], CLASSIC, "table 1 has 5 seats", "2, 3 or 4 seats"),
        ([["A", "B", "C"], ["D", "A"]], CLASSIC, "'A' appears twice", "each name once"),
        ([["A", "B", "C", "D"]], CLASSIC, "1 player(s) have no seat: 'E'", "missing: 'E'"),
        ([["A", "B", "C", None], ["D", "E"]], CLASSIC, "rules seat individuals", "fill=ghosts"),
        ([["A", "B", "C", None], ["D", "E"]], SCIL, "table 2 has 2 seats", "team table of four"),
        ([["A", None, "B", None], ["C", "D", "E", None]], SCIL, "would be partners", "at most one"),
        ([["A", "B", "C", None], ["D", "E"]], SCIL, "does not play in teams", "every table"),
        ([], CLASSIC, "non-empty list of tables", "a list of tables"),
        (["ABCDE"], CLASSIC, "must be a list of seats", "2 to 4 seats"),
    ],
)
def test_validate_seating_refusals(
    tables: list[list[str | None]], rules: object, fragment: str, expected: str
) -> None:
    with pytest.raises(InvalidSetup) as err:
        validate_seating(tables, players(5), rules)  # type: ignore[arg-type]
    assert fragment in err.value.message
    assert err.value.expected is not None and expected in err.value.expected


def test_one_table_winning_moves_cannot_use_a_ghost() -> None:
    rules = WM.with_house_rules({"fill": "ghosts"})
    with pytest.raises(InvalidSetup, match="does not play in teams"):
        validate_seating([["A", "B", "C", None]], players(3), rules)
    # with teams at one table, a ghost is fine
    assert validate_seating([["A", "B", "C", None]], players(3), SCIL) == (("A", "B", "C", None),)


# -- winning-moves, 5 to 12 players: RULES.md §6 --------------------------------------


def test_wm_5_players() -> None:
    # I3, I2: both at table 2 go to table 1; the two losers at table 1 go to table 2.
    tables = first_seating(players(5), WM)
    new = next_seating(tables, [w(1), w(0)], WM)
    assert table_sets(new) == [{"B", "D", "E"}, {"A", "C"}]
    assert new == (("D", "B", "E"), ("A", "C"))


def test_wm_6_players() -> None:
    # T4, I2: table 1 losers go to table 2; both at table 2 go to table 1.
    tables = first_seating(players(6), WM)
    new = next_seating(tables, [w(1, 3), w(1)], WM)
    assert table_sets(new) == [{"B", "D", "E", "F"}, {"A", "C"}]
    # B and D must split: D keeps seat 4 and B takes the scorekeeper's chair.
    assert new == (("B", "E", "F", "D"), ("A", "C"))


def test_wm_7_players() -> None:
    # T4, I3: table 1 losers go to table 2; table 2's two losers go to table 1.
    tables = first_seating(players(7), WM)
    new = next_seating(tables, [w(0, 2), w(2)], WM)
    assert table_sets(new) == [{"A", "C", "E", "F"}, {"B", "D", "G"}]
    assert new == (("A", "C", "E", "F"), ("B", "D", "G"))


def test_wm_8_players() -> None:
    # T4, T4: losers swap tables.
    tables = first_seating(players(8), WM)
    new = next_seating(tables, [w(1, 3), w(0, 2)], WM)
    assert table_sets(new) == [{"B", "D", "F", "H"}, {"E", "G", "A", "C"}]
    assert new == (("B", "F", "H", "D"), ("E", "G", "A", "C"))


def test_wm_9_players() -> None:
    # T4, I3, I2: both at table 3 go to table 1; table 1 losers to table 2; table 2's
    # two losers to table 3.
    tables = first_seating(players(9), WM)
    new = next_seating(tables, [w(0, 2), w(1), w(1)], WM)
    assert table_sets(new) == [{"A", "C", "H", "I"}, {"F", "B", "D"}, {"E", "G"}]
    assert new == (("A", "C", "H", "I"), ("B", "F", "D"), ("E", "G"))


def test_wm_10_players() -> None:
    # T4, T4, I2: as for nine.
    tables = first_seating(players(10), WM)
    new = next_seating(tables, [w(1, 3), w(1, 3), w(0)], WM)
    assert table_sets(new) == [{"B", "D", "I", "J"}, {"F", "H", "A", "C"}, {"E", "G"}]
    assert new == (("B", "I", "J", "D"), ("F", "A", "C", "H"), ("E", "G"))


def test_wm_11_players() -> None:
    # T4, T4, I3: losers move k → k+1, last → 1; winners stay.
    tables = first_seating(players(11), WM)
    new = next_seating(tables, [w(0, 2), w(1, 3), w(2)], WM)
    assert table_sets(new) == [{"A", "C", "I", "J"}, {"F", "H", "B", "D"}, {"K", "E", "G"}]
    assert new == (("A", "C", "I", "J"), ("F", "B", "D", "H"), ("E", "G", "K"))


TWELVE_WINNERS = [w(0, 2), w(1, 3), w(0, 2)]  # A+C, F+H, I+K win


@pytest.mark.parametrize("rules", [WM, TOURNAMENT])
def test_twelve_players_losers_rotate(rules: object) -> None:
    tables = first_seating(players(12), rules)  # type: ignore[arg-type]
    new = next_seating(tables, TWELVE_WINNERS, rules)  # type: ignore[arg-type]
    assert new == (("A", "C", "J", "L"), ("F", "B", "D", "H"), ("I", "K", "E", "G"))


def test_twelve_players_classic() -> None:
    new = next_seating(first_seating(players(12), CLASSIC), TWELVE_WINNERS, CLASSIC)
    # head winners stay, table 2 winners up; table 1 losers down, table 3 winners up;
    # table 2 losers down, table 3 losers stay.
    assert new == (("A", "C", "F", "H"), ("B", "D", "I", "K"), ("J", "E", "G", "L"))


def test_twelve_players_scil() -> None:
    new = next_seating(first_seating(players(12), SCIL), TWELVE_WINNERS, SCIL)
    # head losers B+D go to the last table; table 2 losers E+G stay.
    assert new == (("A", "C", "F", "H"), ("E", "G", "I", "K"), ("J", "B", "D", "L"))


def test_twelve_players_describe_moves() -> None:
    old = first_seating(players(12), CLASSIC)
    moves = describe_moves(old, next_seating(old, TWELVE_WINNERS, CLASSIC))
    assert [m.player for m in moves] == players(12)
    assert moves[0] == Move("A", 1, 1, 1, 1)
    assert moves[1] == Move("B", 1, 2, 2, 1)
    assert moves[2] == Move("C", 1, 3, 1, 2)
    assert moves[11] == Move("L", 3, 4, 3, 4)
    assert sum(m.changes_table for m in moves) == 8


# -- uneven tables in the ladder presets --------------------------------------------


def test_classic_six_players_a_head_loser_stays() -> None:
    # T4, I2: classic would send 3 to table 1 and 3 to table 2; the first head loser
    # (by seat) stays at the head table.
    new = next_seating(first_seating(players(6), CLASSIC), [w(0, 2), w(0)], CLASSIC)
    assert new == (("A", "B", "E", "C"), ("D", "F"))


def test_classic_nine_players_rebalance_moves_one_table_further() -> None:
    # T4, I3, I2 with A+C, F and H winning: the rule would give 3, 3, 3 players. H
    # (winner at table 3) moves up two tables, E (first loser at table 2) stays.
    new = next_seating(first_seating(players(9), CLASSIC), [w(0, 2), w(1), w(0)], CLASSIC)
    assert table_sets(new) == [{"A", "C", "F", "H"}, {"B", "D", "E"}, {"G", "I"}]
    assert new == (("A", "C", "F", "H"), ("E", "B", "D"), ("G", "I"))


def test_classic_ten_players_partners_who_move_together() -> None:
    # T4, T4, I2; A+C, E+G and I win. Table 2 gets B+D (down), I (up) and F, the
    # first table-2 loser, who stays to fill it and keeps seat 2.
    tables = first_seating(players(10), CLASSIC)
    winners = [w(0, 2), w(0, 2), w(0)]
    new = next_seating(tables, winners, CLASSIC)
    assert new == (("A", "C", "E", "G"), ("B", "F", "D", "I"), ("H", "J"))
    # classic lets B and D, who moved together, stay partners; no_repeat_partners splits them
    strict = CLASSIC.with_house_rules({"no_repeat_partners": True})
    assert next_seating(tables, winners, strict) == (
        ("A", "C", "E", "G"),
        ("B", "F", "I", "D"),
        ("H", "J"),
    )


def test_scil_five_players_fall_back_to_individuals() -> None:
    new = next_seating(first_seating(players(5), SCIL), [w(2), w(1)], SCIL)
    # C stays, E comes up; head losers A, B go to the last table, but A (first by
    # seat) stays to fill the head table.
    assert new == (("A", "E", "C"), ("D", "B"))


# -- ghosts -----------------------------------------------------------------------------


def test_scil_seven_players_ghost_moves_with_its_partner() -> None:
    tables = first_seating(players(7), SCIL)
    assert tables == (("A", "B", "C", "D"), ("E", "F", "G", None))
    new = next_seating(tables, [w(1, 3), w(1, 3)], SCIL)
    # F and the ghost won at table 2 and go up; they must not stay partners; the ghost
    # does not keep score.
    assert new == (("B", "F", None, "D"), ("E", "G", "A", "C"))


def test_scil_two_ghosts_at_one_table_are_never_partners() -> None:
    tables = first_seating(players(6), SCIL)
    new = next_seating(tables, [w(0, 2), w(0, 2)], SCIL)
    assert new == (("A", "C", "D", "F"), ("E", "B", None, None))


# -- one table -----------------------------------------------------------------------


def test_one_team_table_rotates_through_the_three_pairings() -> None:
    seen = []
    tables = first_seating(players(4), CLASSIC)
    for _ in range(3):
        tables = next_seating(tables, [w(0, 2)], CLASSIC)
        seen.append(tables)
    assert seen == [(("A", "C", "D", "B"),), (("A", "D", "B", "C"),), (("A", "B", "C", "D"),)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_one_individual_table_keeps_its_seats(n: int) -> None:
    tables = first_seating(players(n), WM)
    assert next_seating(tables, [w(n - 1)], WM) == tables
    if n < 4:
        for rules in (CLASSIC, SCIL, TOURNAMENT):
            assert next_seating(tables, [w(0)], rules) == tables


def test_one_table_with_two_ghosts_alternates_the_legal_pairings() -> None:
    table = validate_seating([[None, "A", "B", None]], ["A", "B"], SCIL)
    once = next_seating(table, [w(0, 2)], SCIL)
    twice = next_seating(once, [w(0, 2)], SCIL)
    assert once == ((None, None, "A", "B"),)
    assert twice == table


# -- bad winners --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winners", "fragment"),
    [
        ([w(0, 2)], "winners given for 1 tables"),
        ([w(0, 1), w(0)], "are not partners"),
        ([w(0, 2), w(0, 1)], "plays as individuals"),
        ([w(0, 2), w(5)], "plays as individuals"),
        ([w(0, 2), frozenset()], "plays as individuals"),
        ([w(0, 2), ["1"]], "must be seat indexes"),
        ("ab", "must be a list"),
    ],
)
def test_next_seating_refuses_bad_winners(winners: object, fragment: str) -> None:
    tables = first_seating(players(6), CLASSIC)
    with pytest.raises(InvalidSetup) as err:
        next_seating(tables, winners, CLASSIC)  # type: ignore[arg-type]
    assert fragment in err.value.message


# -- describe_moves -------------------------------------------------------------------


def test_describe_moves_needs_the_same_players() -> None:
    with pytest.raises(InvalidSetup, match="no seat in the new seating"):
        describe_moves((("A", "B"),), (("A", "C"),))
    with pytest.raises(InvalidSetup, match="not in the old"):
        describe_moves((("A", "B"),), (("A", "B", "C"),))
    assert describe_moves((("A", None, "B", "C"),), (("A", "B", None, "C"),))[1] == Move(
        "B", 1, 3, 1, 2
    )


# -- reseat -----------------------------------------------------------------------------

EIGHT = (("A", "B", "C", "D"), ("E", "F", "G", "H"))


def test_reseat_ghosts_take_and_leave_seats() -> None:
    assert reseat(EIGHT, SCIL, leave=["F"]) == (("A", "B", "C", "D"), ("E", None, "G", "H"))
    # a ghost never keeps score: it swaps with its partner
    assert reseat(EIGHT, SCIL, leave=["E"]) == (("A", "B", "C", "D"), ("G", "F", None, "H"))
    seven = (("A", "B", "C", "D"), ("E", "F", "G", None))
    assert reseat(seven, SCIL, join=["I"]) == (EIGHT[0], ("E", "F", "G", "I"))
    assert reseat(seven, SCIL, leave=["A"], join=["X", "Y"]) == (
        ("Y", "B", "C", "D"),
        ("E", "F", "G", "X"),
    )


def test_reseat_ghosts_relayout_when_a_table_would_get_two() -> None:
    # two leave one table: re-layout to 6 players = two tables with one ghost each
    assert reseat(EIGHT, SCIL, leave=["E", "F"]) == (("A", "B", "C", None), ("D", None, "G", "H"))
    # nine players need three tables of four with a ghost at each
    assert reseat(EIGHT, SCIL, join=["I"]) == (
        ("A", "B", "C", None),
        ("E", "F", "G", None),
        ("D", "H", "I", None),
    )


def test_reseat_one_table_relayouts_instead_of_a_ghost() -> None:
    assert reseat((("A", "B", "C", "D"),), SCIL, leave=["A"]) == (("D", "B", "C"),)


def test_reseat_individual_tables() -> None:
    assert reseat(EIGHT, CLASSIC, join=["I"]) == (("A", "B", "C", "D"), ("E", "F", "G"), ("H", "I"))
    assert reseat(EIGHT, CLASSIC, leave=["A", "B", "C"]) == (("D", "G", "H"), ("E", "F"))
    assert reseat((("A", "B", "C"), ("D", "E")), CLASSIC, join=["F"]) == (
        ("A", "B", "C", "F"),
        ("D", "E"),
    )
    assert reseat(EIGHT, CLASSIC) == EIGHT


@pytest.mark.parametrize(
    ("join", "leave", "fragment"),
    [
        (["A"], [], "'A' is already seated"),
        ([], ["Zed"], "'Zed' is not seated"),
        (["X", "X"], [], "appears twice"),
        ([], ["A", "B", "C", "D", "E", "F", "G"], "only 1 player(s) would be left"),
        ("X", [], "must be a list of names"),
    ],
)
def test_reseat_refusals(join: list[str], leave: list[str], fragment: str) -> None:
    with pytest.raises(InvalidSetup) as err:
        reseat(EIGHT, CLASSIC, join=join, leave=leave)
    assert fragment in err.value.message
