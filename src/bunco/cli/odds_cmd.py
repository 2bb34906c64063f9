"""``bunco odds``: exact per-roll, per-turn and per-round odds of a rule set.

NumPy (the Markov chains of :mod:`bunco.analysis`) is imported when the command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from bunco.cli.app import app, console, fail, parse_house_rules, print_json, refusals
from bunco.cli.rules_cmd import HouseOption
from bunco.core.presets import SUMMARIES, get_rules
from bunco.core.rules import RollKind, RuleSet

if TYPE_CHECKING:  # NumPy and the odds are imported when the command runs
    from bunco.analysis.odds_shapes import Figure, RoundReport, SetOddsReport


def _pct(p: float) -> str:
    return f"{100 * p:.3f}%"


def _round_columns(rounds: list[RoundReport]) -> Table:
    """Every round side by side: one row per figure."""
    table = Table(title="Odds per round (head table of four, the scorekeeper's team first)")
    table.add_column("figure", style="bold")
    for doc in rounds:
        table.add_column(f"round {doc['round']}", justify="right")

    def row(name: str, get: Any) -> None:
        table.add_row(name, *(get(doc) for doc in rounds))

    row("points per roll", lambda d: f"{d['per_roll']['expected_points']:.4f}")
    row("P(roll again)", lambda d: _pct(d["per_roll"]["continue_probability"]))
    row("points per turn", lambda d: f"{d['per_turn']['expected_points']:.4f}")
    row("rolls per turn", lambda d: f"{d['per_turn']['expected_rolls']:.4f}")
    row("P(Bunco in a turn)", lambda d: _pct(d["per_turn"]["bunco_probability"]))
    row("P(first team wins)", lambda d: _pct(d["table"]["first_team_win_probability"]))
    row("rolls per round", lambda d: f"{d['table']['expected_rolls']:.2f}")
    row("P(round ends on a Bunco)", lambda d: _pct(d["table"]["bunco_end_probability"]))
    row(
        "P(tie at a non-head table)",
        lambda d: (
            "–"
            if d["table"]["non_head"] is None
            else _pct(d["table"]["non_head"]["tie_probability"])
        ),
    )
    notes = {d["table"]["non_head_note"] for d in rounds if d["table"]["non_head"] is None}
    if notes:
        table.caption = "– P(tie at a non-head table): " + "; ".join(
            sorted(n or "no non-head table" for n in notes)
        )
    return table


def _one_round(doc: RoundReport, rules: RuleSet) -> list[Table]:
    """The detailed tables of a single round."""
    from bunco.sheets.wording import kind_name  # the sheets package loads ReportLab: only now

    r = doc["round"]
    roll = Table(title=f"One roll in round {r}")
    for name in ("kind", "points", "rolls again", "ends round", "ways of 216", "probability"):
        roll.add_column(name, justify="left" if name == "kind" else "right")
    for o in doc["per_roll"]["outcomes"]:
        roll.add_row(
            kind_name(RollKind(o["kind"]), rules),
            str(o["points"]),
            "yes" if o["continues"] else "no",
            "yes" if o["ends_round"] else "no",
            str(o["ways"]),
            o["probability_exact"],
        )
    roll.caption = (
        f"expected points {doc['per_roll']['expected_points_exact']} = "
        f"{doc['per_roll']['expected_points']:.5f}"
    )

    turn = doc["per_turn"]
    tt = Table(title=f"One turn in round {r} (no target)")
    tt.add_column("figure", style="bold")
    tt.add_column("value", justify="right")
    tt.add_row(
        "expected points", f"{turn['expected_points_exact']} = {turn['expected_points']:.5f}"
    )
    tt.add_row("expected rolls", f"{turn['expected_rolls_exact']} = {turn['expected_rolls']:.5f}")
    tt.add_row(
        "P(at least one Bunco)",
        f"{turn['bunco_probability_exact']} = {_pct(turn['bunco_probability'])}",
    )
    if turn["wipeout_probability"]:
        tt.add_row("P(ends in a wipeout)", _pct(turn["wipeout_probability"]))
    rolls = turn["rolls_distribution"]
    tt.add_row("P(rolls = 1, 2, 3, 4)", ", ".join(_pct(rolls[str(n)]) for n in range(1, 5)))
    points = turn["points_distribution"]
    tt.add_row("P(points = 0, 1, 2, 3)", ", ".join(_pct(points.get(str(k), 0.0)) for k in range(4)))

    head = doc["table"]
    ht = Table(title=f"A round at the head table (target {head['target']})")
    ht.add_column("figure", style="bold")
    ht.add_column("value", justify="right")
    ht.add_row("P(first team wins)", _pct(head["first_team_win_probability"]))
    ht.add_row("expected rolls", f"{head['expected_rolls']:.3f}")
    ht.add_row("  of which after the bell", f"{head['expected_after_bell_rolls']:.3f}")
    ht.add_row("P(round ends on a Bunco)", _pct(head["bunco_end_probability"]))
    dist = {int(k): v for k, v in head["rolls_distribution"].items()}
    ht.add_row("median rolls", str(_quantile(dist, 0.5)))
    ht.add_row("90% of rounds within", f"{_quantile(dist, 0.9)} rolls")
    nh = head["non_head"]
    if nh is None:
        ht.add_row("non-head P(tie)", f"– ({head['non_head_note'] or 'no non-head table'})")
    else:
        ht.add_row("non-head P(tie)", _pct(nh["tie_probability"]))
        first, second = nh["expected_first_team_score"], nh["expected_second_team_score"]
        ht.add_row("non-head expected scores", f"{first:.3f} / {second:.3f}")
    return [roll, tt, ht]


def _quantile(dist: dict[int, float], q: float) -> int:
    total = 0.0
    for value in sorted(dist):
        total += dist[value]
        if total >= q:
            return value
    return max(dist)


def _rounds(round_no: int | None) -> list[int]:
    if round_no is None:
        return [1, 2, 3, 4, 5, 6]
    if not 1 <= round_no <= 6:
        fail(f"round {round_no} does not exist", expected="a round number from 1 to 6")
    return [round_no]


def _estimate(figure: Figure, percent: bool) -> str:
    value = _pct(figure["value"]) if percent else f"{figure['value']:.4f}"
    if figure["source"] == "exact":
        return value
    se = f"{100 * figure['se']:.3f}%" if percent else f"{figure['se']:.4f}"
    return f"{value} ± {se}"


#: The words of ``bunco odds --set`` for each figure.
SET_FIGURES = {
    "expected_wins": "expected wins",
    "most_wins": "P(most wins)",
    "most_wins_alone": "P(most wins, alone)",
    "at_least_one_bunco": "P(at least one Bunco)",
    "expected_buncos": "expected Buncos",
}


def _figure_names(keys: list[str]) -> str:
    names = [SET_FIGURES[k] for k in keys if k in SET_FIGURES]
    tables = [k.removeprefix("split at table ") for k in keys if k not in SET_FIGURES]
    if tables:
        names.append("the split at table" + ("s " if len(tables) > 1 else " ") + ", ".join(tables))
    return ", ".join(names) or "none"


def _reasons(doc: SetOddsReport) -> dict[str, list[str]]:
    """The estimated figures grouped by why they are not exact."""
    out: dict[str, list[str]] = {}
    for key, reason in doc["why_simulated"].items():
        names = (
            [k for k in doc["simulated"] if k.startswith("split at table ")]
            if key == "split"
            else [key]
        )
        out.setdefault(reason, []).extend(names)
    return out


def _print_set_odds(doc: SetOddsReport) -> None:
    what = "a set" if doc["sets"] == 1 else f"a night of {doc['sets']} sets"
    console.print(f"[bold]{doc['rules']}[/], {doc['players']} players: the odds of {what}")
    console.print(
        f"exact (shown bare, composed from the round chains): {_figure_names(doc['exact'])}"
    )
    console.print(
        f"estimated (shown ± their standard error: the mean over {doc['nights']:,} "
        f"nights played by the night kernel, seed {doc['seed']}): "
        f"{_figure_names(doc['simulated'])}"
    )
    for reason, keys in _reasons(doc).items():
        console.print(f"  not exact: {_figure_names(keys)}: {reason}", highlight=False)
    people = Table(title="Each player")
    for name in (
        "player",
        "expected wins",
        "P(most wins)",
        "P(most wins, alone)",
        "P(at least one Bunco)",
        "expected Buncos",
    ):
        people.add_column(name, justify="left" if name == "player" else "right")
    for row in doc["per_player"]:
        people.add_row(
            row["player"],
            _estimate(row["expected_wins"], False),
            _estimate(row["most_wins"], True),
            _estimate(row["most_wins_alone"], True),
            _estimate(row["at_least_one_bunco"], True),
            _estimate(row["expected_buncos"], False),
        )
    console.print(people)
    rounds = 6 * doc["sets"]
    tables = Table(title="Each table: P(the team that rolled first won k of its rounds)")
    tables.add_column("table")
    tables.add_column("source")
    for k in range(rounds + 1):
        tables.add_column(f"{k}-{rounds - k}", justify="right")
    worst = 0.0
    for at_table in doc["per_table"]:
        split = at_table["split"]
        worst = max([worst, *split["se"]])
        tables.add_row(
            str(at_table["table"]),
            "exact" if split["source"] == "exact" else "kernel",
            *(f"{100 * p:.1f}%" for p in split["probabilities"]),
        )
    if worst:
        tables.caption = f"kernel rows: standard errors up to {100 * worst:.2f}%"
    console.print(tables)


@app.command("odds")
def odds_command(
    rules_name: Annotated[str, typer.Option("--rules", "-r", help="Preset or alias.")] = "classic",
    round_no: Annotated[
        int | None, typer.Option("--round", "-R", help="One round 1-6 (default: all six).")
    ] = None,
    house: HouseOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the distributions into this PNG file.")
    ] = None,
    whole_set: Annotated[
        bool, typer.Option("--set", help="Odds of a whole set (or night) per player and table.")
    ] = False,
    players: Annotated[
        int, typer.Option("--players", "-n", help="With --set: players in the party.")
    ] = 12,
    sets: Annotated[int, typer.Option("--sets", help="With --set: sets in the night.")] = 1,
    nights: Annotated[
        int, typer.Option("--nights", help="With --set: nights the kernel plays.")
    ] = 20_000,
    seed: Annotated[int, typer.Option("--seed", help="With --set: seed of the nights.")] = 1,
) -> None:
    """Exact odds: per roll, per turn, and per round at a head table of four; with --set,
    the odds of a whole set for every player and table."""
    from bunco.analysis.odds_report import odds_report

    with refusals():
        house_rules = parse_house_rules(house)
        rules: RuleSet = get_rules(rules_name, house_rules)
        if whole_set:
            from bunco.analysis.set_odds import set_odds
            from bunco.analysis.simulate import sim_rules

            if nights < 2:
                fail(f"--nights {nights}", expected="2 or more nights (for standard errors)")
            if round_no is not None or plot is not None:
                fail(
                    "--set covers all the rounds of a set",
                    expected="--set without --round or --plot",
                )
            from bunco.analysis.night_kernel import kernel_refusal

            played = sim_rules(rules_name, house_rules)
            reason = kernel_refusal(played, players, sets)
            if reason is not None:
                fail(
                    f"set odds come from the night kernel, which cannot play this party: {reason}",
                    expected="2 to 2,000 players and 1 to 4 sets",
                )
            from bunco.cli.kernel_notice import ready_kernel

            # the process playing the nights readies the kernel, and says so while it
            # compiles (a first run the install did not prepare)
            doc = set_odds(
                played, players=players, sets=sets, nights=nights, seed=seed, ready=ready_kernel
            )
            doc["house_rules"] = house_rules
            if as_json:
                print_json(doc)
            else:
                _print_set_odds(doc)
            return
        rounds = _rounds(round_no)
        if plot is not None and plot.suffix.lower() != ".png":
            fail(f"cannot draw into {plot.name!r}", expected="a file name ending in .png")
        report = odds_report(rules, rounds, house_rules)
        if plot is not None:
            from bunco.analysis.plot import plot_odds

            try:
                plot_odds(rules, rounds, plot)
            except OSError as exc:
                fail(f"cannot write {plot}: {exc.strerror}", expected="a writable .png path")
        if as_json:
            if round_no is not None:
                one = report["rounds"][0]
                print_json(
                    {
                        "rules": report["rules"],
                        "house_rules": report["house_rules"],
                        "tail_mass": report["tail_mass"],
                        **one,
                    }
                )
            else:
                print_json(report)
            return
        house_text = ", ".join(f"{k}={v}" for k, v in house_rules.items())
        console.print(
            f"Exact odds under [bold]{rules.name}[/] ({SUMMARIES[rules.name]})"
            + (f", with the house rules {house_text}" if house_rules else "")
        )
        if round_no is None:
            console.print(_round_columns(report["rounds"]))
        else:
            for table in _one_round(report["rounds"][0], rules):
                console.print(table)
        if plot is not None:
            console.print(f"distributions drawn into {plot}")
