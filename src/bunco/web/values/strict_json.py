"""What every JSON body is held to before a route reads it: each key once in an object,
every text (keys too) through the one check of texts (:mod:`bunco.core.text`), and
numbers written plainly (no exponent, no ``NaN`` or ``Infinity``).

Python's JSON decoder keeps the last of two equal keys (``{"dice": [2, 3, 5], "dice":
[1, 1, 1]}`` is a Bunco), so a body is decoded here with its objects as lists of pairs,
and walked (without recursion) for keys given twice and texts the checker refuses, each
named by where it is (``players.3``, ``payouts.0.group``), as the 422 of a route's own
validation names its fields.

>>> body_problems(b'{"dice": [2, 3, 5], "dice": [1, 1, 1]}')
[('dice', "the key 'dice' is given twice")]
>>> body_problems('{"name": "A\\u2028B", "players": ["Ann", "\\u200b"]}'.encode())[1]
('players.1', "'\\\\u200b' holds an invisible format character: U+200B ZERO WIDTH SPACE")
>>> body_problems(b'{"pace": 1e3, "seed": NaN, "sets": 2, "bot_pace": 0.5}')
[('pace', 'the number 1e3 is written with an exponent'), ('seed', 'NaN is not a number')]
>>> body_problems(b'{"players": ["Ann", "Bea"]}'), body_problems(b"not json")
([], None)
"""

from __future__ import annotations

import json
from typing import Any

from bunco.core.text import excerpt, text_problem

EXPECTED = (
    "a JSON body that gives each key once and whose texts hold no control, format, bidi or "
    "line-separator character and are not invisible-only (see /docs)"
)


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its key-value pairs, in order (a key may come twice)."""


class _Refused(str):
    """A number written in a way the API does not take: what is wrong with it."""


def _number(text: str) -> float | _Refused:
    if "e" in text or "E" in text:
        return _Refused(f"the number {text[:40]} is written with an exponent")
    return float(text)


def _constant(text: str) -> _Refused:
    return _Refused(f"{text} is not a number")


def _problem(text: str) -> str | None:
    if text.isspace():
        return None  # blank: each field says itself whether it may be (a reason may not)
    problem = text_problem(text)
    if problem is None:
        return None
    return f"{excerpt(text)} {'is' if problem.startswith('nothing') else 'holds'} {problem}"


def body_problems(raw: bytes, limit: int = 20) -> list[tuple[str, str]] | None:
    """Where a JSON body is wrong and how (at most ``limit``), or ``None`` when it is not
    JSON at all (the route says so itself)."""
    try:
        value = json.loads(
            raw, object_pairs_hook=_Pairs, parse_float=_number, parse_constant=_constant
        )
    except (ValueError, RecursionError):
        return None
    found: list[tuple[str, str]] = []
    todo: list[tuple[str, Any]] = [("", value)]
    while todo and len(found) < limit:
        where, item = todo.pop()
        if isinstance(item, _Refused):
            found.append((where or "body", str(item)))
        elif isinstance(item, str):
            problem = _problem(item)
            if problem:
                found.append((where or "body", problem))
        elif isinstance(item, _Pairs):
            seen: set[str] = set()
            for key, inner in item:
                here = f"{where}.{key}" if where else key
                if key in seen:
                    found.append((here, f"the key {key!r} is given twice"))
                seen.add(key)
                problem = _problem(key)
                if problem:
                    found.append((here, f"the key {problem}"))
                todo.append((here, inner))
        elif isinstance(item, list):
            todo.extend((f"{where}.{i}" if where else str(i), v) for i, v in enumerate(item))
    return sorted(found, key=lambda pair: _order(pair[0]))


def _order(where: str) -> list[tuple[int, int | str]]:
    """Paths in the order a reader meets them (``players.2`` before ``players.10``)."""
    return [(0, int(p)) if p.isascii() and p.isdigit() else (1, p) for p in where.split(".")]
