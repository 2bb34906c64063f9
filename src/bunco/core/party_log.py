"""Reading and writing party logs (JSON Lines, DESIGN.md).

>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> night.round_no, night.cards["Ann"].buncos
(2, 1)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from bunco.core.errors import BuncoError, InvalidEvent, InvalidSetup, LogError
from bunco.core.events import Event, dump_event
from bunco.core.night import Night
from bunco.core.party_setup import PartySetup

MAX_LINE = 4 * 1024 * 1024
"""The longest line a party log may have, in bytes: a party line of 2,000 players with
their seating, groups and bots takes about half a megabyte (the API takes at most 1 MiB)."""


def _no_constant(name: str) -> Any:
    raise InvalidEvent(f"{name} is not a number", expected="finite JSON numbers")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # made once: a line is read fast


def parse_line(text: str) -> Mapping[str, object]:
    """One JSON object from one line; raises :class:`InvalidEvent` when it is not.

    >>> parse_line('{"seed": NaN}')
    Traceback (most recent call last):
    ...
    bunco.core.errors.InvalidEvent: NaN is not a number; expected finite JSON numbers
    """
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InvalidEvent(
            f"not valid JSON ({exc.msg} at column {exc.colno})", expected="one JSON object per line"
        ) from None
    except InvalidEvent:  # NaN or Infinity
        raise
    except RecursionError:  # e.g. 100,000 nested [ — no event is that deep
        raise InvalidEvent(
            "JSON nested too deeply to be an event", expected="one flat JSON object per line"
        ) from None
    except ValueError:  # an integer of more than 4,300 digits (Python's conversion limit)
        raise InvalidEvent(
            "a number too long to be read (more than 4,300 digits)",
            expected="numbers of the sizes an event holds",
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
    return [_decode(raw, number) for number, raw in enumerate(lines, start=1)]


def _decode(raw: bytes, number: int) -> str:
    try:
        return raw.decode("utf-8").removesuffix("\r")
    except UnicodeDecodeError as exc:
        cause = InvalidEvent(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
            expected="a party log saved as UTF-8 text (JSON Lines)",
        )
        raise LogError(number, cause) from None


def stream_lines(stream: IO[bytes], *, limit: int | None = None) -> Iterator[str]:
    """The lines of a party log read from ``stream`` one at a time (the file is never held
    whole), up to byte ``limit`` if given; raises :class:`LogError` at a line that is not
    UTF-8 or is longer than :data:`MAX_LINE` (which is never read whole).

    >>> import io
    >>> list(stream_lines(io.BytesIO(b'{"a": 1}\\r\\n\\n{"b": 2}')))
    ['{"a": 1}', '', '{"b": 2}']
    """
    number = 0
    left = limit
    while left is None or left > 0:
        want = MAX_LINE + 1 if left is None else min(MAX_LINE + 1, left)
        raw = stream.readline(want)
        if not raw:
            return
        number += 1
        if left is not None:
            left -= len(raw)
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            cause = InvalidEvent(
                f"the line is longer than {MAX_LINE:,} bytes",
                expected="one event a line (an event takes at most a few hundred kilobytes)",
            )
            raise LogError(number, cause)
        yield _decode(raw.removesuffix(b"\n"), number)


def read_log_stream(stream: IO[bytes], *, limit: int | None = None) -> Night:
    """Fold the party log read from ``stream`` (up to byte ``limit``), a line at a time:
    the memory it takes is the night's, not the file's. Raises :class:`LogError`."""
    return read_log(stream_lines(stream, limit=limit))


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


def write_log(setup: PartySetup, events: Iterable[Event]) -> str:
    """A party log as text: the set-up line, then one line per event."""
    lines = [dump_event(setup)]
    lines.extend(dump_event(e) for e in events)
    return "\n".join(lines) + "\n"
