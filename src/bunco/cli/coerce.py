"""Command-line values converted without importing pydantic when nothing can go wrong.

Typer converts every option's value (``"4"`` for ``--round 4``) through a pydantic
``TypeAdapter``, and importing pydantic and building the adapters takes longer than
everything else ``bunco rules`` or ``bunco score`` does (about 0.1 s). For the plain
types the ``bunco`` commands use (``str``, ``int``, ``float``, ``bool`` and lists of
them, with or without a ``min``/``max``), :func:`plain_value` converts a value that is
clearly valid — a string of digits for an ``int`` inside its bounds — exactly as the
adapter would. Anything else (a bad value, a path, a bound crossed, a type we do not know)
goes to Typer's own adapter, so its result and its error message are Typer's, unchanged.
A test compares both on generated values.

>>> plain_value(int, "12", None, None), plain_value(list[str], ("a", "b"), None, None)
(12, ['a', 'b'])
>>> plain_value(int, "12x", None, None) is UNSURE
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any, get_args, get_origin

#: Returned by :func:`plain_value` when Typer's adapter must decide.
UNSURE: Any = object()

_INT = re.compile(r"-?[0-9]{1,18}")
_FLOAT = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?")


def _within(number: float, low: float | None, high: float | None) -> bool:
    return (low is None or number >= low) and (high is None or number <= high)


def plain_value(annotation: Any, value: Any, low: float | None, high: float | None) -> Any:
    """``value`` converted to ``annotation`` (bounds ``low``/``high`` for numbers), or
    :data:`UNSURE` when only Typer's adapter may say."""
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        if not isinstance(value, (list, tuple)):
            return UNSURE
        items = [plain_value(item, v, low, high) for v in value]
        return UNSURE if any(v is UNSURE for v in items) else items
    if annotation is str:
        return value if type(value) is str else UNSURE
    if annotation is bool:
        return value if type(value) is bool else UNSURE
    if annotation is int:
        if type(value) is str and _INT.fullmatch(value):
            value = int(value)
        return value if type(value) is int and _within(value, low, high) else UNSURE
    if annotation is float:
        if (type(value) is str and _FLOAT.fullmatch(value)) or type(value) is int:
            value = float(value)
        finite = type(value) is float and math.isfinite(value)
        return value if finite and _within(value, low, high) else UNSURE
    return UNSURE


class PlainCoercion:
    """Stands in for Typer's converter of one parameter: :func:`plain_value` first, then
    (only when it is unsure) the converter Typer builds for the parameter."""

    def __init__(self, param: Any) -> None:
        info = param.type_descriptor.parameter_info
        self.annotation = param.type_descriptor.annotation
        self.low, self.high = info.min, info.max

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multiple = param.multiple or param.nargs == -1
        if value is None:
            return () if multiple else None
        if not (multiple and isinstance(value, str)):
            plain = plain_value(self.annotation, value, self.low, self.high)
            if plain is not UNSURE:
                return plain
        plain_refusal(self.annotation, value, self.low, self.high, param, ctx)
        param._runtime_param = None  # Typer builds its own converter, used this once
        try:
            return param.get_runtime_param().coerce(value, param=param, ctx=ctx)
        finally:
            param._runtime_param = self


def _number_words(annotation: Any) -> str | None:
    item = get_args(annotation)[0] if get_origin(annotation) is list else annotation
    return {int: "a whole number", float: "a number"}.get(item)


def plain_refusal(
    annotation: Any, value: Any, low: float | None, high: float | None, param: Any, ctx: Any
) -> None:
    """Refuse a bad number in the program's own words (not the framework's): raises
    Click's ``BadParameter`` (printed as ``error:``/``expected:``) when ``value`` is not
    a number of ``annotation``'s kind or crosses a bound; returns for anything else.

    >>> import typer
    >>> try:
    ...     plain_refusal(int, "four", 1, 6, None, None)
    ... except typer.BadParameter as exc:
    ...     print(exc.message)
    'four' is not a whole number
    """
    import typer

    words = _number_words(annotation)
    if words is None:
        return
    for item in value if isinstance(value, (list, tuple)) else [value]:
        try:  # what Python reads as a number, the framework takes too ("5.0", "1e3")
            number = float(item)
        except (TypeError, ValueError):
            raise typer.BadParameter(f"{item!r} is not {words}", ctx=ctx, param=param) from None
        if words == "a whole number" and not number.is_integer():
            raise typer.BadParameter(f"{item!r} is not {words}", ctx=ctx, param=param)
        if low is not None and number < low:
            raise typer.BadParameter(f"{item} is below {low:g}, the lowest", ctx=ctx, param=param)
        if high is not None and number > high:
            raise typer.BadParameter(f"{item} is above {high:g}, the highest", ctx=ctx, param=param)


#: The annotations :func:`plain_value` knows.
PLAIN_TYPES: tuple[Any, ...] = (str, bool, int, float, list[str], list[int], list[float])


def _plain_enough(param: Any) -> bool:
    info = param.type_descriptor.parameter_info
    return (
        param.type_descriptor.annotation in PLAIN_TYPES
        and param.type_descriptor.file_annotation is None
        and getattr(info, "parser", None) is None
        and getattr(info, "click_type", None) is None
        and not getattr(info, "clamp", False)
    )


def use_plain_coercion(params: Iterable[Any]) -> None:
    """Give each plain parameter of ``params`` a :class:`PlainCoercion`. Parameters Typer
    does not build as we expect are left alone: they are then converted by Typer as
    before, only slower to start."""
    for param in params:
        if (
            getattr(param, "_runtime_param", "absent") is None
            and hasattr(param, "type_descriptor")
            and _plain_enough(param)
        ):
            param._runtime_param = PlainCoercion(param)


def use_plain_coercion_in(command: Any, ctx: Any) -> None:
    """:func:`use_plain_coercion` for ``command``'s parameters (its ``--help`` switch too
    when ``ctx``, the context of its parent, has the same help option names) and its
    subcommands'."""
    same_help = ctx is not None and not command.context_settings
    use_plain_coercion(command.get_params(ctx) if same_help else command.params)
    for sub in getattr(command, "commands", {}).values():
        use_plain_coercion_in(sub, None)
