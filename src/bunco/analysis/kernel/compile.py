"""Compiling the night kernel ahead of its first use, and saying so while it compiles.

The kernel is compiled by Numba into its on-disk cache (``__pycache__`` beside the
kernel's modules, or ``NUMBA_CACHE_DIR``). Compiling it takes about a minute on two
cores; loading it from the cache a fraction of a second. So the installation compiles
it once (``make`` runs ``python -m bunco.analysis.kernel.compile``), and
:func:`ensure_compiled` — called before any night is played — loads it, or compiles it
while calling back with the seconds spent, so the command line can show that it is
compiling instead of saying nothing for a minute.

There is one specialisation of each compiled function: :data:`SIGNATURES` lists the
argument types every caller passes (C-contiguous arrays), and only those are compiled.
Importing this module imports Numba but compiles nothing.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from numba import types

from bunco.analysis.kernel import dice
from bunco.analysis.kernel.night import run_nights


def _array(dtype: Any, ndim: int) -> Any:
    return types.Array(dtype, ndim, "C")


_I8, _I32, _I64, _U8, _U64, _F64 = (
    types.int8,
    types.int32,
    types.int64,
    types.uint8,
    types.uint64,
    types.float64,
)

RUN_NIGHTS_ARGS: tuple[Any, ...] = (
    _array(_I64, 1),
    _array(_I32, 3),
    _array(_I32, 2),
    _array(_I32, 3),  # cfg tab layout move
    _array(_I64, 1),
    _array(_U64, 1),
    _array(_U8, 1),  # prizes seeds codes
    _array(_F64, 2),
    _array(_U8, 2),
    _array(_I32, 4),
    _array(_I32, 3),  # figures ties rounds cards
    _array(_I32, 3),
    _array(_I64, 3),
    _array(_I64, 3),
    _array(_I64, 2),  # set_buncos sets prizes misc
    _array(_I32, 2),  # log
    # the working arrays of layout.state_shapes: st card scratch acc g rs wk memo
    _array(_I32, 2),
    _array(_I32, 2),
    _array(_I32, 1),
    _array(_I64, 1),
    _array(_I64, 1),
    _array(_U64, 1),
    _array(_I64, 2),
    _array(_I8, 3),
)
"""The argument types of :func:`bunco.analysis.kernel.night.run_nights` (a test checks
them against what :mod:`bunco.analysis.night_kernel` passes)."""

SIGNATURES: tuple[tuple[Any, tuple[Any, ...]], ...] = (
    (run_nights, RUN_NIGHTS_ARGS),
    (dice.fill_codes, (_array(_U64, 1), _array(_U8, 1))),
    (dice.seed_state, (_U64,)),
    (dice.night_seeds, (_U64, _I64, _I64)),
)
"""Every cached compiled function of the kernel, with the one specialisation it needs."""

NOTICE_AFTER = 5.0
"""Seconds a load may take before :func:`ensure_compiled` starts calling back when the
cache cannot say whether it holds the kernel: loading it takes less, compiling far more."""


_READY: list[object] = []
"""The :data:`SIGNATURES` whose functions :func:`ensure_compiled` found all in the cache,
having loaded what runs call (those that use Numba's runtime load when first called)."""


def is_ready() -> bool:
    """Whether every function of :data:`SIGNATURES` is compiled (or loaded) in this process,
    or in the cache with what runs call loaded."""
    return any(ready is SIGNATURES for ready in _READY) or all(
        args in fn.overloads for fn, args in SIGNATURES
    )


def uses_runtime(fn: Any) -> bool:
    """Whether ``fn`` is compiled with Numba's runtime (reference counting: it allocates
    arrays); loading it needs Numba's whole set-up (:func:`fast_load`)."""
    return getattr(fn, "targetoptions", {}).get("_nrt", True) is not False


def in_cache(fn: Any, args: tuple[Any, ...]) -> bool | None:
    """Whether Numba's cache holds ``fn`` compiled for ``args`` for this machine and
    these sources (None when the cache cannot say: Numba's cache index is read through
    its internals, which a later Numba may change)."""
    try:
        cache = fn._cache
        key = cache._index_key(args, fn.targetctx.codegen())
        return bool(key in cache._cache_file._load_index())
    except Exception:  # any change in Numba's internals means "cannot say"
        return None


def fast_load(fn: Any, args: tuple[Any, ...]) -> bool:
    """Load ``fn`` compiled for ``args`` from Numba's cache without first setting up
    Numba's whole typing and target context (what ``fn.compile`` does before it looks in
    the cache: importing and registering some 250 modules of NumPy and Python support,
    0.3 to 0.5 CPU seconds, against a few milliseconds to load the kernel). The cached
    machine code needs none of it (but for the functions that use Numba's runtime,
    :func:`uses_runtime`, which this does not load); a call with other argument types
    would compile, and that sets the context up then. False (nothing loaded) when Numba's
    internals do not allow it: the caller then compiles or loads the usual way."""
    if uses_runtime(fn):
        return False
    try:
        result = fn._cache._load_overload(args, fn.targetctx)
        if result is None:
            return False
        fn.add_overload(result)
    except Exception:  # a later Numba's internals: load the usual way
        return False
    return args in fn.overloads


def needs_compiling() -> bool | None:
    """Whether :func:`ensure_compiled` will compile (True), only load (False), or cannot
    tell (None)."""
    missing = [in_cache(fn, args) for fn, args in SIGNATURES if args not in fn.overloads]
    if any(m is None for m in missing):
        return None
    return not all(missing)


def ensure_compiled(tick: Callable[[float], None] | None = None, every: float = 0.5) -> float:
    """Load the kernel from Numba's cache, or compile it there; return the seconds it took.

    While it compiles, ``tick`` is called every ``every`` seconds with the seconds spent
    so far, from another thread (when the cache cannot say whether it holds the kernel:
    once it has taken :data:`NOTICE_AFTER` seconds, longer than a load).
    """
    start = time.perf_counter()
    if is_ready():
        return 0.0
    compiling = needs_compiling()
    done = threading.Event()

    def watch() -> None:
        if compiling is False or (compiling is None and done.wait(NOTICE_AFTER)):
            return
        while not done.is_set():
            if tick is not None:
                tick(time.perf_counter() - start)
            done.wait(every)

    watcher = threading.Thread(target=watch, name="kernel-compile-notice", daemon=True)
    watcher.start()
    try:
        for fn, args in SIGNATURES:
            if args in fn.overloads:
                continue
            if compiling is False and (uses_runtime(fn) or fast_load(fn, args)):
                continue  # in the cache: loaded now, or (with the runtime) when called
            fn.compile(args)  # loads from the cache when it holds this specialisation
        _READY[:] = [SIGNATURES] if compiling is False else []
    finally:
        done.set()
        watcher.join()
    return time.perf_counter() - start


def main() -> int:
    """Compile the kernel into the cache (``python -m bunco.analysis.kernel.compile``)."""
    print(
        "compiling the simulator's night kernel into Numba's cache (about a minute on two "
        "cores, once per installation)...",
        file=sys.stderr,
        flush=True,
    )
    last = [0.0]

    def tick(elapsed: float) -> None:
        if elapsed - last[0] >= 10:
            last[0] = elapsed
            print(f"  still compiling: {elapsed:.0f} s", file=sys.stderr, flush=True)

    seconds = ensure_compiled(tick)
    print(f"night kernel ready ({seconds:.1f} s)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
