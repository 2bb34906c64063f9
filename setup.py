"""The package build: setuptools reads everything from pyproject.toml; this adds one step.

After the modules are copied into the build, the simulator's night kernel is compiled
into Numba's cache beside them (``python -m bunco.analysis.kernel.compile``, about a
minute on two cores), so that the installed package — ``pip install .`` — runs its first
``bunco simulate`` or ``bunco odds --set`` at once. Skipped for an editable install
(``make`` compiles in place with ``make kernel``) and when ``BUNCO_SKIP_KERNEL_COMPILE``
is set; if it fails it only warns, and the first run compiles (saying so).
"""

from __future__ import annotations

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
from bunco.analysis.kernel.install import compile_environment


class BuildWithKernel(build_py):
    """``build_py``, then the night kernel compiled into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("BUNCO_SKIP_KERNEL_COMPILE"):
            return
        # pip's isolated build finds Numba through PYTHONPATH: keep it (compile_environment)
        env = compile_environment(os.path.abspath(self.build_lib), os.environ)
        done = subprocess.run(
            [sys.executable, "-m", "bunco.analysis.kernel.compile"], env=env, check=False
        )
        if done.returncode != 0:
            self.warn("the night kernel was not compiled: the first simulation will compile it")


setup(cmdclass={"build_py": BuildWithKernel})
