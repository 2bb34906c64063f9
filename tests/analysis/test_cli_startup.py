"""The light commands start without the heavy libraries: ``bunco --help``, ``bunco rules``
and ``bunco score`` import neither NumPy nor Numba, matplotlib, ReportLab, FastAPI,
Uvicorn, SQLAlchemy or pydantic, nor the modules of the other commands; every command's
``--help`` imports none of the heavy libraries (each runs in a fresh interpreter; how long
they take is measured by ``benchmarks/simulate.py``, never here)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bunco.cli.group import COMMANDS

HEAVY = (
    "numpy",
    "numba",
    "matplotlib",
    "reportlab",
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "starlette",
    "pydantic",
    "alembic",
    "psycopg",
    "segno",
    "PIL",
)
#: What the light commands need none of: the other commands' modules and what they use
#: (``score`` names a roll's kind with the small ``bunco.sheets.wording``), and the
#: Markdown renderer of the help pages.
NOT_FOR_LIGHT = (
    *HEAVY,
    "markdown_it",
    "pygments",
    "bunco.play",
    "bunco.party",
    "bunco.analysis",
    "bunco.sheets.pdfkit",
    "bunco.sheets.blank",
    "bunco.sheets.night_report_page",
    "bunco.store",
    "bunco.web",
    "bunco.club",
    "bunco.core.night",
    *(f"bunco.cli.{module}" for module, _ in COMMANDS.values() if module != "rules_cmd"),
)

PROBE = """
import json, sys
from bunco.cli import main
watched = json.loads(sys.argv[2])
sys.argv = ["bunco", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
loaded = sorted(m for m in watched if m in sys.modules)
sys.stderr.write("\\nPROBE " + json.dumps({"code": code, "loaded": loaded}) + "\\n")
"""


def _probe(args: list[str], watched: tuple[str, ...] = HEAVY) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), json.dumps(watched)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    line = next(x for x in out.stderr.splitlines() if x.startswith("PROBE "))
    result: dict[str, object] = json.loads(line.removeprefix("PROBE "))
    return result


@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        ["rules", "wm"],
        ["rules", "classic", "--house", "wipeout=true", "--json"],
        ["score", "--rules", "wm", "--round", "4", "2", "2", "2"],
        ["score", "-r", "classic", "-R", "3", "3", "3", "3", "--json"],
    ],
)
def test_light_commands_import_nothing_they_do_not_use(args: list[str]) -> None:
    result = _probe(args, NOT_FOR_LIGHT)
    assert result["code"] == 0
    assert result["loaded"] == []


def test_the_command_list_imports_no_command() -> None:
    watched = tuple(m for m in NOT_FOR_LIGHT if m not in ("markdown_it", "pygments"))
    result = _probe(["--help"], (*watched, "bunco.cli.rules_cmd"))
    assert result["code"] == 0
    assert result["loaded"] == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_commands_help_imports_no_heavy_library(command: str) -> None:
    result = _probe([command, "--help"])
    assert result["code"] == 0
    assert result["loaded"] == []


def test_the_probe_sees_heavy_imports() -> None:
    # the same probe on a command that needs NumPy: it must report it
    result = _probe(["odds", "--rules", "classic", "--round", "1", "--json"])
    assert result["code"] == 0
    assert "numpy" in result["loaded"]  # type: ignore[operator]
    result = _probe(["rules"], ("bunco.cli.rules_cmd", "rich.table"))
    assert result["loaded"] == ["bunco.cli.rules_cmd", "rich.table"]
