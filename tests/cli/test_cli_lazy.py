"""``bunco`` imports a command's module only when that command runs, and converts plain
option values without pydantic exactly as Typer's own converter does."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer._adapters import try_build_adapter
from typer.models import OptionInfo
from typer.testing import CliRunner

from bunco.cli import app
from bunco.cli.coerce import PLAIN_TYPES, UNSURE, plain_refusal, plain_value
from bunco.cli.group import COMMANDS, load_command


def test_every_registered_command_is_in_the_table_and_its_line_is_its_help() -> None:
    for name in COMMANDS:
        command = load_command(name)
        assert command.name == name
        first = " ".join(command.help.split("\n\n")[0].split())
        assert COMMANDS[name][1] == first, name
    registered = {c.name for c in app.registered_commands} | {g.name for g in app.registered_groups}
    assert registered == set(COMMANDS)
    assert load_command("nope") is None


def test_the_command_list_from_the_table_equals_the_one_from_the_commands() -> None:
    """A fresh ``bunco --help`` (no command module imported) prints what ``bunco --help``
    prints once every command is loaded."""
    env = {"COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"}
    program = "import sys; sys.argv[0] = 'bunco'; from bunco.cli import main; main()"
    fresh = subprocess.run(
        [sys.executable, "-c", program, "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    ).stdout
    for name in COMMANDS:
        load_command(name)  # registers every command on the app
    loaded = CliRunner().invoke(app, ["--help"], env=env)
    assert loaded.exit_code == 0
    assert "│ club " in fresh and "│ simulate " in fresh
    assert fresh == loaded.stdout


def _typer_value(annotation: Any, value: Any, low: Any, high: Any) -> Any:
    info = OptionInfo(min=low, max=high)
    adapter = try_build_adapter(annotation, info)
    assert adapter is not None
    try:
        return adapter.validate_python(value)
    except Exception:  # any refusal: Typer's converter must decide
        return UNSURE


_TEXT = st.one_of(
    st.text(max_size=8),
    st.from_regex(r"-?[0-9]{1,20}(\.[0-9]{0,16})?", fullmatch=True),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(["1e3", " 7", "7 ", "+3", "1_000", "0x10", "nan", "inf", "٣", "-0", "007"]),
)
_VALUE = st.one_of(
    _TEXT,
    st.integers(-(10**6), 10**6),
    st.booleans(),
    st.floats(),
    st.none(),
    st.lists(_TEXT, max_size=3).map(tuple),
)
_BOUND = st.one_of(st.none(), st.integers(-100, 100))


@settings(max_examples=600, deadline=None)
@given(annotation=st.sampled_from(PLAIN_TYPES), value=_VALUE, low=_BOUND, high=_BOUND)
def test_a_plain_value_is_what_typer_makes_of_it(
    annotation: Any, value: Any, low: Any, high: Any
) -> None:
    ours = plain_value(annotation, value, low, high)
    if ours is UNSURE:  # then Typer's converter decides: nothing to compare
        return
    theirs = _typer_value(annotation, value, low, high)
    assert theirs is not UNSURE, (annotation, value)
    assert type(ours) is type(theirs) and ours == theirs
    if isinstance(ours, list):
        assert [type(x) for x in ours] == [type(x) for x in theirs]


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        (int, "12", 12),
        (int, "-3", -3),
        (float, "2.5", 2.5),
        (float, 3, 3.0),
        (str, "wm", "wm"),
        (list[str], ("a", "b"), ["a", "b"]),
        (list[int], ("4", "2"), [4, 2]),
        (bool, True, True),
    ],
)
def test_clearly_valid_values_are_converted_here(
    annotation: Any, value: Any, expected: Any
) -> None:
    assert plain_value(annotation, value, None, None) == expected


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        (int, "12x"),
        (int, "1e3"),
        (int, " 7"),
        (int, True),
        (float, "nan"),
        (str, 5),
        (list[int], ("4", "x")),
        (bool, "yes"),
        (int, "1" * 19),
        (float, float("nan")),
        (float, float("inf")),
    ],
)
def test_anything_else_is_left_to_typer(annotation: Any, value: Any) -> None:
    assert plain_value(annotation, value, None, None) is UNSURE
    assert plain_value(int, "101", 0, 100) is UNSURE  # out of bounds: Typer's message


@settings(max_examples=600, deadline=None)
@given(annotation=st.sampled_from(PLAIN_TYPES), value=_VALUE, low=_BOUND, high=_BOUND)
def test_a_number_refused_in_our_words_is_one_typer_refuses(
    annotation: Any, value: Any, low: Any, high: Any
) -> None:
    """:func:`plain_refusal` speaks only for values Typer's converter refuses too."""
    try:
        plain_refusal(annotation, value, low, high, None, None)
    except typer.BadParameter:
        assert _typer_value(annotation, value, low, high) is UNSURE, (annotation, value)


@pytest.mark.parametrize(
    ("args", "error", "expected"),
    [
        (
            ["score", "--rules", "wm", "--round", "x", "2", "2", "2"],
            "'--round' / '-R': 'x' is not a whole number",
            "--round / -R: round 1-6",
        ),
        (
            ["score", "-r", "wm", "-R", "four", "2", "2", "2"],
            "'--round' / '-R': 'four' is not a whole number",
            "--round / -R: round 1-6",
        ),
        (
            ["serve", "--port", "70000"],
            "'--port': 70000 is above 65535, the highest",
            "--port: TCP port",
        ),
        (
            ["play", "--speed", "fast"],
            "'--speed': 'fast' is not a number",
            "--speed: pace of bots and animations",
        ),
        (
            ["simulate", "-k", "1.5"],
            "'--parties' / '-k': '1.5' is not a whole number",
            "--parties / -k: nights to simulate",
        ),
    ],
)
def test_a_bad_value_is_refused_in_our_words(args: list[str], error: str, expected: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert f"error: invalid value for {error}\n" in result.stderr
    assert f"expected: {expected}" in result.stderr
    assert "Input should" not in result.stderr  # never the framework's words


def test_the_plain_converter_is_used_for_the_plain_options() -> None:
    group: Any = typer.main.get_command(app)
    ctx = group.make_context("bunco", ["score"])
    score = group.get_command(ctx, "score")
    kinds = {p.name: type(p._runtime_param).__name__ for p in score.get_params(ctx)}
    assert kinds["round_no"] == "PlainCoercion" and kinds["dice"] == "PlainCoercion"


@pytest.mark.parametrize("name", ["coerce", "group"])
def test_the_examples_in_the_docstrings(name: str) -> None:
    module = importlib.import_module(f"bunco.cli.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
