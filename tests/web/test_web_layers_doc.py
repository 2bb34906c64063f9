"""docs/architecture.md draws the layers inside ``bunco.web`` that import-linter holds
(pyproject.toml): the drawing names the same modules, layer by layer, in the same order."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_drawing_of_the_layers_inside_web_is_the_contract() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c.get("containers") == ["bunco.web"]
    )
    held = [re.split(r"\s*[|:]\s*", layer) for layer in contract["layers"]]
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## Inside `web`", 1)[1].split("```", 2)[1]
    drawn: list[list[str]] = []
    for line in block.splitlines():
        names = re.sub(r"^[\s└─>]*", "", line)
        if not names or (line.startswith(" " * 20) and not re.match(r"^\s*(\||:|└─>)", line)):
            continue  # a description under the names
        parts = [p for p in re.split(r"\s*[|:]\s*", names.split("   ")[0].strip()) if p]
        if line.lstrip().startswith(("|", ":")):
            drawn[-1].extend(parts)  # the names go on from the line above
        else:
            drawn.append(parts)
    assert drawn == held
    modules = {p.stem for p in (ROOT / "src" / "bunco" / "web").glob("*.py")}
    assert {m for layer in held for m in layer} <= modules
