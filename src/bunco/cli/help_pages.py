"""Help pages in plain words, and one short flag per concept, for every ``bunco`` command.

Applied by :class:`bunco.cli.group.BuncoGroup` to each command when it is loaded (its
subcommands too, as ``bunco club create``), so that no command has to repeat it:

- every value shows a plain metavar — ``FILE``, ``NAME``, ``PORT``, ``N`` — never the
  framework's types (``<list[Path]>``, ``<int range> [0<=x<=65535]``), and switches
  (``--json``, ``--help``) show none; a metavar a command gives itself is kept;
- arguments read ``FILE`` (``[FILE]`` when optional) on the usage line, not ``{FILE}``;
- the examples end the page with no blank lines after them;
- :data:`SHORT_FLAGS`: an option that takes one of these concepts gets its short flag
  wherever it is (``bunco club create X -r classic`` as ``bunco play -r classic``).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, get_args, get_origin

from rich.console import Console
from rich.text import Text

#: The short flag of each concept, on every command that has the long option.
SHORT_FLAGS: dict[str, str] = {
    "--rules": "-r",
    "--players": "-n",
    "--house": "-H",
    "--round": "-R",
    "--out": "-o",
}

#: Metavars of options whose name alone would not say what to type.
METAVARS: dict[str, str] = {
    "--rules": "PRESET",
    "--host": "ADDRESS",
    "--port": "PORT",
    "--db": "URL|FILE",
    "--bot-pace": "SECONDS",
    "--create-secret": "TOKEN",
    "--trusted-proxy": "ADDRESS",
    "--log-level": "LEVEL",
    "--public-url": "URL",
    "--qr": "URL",
    "--paper": "SIZE",
    "--dues": "AMOUNT",
    "--currency": "SIGN",
    "--regular": "NAME",
    "--sub": "NAME",
    "--season": "NAME",
    "--payout": "PRIZE=AMOUNT",
    "--note": "TEXT",
    "--date": "YYYY-MM-DD",
}


def metavar_for(opts: Sequence[str], name: str | None, annotation: Any) -> str:
    """The plain metavar of a value: from :data:`METAVARS`, else from its type (a path
    ``FILE``, a number ``N``), else its name in capitals.

    >>> metavar_for(["--port"], "port", int), metavar_for(["--plot"], "plot", Path)
    ('PORT', 'FILE')
    >>> metavar_for(["--nights"], "nights", int), metavar_for(["--title"], "title", str)
    ('N', 'TITLE')
    """
    for opt in opts:
        if opt in METAVARS:
            return METAVARS[opt]
    item = get_args(annotation)[0] if get_origin(annotation) is list else annotation
    if isinstance(item, type) and issubclass(item, Path):
        return "FILE"
    if item in (int, float):
        return "N"
    return (name or "value").upper().replace("-", "_")


def _usage_name(param: Any) -> Callable[[], str]:
    def usage_display_name() -> str:
        name = str(param.metavar)
        name = name if param.required else f"[{name}]"
        return name + ("..." if param.nargs != 1 else "")

    return usage_display_name


def plain_params(command: Any, ctx: Any) -> None:
    """Plain metavars on ``command``'s parameters (its ``--help`` switch included)."""
    params = command.get_params(ctx) if ctx is not None else command.params
    for param in params:
        annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
        if getattr(param, "is_flag", False):
            if param.metavar is None:
                param.metavar = ""  # a switch takes no value
            continue
        if param.param_type_name == "argument":
            if param.metavar is None:
                param.metavar = metavar_for((), param.name, annotation)
            param.display_type_rich = types.MethodType(lambda self, ctx: None, param)
            param._usage_display_name = _usage_name(param)
            continue
        if param.metavar is None:
            param.metavar = metavar_for(param.opts, param.name, annotation)
        # the bounds are told by the help text and by the refusal of a value beyond them
        param._get_number_range_help_str = lambda: None


def add_short_flags(command: Any) -> None:
    """Give the options of ``command`` (and of its subcommands) the short flag of their
    concept (:data:`SHORT_FLAGS`), unless another option of the command has it."""
    taken = {opt for p in command.params for opt in getattr(p, "opts", ())}
    for param in command.params:
        for long, short in SHORT_FLAGS.items():
            if long in getattr(param, "opts", ()) and short not in taken:
                param.opts.append(short)
                taken.add(short)
    for sub in getattr(command, "commands", {}).values():
        add_short_flags(sub)


def print_examples(lines: Sequence[str]) -> None:
    """The examples at the end of a help page: a heading, one command a line, whole
    (never wrapped), and nothing after them."""
    if not lines:
        return
    out = Console(soft_wrap=True, highlight=False)
    out.print()
    out.print(Text(" Examples:", style="bold"))
    for line in lines:
        out.print(Text("   " + line))


def polish(command: Any, examples: Callable[[str], Sequence[str]], name: str) -> None:
    """Plain help on ``command`` and its subcommands: metavars when the page is drawn,
    then the examples of ``examples(name)`` after it."""
    if getattr(command, "_bunco_polished", False):
        return
    command._bunco_polished = True
    add_short_flags(command)
    original = command.format_help

    def format_help(ctx: Any, formatter: Any) -> None:
        plain_params(command, ctx)
        lines = examples(name)
        original(ctx, formatter)
        print_examples(lines)

    command.format_help = format_help
    for sub_name, sub in getattr(command, "commands", {}).items():
        polish(sub, examples, f"{name} {sub_name}")
