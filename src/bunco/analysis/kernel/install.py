"""The package build's compile step (``setup.py``), and the environment it runs in.

``pip install .`` builds a wheel; after the modules are copied into the build,
``setup.py`` runs ``python -m bunco.analysis.kernel.compile`` so that the kernel is
compiled into Numba's cache beside the built modules (their ``__pycache__``), which the
wheel then holds. Numba's cache is keyed by the contents of each source file (a hash,
not its time or path) and this machine's CPU, so the installed copy loads it as is.

Importing this module imports nothing heavy (``setup.py`` imports it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def compile_environment(build_lib: str, environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of the package build's compile step: the built package first on
    the path, then whatever the build's environment had there — pip's isolated build
    finds its build requirements (Numba, NumPy) through ``PYTHONPATH``, and a step that
    replaced it could not import them in a fresh environment (pip hides the warning, and
    the wheel then held no compiled kernel). ``NUMBA_CACHE_DIR`` is dropped, so that the
    cache goes beside the built modules.

    >>> env = compile_environment("/b/lib", {"PYTHONPATH": "/pip-env/site", "NUMBA_CACHE_DIR": "/c"})
    >>> env["PYTHONPATH"].split(os.pathsep), "NUMBA_CACHE_DIR" in env
    (['/b/lib', '/pip-env/site'], False)
    """
    inherited = [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = {k: v for k, v in environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([build_lib, *inherited])
    return env
