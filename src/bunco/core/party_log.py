"""Reading and writing party logs (JSON Lines, DESIGN.md).

>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> night.round_no, night.cards["Ann"].buncos
(2, 1)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from bunco.core.errors import BuncoError, InvalidEvent, InvalidSetup, LogError
from bunco.core.events import dump_event
from bunco.core.night import Night


def parse_line(text: str) -> dict[str, Any]:
    """One JSON object from one line; raises :class:`InvalidEvent` when it is not."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidEvent(
            f"not valid JSON ({exc.msg} at column {exc.colno})", expected="one JSON object per line"
        ) from None
    except RecursionError:  # e.g. 100,000 nested [ — no event is that deep
        raise InvalidEvent(
            "JSON nested too deeply to be an event", expected="one flat JSON object per line"
        ) from None
    if not isinstance(value, dict):
        raise InvalidEvent(
            f"a {type(value).__name__} instead of an object", expected="one JSON object per line"
        )
    return value


def decode_lines(data: bytes) -> list[str]:
    """The lines of a party log file's bytes; raises :class:`LogError` at a line not UTF-8.

    >>> decode_lines(b'{"a": 1}\\n{"b": 2}\\n')
    ['{"a": 1}', '{"b": 2}']
    >>> decode_lines(b'{"type": "party"}\\n{"player": "Jos\\xe9"}\\n')
    Traceback (most recent call last):
    ...
    bunco.core.errors.LogError: line 2: not UTF-8 text (byte 0xe9 at column 16); expected \
a party log saved as UTF-8 text (JSON Lines)
    """
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    out = []
    for number, raw in enumerate(lines, start=1):
        try:
            out.append(raw.decode("utf-8").removesuffix("\r"))
        except UnicodeDecodeError as exc:
            cause = InvalidEvent(
                f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
                expected="a party log saved as UTF-8 text (JSON Lines)",
            )
            raise LogError(number, cause) from None
    return out


def read_log(lines: Iterable[str]) -> Night:
    """Fold a whole party log; raises :class:`LogError` at the first line that breaks the rules.

    Blank lines are skipped (they keep their line numbers).
    """
    night: Night | None = None
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = parse_line(text)
            night = Night.start(data) if night is None else night.apply(data)
        except BuncoError as exc:
            raise LogError(number, exc) from None
    if night is None:
        raise LogError(
            1, InvalidSetup("the log is empty", expected='a first line {"type": "party", ...}')
        )
    return night


def write_log(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> str:
    """A party log as text: the set-up line, then one line per event."""
    lines = [dump_event(setup)]
    lines.extend(dump_event(e) for e in events)
    return "\n".join(lines) + "\n"


def night_log(night: Night) -> str:
    """The log of ``night``: its set-up and every accepted event (undo included)."""
    return write_log(night.setup, night.events)
