"""The light commands start without the heavy libraries: ``bunco --help``, ``bunco rules``
and ``bunco score`` import neither NumPy nor Numba, matplotlib, ReportLab, FastAPI,
Uvicorn or SQLAlchemy (each runs in a fresh interpreter; how long they take is measured
by ``benchmarks/simulate.py``, never here)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "numba", "matplotlib", "reportlab", "fastapi", "uvicorn", "sqlalchemy",
         "starlette")

PROBE = """
import json, sys
from bunco.cli import main
heavy = json.loads(sys.argv[2])
sys.argv = ["bunco", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
loaded = sorted(m for m in heavy if m in sys.modules)
sys.stderr.write("\\nPROBE " + json.dumps({"code": code, "loaded": loaded}) + "\\n")
"""


def _probe(args: list[str]) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args), json.dumps(HEAVY)],
                         capture_output=True, text=True, timeout=60, check=False)
    line = next(x for x in out.stderr.splitlines() if x.startswith("PROBE "))
    result: dict[str, object] = json.loads(line.removeprefix("PROBE "))
    return result


@pytest.mark.parametrize("args", [
    ["--help"],
    ["rules"],
    ["rules", "wm"],
    ["score", "--rules", "wm", "--round", "4", "2", "2", "2"],
])
def test_light_commands_import_no_heavy_library(args: list[str]) -> None:
    result = _probe(args)
    assert result["code"] == 0
    assert result["loaded"] == []


def test_the_probe_sees_heavy_imports() -> None:
    # the same probe on a command that needs NumPy: it must report it
    result = _probe(["odds", "--rules", "classic", "--round", "1", "--json"])
    assert result["code"] == 0
    assert "numpy" in result["loaded"]  # type: ignore[operator]
