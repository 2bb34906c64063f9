"""The compiled night kernel as a run calls it, with Numba imported only then.

Importing Numba takes 0.3 to 0.5 CPU seconds, more than a short run plays. What reads
the kernel's fields — building a party's inputs, the exact odds of
``bunco odds --set`` (:mod:`bunco.analysis.set_seats` reads the kernel's movement
lookup), the engine's dice — imports :mod:`bunco.analysis.kernel.layout` and this
module, neither of which imports Numba; the compiled functions are imported (and loaded
from Numba's cache, or compiled there, saying so: :mod:`bunco.analysis.kernel.compile`)
when a run first plays. ``bunco odds --set`` hands that to the process that plays its
nights (:func:`bunco.analysis.set_odds.set_odds`), so that the import overlaps the exact
figures composed meanwhile.

>>> import sys
>>> "numba" in sys.modules or "bunco.analysis.kernel.night" not in sys.modules
True
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def ensure_ready(tick: Callable[[float], None] | None = None) -> float:
    """Load the kernel from Numba's cache, or compile it there while ``tick`` hears the
    seconds spent (:func:`bunco.analysis.kernel.compile.ensure_compiled`); the seconds it
    took."""
    from bunco.analysis.kernel.compile import ensure_compiled

    return ensure_compiled(tick)


def run_nights(*arrays: np.ndarray) -> int:
    """:func:`bunco.analysis.kernel.night.run_nights` on its arrays: how many nights were
    played to the end."""
    from bunco.analysis.kernel.night import run_nights as compiled

    return int(compiled(*arrays))


def fill_codes(state: np.ndarray, out: np.ndarray) -> None:
    """:func:`bunco.analysis.kernel.dice.fill_codes`: the generator's next codes into ``out``."""
    from bunco.analysis.kernel.dice import fill_codes as compiled

    compiled(state, out)


def seed_state(seed: np.uint64) -> np.ndarray:
    """:func:`bunco.analysis.kernel.dice.seed_state`: a generator state for one night's seed."""
    from bunco.analysis.kernel.dice import seed_state as compiled

    state: np.ndarray = compiled(seed)
    return state
