"""Movement lookups of big parties kept on disk: the same lookup, built once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bunco.analysis import movement_cache
from bunco.analysis.night_kernel import build_movement_table
from bunco.core.presets import get_rules


def test_a_lookup_is_saved_then_loaded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(movement_cache, "folder", lambda: tmp_path / "kept")
    monkeypatch.setattr(movement_cache, "MIN_TABLES", 3)
    rules, sizes = get_rules("classic"), (4, 4, 4)
    calls: list[int] = []

    def build() -> np.ndarray:
        calls.append(1)
        return build_movement_table(rules, sizes)

    first = movement_cache.cached(rules, sizes, __file__, build)
    again = movement_cache.cached(rules, sizes, __file__, build)
    assert calls == [1] and np.array_equal(first, again) and again.dtype == np.int32
    assert len(list((tmp_path / "kept").glob("movement-*.npy"))) == 1
    other = movement_cache.cached(get_rules("scil"), sizes, __file__, build)  # other rules
    assert calls == [1, 1] and other is not None
    small = movement_cache.cached(
        rules, (4, 4), __file__, lambda: build_movement_table(rules, (4, 4))
    )
    assert small.shape[0] == 2 and len(list((tmp_path / "kept").glob("*.npy"))) == 2


def test_the_name_changes_with_the_sources(tmp_path: Path) -> None:
    rules = get_rules("classic")
    builder = tmp_path / "builder.py"
    builder.write_text("one")
    before = movement_cache.digest(rules, (4, 4), str(builder))
    builder.write_text("two")
    assert movement_cache.digest(rules, (4, 4), str(builder)) != before
    assert movement_cache.digest(rules, (4, 4, 4), str(builder)) != movement_cache.digest(
        rules, (4, 4), str(builder)
    )


def test_an_unwritable_folder_builds_every_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(movement_cache, "folder", lambda: blocker / "kept")
    monkeypatch.setattr(movement_cache, "MIN_TABLES", 1)
    rules = get_rules("classic")
    calls: list[int] = []

    def build() -> np.ndarray:
        calls.append(1)
        return build_movement_table(rules, (4, 4))

    movement_cache.cached(rules, (4, 4), __file__, build)
    movement_cache.cached(rules, (4, 4), __file__, build)
    assert calls == [1, 1]
