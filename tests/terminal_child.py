"""Ctrl-C for a program the tests drive in a pseudo-terminal (``pexpect``): the signal is
sent to the program's own process, and a program that does not stop says why not."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pexpect


def as_in_a_shell() -> None:
    """In the child, before the program starts (``preexec_fn``): Ctrl-C delivered and acted
    on by default, as a shell starts a program. The test worker may have inherited SIGINT
    ignored or blocked (a background job, a library that blocks it in a thread), and both
    would pass to the child: its Ctrl-C would then never stop it."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signal_state(pid: int) -> str:
    """What ``pid``'s process does with signals and where it waits (Linux's ``/proc``), for
    a failure's message; empty where ``/proc`` is not there.

    >>> "SigCgt" in signal_state(os.getpid()) or not Path("/proc/self/status").exists()
    True
    """
    proc = Path(f"/proc/{pid}")
    try:
        status = (proc / "status").read_text(encoding="ascii").splitlines()
        waits = (proc / "wchan").read_text(encoding="ascii")
    except OSError:
        return ""
    kept = [line for line in status if line.startswith(("State", "Threads", "Sig", "ShdPnd"))]
    return "; ".join([*kept, f"waits in: {waits or '-'}"])


def interrupt(child: Any, timeout: float = 30) -> None:
    """Press Ctrl-C at ``child`` and wait for it to end. SIGINT goes to the child's process
    (what the terminal does for the key), not through the terminal: the tests run in
    groups and sessions of their own, and the key's signal reaching the child is the
    system's part, not the program's."""
    os.kill(child.pid, signal.SIGINT)
    try:
        child.expect(pexpect.EOF, timeout=timeout)
    except pexpect.TIMEOUT:
        raise AssertionError(
            f"the program did not stop {timeout:g} s after Ctrl-C ({signal_state(child.pid)});"
            f" it printed last: {str(child.before)[-300:]!r}"
        ) from None
