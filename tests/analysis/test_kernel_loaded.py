"""What a run imports before it plays (Numba only then), the process that plays
``odds --set``'s nights, and the package build's compile step."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bunco.analysis.background import in_background
from bunco.analysis.kernel.install import compile_environment


def test_the_exact_odds_and_the_kernels_inputs_import_no_numba() -> None:
    """``odds --set`` composes its exact figures (which read the kernel's movement
    lookup) and builds the kernel's inputs without importing Numba (0.3-0.5 CPU s): the
    process that plays the nights imports it, meanwhile."""
    code = (
        "import sys; import bunco.analysis.set_odds, bunco.cli.odds_cmd; "
        "from bunco.analysis.night_kernel import kernel_inputs, DiceStream; "
        "from bunco.core.presets import get_rules; "
        "i = kernel_inputs(get_rules('classic'), 12, 1, cards=True); "
        "print('numba' in sys.modules, i.move.shape[0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "3"]


def test_background_work_may_be_any_callable() -> None:
    """The forked process gets the function itself: a closure will do, and its result
    (or its exception) comes back."""
    seen = [3, 4]
    assert in_background(lambda k: sum(seen) * k, 2)() == 14

    def fails() -> None:
        raise ValueError("no such night")

    with pytest.raises(ValueError, match="no such night"):
        in_background(fails)()


def test_the_compile_step_keeps_the_builds_path() -> None:
    """pip's isolated build finds Numba through PYTHONPATH: the package build's compile
    step keeps it (it once replaced it, and a ``pip install .`` into a fresh environment
    then shipped no compiled kernel, its warning hidden by pip)."""
    env = compile_environment(
        "/b/lib", {"PYTHONPATH": f"/pip/site{os.pathsep}/pip/more", "HOME": "/h"}
    )
    assert env["PYTHONPATH"].split(os.pathsep) == ["/b/lib", "/pip/site", "/pip/more"]
    assert env["HOME"] == "/h"
    assert compile_environment("/b/lib", {})["PYTHONPATH"] == "/b/lib"
    assert compile_environment("/b", {"NUMBA_CACHE_DIR": "/c"}) == {"PYTHONPATH": "/b"}
