"""Dependencies declared as imported: every package that ``src/`` imports (at the top of a
module or inside a function) or reads its files from (``importlib.resources``) is declared
in pyproject.toml, in ``dependencies`` or in an extra other than ``dev`` (``postgres``);
and every declared run-time dependency is imported by ``src/``, but for the packages that
ship only data or that another one loads by name (each with its reason below). A module is
mapped to the distribution that installs it with ``importlib.metadata``."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "bunco"

NOT_IMPORTED = {
    "tzdata": "zoneinfo's time zones where the system has none",
}
"""Declared run-time dependencies that no module of ``src/`` imports, and why each is
there."""


def _key(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return _key(match.group(1))


def _declared() -> tuple[set[str], set[str], set[str]]:
    """The run-time dependencies, those of the extras but ``dev``, and ``dev``'s."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    runtime = {_requirement_name(r) for r in project["dependencies"]}
    optional = {_requirement_name(r) for k, reqs in extras.items() if k != "dev" for r in reqs}
    dev = {_requirement_name(r) for r in extras["dev"]}
    return runtime, optional, dev


def _imported() -> dict[str, set[str]]:
    """Each third-party top-level module ``src/`` imports (or reads files of) → the files."""
    found: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "files"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                names = [node.args[0].value]  # importlib.resources.files("package")
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in {"bunco", "__future__"}:
                    continue
                found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_the_walk_finds_the_imports_it_must() -> None:
    imported = _imported()
    assert "src/bunco/web/server/connections.py" in imported["httptools"]
    assert "src/bunco/core/skeleton.py" in imported["confusable_homoglyphs"]  # its data file
    assert "src/bunco/store/night_lock.py" in imported["psycopg_pool"]  # inside a function
    assert "httpx" not in imported


def test_every_package_src_imports_is_declared() -> None:
    runtime, optional, dev = _declared()
    distributions = importlib.metadata.packages_distributions()
    undeclared: list[str] = []
    for module, files in sorted(_imported().items()):
        installed = {_key(d) for d in distributions.get(module, [])}
        assert installed, f"{module} (imported by {sorted(files)[0]}) is not installed"
        if not installed & (runtime | optional):
            where = " (only in dev)" if installed & dev else ""
            undeclared.append(f"{module} from {sorted(installed)}{where}: {sorted(files)[0]}")
    assert undeclared == []


def test_every_runtime_dependency_is_imported() -> None:
    runtime, _, _ = _declared()
    distributions = importlib.metadata.packages_distributions()
    used = {_key(d) for module in _imported() for d in distributions.get(module, [])}
    assert sorted(runtime - used) == sorted(NOT_IMPORTED)
