"""Exact odds of a one-table game of four in teams, over a night of one to four sets.

At one table each round's seating follows from the last by the seat rotation alone
(nobody changes table), so who sits where, and so who rolls first, is known in advance
(unless the player left of the last winner starts). Each round is the head table's
chain (:mod:`bunco.analysis.table_odds`) at the one-table target, and the rounds are
independent:

- **wins**: the team that rolls first wins round ``r`` with chance ``p[r]`` (exact,
  where the table cannot tie), so the chance of each vector of the four players' wins
  follows round by round, and from it each player's expected wins and chance of the
  most wins (alone, or shared); where everyone first rolls for high, either team
  starts, 1/2 each;
- **Buncos**: a player's expected Buncos are 1/216 times the rolls
  expected of the position the player holds in the rolling order each round
  (:func:`bunco.analysis.set_buncos.head_rolls`), and the chance of none is the product
  over the rounds of the chance that this position rolls none
  (:func:`bunco.analysis.set_no_bunco.head_no_bunco`). Where everyone first rolls for
  high, any seat starts, 1/4 each.

>>> from bunco.core.presets import get_rules
>>> buncos, at_least_one = one_table_buncos(get_rules("classic"), 1)
>>> round(float(buncos.sum()) * 216 / 6, 2)  # rolls a round, all four players
51.66
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import NDArray

from bunco.analysis.odds import roll_outcomes
from bunco.analysis.set_buncos import BUNCO, head_rolls
from bunco.analysis.set_no_bunco import head_no_bunco
from bunco.core.rules import AfterBell, Direction, FirstRoller, RuleSet
from bunco.core.seating import next_seating

FloatArray = NDArray[np.float64]


def at_target(rules: RuleSet, single_table: bool) -> RuleSet:
    """The rules whose team target is the one a head table plays to (at one table, the
    one-table target), so the head table's chains play that game."""
    target = rules.target(team=True, single_table=single_table)
    return dataclasses.replace(rules, team_target=target, quick_game=False)


def one_table_seats(rules: RuleSet, rounds: int) -> list[tuple[int, int, int, int]] | None:
    """Per round, the players (0-3) in seats 1-4 of a one-table game, or None when who
    rolls first is not known in advance (the left of the last winner starts)."""
    if rules.first_roller_single_table is FirstRoller.LEFT_OF_LAST_WINNER:
        return None
    seats: tuple[str | None, ...] = ("0", "1", "2", "3")
    out = []
    for _ in range(rounds):
        out.append((int(str(seats[0])), int(str(seats[1])), int(str(seats[2])), int(str(seats[3]))))
        seats = next_seating((seats,), [frozenset({0, 2})], rules)[0]
    return out


def one_table_wins(rules: RuleSet, p: list[float], sets: int) -> dict[str, FloatArray] | None:
    """Exact expected wins and P(most wins) (alone, or shared) of the four players of a
    one-table night of ``sets`` sets, ``p[r]``: P(the team that rolls first wins round
    ``r + 1`` of a set). The chance of each vector of the four players' wins is carried
    round by round (at most a few thousand vectors)."""
    seats = one_table_seats(rules, 6 * sets)
    if seats is None:
        return None
    if rules.first_roller_single_table is FirstRoller.ROLL_FOR_HIGH:
        p = [0.5] * 6  # either team rolls first, alike: the seat-1 team wins half
    chances: dict[tuple[int, ...], float] = {(0, 0, 0, 0): 1.0}
    for r, seated in enumerate(seats):
        q = p[r % 6]
        nxt: dict[tuple[int, ...], float] = {}
        for wins, chance in chances.items():
            for team, share in (((seated[0], seated[2]), q), ((seated[1], seated[3]), 1 - q)):
                key = tuple(w + (i in team) for i, w in enumerate(wins))
                nxt[key] = nxt.get(key, 0.0) + chance * share
        chances = nxt
    expected = np.zeros(4)
    most = np.zeros(4)
    alone = np.zeros(4)
    for wins, chance in chances.items():
        best = max(wins)
        top = [w == best for w in wins]
        expected += chance * np.array(wins)
        most += chance * np.array(top)
        if sum(top) == 1:
            alone += chance * np.array(top)
    return {"expected_wins": expected, "most_wins": most, "most_wins_alone": alone}


def one_table_buncos_refusal(rules: RuleSet) -> str | None:
    """Why the Buncos of a one-table game are not composed exactly (None: they are)."""
    if rules.first_roller_single_table is FirstRoller.LEFT_OF_LAST_WINNER:
        return "the first roller depends on the last round's winner: not composed"
    for round_no in range(1, 7):
        for o in roll_outcomes(rules, round_no):
            if o.wipes and rules.after_bell is AfterBell.FINISH_TURN:
                return "a wipeout after the bell can tie the table: not composed"
            if o.ends_round and o.turn_continues and rules.after_bell is AfterBell.FINISH_TURN:
                return "rolling on after a roll that ends the round: not composed"
    return None


def one_table_buncos(rules: RuleSet, sets: int) -> tuple[FloatArray, FloatArray]:
    """Each player's exact (expected Buncos, P(at least one Bunco)) over a one-table
    night of ``sets`` sets (rules :func:`one_table_buncos_refusal` accepts)."""
    seats = one_table_seats(rules, 6 * sets)
    assert seats is not None
    plain = at_target(rules, single_table=True)
    target = plain.target(team=True, single_table=False)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    step = 1 if rules.direction is Direction.LEFT else 3
    drawn = rules.first_roller_single_table is FirstRoller.ROLL_FOR_HIGH
    buncos = np.zeros(4)
    clean = np.ones(4)
    for r, seated in enumerate(seats):
        round_no = r % 6 + 1
        rolls = head_rolls(roll_outcomes(plain, round_no), target, finish)
        safe = np.array([float(head_no_bunco(plain, round_no, q).sum()) for q in range(4)])
        for seat, player in enumerate(seated):
            position = (seat * step) % 4  # its place in the order when seat 1 starts
            if drawn:  # any seat starts, 1/4 each: every position alike
                buncos[player] += BUNCO * float(rolls.mean())
                clean[player] *= float(safe.mean())
            else:
                buncos[player] += BUNCO * float(rolls[position])
                clean[player] *= float(safe[position])
    return buncos, 1.0 - clean
