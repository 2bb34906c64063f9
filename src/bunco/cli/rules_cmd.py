"""``bunco rules`` and ``bunco score``: the presets and what a roll scores."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from bunco.cli.app import app, console, fail, parse_house_rules, print_json, refusals
from bunco.core.dice import score_roll
from bunco.core.presets import PRESETS, SOURCES, SUMMARIES, get_rules, preset_name
from bunco.core.rules import RollKind, rule_docs

HouseOption = Annotated[
    list[str] | None,
    typer.Option(
        "--house",
        "-H",
        metavar="NAME=VALUE",
        help="A house rule (repeatable), e.g. --house wipeout=true or --house "
        "prize_ties=shared (ties for a prize shared, not rolled off). NAME is one of: "
        + ", ".join(n for n in rule_docs() if n != "name")
        + ". `bunco rules PRESET` shows each one's value and meaning.",
    ),
]


@app.command("rules")
def rules_command(
    preset: Annotated[
        str | None,
        typer.Argument(help="A preset or alias (winning-moves, wm, classic, scil, tournament)."),
    ] = None,
    house: HouseOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Show the presets, or every rule value of one preset (with house rules applied)."""
    with refusals():
        if preset is None:
            if as_json:
                print_json(
                    {
                        name: {
                            "summary": SUMMARIES[name],
                            "source": SOURCES[name],
                            "rules": rules.as_dict(),
                        }
                        for name, rules in PRESETS.items()
                    }
                )
                return
            table = Table(title="Bunco presets")
            table.add_column("preset", style="bold")
            table.add_column("in one line")
            table.add_column("source")
            for name in PRESETS:
                table.add_row(name, SUMMARIES[name], SOURCES[name])
            console.print(table)
            console.print("Show every rule of one preset: [bold]bunco rules classic[/]")
            return
        rules = get_rules(preset, parse_house_rules(house))
        name = preset_name(preset)
        if as_json:
            print_json(
                {
                    "preset": name,
                    "summary": SUMMARIES[name],
                    "source": SOURCES[name],
                    "house_rules": parse_house_rules(house),
                    "rules": rules.as_dict(),
                }
            )
            return
        docs = rule_docs()
        base = PRESETS[name].as_dict()
        table = Table(title=f"{name}: {SUMMARIES[name]}", caption=f"source: {SOURCES[name]}")
        table.add_column("rule", style="bold")
        table.add_column("value")
        table.add_column("meaning")
        for key, value in rules.as_dict().items():
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            if base[key] != value:
                shown = f"[yellow]{shown}[/] (house rule)"
            table.add_row(key, shown, docs[key])
        console.print(table)


@app.command("score")
def score_command(
    dice: Annotated[list[str], typer.Argument(metavar="DICE", help="The three faces, e.g. 4 4 1.")],
    rules_name: Annotated[
        str, typer.Option("--rules", "-r", metavar="PRESET", help="Preset or alias.")
    ] = "classic",
    round_no: Annotated[
        int,
        typer.Option("--round", "-R", metavar="N", help="Round 1-6 (its number is the target)."),
    ] = 1,
    house: HouseOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Score one roll: points, kind, whether the turn goes on and whether the round ends."""
    with refusals():
        rules = get_rules(rules_name, parse_house_rules(house))
        faces: list[int] = []
        for text in dice:
            try:
                faces.append(int(text))
            except ValueError:
                fail(
                    f"die face {text!r} is not a number",
                    expected="three faces from 1 to 6, e.g. 4 4 1",
                )
        result = score_roll(faces, round_no, rules)
        if as_json:
            print_json(result.as_dict())
            return
        from bunco.sheets.wording import kind_name

        console.print(
            f"round {round_no}, dice {' '.join(map(str, faces))} under {rules.name}: "
            f"[bold]{result.points}[/] point{'' if result.points == 1 else 's'}"
            + ("" if result.kind is RollKind.POINTS else f", {kind_name(result.kind, rules)}")
            + "; "
            + (
                "[bold red]the round ends at once[/]"
                if result.ends_round
                else ("roll again" if result.turn_continues else "turn ends")
            )
        )
