"""Odds of a whole set: the exact figures agree with the kernel's nights, the simulated
ones carry standard errors, and `bunco odds --set` prints both and says which is which."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bunco.analysis.set_odds import first_team_wins, set_odds, split_distribution
from bunco.analysis.table_odds import table_odds
from bunco.cli import app
from bunco.core.presets import get_rules


def test_split_is_the_product_of_the_rounds() -> None:
    p = first_team_wins(get_rules("classic"), 3)
    assert p is not None and len(p) == 6
    assert p[0] == pytest.approx(table_odds(get_rules("classic"), 1).first_team_win_probability)
    dist = split_distribution(p)
    assert sum(dist) == pytest.approx(1.0)
    assert dist[6] == pytest.approx(p[0] ** 6)  # rounds alike under classic
    assert sum(k * q for k, q in enumerate(dist)) == pytest.approx(sum(p))
    # a Bunco anywhere ends the round (winning-moves): the head table is not on its own
    assert first_team_wins(get_rules("winning-moves"), 3) is None
    # one table: winning-moves plays to its one-table target
    assert first_team_wins(get_rules("winning-moves", {"single_table_teams": True}), 1)


@pytest.mark.parametrize(
    ("preset", "house"),
    [
        ("classic", {}),
        ("scil", {"first_roller_single_table": "roll_for_high"}),
        ("tournament", {"single_table_target": 11}),
    ],
)
def test_exact_one_table_figures_agree_with_the_kernel(preset: str, house: dict[str, str]) -> None:
    odds = set_odds(get_rules(preset, house), players=4, nights=40_000, seed=5)
    for person in odds["per_player"]:
        for key in ("expected_wins", "most_wins", "most_wins_alone"):
            figure = person[key]
            assert figure["source"] == "exact"
            assert abs(figure["value"] - figure["simulated"]) < 4.5 * figure["simulated_se"], (
                person["player"],
                key,
            )
        for key in ("at_least_one_bunco", "expected_buncos"):  # any set, any night
            figure = person[key]
            assert figure["source"] == "exact"
            assert abs(figure["value"] - figure["simulated"]) < 4.5 * figure["simulated_se"], (
                person["player"],
                key,
            )
    split = odds["per_table"][0]["split"]
    assert split["source"] == "exact"
    for exact, sim, se in zip(
        split["probabilities"], split["simulated"], split["simulated_se"], strict=True
    ):
        assert abs(exact - sim) < 4.5 * se + 1e-9


@pytest.mark.parametrize(("preset", "sets"), [("classic", 2), ("scil", 4)])
def test_one_table_nights_agree_with_the_kernel(preset: str, sets: int) -> None:
    """A one-table night of several sets: every figure exact (the wins carried as the
    four players' win vectors), within 4.5 standard errors of 40,000 kernel nights."""
    rules = get_rules(
        preset, {"first_roller_single_table": "roll_for_high"} if preset == "scil" else {}
    )
    odds = set_odds(rules, players=4, sets=sets, nights=40_000, seed=6)
    assert odds["simulated"] == [] and odds["why_simulated"] == {}
    assert sum(p["expected_wins"]["value"] for p in odds["per_player"]) == pytest.approx(12 * sets)
    for person in odds["per_player"]:
        for key in (
            "expected_wins",
            "most_wins",
            "most_wins_alone",
            "at_least_one_bunco",
            "expected_buncos",
        ):
            figure = person[key]
            assert abs(figure["value"] - figure["simulated"]) < 4.5 * figure["simulated_se"], (
                person["player"],
                key,
            )


def test_a_wipeout_one_table_game_is_exact_without_rolling_on() -> None:
    """scil stops at the bell: with wipeouts its one table cannot tie, so its wins and
    Buncos stay exact; classic rolls on after the bell, where a wipeout can tie: its
    wins stay exact, its Buncos are estimated."""
    odds = set_odds(get_rules("scil", {"wipeout": "true"}), players=4, nights=40_000, seed=8)
    assert odds["simulated"] == []
    for person in odds["per_player"]:
        for key in ("expected_wins", "most_wins", "at_least_one_bunco", "expected_buncos"):
            figure = person[key]
            assert abs(figure["value"] - figure["simulated"]) < 4.5 * figure["simulated_se"]
    classic = set_odds(get_rules("classic", {"wipeout": "true"}), players=4, nights=40_000, seed=8)
    assert "tie" in classic["why_simulated"]["expected_buncos"]
    # its wins stay exact: a tie after the bell goes to the tie-break
    assert classic["exact"] == ["expected_wins", "most_wins", "most_wins_alone", "split at table 1"]
    for person in classic["per_player"]:
        for key in ("expected_wins", "most_wins", "most_wins_alone"):
            figure = person[key]
            assert abs(figure["value"] - figure["simulated"]) < 4.5 * figure["simulated_se"]


def test_what_stays_simulated_says_why() -> None:
    wm = set_odds(get_rules("winning-moves"), players=4, nights=200, seed=2)
    assert wm["exact"] == []
    assert "individuals" in wm["why_simulated"]["most_wins"]
    assert "individuals" in wm["why_simulated"]["split"]
    big = set_odds(get_rules("classic"), players=44, nights=200, seed=2)
    assert big["simulated"] == [
        "expected_wins",
        "most_wins",
        "most_wins_alone",
        "at_least_one_bunco",
        "expected_buncos",
    ]
    assert "8 to 40 players" in big["why_simulated"]["expected_wins"]
    ten = set_odds(get_rules("classic"), players=10, nights=200, seed=2)
    assert "tables of two or three" in ten["why_simulated"]["split"]


def test_a_party_set() -> None:
    odds = set_odds(get_rules("classic"), players=12, nights=5000, seed=2)
    assert [t["split"]["source"] for t in odds["per_table"]] == ["exact", "exact", "exact"]
    assert odds["exact"] == [
        "expected_wins",
        "most_wins",
        "most_wins_alone",
        "at_least_one_bunco",
        "expected_buncos",
        "split at table 1",
        "split at table 2",
        "split at table 3",
    ]
    assert odds["simulated"] == []
    assert set_odds(get_rules("scil"), players=12, nights=2000, seed=2)["simulated"] == []
    wm = set_odds(get_rules("winning-moves"), players=12, nights=2000, seed=2)
    assert wm["simulated"] == []
    sixteen = set_odds(get_rules("winning-moves"), players=16, nights=2000, seed=2)
    assert sixteen["exact"] == [
        "expected_wins",
        "at_least_one_bunco",
        "expected_buncos",
        *(f"split at table {k}" for k in (1, 2, 3, 4)),
    ]
    assert sixteen["simulated"] == ["most_wins", "most_wins_alone"]
    assert "too many" in sixteen["why_simulated"]["most_wins"]
    two = set_odds(get_rules("tournament"), players=8, sets=2, nights=2000, seed=2)
    assert two["simulated"] == ["most_wins", "most_wins_alone"]
    assert "2 sets" in two["why_simulated"]["most_wins"]
    wipe = set_odds(get_rules("classic", {"wipeout": "true"}), players=8, nights=2000, seed=2)
    assert wipe["simulated"] == ["at_least_one_bunco", "expected_buncos"]
    assert "wipeout" in wipe["why_simulated"]["expected_buncos"]
    assert odds["why_simulated"] == {}
    wins = sum(p["expected_wins"]["value"] for p in odds["per_player"])
    assert wins == pytest.approx(36)  # six rounds, half the twelve win each round
    # someone always has the most wins, so the shares add to at least one
    assert sum(p["most_wins"]["value"] for p in odds["per_player"]) >= 1
    bunco = odds["per_player"][0]["at_least_one_bunco"]
    assert 0.2 < bunco["value"] < 0.5 and bunco["source"] == "exact"
    assert abs(bunco["value"] - bunco["simulated"]) < 4.5 * bunco["simulated_se"]
    assert 0 < bunco["simulated_se"] < 0.01
    for table in odds["per_table"]:
        assert sum(table["split"]["probabilities"]) == pytest.approx(1.0)


@pytest.mark.usefixtures("wide_console")
def test_set_odds_cli() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["odds", "--set", "-n", "8", "--nights", "3000", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["players"] == 8 and len(doc["per_player"]) == 8 and len(doc["per_table"]) == 2
    assert "standard error" in doc["note"]
    text = runner.invoke(app, ["odds", "--set", "-n", "4", "--nights", "3000"])
    assert text.exit_code == 0, text.output
    assert "exact" in text.output and "±" in text.output and "P(most wins)" in text.output
    text = runner.invoke(app, ["odds", "--set", "--nights", "3000"])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[1] == (
        "exact (shown bare, composed from the round chains): expected wins, "
        "P(most wins), P(most wins, alone), P(at least one Bunco), expected "
        "Buncos, the split at tables 1, 2, 3"
    )
    assert lines[2] == (
        "estimated (shown ± their standard error: the mean over 3,000 nights "
        "played by the night kernel, seed 1): none"
    )
    rows = [line for line in lines if line.startswith("│ P")]  # one line a player: no
    assert len(rows) == 12 and all("exact" not in row for row in rows)  # 'exact' under each
    text = runner.invoke(app, ["odds", "--set", "-n", "20", "--nights", "3000"])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[1].endswith(
        "round chains): expected wins, P(at least one Bunco), expected "
        "Buncos, the split at tables 1, 2, 3, 4, 5"
    )
    assert lines[2].endswith("seed 1): P(most wins), P(most wins, alone)")
    assert lines[3].startswith(
        "  not exact: P(most wins), P(most wins, alone): P(most wins) "
        "follows every player's wins at once: at 20 players"
    )
    text = runner.invoke(app, ["odds", "--set", "-H", "wipeout=true", "--nights", "3000"])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[1] == (
        "exact (shown bare, composed from the round chains): expected wins, "
        "P(most wins), P(most wins, alone), the split at tables 1, 2, 3"
    )
    assert lines[2].endswith("seed 1): P(at least one Bunco), expected Buncos")
    assert lines[3].startswith(
        "  not exact: P(at least one Bunco), expected Buncos: Buncos "
        "with a wipeout at a head-table party are not composed"
    )
    shown = [line for line in lines if line.startswith("│ P01")]
    assert len(shown) == 1 and " exact" not in shown[0] and shown[0].count("±") == 2
    ten = runner.invoke(app, ["odds", "--set", "-n", "10", "--nights", "200", "--json"])
    assert ten.exit_code == 0, ten.output
    assert len(json.loads(ten.stdout)["per_table"]) == 3  # tables of four, four and two
    bad = runner.invoke(app, ["odds", "--set", "-n", "2001"])
    assert bad.exit_code == 2 and "2001 players: the kernel seats 2 to 2000" in bad.output
    assert "set odds come from the night kernel" in bad.output
    few = runner.invoke(app, ["odds", "--set", "--nights", "1"])
    assert few.exit_code == 2 and "2 or more nights" in few.output
