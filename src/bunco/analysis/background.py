"""Work handed to another process while this one goes on: ``bunco odds --set`` plays its
kernel nights there while it composes the exact figures here, so on two cores the two
halves overlap.

Only where processes fork (Linux) and there is more than one core: a forked child
inherits what the parent has loaded (the party's inputs; the compiled kernel, or the
child loads it, so that the parent never imports Numba), and gets the function itself,
not a copy sent through a pipe, so it may be any callable. Elsewhere the work is done at
once, here. The result (or the exception) comes back pickled through a pipe.

>>> result = in_background(sum, [1, 2, 3])
>>> result()
6
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections.abc import Callable
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
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child() -> None:
        try:
            outcome: tuple[str, Any] = ("value", fn(*args))
        except BaseException as exc:  # sent to the parent, which raises it
            outcome = ("error", exc)
        try:
            send.send(outcome)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            send.send(("error", RuntimeError(f"the background work's result: {exc}")))

    process = context.Process(target=child, name="bunco-background", daemon=True)
    process.start()
    send.close()

    def result() -> R:
        try:
            kind, value = receive.recv()
        except EOFError:
            process.join()
            raise RuntimeError(
                f"the background work ended without a result (exit code {process.exitcode})"
            ) from None
        finally:
            receive.close()
        process.join()
        if kind == "error":
            raise value
        out: R = value
        return out

    return result
