"""How the ``bunco`` command line speaks: its help pages and its usage errors.

- Help texts are reflowed to the terminal (no line breaks from the source), switches such
  as ``--json`` show no ``<bool>``, and every command's help ends with examples
  (:data:`EXAMPLES`).
- A usage error (an unknown option, a missing value, a value of the wrong type) is
  printed like every other refusal of the program: ``error:`` and ``expected:`` on
  stderr, exit code 2 — never the framework's boxed message.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

from bunco.core.errors import did_you_mean, nearest

#: Examples shown at the end of each command's help (``bunco COMMAND --help``).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "rules": ("bunco rules", "bunco rules wm", "bunco rules classic --house wipeout=true --json"),
    "score": ("bunco score --rules wm --round 4 2 2 2", "bunco score -r classic -R 3 3 3 3 --json"),
    "odds": ("bunco odds --rules classic --round 3", "bunco odds -r scil --plot odds.png"),
    "play": (
        "bunco play --players 4 --human Ann",
        "bunco play --physical --players Ann,Bea,Cat,Dee",
        "bunco play --auto --players 12 --rules tournament --seed 1 --json",
        "bunco play --resume bunco-night-20261124-200509.jsonl",
    ),
    "replay": ("bunco replay night.jsonl", "bunco replay night.jsonl --json"),
    "serve": ("bunco serve", "bunco serve --host 0.0.0.0 --port 8000"),
    "sheets": (
        "bunco sheets --rules wm --players 12 --out sheets.pdf",
        "bunco sheets --from night.jsonl --out filled.pdf",
    ),
    "report": ("bunco report night.jsonl --out report.html --out report.pdf",),
    "export": ("bunco export night.jsonl", "bunco export night.jsonl --out standings.csv",
               "bunco export night.jsonl --payouts --out payouts.csv"),
    "simulate": (
        "bunco simulate --rules scil --players 12 --parties 1000",
        "bunco simulate -r classic -n 8 -k 100000 --json",
    ),
    "club": (
        'bunco club create "Tuesday Club" --dues 5 --regular Ann --regular Bea --sub Zoe',
        'bunco club add-night "Tuesday Club" night.jsonl --date 2026-01-13',
        'bunco club standings "Tuesday Club" --json',
        'bunco club report "Tuesday Club" --out season.pdf',
    ),
}


#: Examples at the end of ``bunco --help``.
TOP_EXAMPLES = ("bunco rules wm", "bunco play", "bunco serve", "bunco play --help")


def examples_text(name: str | None) -> str | None:
    """The examples of command ``name`` (None: of ``bunco`` itself) as a help epilog
    (Markdown: one command a line)."""
    lines = TOP_EXAMPLES if name is None else EXAMPLES.get(name)
    if not lines:
        return None
    return "Examples:\n\n```\n" + "\n".join(lines) + "\n```"


_err = Console(stderr=True, soft_wrap=True, highlight=False)
_USAGE_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError"
)


def _plain(message: str) -> str:
    """The framework's sentence in the program's style: lower case, no final period."""
    message = " ".join(message.split()).rstrip(".")
    if message[1:2].isupper():  # an abbreviation such as TCP stays as it is
        return message
    return message[:1].lower() + message[1:]


def _usage_failed(exc: Any) -> NoReturn:
    """Print a usage error as ``error:`` / ``expected:`` and exit with code 2."""
    ctx = getattr(exc, "ctx", None)
    path = ctx.command_path if ctx is not None else "bunco"
    param = getattr(exc, "param", None)
    kind = type(exc).__name__
    message = _plain(exc.format_message())
    if kind == "NoSuchOption" and ctx is not None:
        options = {o.lstrip("-"): o for p in ctx.command.params for o in p.opts if o[:2] == "--"}
        close = nearest(exc.option_name.lstrip("-"), options)
        message = f"no such option: {exc.option_name}" + (
            f"; did you mean {options[close]!r}?" if close else ""
        )
        expected = f"an option that `{path} --help` lists"
    elif param is not None:
        if getattr(param, "param_type_name", "") == "argument":
            opts = param.metavar or (param.name or "the value").upper()
        else:
            opts = " / ".join(getattr(param, "opts", ()) or [param.name or "the value"])
        text = getattr(param, "help", None)
        expected = f"{opts}: {_plain(text)}" if text else f"what `{path} --help` says"
    elif message.startswith("no such command") and ctx is not None:
        name = message.split("'")[1] if "'" in message else ""
        message = f"no such command {name!r}" + did_you_mean(name, ctx.command.list_commands(ctx))
        expected = f"a command that `{path} --help` lists"
    else:
        expected = f"what `{path} --help` says"
    _err.print(f"[bold red]error:[/] {message}")
    _err.print(f"[yellow]expected:[/] {expected}")
    sys.exit(2)


def _hide_switch_types(command: Any, ctx: Any) -> None:
    """Switches (``--json``, ``--help``) take no value: their help shows no ``<bool>``."""
    for param in command.get_params(ctx):
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


class BuncoGroup(TyperGroup):
    """The ``bunco`` group: reflowed help with examples, and usage errors in our style."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            if ctx is not None:
                _hide_switch_types(command, ctx)
            if command.epilog is None:
                command.epilog = examples_text(cmd_name)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _hide_switch_types(self, ctx)
        if self.epilog is None:
            self.epilog = examples_text(None)
        super().format_help(ctx, formatter)

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except _USAGE_ERROR as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `bunco` alone: the help, shown
                sys.exit(0)
            _usage_failed(exc)
        except typer.Abort:
            _err.print("Aborted.")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
