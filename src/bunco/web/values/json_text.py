"""JSON read from a query string or a socket message, with its nesting bounded.

Python's JSON decoder recurses once per level of nesting, so ``[[[[…`` a few thousand
levels deep raises :class:`RecursionError` (not a :class:`ValueError`), which a route
would answer with a 500. :func:`loads_shallow` measures the nesting first, in one pass
that skips the text of strings, and refuses anything deeper than :data:`MAX_DEPTH` with
:class:`TooDeep` (a :class:`ValueError`, so callers that refuse bad JSON refuse it too).

>>> loads_shallow('{"wipeout": true, "prizes": [["Most Buncos", 1]]}')
{'wipeout': True, 'prizes': [['Most Buncos', 1]]}
>>> loads_shallow('{"text": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')  # inside a string
{'text': '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['}
>>> loads_shallow("[" * 10_000)
Traceback (most recent call last):
  ...
bunco.web.values.json_text.TooDeep: JSON nested more than 32 levels deep
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
"""The deepest nesting accepted (house rules and socket messages need 3)."""


class TooDeep(ValueError):
    """The JSON text nests arrays and objects deeper than allowed."""


def nesting(text: str, limit: int = MAX_DEPTH) -> int:
    """How deep ``text`` nests arrays and objects, counting no further than ``limit + 1``
    (brackets inside strings do not count).

    >>> nesting('[1, {"a": [2]}]'), nesting('"[[["'), nesting("[" * 99, limit=5)
    (3, 0, 6)
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


def loads_shallow(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refusing (:class:`TooDeep`) nesting deeper than ``max_depth``
    before the decoder sees it; invalid JSON raises :class:`ValueError` as usual."""
    if nesting(text, max_depth) > max_depth:
        raise TooDeep(f"JSON nested more than {max_depth} levels deep")
    return json.loads(text)
