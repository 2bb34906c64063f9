"""The Typer application that every ``bunco`` subcommand registers on."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

from bunco.cli.group import BuncoGroup
from bunco.core.errors import BuncoError

if TYPE_CHECKING:
    from bunco.core.rules import HouseRuleValue

app = typer.Typer(
    name="bunco",
    help="Bunco: rules, parties, live nights, odds and simulation for the dice game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # help paragraphs reflow to the terminal's width
    cls=BuncoGroup,
)


BuncoGroup.typer_app = app


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"bunco {version('bunco')}")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Bunco: rules, parties, live nights, odds and simulation for the dice game."""


console = Console()
err_console = Console(stderr=True, soft_wrap=True)  # never cut a path or a command in two


def print_json(data: Any) -> None:
    """Print one JSON document on stdout and nothing else."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def fail(message: str, *, expected: str | None = None, code: int = 2) -> NoReturn:
    """Print an error (and what to type instead) on stderr and exit non-zero."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    if expected:
        err_console.print(f"[yellow]expected:[/] {expected}", highlight=False)
    raise typer.Exit(code)


@contextmanager
def refusals() -> Iterator[None]:
    """Turn a :class:`BuncoError` into a clear message on stderr and exit code 2."""
    try:
        yield
    except BuncoError as exc:
        fail(exc.message, expected=exc.expected)


def parse_house_rules(items: list[str] | None) -> dict[str, HouseRuleValue]:
    """``["wipeout=true", "team_target=11"]`` → a dict; refuses items without ``=``.

    A rule whose value is a whole number (or a list of round numbers) gets it as a number,
    as a party log writes it; every other value stays text for the rule set to read.
    """
    import dataclasses

    from bunco.core.rules import OFF_IS_ZERO, RuleSet, whole_number_rules

    numbers = whole_number_rules()
    lists = {f.name for f in dataclasses.fields(RuleSet) if str(f.type).startswith("tuple[")}
    out: dict[str, HouseRuleValue] = {}
    for item in items or []:
        if "=" not in item:
            fail(
                f"house rule {item!r} has no value",
                expected="NAME=VALUE, for example --house wipeout=true",
            )
        key, value = (part.strip() for part in item.split("=", 1))
        name = key.replace("-", "_")
        if name in OFF_IS_ZERO and value.lower() in ("off", "none"):
            value = "0"  # "round_minutes=off": the log writes 0
        out[key] = _whole_numbers(key, value, name in lists) if name in numbers else value
    return out


def _whole_numbers(key: str, value: str, as_list: bool) -> int | list[int]:
    from bunco.core.rules import MAX_ROUND_MINUTES, MAX_RULE_NUMBER, OFF_IS_ZERO

    parts = [p.strip() for p in value.split(",")]
    if not all(p.lstrip("-").isdigit() and len(p) <= 10 for p in parts):
        fail(
            f"{value[:30]!r} is not a valid value for house rule {key!r}",
            expected="a comma-separated list of round numbers"
            if as_list
            else f"off, or minutes from 1 to {MAX_ROUND_MINUTES}"
            if key.replace("-", "_") in OFF_IS_ZERO
            else f"a whole number within ±{MAX_RULE_NUMBER:,}",
        )
    numbers = [int(p) for p in parts]
    return numbers if as_list or len(numbers) > 1 else numbers[0]
