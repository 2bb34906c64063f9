"""Work handed to another process while this one goes on: ``bunco odds --set`` plays its
kernel nights there while it composes the exact figures here, so on two cores the two
halves overlap.

Only where processes fork (Linux) and there is more than one core: a forked child
inherits the compiled kernel and the party's inputs already loaded in the parent (they
are loaded first), where a spawned one would import and load everything again, which
takes longer than the overlap saves. Elsewhere the work is done at once, here.

>>> result = in_background(sum, [1, 2, 3])
>>> result()
6
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

R = TypeVar("R")


def can_fork() -> bool:
    """Whether work can go to a forked process on another core."""
    return (os.cpu_count() or 1) > 1 and "fork" in multiprocessing.get_all_start_methods()


def in_background(fn: Callable[..., R], *args: Any) -> Callable[[], R]:
    """Start ``fn(*args)`` in a forked process (:func:`can_fork`; else call it now) and
    return a function that waits for its result (and raises what it raised)."""
    if not can_fork():
        value = fn(*args)
        return lambda: value
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
    future = pool.submit(fn, *args)

    def result() -> R:
        try:
            return future.result()
        finally:
            pool.shutdown()

    return result
