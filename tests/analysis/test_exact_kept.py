"""The exact part of ``bunco odds --set`` kept on disk (:mod:`bunco.analysis.exact_kept`):
composed once, read back to the very same values, named after everything it is made of."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bunco.analysis import exact_kept, movement_cache
from bunco.analysis.set_odds import exact_part
from bunco.analysis.simulate import sim_rules
from bunco.core.presets import get_rules


def test_a_kept_part_is_the_composed_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movement_cache, "folder", lambda: tmp_path)
    rules = sim_rules("classic", {})
    made: list[dict[str, Any]] = []

    def compose() -> dict[str, Any]:
        made.append(exact_part(rules, 8, 1))
        return made[-1]

    first = exact_kept.kept(rules, 8, 1, compose)
    again = exact_kept.kept(rules, 8, 1, compose)
    assert len(made) == 1 and first == again == made[0]  # floats read back exactly
    assert [p.name for p in tmp_path.iterdir()] == [exact_kept.name(rules, 8, 1)]
    assert first["split_why"] is None and first["why"] == {}
    assert len(first["composed"]["expected_wins"]) == 8
    assert sum(first["composed"]["expected_wins"]) == pytest.approx(8 * 3)


def test_the_name_says_what_the_part_is_made_of(monkeypatch: pytest.MonkeyPatch) -> None:
    classic = get_rules("classic")
    names = {
        exact_kept.name(classic, 12, 1),
        exact_kept.name(classic, 16, 1),
        exact_kept.name(classic, 12, 2),
        exact_kept.name(get_rules("classic", {"wipeout": True}), 12, 1),
    }
    assert len(names) == 4
    sources = exact_kept.sources()
    assert any(p.name == "set_exact.py" for p in sources)
    assert any(p.name == "seating.py" for p in sources)
    before = exact_kept.name(classic, 12, 1)
    monkeypatch.setattr(exact_kept, "VERSION", exact_kept.VERSION + 1)
    assert exact_kept.name(classic, 12, 1) != before


def test_a_folder_that_cannot_be_written_composes_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setattr(movement_cache, "folder", lambda: blocked)
    calls: list[int] = []

    def compose() -> dict[str, Any]:
        calls.append(1)
        return {"composed": {}, "why": {"x": "y"}, "per_table": [None], "split_why": "z"}

    rules = get_rules("scil")
    assert exact_kept.kept(rules, 8, 1, compose) == exact_kept.kept(rules, 8, 1, compose)
    assert calls == [1, 1]


def test_a_damaged_file_is_composed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movement_cache, "folder", lambda: tmp_path)
    rules = get_rules("tournament")
    (tmp_path / exact_kept.name(rules, 8, 1)).write_text('{"composed": ')
    part = {"composed": {"expected_wins": [0.1] * 8}, "why": {}, "per_table": [], "split_why": None}
    assert exact_kept.kept(rules, 8, 1, lambda: part) == part
    assert exact_kept.kept(rules, 8, 1, lambda: {}) == part  # now read from disk
