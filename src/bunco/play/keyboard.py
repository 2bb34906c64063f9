"""The keyboard of ``bunco play``: one line per prompt, never a key pressed too early.

While bots roll, the program prints and waits; a person may press Enter meanwhile. On a
terminal that keystroke is thrown away before the next prompt (``termios.tcflush``), so
it never becomes the next roll. Off a terminal (a pipe, a script) every line counts.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from rich.console import Console


def flush_pending_input(stream: TextIO | None = None) -> bool:
    """Discard what was typed but not yet read, when ``stream`` (stdin) is a terminal.

    Returns whether anything could be flushed (False off a terminal or without termios).

    >>> import io
    >>> flush_pending_input(io.StringIO("typed ahead\\n"))
    False
    """
    stream = sys.stdin if stream is None else stream
    try:
        if not stream.isatty():
            return False
        import termios  # POSIX only

        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        return False
    return True


def terminal_reader(console: Console) -> Callable[[str], str]:
    """A ``read_line(prompt)`` that flushes keys pressed before the prompt, then reads a line."""

    def read_line(prompt: str) -> str:
        flush_pending_input()
        return console.input(prompt)

    return read_line
