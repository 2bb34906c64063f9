"""The type of a JSON value as :func:`json.loads` reads it, for the store's code that reads
stored bodies whatever they hold (the erasure of a member's name rewrites every string of
every event, whatever its type).

>>> from typing import get_args
>>> len(get_args(JsonObject))
2
"""

from typing import TypeAlias

JsonValue: TypeAlias = "str | int | float | bool | list[JsonValue] | dict[str, JsonValue] | None"
"""Any JSON value: a string, a number, true or false, null, an array or an object."""
JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object (a stored event's body, a night's options, a phone's report)."""
