"""Invariants of a whole night, read from ``night.report()`` and checked against RULES.md.

Written from the rules (§2, §4, §6), independently of the engine's seating code:

- every player sits exactly once each round; table sizes as ``table_sizes`` gives for the
  count (no joins or leaves);
- each round gives every real seated player exactly one W or L; at a team table the
  winners are one partnership, at an individual table exactly one player;
- movement: with every table of four, everyone goes exactly where §6 sends them; with
  tables of two or three the surplus is rebalanced, so at most two players a round end
  elsewhere, and then at a table next to where the rule sent them (docs/seating.md);
- partners: everyone who stays at a table gets a new partner; with ``no_repeat_partners``
  nobody partners the same person two rounds running;
- the score cards add up to the rounds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from bunco.core.rules import Movement, RuleSet
from bunco.core.seating import is_team_table, table_sizes


def rule_table(k: int, won: bool, n: int, movement: Movement) -> int:
    """RULES.md §6: the table (0-based) a player at table ``k`` of ``n`` goes to."""
    if movement is Movement.LOSERS_ROTATE:
        return k if won else (k + 1) % n
    if won:
        return max(k - 1, 0)
    if movement is Movement.UP_DOWN:
        return min(k + 1, n - 1)
    return n - 1 if k == 0 else k


def partners(tables: list[list[str | None]], rules: RuleSet) -> set[frozenset[str]]:
    out = set()
    for t in tables:
        if is_team_table(len(t), len(tables), rules):
            for a, b in ((t[0], t[2]), (t[1], t[3])):
                if a is not None and b is not None:
                    out.add(frozenset((a, b)))
    return out


def check_round_tables(rnd: dict[str, Any], rules: RuleSet) -> None:
    n_tables = len(rnd["tables"])
    for t in rnd["tables"]:
        seats = t["players"]
        real = [p for p in seats if p is not None]
        winners, losers = t["winners"], t["losers"]
        assert sorted(winners + losers) == sorted(real), (rnd["round"], t["table"])
        if is_team_table(len(seats), n_tables, rules):
            sides = [{seats[0], seats[2]} - {None}, {seats[1], seats[3]} - {None}]
            assert set(winners) in sides, (rnd["round"], t["table"], winners)
        else:
            assert len(winners) == 1, (rnd["round"], t["table"], winners)


def check_movement(before: dict[str, Any], after: dict[str, Any], rules: RuleSet) -> None:
    """Where everyone went between two consecutive rounds (same players)."""
    tables = before["tables"]
    n = len(tables)
    where_next = {p: k for k, t in enumerate(after["tables"]) for p in t["players"] if p}
    off_rule = []
    for k, t in enumerate(tables):
        for p in t["players"]:
            if p is None:
                continue
            want = rule_table(k, p in t["winners"], n, rules.movement)
            got = where_next[p]
            if got != want:
                off_rule.append((p, want, got))
    if all(len(t["players"]) == 4 for t in tables):
        assert off_rule == [], off_rule
    else:
        assert len(off_rule) <= 2, off_rule
        for _, want, got in off_rule:
            gap = abs(want - got)
            if rules.movement is Movement.LOSERS_ROTATE:
                gap = min(gap, n - gap)
            assert gap == 1, off_rule
    old = partners([t["players"] for t in tables], rules)
    new = partners([t["players"] for t in after["tables"]], rules)
    where_before = {p: k for k, t in enumerate(tables) for p in t["players"] if p}
    for pair in old & new:
        a, b = sorted(pair)
        stayed = where_before[a] == where_next[a] and where_before[b] == where_next[b]
        assert not rules.no_repeat_partners, f"{a} and {b} partner again"
        assert not stayed, f"{a} and {b} stayed at their table as partners"


def check_night(report: dict[str, Any], rules: RuleSet, players: list[str]) -> None:
    """Every invariant above for a night without joins, leaves or substitutes."""
    rounds = report["rounds"]
    sizes = list(table_sizes(len(players), rules))
    seated_rounds: Counter[str] = Counter()
    for rnd in rounds:
        seats = [p for t in rnd["tables"] for p in t["players"] if p is not None]
        assert sorted(seats) == sorted(players), (rnd["set"], rnd["round"])
        assert [len(t["players"]) for t in rnd["tables"]] == sizes, (rnd["set"], rnd["round"])
        check_round_tables(rnd, rules)
        seated_rounds.update(seats)
    for before, after in itertools.pairwise(rounds):
        check_movement(before, after, rules)
    if report["next"] is not None and rounds:
        nxt = {
            "tables": [
                {"players": t, "winners": [], "losers": []} for t in report["next"]["tables"]
            ]
        }
        assert sorted(p for t in report["next"]["tables"] for p in t if p) == sorted(players)
        check_movement(rounds[-1], nxt, rules)
    for name in players:
        card = report["players"][name]
        marks = [(r["set"], r["round"], r["table"], r["result"]) for r in card["rounds"]]
        expected = [
            (rnd["set"], rnd["round"], t["table"], "W" if name in t["winners"] else "L")
            for rnd in rounds
            for t in rnd["tables"]
            if name in t["players"]
        ]
        assert marks == expected, name
        assert card["wins"] + card["losses"] == seated_rounds[name] == len(rounds)
        assert card["wins"] == sum(m == "W" for *_, m in marks)
        assert card["points"] == sum(
            t["points"].get(name, 0) for rnd in rounds for t in rnd["tables"]
        )
