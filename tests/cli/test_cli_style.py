"""The ``bunco`` command line as a new user meets it: help pages, flags, errors, words."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from bunco.cli import app
from bunco.cli.group import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
GROUP: Any = typer.main.get_command(app)
COMMANDS = sorted(GROUP.list_commands(None))


def run(*args: str, columns: int = 100) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def flat(text: str) -> str:
    return " ".join(text.split())


def test_every_command_is_listed_with_examples() -> None:
    assert sorted(EXAMPLES) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_help_reflows_shows_no_bool_and_ends_with_examples(command: str) -> None:
    code, out, _ = run(command, "--help", columns=1000)
    assert code == 0
    assert "<bool>" not in out
    assert "Examples:" in out
    for example in EXAMPLES[command]:
        assert example in out  # each on a line of its own, whole
    lines = [line.strip(" │") for line in out.splitlines()]
    doc = GROUP.get_command(None, command).help.split("\n\n")
    for paragraph in doc:  # the source's line breaks are gone at a wide terminal
        assert " ".join(paragraph.split()) in lines, paragraph


def test_the_command_list_is_not_hard_wrapped_and_has_examples() -> None:
    _, out, _ = run("--help", columns=300)
    assert "<bool>" not in out and "--version" in out
    assert "Examples:" in out and "bunco play --help" in out
    assert "figures with standard errors" in out
    assert re.search(r"simulate +Simulate whole nights .* figures with standard errors", out)


@pytest.mark.parametrize(
    "example", [(c, e) for c in sorted(EXAMPLES) for e in EXAMPLES[c]], ids=lambda x: x[1]
)
def test_every_example_parses(example: tuple[str, str]) -> None:
    """Each example names the command and only options that exist, with valid values."""
    command, text = example
    words = shlex.split(text)
    assert words[:2] == ["bunco", command]
    ctx = GROUP.make_context("bunco", words[1:2])
    sub = GROUP.get_command(ctx, command)
    sub.make_context(command, words[2:], parent=ctx)  # raises on an unknown option or value


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out == f"bunco {version('bunco')}\n"


@pytest.mark.parametrize(
    ("long", "short"),
    [("--rules", "-r"), ("--players", "-n"), ("--house", "-H"), ("--out", "-o"), ("--round", "-R")],
)
def test_one_flag_per_concept(long: str, short: str) -> None:
    having = []
    for name in COMMANDS:
        for param in GROUP.get_command(None, name).params:
            if long in param.opts:
                having.append(name)
                assert short in param.opts, f"bunco {name} {long}"
    assert having  # the concept exists somewhere


@pytest.mark.parametrize(
    ("args", "error", "expected"),
    [
        (["play", "--sets", "9"], "--sets 9: a night has 1 to 4 sets", "--sets 1, 2, 3 or 4"),
        (["play", "--speed", "-1"], "--speed -1: a pace cannot be below 0", "--speed 0"),
        (["sheets", "-r", "wm", "-n", "1", "-o", "x.pdf"], "--players 1 is not a party",
         "a count from 2"),
        (["sheets", "-r", "wm", "-n", "8", "--sets", "0", "-o", "x.pdf"], "--sets 0", "--sets 1"),
        (["simulate", "--players", "1"], "--players 1 is not a party", "a count from 2"),
        (["simulate", "--sets", "9"], "sets 9 is not allowed", "1 to 4 sets"),
        (["play", "--sets", "abc"], "invalid value for '--sets'", "--sets: sets of six rounds"),
        (["play", "--speeed", "1"], "no such option: --speeed; did you mean '--speed'?",
         "an option that `bunco play --help` lists"),
        (["plya"], "no such command 'plya'; did you mean 'play'?", "a command that"),
        (["sheets", "-r", "wm"], "missing option '--out'", "--out / -o: the PDF to write"),
        (["rules", "clasic"], "unknown preset 'clasic'; did you mean 'classic'?",
         "one of winning-moves, classic, scil, tournament"),
        (["score", "-r", "wm", "--house", "wipout=true", "1", "2", "3"],
         "unknown house rule 'wipout'; did you mean 'wipeout'?", "one of after_bell"),
        (["odds", "-r", "tournamnet"], "did you mean 'tournament'?", "one of"),
        (["serve", "--port", "99999"], "invalid value for '--port'", "--port: TCP port"),
        (["replay"], "missing argument 'FILE'", "FILE: a party log"),
        (["score", "-r", "wm"], "missing argument", "DICE: the three faces, e.g. 4 4 1"),
        (["rules", "wm", "extra"], "unexpected extra argument", "`bunco rules --help`"),
    ],
)  # fmt: skip
def test_every_refusal_has_one_style(
    tmp_path: Path, monkeypatch: Any, args: list[str], error: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert lines[0].startswith("error: ") and error in lines[0]
    assert lines[1].startswith("expected: ") and expected in lines[1]
    assert "╭" not in err and "Traceback" not in err and "Usage:" not in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_usage_error_exits_2_in_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bunco", "play", "--sets", "9"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: --sets 9")


def test_words_not_identifiers(tmp_path: Path) -> None:
    assert flat(run("score", "-r", "classic", "-R", "4", "2", "2", "2")[1]) == (
        "round 4, dice 2 2 2 under classic: 5 points, Mini Bunco; roll again"
    )
    _, out, _ = run("odds", "-r", "scil", "-R", "3", "-H", "wipeout=true", columns=200)
    first = flat(out.split("One roll in round 3")[0])
    assert first.startswith("Exact odds under scil (head table ends the round")
    assert first.endswith("with the house rules wipeout=true")
    assert "Baby Bunco" in out and "mini_bunco" not in out
    code, out, _ = run("simulate", "-r", "classic", "-n", "8", "-k", "3", "--workers", "1",
                       "--engine", columns=200)  # fmt: skip
    assert code == 0
    assert "half_and_half" not in out and "prize '" not in out
    cells = flat(re.sub(r"[│┃]", " ", out))  # at a narrow terminal the label wraps in its cell
    assert all(word in cells for word in ("P(Half", "Wins", "Losses", "tie)"))


def test_replay_help_points_at_the_log_format() -> None:
    _, out, _ = run("replay", "--help", columns=200)
    assert "docs/party-log.md" in out and "DESIGN.md" not in out
    assert (ROOT / "docs" / "party-log.md").exists()


def test_export_help_names_the_csv_header(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    assert run("play", "--auto", "-n", "4", "--seed", "1", "--json", "--log", str(log))[0] == 0
    _, text, _ = run("export", str(log))
    header = next(csv.reader(io.StringIO(text)))
    _, out, _ = run("export", "--help", columns=300)
    named = re.search(r"one row a player: (.*) \(the CSV's header row\)", flat(out))
    assert named is not None
    assert named.group(1).split(", ") == header


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


PARTY = b'{"type": "party", "rules": "classic", "players": ["Ann", "Bea"]}\n'


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (PARTY + b'{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Jos\xe9"}\n',
         "line 2: not UTF-8 text (byte 0xe9 at column 63)"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "line 1: not UTF-8 text (byte 0x89 at column 1)"),
        (PARTY + b"[" * 100_000 + b"\n", "line 2: JSON nested too deeply to be an event"),
        (b"\x00\x01\x02 binary\n", "line 1: not valid JSON"),
    ],
    ids=["latin-1", "binary", "nested", "nul"],
)  # fmt: skip
@pytest.mark.parametrize("command", ["replay", "export", "report", "sheets", "play"])
def test_no_traceback_for_a_broken_log(
    tmp_path: Path, data: bytes, error: str, command: str
) -> None:
    log = write(tmp_path / "bad.jsonl", data)
    args = {
        "replay": ["replay", str(log)],
        "export": ["export", str(log)],
        "report": ["report", str(log), "-o", str(tmp_path / "r.html")],
        "sheets": ["sheets", "--from", str(log), "-o", str(tmp_path / "s.pdf")],
        "play": ["play", "--resume", str(log)],
    }[command]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert error in flat(result.stderr)
    assert "expected:" in result.stderr
    assert log.read_bytes() == data  # never changed


def test_replay_json_of_a_log_with_a_bad_line_is_an_error_not_a_document(tmp_path: Path) -> None:
    log = write(tmp_path / "bad.jsonl", PARTY + b"\xff\n")
    code, out, err = run("replay", str(log), "--json")
    assert code == 2 and out == "" and "line 2" in err
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
