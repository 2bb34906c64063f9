"""Exact odds of a whole set at tables of four (analysis/set_exact.py, set_seats.py,
set_most_wins.py, set_buncos.py, set_no_bunco.py): the round chains agree with the other
chains of the project, the set's figures add up, and they agree with the night kernel's
nights within a few standard errors (fixed seeds)."""

from __future__ import annotations

import doctest
import importlib
import itertools

import numpy as np
import pytest

from bunco.analysis.night_kernel import night_cards, night_seeds
from bunco.analysis.non_head import high_roll_steps, offset_bell
from bunco.analysis.odds import roll_outcomes
from bunco.analysis.set_buncos import buncos_refusal, expected_buncos, seat_buncos
from bunco.analysis.set_exact import (
    first_team_chances,
    first_team_odds,
    round_patterns,
    rules_refusal,
    ways_refusal,
)
from bunco.analysis.set_most_wins import most_wins_refusal, set_wins
from bunco.analysis.set_no_bunco import no_bunco_patterns, no_bunco_refusal
from bunco.analysis.set_odds import split_distribution
from bunco.analysis.set_seats import seat_moves, seat_odds, seats_refusal, won_seats
from bunco.analysis.simulate import sim_rules
from bunco.analysis.table_odds import table_odds
from bunco.core.presets import get_rules
from bunco.core.rules import RuleSet


@pytest.mark.parametrize("preset", ["classic", "scil"])
def test_the_round_chains_agree_with_table_odds(preset: str) -> None:
    """Head table: table_odds' chain; other tables: its non-head score chain, a tie
    settled evenly (sessions: both teams take the same turns)."""
    rules = get_rules(preset)
    for round_no in (1, 4):
        odds = table_odds(rules, round_no)
        head, other = first_team_odds(rules, round_no)
        assert head == pytest.approx(odds.first_team_win_probability, abs=1e-9)
        assert odds.non_head is not None
        scores = odds.non_head.scores
        ahead = float(np.tril(scores, -1).sum())  # first team's score on axis 0
        # scil: a table still rolling for high at the bell has no team that rolled first
        unplayed = (
            offset_bell(odds.bell_distribution, high_roll_steps(4))[0] if preset == "scil" else 0.0
        )
        assert other == pytest.approx(
            ahead + (odds.non_head.tie_probability - unplayed) / 2, abs=1e-9
        )


def test_a_rounds_ways() -> None:
    rules = get_rules("classic")
    q = round_patterns(rules, 2, 3)
    assert q.sum() == pytest.approx(1.0, abs=1e-12)
    head, other = first_team_odds(rules, 2)
    # bit k set: seats 2 and 4 won at table k + 1
    assert sum(q[w] for w in range(8) if not w & 1) == pytest.approx(head)
    assert sum(q[w] for w in range(8) if not w & 2) == pytest.approx(other)
    assert sum(q[w] for w in range(8) if not w & 4) == pytest.approx(other)
    # the other tables are stopped by the same bell: their results are not independent
    both = sum(q[w] for w in range(8) if not w & 6)
    assert abs(both - other**2) > 1e-5
    # a sudden death favours the team to roll next; scil's first rollers are drawn
    assert first_team_odds(get_rules("tournament"), 2)[1] != pytest.approx(other, abs=1e-6)
    assert round_patterns(get_rules("scil"), 2, 3).tolist() == [0.125] * 8


def test_the_sets_figures_add_up() -> None:
    odds = set_wins(get_rules("classic"), 12)
    wins = seat_odds(get_rules("classic"), 12, 1)["expected_wins"]
    assert wins.sum() == pytest.approx(36.0)  # six winners a table-round
    assert odds["most_wins"].sum() >= 1.0 > odds["most_wins_alone"].sum()
    assert (odds["most_wins_alone"] < odds["most_wins"]).all()
    scil = seat_odds(get_rules("scil"), 12, 1)
    assert scil["expected_wins"] == pytest.approx(np.full(12, 3.0))  # either team starts


def _enumerated(rules: RuleSet, players: int) -> dict[str, np.ndarray]:
    """Expected wins and the chance of the most wins, by enumerating every way a set
    can go (2^(6T) paths), each with every player's seat and wins."""
    tables = players // 4
    dest, won = seat_moves(rules, tables), won_seats(tables)
    seat = np.arange(players)[None, :]
    wins = np.zeros((1, players), dtype=np.int64)
    chance = np.ones(1)
    for r in range(6):
        q = round_patterns(rules, r + 1, tables)
        way = np.arange(len(q))[None, :, None]
        wins = (wins[:, None, :] + won[way, seat[:, None, :]]).reshape(-1, players)
        seat = dest[way, seat[:, None, :]].reshape(-1, players)
        chance = (chance[:, None] * q[None, :]).reshape(-1)
    top = wins == wins.max(axis=1, keepdims=True)
    alone = top & (top.sum(axis=1, keepdims=True) == 1)
    return {
        "expected_wins": chance @ wins,
        "most_wins": chance @ top,
        "most_wins_alone": chance @ alone,
    }


def test_what_is_not_composed_says_why() -> None:
    assert most_wins_refusal(get_rules("classic"), 12, 1) is None
    assert most_wins_refusal(get_rules("classic"), 8, 1) is None
    assert most_wins_refusal(get_rules("winning-moves"), 12, 1) is None
    assert most_wins_refusal(get_rules("classic"), 16, 1) is None
    assert most_wins_refusal(get_rules("classic"), 8, 2) is None
    assert "too many" in str(most_wins_refusal(get_rules("classic"), 20, 1))
    assert "2 sets" in str(most_wins_refusal(get_rules("classic"), 12, 2))
    # each player's seats (wins, Buncos) are followed at 8 to 40 players, any sets (to
    # 32 where every table plays to its own target)
    assert seats_refusal(get_rules("classic"), 40) is None
    assert seats_refusal(get_rules("winning-moves"), 32) is None
    assert "8 to 40 players" in str(seats_refusal(get_rules("classic"), 44))
    assert "8 to 32 players" in str(seats_refusal(get_rules("winning-moves"), 36))
    assert "tables of four" in str(seats_refusal(get_rules("classic"), 10))
    assert seats_refusal(get_rules("classic", {"wipeout": "true"}), 16) is None
    assert "wipeout" in str(buncos_refusal(get_rules("classic", {"wipeout": "true"}), 16))
    # a wipeout composes at head-table parties and where every table plays to its own
    # target with no rolling on
    assert rules_refusal(get_rules("winning-moves", {"wipeout": "true"})) is None
    assert rules_refusal(get_rules("classic", {"wipeout": "true"})) is None
    assert ways_refusal(get_rules("scil", {"wipeout": "true"})) is None
    assert "tie a table" in str(
        rules_refusal(
            get_rules(
                "winning-moves",
                {"wipeout": "true", "after_bell": "finish_turn", "bunco_ends_round": "false"},
            )
        )
    )
    assert "head-table party" in str(
        rules_refusal(get_rules("classic", {"bunco_ends_round": "true"}))
    )
    assert "rolling for high" in str(
        rules_refusal(get_rules("winning-moves", {"first_roller": "roll_for_high"}))
    )
    assert "rolling on after a Bunco" in str(
        rules_refusal(get_rules("winning-moves", {"after_bell": "finish_turn"}))
    )


def test_own_targets_a_bunco_anywhere_ends_the_round() -> None:
    """winning-moves: the tables are alike but roll in turn (the last table first), so a
    Bunco at table 3 stops tables 1 and 2 one roll short; a table stopped before its
    first roll has no team that rolled first."""
    rules = get_rules("winning-moves")
    q = round_patterns(rules, 3, 3)
    assert q.sum() == pytest.approx(1.0, abs=1e-12)
    chances = first_team_chances(rules, 3, 3)
    assert chances is not None
    assert chances[0] < chances[1] < chances[2]
    # many tables: the same chances as the 2^T ways give, without enumerating them
    many = first_team_chances(rules, 3, 40)
    assert len(many) == 40 and all(a < b for a, b in itertools.pairwise(many))
    for tables in (2, 4):
        ways = round_patterns(rules, 3, tables)
        chances = first_team_chances(rules, 3, tables)
        at_once = 1 / 216  # a Bunco on a table's first roll stops the later tables unrolled
        for k in range(tables):
            first = sum(ways[w] for w in range(2**tables) if not (w >> k) & 1)
            unrolled = 1 - (1 - at_once) ** (tables - 1 - k)
            assert chances[k] == pytest.approx(first - unrolled / 2, abs=1e-12)
    two = round_patterns(rules, 3, 2)
    assert two.sum() == pytest.approx(1.0, abs=1e-12)


def _z(exact: np.ndarray, samples: np.ndarray) -> float:
    se = samples.std(axis=0, ddof=1) / np.sqrt(len(samples))
    return float(np.max(np.abs(samples.mean(axis=0) - exact) / se))


def _assert_wins_agree(exact: dict[str, np.ndarray], cards: np.ndarray) -> None:
    """The exact wins figures given (expected, most, most alone) within 4.5 standard
    errors of the kernel's cards."""
    wins = cards[:, :, 0].astype(np.float64)
    top = wins == wins.max(axis=1, keepdims=True)
    samples = {
        "expected_wins": wins,
        "most_wins": top.astype(np.float64),
        "most_wins_alone": (top & (top.sum(axis=1, keepdims=True) == 1)).astype(np.float64),
    }
    for key, values in samples.items():
        if key in exact:
            assert _z(exact[key], values) < 4.5, key


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("classic", 12),
        ("scil", 12),
        ("tournament", 12),
        ("winning-moves", 12),
        ("tournament", 8),
    ],
)
def test_the_exact_set_agrees_with_the_kernel(preset: str, players: int) -> None:
    """Every exact figure within 4.5 standard errors of 20,000 kernel nights (seed 11),
    and the mean split (rounds the first team won) within 4.5 as well."""
    rules = sim_rules(preset, {})
    exact = {**set_wins(rules, players), **seat_odds(rules, players, 1)}
    cards, first_won = night_cards(rules, players, 1, night_seeds(11, 20_000))
    _assert_wins_agree(exact, cards)
    by_round = [first_team_chances(rules, r, players // 4) for r in range(1, 7)]
    for k in range(players // 4):
        chances = [c[k] for c in by_round if c is not None]
        split = np.array(split_distribution(chances))
        counts = np.stack([first_won[:, k] == j for j in range(7)], axis=1)
        assert _z(split, counts.astype(np.float64)) < 4.5
        assert _z(np.array([sum(chances)]), first_won[:, k : k + 1].astype(np.float64)) < 4.5


@pytest.mark.parametrize(
    ("preset", "players", "house"),
    [
        ("classic", 12, {}),
        ("tournament", 12, {}),
        ("tournament", 8, {}),
        ("scil", 12, {}),
        ("winning-moves", 12, {}),
        ("classic", 12, {"direction": "right"}),
    ],
)
def test_expected_buncos_agree_with_the_kernel(
    preset: str, players: int, house: dict[str, str]
) -> None:
    """Each player's exact expected Buncos and chance of at least one within 4.5
    standard errors of 20,000 kernel nights (seed 13), and their sum within 4.5 as well."""
    rules = sim_rules(preset, house)
    assert buncos_refusal(rules, players, 1) is None
    one = no_bunco_refusal(rules, players, 1) is None
    composed = seat_odds(
        rules, players, 1, (lambda r: no_bunco_patterns(rules, r, players // 4)) if one else None
    )
    exact = expected_buncos(rules, composed["seat_chances"])
    cards, _ = night_cards(rules, players, 1, night_seeds(13, 20_000))
    buncos = cards[:, :, 2].astype(np.float64)
    assert _z(exact, buncos) < 4.5
    assert _z(np.array([exact.sum()]), buncos.sum(axis=1, keepdims=True)) < 4.5
    assert one
    assert _z(composed["at_least_one_bunco"], (buncos > 0).astype(np.float64)) < 4.5
    # at least one is less likely than the expected count (two in a set are possible);
    # under winning-moves a Bunco ends the round (and wins a roll-off), so no one rolls
    # two in one round
    assert (composed["at_least_one_bunco"] < exact).all()
    if preset == "winning-moves":
        clean = no_bunco_patterns(rules, 2, players // 4).sum(axis=0)
        assert clean == pytest.approx(1 - seat_buncos(rules, 2, players // 4).reshape(-1), abs=1e-9)


def test_expected_buncos_per_seat() -> None:
    rules = get_rules("classic")
    seats = seat_buncos(rules, 1, 3)
    # the first roller rolls most at every table; the head table's first team rolls on
    assert (seats[:, 0] > seats[:, 1]).all() and (seats[:, 1] > seats[:, 3]).all()
    assert seats[1].tolist() == seats[2].tolist()
    right = seat_buncos(get_rules("classic", {"direction": "right"}), 1, 3)
    assert right[0, 3] == pytest.approx(seats[0, 1]) and right[0, 1] == pytest.approx(seats[0, 3])
    assert buncos_refusal(get_rules("scil"), 12, 1) is None
    scil = seat_buncos(get_rules("scil"), 1, 3)  # any seat may start: all seats alike
    assert scil[0].tolist() == [scil[0, 0]] * 4 and scil[1].tolist() == [scil[1, 0]] * 4
    assert "last round's winner" in str(
        buncos_refusal(get_rules("classic", {"first_roller": "left_of_last_winner"}), 12, 1)
    )
    clean = no_bunco_patterns(rules, 1, 3)
    ways = round_patterns(rules, 1, 3)
    assert (clean <= ways[:, None] + 1e-15).all() and (clean.sum(axis=0) < 1).all()
    # a Bunco (21) by the head table's second team rings the bell for it: when the first
    # team wins there, no one of the second team rolled a Bunco
    assert clean[0, 1] == pytest.approx(ways[0]) and clean[0, 0] < ways[0]
    # P(no Bunco in the round) is at least 1 - E[Buncos], and close to it
    assert (clean.sum(axis=0) >= 1 - seats.reshape(-1)).all()
    assert (clean.sum(axis=0) < 1 - seats.reshape(-1) + 0.003).all()
    assert buncos_refusal(get_rules("winning-moves"), 12, 1) is None
    assert no_bunco_refusal(get_rules("winning-moves"), 12, 1) is None
    assert "roll-offs and sessions" in str(
        buncos_refusal(get_rules("winning-moves", {"tie_break": "sudden_death"}), 12, 1)
    )
    wm = seat_buncos(get_rules("winning-moves"), 1, 3)
    # a Bunco at table 3 stops tables 1 and 2 a roll short: the head table rolls least
    assert wm[0].sum() < wm[1].sum() < wm[2].sum()


def test_the_seat_chains_equal_the_enumeration() -> None:
    """Following one player at a time gives the wins that enumerating the whole set's
    ways gives, and following the wins by seat the same chance of the most wins; each
    player sits somewhere every round; a second set goes on from the first's seats."""
    for preset, players in (
        ("classic", 8),
        ("classic", 12),
        ("winning-moves", 8),
        ("tournament", 8),
        ("scil", 8),
    ):
        rules = get_rules(preset)
        every = _enumerated(rules, players)
        seats = seat_odds(rules, players, 1)
        assert seats["expected_wins"] == pytest.approx(every["expected_wins"], abs=1e-9)
        most = set_wins(rules, players)
        assert most["most_wins"] == pytest.approx(every["most_wins"], abs=1e-12)
        assert most["most_wins_alone"] == pytest.approx(every["most_wins_alone"], abs=1e-12)
        assert seats["seat_chances"].sum(axis=2) == pytest.approx(1.0, abs=1e-12)
    rules = get_rules("classic")
    two = seat_odds(rules, 12, 2)
    one = seat_odds(rules, 12, 1)
    assert two["seat_chances"].shape == (12, 12, 12)
    assert two["seat_chances"][:6] == pytest.approx(one["seat_chances"])
    assert two["expected_wins"].sum() == pytest.approx(72.0)
    assert not np.allclose(two["expected_wins"], 2 * one["expected_wins"])


@pytest.mark.parametrize(
    ("preset", "players", "sets"),
    [
        ("classic", 16, 1),
        ("winning-moves", 16, 1),
        ("scil", 20, 1),
        ("tournament", 24, 1),
        ("winning-moves", 32, 1),
        ("classic", 40, 1),
        ("classic", 12, 2),
        ("winning-moves", 8, 4),
    ],
)
def test_wider_parties_agree_with_the_kernel(preset: str, players: int, sets: int) -> None:
    """Past 8 and 12 players and one set: each player's exact expected wins, expected
    Buncos and chance of at least one Bunco within 4.5 standard errors of 40,000 kernel
    nights (seed 17; by hand, 200,000 nights put them within 3.3)."""
    rules = sim_rules(preset, {})
    assert seats_refusal(rules, players) is None
    assert buncos_refusal(rules, players, sets) is None
    assert no_bunco_refusal(rules, players, sets) is None
    odds = seat_odds(rules, players, sets, lambda r: no_bunco_patterns(rules, r, players // 4))
    buncos = expected_buncos(rules, odds["seat_chances"])
    cards, _ = night_cards(rules, players, sets, night_seeds(17, 40_000))
    rolled = cards[:, :, 2].astype(np.float64)
    assert odds["expected_wins"].sum() == pytest.approx(3 * players * sets)
    _assert_wins_agree(odds, cards)
    assert _z(buncos, rolled) < 4.5
    assert _z(odds["at_least_one_bunco"], (rolled > 0).astype(np.float64)) < 4.5
    assert _z(np.array([buncos.sum()]), rolled.sum(axis=1, keepdims=True)) < 4.5


@pytest.mark.parametrize(("preset", "players", "sets"), [("classic", 16, 1), ("classic", 8, 2)])
def test_most_wins_past_twelve_agree_with_the_kernel(preset: str, players: int, sets: int) -> None:
    """The chance of the most wins followed by the wins by seat, where the enumeration
    would take 16.8 million ways: within 4.5 standard errors of 40,000 kernel nights."""
    rules = sim_rules(preset, {})
    assert most_wins_refusal(rules, players, sets) is None
    exact = set_wins(rules, players, sets)
    cards, _ = night_cards(rules, players, sets, night_seeds(29, 40_000))
    _assert_wins_agree(exact, cards)


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("winning-moves", 12),
        ("scil", 12),
        ("classic", 12),
        ("tournament", 8),
    ],
)
def test_wipeouts_agree_with_the_kernel(preset: str, players: int) -> None:
    """With the wipeout house rule the wins, the most wins and every table's split stay
    exact (a wipeout puts the team back to 0 in each table's chain; a table stopped by
    the bell follows both team scores; the head table can tie after its bell); the
    Buncos too where every table plays to its own target (winning-moves). Within 4.5
    standard errors of 40,000 kernel nights (seed 19)."""
    rules = sim_rules(preset, {"wipeout": "true"})
    assert any(o.wipes for o in roll_outcomes(rules, 2))
    assert seats_refusal(rules, players) is None and rules_refusal(rules) is None
    most = {**set_wins(rules, players), **seat_odds(rules, players, 1)}
    cards, first_won = night_cards(rules, players, 1, night_seeds(19, 40_000))
    _assert_wins_agree(most, cards)
    for k in range(players // 4):
        chances = [first_team_chances(rules, r, players // 4)[k] for r in range(1, 7)]
        counts = np.stack([first_won[:, k] == j for j in range(7)], axis=1)
        assert _z(np.array(split_distribution(chances)), counts.astype(np.float64)) < 4.5
        mean = np.array([sum(chances)])
        assert _z(mean, first_won[:, k : k + 1].astype(np.float64)) < 4.5
    if preset != "winning-moves":
        assert "wipeout" in str(buncos_refusal(rules, players, 1))
        return
    odds = seat_odds(rules, players, 1, lambda r: no_bunco_patterns(rules, r, players // 4))
    buncos = expected_buncos(rules, odds["seat_chances"])
    rolled = cards[:, :, 2].astype(np.float64)
    assert _z(buncos, rolled) < 4.5
    assert _z(odds["at_least_one_bunco"], (rolled > 0).astype(np.float64)) < 4.5


def test_a_wipeout_changes_the_other_tables() -> None:
    """A table stopped by the bell, followed by both scores with wipeouts, is won by the
    first team less often than without (round 1 has no wipeout: three 1's are its
    Bunco); the head table can tie after its bell and still sums to one."""
    plain, wiping = get_rules("classic"), get_rules("classic", {"wipeout": "true"})
    assert first_team_odds(wiping, 1) == pytest.approx(first_team_odds(plain, 1), abs=1e-12)
    head, other = first_team_odds(wiping, 2)
    assert head < first_team_odds(plain, 2)[0] - 0.002  # a wipeout sets the leader back
    assert other < first_team_odds(plain, 2)[1] - 0.003
    assert round_patterns(wiping, 2, 3).sum() == pytest.approx(1.0, abs=1e-11)


@pytest.mark.parametrize(
    "name",
    [
        "chain_steps",
        "set_exact",
        "set_seats",
        "set_most_wins",
        "set_one_table",
        "set_buncos",
        "set_no_bunco",
        "set_odds",
    ],
)
def test_the_examples_in_the_docstrings(name: str) -> None:
    module = importlib.import_module(f"bunco.analysis.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
