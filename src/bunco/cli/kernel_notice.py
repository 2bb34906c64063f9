"""Before ``simulate`` or ``odds --set`` plays nights: load the compiled night kernel, and
say so on stderr while it compiles (the first run after an installation that did not
compile it, see :mod:`bunco.analysis.kernel.compile`), instead of a silent minute."""

from __future__ import annotations

from rich.status import Status

from bunco.cli.app import err_console

TYPICAL_SECONDS = 60
"""About how long the kernel compiles on two cores (told to the user while it does)."""


def _words(elapsed: float) -> str:
    return (
        f"compiling the night kernel into Numba's cache, once (about {TYPICAL_SECONDS} s "
        f"on two cores; `make` does it at install): {elapsed:.0f} s"
    )


def ready_kernel() -> float:
    """Load or compile the kernel; while it compiles, a spinner with the seconds spent on a
    terminal, else a line every 10 s. Returns the seconds it took."""
    from bunco.analysis.kernel.loaded import ensure_ready

    status: Status | None = None
    last = [-10.0]

    def tick(elapsed: float) -> None:
        nonlocal status
        if err_console.is_terminal:
            if status is None:
                status = err_console.status(_words(elapsed))
                status.start()
            status.update(_words(elapsed))
        elif elapsed - last[0] >= 10:
            last[0] = elapsed
            err_console.print(_words(elapsed), highlight=False)

    try:
        seconds = ensure_ready(tick)
    finally:
        if status is not None:
            status.stop()
    if status is not None or last[0] >= 0:
        err_console.print(
            f"night kernel compiled in {seconds:.0f} s; later runs load it at once", highlight=False
        )
    return seconds
