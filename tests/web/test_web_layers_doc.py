"""docs/architecture.md draws the layers inside ``bunco.web`` that import-linter holds
(pyproject.toml): the folders' drawing names the same folders, layer by layer, in the same
order as the contract of ``bunco.web``; the table under it names each folder's modules as
that folder's contract holds them; and every module of ``web`` is in a folder and in its
folder's contract, with at most 15 modules left directly in ``web/``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "bunco" / "web"


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _names(layer: str) -> list[str]:
    """The names of one layer, ``a | b`` or ``a : b``."""
    return [n for n in re.split(r"\s*[|:]\s*", layer.strip()) if n]


def _held(package: str) -> list[list[str]]:
    """The layers a contract holds inside ``package``, top to bottom (an independence
    contract: one layer of the modules that stand apart)."""
    for contract in _contracts():
        if contract.get("containers") == [package]:
            return [_names(layer) for layer in contract["layers"]]
        modules = contract.get("modules", [])
        if modules and all(m.rpartition(".")[0] == package for m in modules):
            return [[m.rpartition(".")[2] for m in modules]]
    raise AssertionError(f"no contract holds the modules of {package}")


def _doc() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return text.split("## Inside `web`", 1)[1].split("\n## ", 1)[0]


def _drawn_folders() -> list[list[str]]:
    """The drawing's layers: the first line's names, then each line's after its ``└─>``
    (the other lines describe the names above them); names end where two spaces do."""
    block = _doc().split("```", 2)[1].strip("\n")
    drawn: list[list[str]] = []
    for n, line in enumerate(block.splitlines()):
        if n > 0 and "└─>" not in line:
            continue  # a description under the names
        names = re.split(r"\s{2,}", line.split("└─>")[-1].strip(), maxsplit=1)[0]
        drawn.append(_names(names))
    return drawn


def _table() -> dict[str, list[list[str]]]:
    """The table of each folder's layers: ``folder`` → its modules' layers, top to bottom."""
    rows: dict[str, list[list[str]]] = {}
    for line in _doc().splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 3 and re.fullmatch(r"`[a-z_]+`", cells[0]):
            layers = cells[1].replace("\\|", "|").split("→")
            rows[cells[0].strip("`")] = [_names(layer.strip().strip("`")) for layer in layers]
    return rows


def test_the_drawing_of_the_folders_is_the_contract_of_web() -> None:
    held = _held("bunco.web")
    assert _drawn_folders() == held
    folders = {p.name for p in WEB.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in WEB.glob("*.py")} - {"__init__"}
    assert {name for layer in held for name in layer} == folders | modules


def test_each_folder_is_drawn_as_its_contract_holds_it() -> None:
    folders = sorted(p.name for p in WEB.iterdir() if (p / "__init__.py").exists())
    table = _table()
    assert sorted(table) == folders
    for folder in folders:
        held = _held(f"bunco.web.{folder}")
        assert table[folder] == held, folder
        modules = {p.stem for p in (WEB / folder).glob("*.py")} - {"__init__"}
        assert {m for layer in held for m in layer} == modules, folder


def test_web_keeps_at_most_15_modules_beside_its_folders() -> None:
    beside = sorted(p.stem for p in WEB.glob("*.py") if p.stem != "__init__")
    assert "app" in beside and len(beside) <= 15  # today app.py alone
