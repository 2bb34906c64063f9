"""Property tests: several rounds of random results for 2–200 players in every preset."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bunco.core.presets import PRESETS
from bunco.core.rules import Fill, Movement, RuleSet
from bunco.core.seating import (
    first_seating,
    is_team_table,
    next_seating,
    reseat,
    table_sizes,
)

Seating = tuple[tuple[str | None, ...], ...]


def rule_destination(table: int, won: bool, n_tables: int, movement: Movement) -> int:
    """Where RULES.md §6 sends a player from ``table`` (0-based), written out plainly."""
    last = n_tables - 1
    if movement == Movement.UP_DOWN:
        if won:
            return table - 1 if table > 0 else 0
        return table + 1 if table < last else last
    if movement == Movement.HEAD_LOSERS_TO_LAST:
        if won:
            return table - 1 if table > 0 else 0
        return last if table == 0 else table
    return table if won else (table + 1) % n_tables


def positions(tables: Seating) -> dict[str, tuple[int, int]]:
    return {p: (k, s) for k, t in enumerate(tables) for s, p in enumerate(t) if p is not None}


def partner_of(
    tables: Seating, where: dict[str, tuple[int, int]], name: str, rules: RuleSet
) -> str | bool | None:
    """The partner's name, None for a ghost partner, False at an individual table."""
    k, s = where[name]
    table = tables[k]
    if not is_team_table(len(table), len(tables), rules):
        return False
    return table[(s + 2) % 4]


def random_winners(draw: st.DrawFn, tables: Seating, rules: RuleSet) -> list[frozenset[int]]:
    out = []
    for table in tables:
        if is_team_table(len(table), len(tables), rules):
            out.append(draw(st.sampled_from([frozenset({0, 2}), frozenset({1, 3})])))
        else:
            out.append(frozenset({draw(st.integers(0, len(table) - 1))}))
    return out


def check_round(old: Seating, winners: list[frozenset[int]], new: Seating, rules: RuleSet) -> None:
    n_tables = len(old)
    # everyone seated exactly once; ghosts kept; every table keeps its size
    old_names = sorted(p for t in old for p in t if p is not None)
    new_names = [p for t in new for p in t if p is not None]
    assert sorted(new_names) == old_names
    assert sum(t.count(None) for t in new) == sum(t.count(None) for t in old)
    assert [len(t) for t in new] == [len(t) for t in old]
    # ghosts: never partners, never more than two at a table, never at an individual table
    for table in new:
        if None in table:
            assert is_team_table(len(table), n_tables, rules)
            assert table.count(None) <= 2
            assert not (table[0] is None and table[2] is None)
            assert not (table[1] is None and table[3] is None)
    before, after = positions(old), positions(new)
    won = {name: s in winners[k] for name, (k, s) in before.items()}
    if n_tables == 1:
        check_one_table(old, new, rules)
        return
    # partner rules
    for name in old_names:
        was = partner_of(old, before, name, rules)
        now = partner_of(new, after, name, rules)
        if not isinstance(was, str) or now is False:
            continue
        stays = before[name][0] == after[name][0]
        if rules.no_repeat_partners or stays:
            assert now != was, f"{name} partners {was} again"
    # movement
    dest = {
        name: rule_destination(before[name][0], won[name], n_tables, rules.movement)
        for name in old_names
    }
    if all(len(t) == 4 for t in old):
        assert all(after[name][0] == dest[name] for name in old_names)
        return
    if rules.movement == Movement.LOSERS_ROTATE:
        check_rotation_rebalance(old, new, won, dest)
    else:
        check_ladder_rebalance(old_names, after, won, dest, before)


def check_one_table(old: Seating, new: Seating, rules: RuleSet) -> None:
    (table,) = old
    (moved,) = new
    if not is_team_table(len(table), 1, rules):
        assert moved == table
        return
    old_pairs = {frozenset((table[0], table[2])), frozenset((table[1], table[3]))}
    new_pairs = {frozenset((moved[0], moved[2])), frozenset((moved[1], moved[3]))}
    assert not old_pairs & new_pairs


def check_rotation_rebalance(
    old: Seating, new: Seating, won: dict[str, bool], dest: dict[str, int]
) -> None:
    """Losers go exactly where the rule says; winners stay, except that from a table
    with more people than seats exactly the surplus of its winners move on."""
    after = positions(new)
    before = positions(old)
    arriving = Counter(dest[name] for name in dest)
    for name, table in dest.items():
        if not won[name]:
            assert after[name][0] == table
    for k, table in enumerate(old):
        surplus = max(0, arriving[k] - len(table))
        winners_here = [n for n in dest if won[n] and before[n][0] == k]
        gone = [n for n in winners_here if after[n][0] != k]
        assert len(gone) == surplus
        # they move on to tables the rule left short
        assert all(arriving[after[n][0]] < len(old[after[n][0]]) for n in gone)


def check_ladder_rebalance(
    names: list[str],
    after: dict[str, tuple[int, int]],
    won: dict[str, bool],
    dest: dict[str, int],
    before: dict[str, tuple[int, int]],
) -> None:
    """Nobody ends more than one table from where the rule sends them, and the tables
    keep the ranking: destination, then winners before losers, then old place."""
    ranked = sorted(names, key=lambda n: (dest[n], not won[n], before[n]))
    tables = [after[n][0] for n in ranked]
    assert tables == sorted(tables)
    for name in names:
        assert abs(after[name][0] - dest[name]) <= 1
    off = sum(after[n][0] != dest[n] for n in names)
    assert off <= 2


@st.composite
def party(draw: st.DrawFn) -> tuple[RuleSet, int, int]:
    name = draw(st.sampled_from(sorted(PRESETS)))
    rules = PRESETS[name]
    if draw(st.booleans()) and draw(st.booleans()):
        other_fill = Fill.INDIVIDUALS if rules.fill is Fill.GHOSTS else Fill.GHOSTS
        rules = rules.with_house_rules({"fill": other_fill.value})
    if draw(st.booleans()) and draw(st.booleans()):
        rules = rules.with_house_rules({"no_repeat_partners": not rules.no_repeat_partners})
    n = draw(st.one_of(st.integers(2, 24), st.integers(2, 200)))
    return rules, n, draw(st.integers(1, 4))


@settings(max_examples=200, deadline=None)
@given(party(), st.data())
def test_rounds_keep_every_rule(setup: tuple[RuleSet, int, int], data: st.DataObject) -> None:
    rules, n, rounds = setup
    tables = first_seating([f"P{i}" for i in range(n)], rules)
    assert tuple(len(t) for t in tables) == table_sizes(n, rules)
    for _ in range(rounds):
        winners = random_winners(data.draw, tables, rules)
        new = next_seating(tables, winners, rules)
        check_round(tables, winners, new, rules)
        assert next_seating(tables, winners, rules) == new  # deterministic
        tables = new


@settings(max_examples=60, deadline=None)
@given(party(), st.data())
def test_reseat_then_keep_playing(setup: tuple[RuleSet, int, int], data: st.DataObject) -> None:
    rules, n, rounds = setup
    names = [f"P{i}" for i in range(n)]
    tables = first_seating(names, rules)
    leave = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=min(3, n - 2)))
    join = [f"New{i}" for i in range(data.draw(st.integers(0, 3)))]
    new = reseat(tables, rules, join=join, leave=leave)
    expected = sorted(set(names) - set(leave) | set(join))
    assert sorted(p for t in new for p in t if p is not None) == expected
    assert reseat(tables, rules, join=join, leave=leave) == new
    ghosts = sum(t.count(None) for t in new)
    if ghosts:
        assert rules.fill is Fill.GHOSTS
    else:
        assert all(2 <= len(t) <= 4 for t in new)
    for _ in range(rounds):
        winners = random_winners(data.draw, new, rules)
        nxt = next_seating(new, winners, rules)
        check_round(new, winners, nxt, rules)
        new = nxt


def test_a_thousand_players() -> None:
    for rules in PRESETS.values():
        for n in (1000, 997):
            tables = first_seating([f"P{i}" for i in range(n)], rules)
            assert len(tables) == 250
            for r in range(3):
                winners = [
                    frozenset({r % 2, r % 2 + 2})
                    if is_team_table(len(t), len(tables), rules)
                    else frozenset({r % len(t)})
                    for t in tables
                ]
                new = next_seating(tables, winners, rules)
                check_round(tables, winners, new, rules)
                tables = new
