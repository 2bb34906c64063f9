"""Shared fixtures of the ``bunco play`` tests."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from terminal_child import as_in_a_shell

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder of the test's own: ``bunco play`` saves its nights there
    (``$XDG_DATA_HOME/bunco/nights``), never in the home folder of whoever runs the tests."""
    folder = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder


@pytest.fixture
def spawn(tmp_path: Path) -> Callable[..., object]:
    """Start ``python -m bunco ARGS`` in a pseudo-terminal (plain text, 120 columns unless told)."""
    pexpect = pytest.importorskip("pexpect")
    children = []

    def start(*args: str, columns: int = 120) -> object:
        env = dict(os.environ, TERM="dumb", COLUMNS=str(columns), LINES="40", PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        child = pexpect.spawn(
            sys.executable,
            ["-m", "bunco", *args],
            cwd=str(tmp_path),
            env=env,
            encoding="utf-8",
            timeout=15,
            dimensions=(40, columns),
            preexec_fn=as_in_a_shell,
        )
        children.append(child)
        return child

    yield start
    for child in children:
        if child.isalive():
            child.terminate(force=True)
