"""How the ``bunco`` command line speaks: its help pages and its usage errors.

- Help texts are reflowed to the terminal (no line breaks from the source), values show
  plain metavars (``FILE``, ``N``) and switches such as ``--json`` none, the same short
  flag stands for the same concept everywhere (:mod:`bunco.cli.help_pages`), and every
  command's help ends with examples (:data:`EXAMPLES`).
- A usage error (an unknown option, a missing value, a value of the wrong type) is
  printed like every other refusal of the program: ``error:`` and ``expected:`` on
  stderr, exit code 2 — never the framework's boxed message.
- Each command's module is imported only when that command runs (:data:`COMMANDS`):
  ``bunco rules`` never imports the modules of ``play``, ``serve`` or ``odds``, and
  ``bunco --help`` lists every command from :data:`COMMANDS`' one-line summaries
  without importing any of them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

from bunco.cli.coerce import use_plain_coercion, use_plain_coercion_in
from bunco.cli.help_pages import plain_params, polish, print_examples
from bunco.core.errors import did_you_mean, nearest

#: Every command, in the order ``bunco --help`` lists them: the module that registers it
#: on :data:`bunco.cli.app.app` and the first paragraph of its help (the line of the
#: list; a test keeps it equal to the command's own help).
COMMANDS: dict[str, tuple[str, str]] = {
    "rules": (
        "rules_cmd",
        "Show the presets, or every rule value of one preset (with house rules applied).",
    ),
    "score": (
        "rules_cmd",
        "Score one roll: points, kind, whether the turn goes on and whether the round ends.",
    ),
    "odds": (
        "odds_cmd",
        "Exact odds: per roll, per turn, and per round at a head table of "
        "four; with --set, the odds of a whole set for every player and table.",
    ),
    "play": (
        "play_cmd",
        "Play a night of Bunco: alone against bots, passing the keyboard, or scoring real dice.",
    ),
    "replay": (
        "replay_cmd",
        "Read a party log and print the night: rounds, score cards, sheets, prizes and next seats.",
    ),
    "demo": (
        "demo_cmd",
        "Write a sample night to read, print and export: eight players, "
        "classic rules, prize money.",
    ),
    "serve": ("serve_cmd", "Run a Bunco night server: the API, the database and the live updates."),
    "sheets": (
        "sheets_cmd",
        "Print-ready score cards, tallies, master sheet, table signs, "
        "round cards and house-rules card (and name tags with --name-tags).",
    ),
    "report": (
        "sheets_cmd",
        "The night report: standings, prize winners, every round's tables and charts.",
    ),
    "export": (
        "sheets_cmd",
        "The standings as CSV, one row a player: rank, player, wins, "
        "losses, buncos, mini_buncos, points, prizes_won, group (the CSV's header "
        "row).",
    ),
    "simulate": (
        "simulate_cmd",
        "Simulate whole nights (seating, moving, ties, prizes): figures with standard errors.",
    ),
    "club": ("club_cmd", "A club's season: roster, nights, dues, standings."),
    "backup": (
        "backup_cmd",
        "Copy the server's database while it runs (or check a copy with --verify).",
    ),
    "restore": (
        "backup_cmd",
        "Bring a backup back into an empty database (or, with --replace, any).",
    ),
    "delete": (
        "delete_cmd",
        "Delete a night, a club, or a club member's name, email and address.",
    ),
    "prune": ("delete_cmd", "Delete the nights nobody has used for a while, for a public server."),
}

#: Examples shown at the end of each command's help (``bunco COMMAND --help``).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "rules": ("bunco rules", "bunco rules wm", "bunco rules classic --house wipeout=true --json"),
    "score": ("bunco score --rules wm --round 4 2 2 2", "bunco score -r classic -R 3 3 3 3 --json"),
    "odds": ("bunco odds --rules classic --round 3", "bunco odds -r scil --plot odds.png"),
    "play": (
        "bunco play --players 4 --human Ann",
        "bunco play --physical --players Ann,Bea,Cat,Dee",
        "bunco play --auto --players 12 --rules tournament --seed 1 --json",
        "bunco play --resume ~/.local/share/bunco/nights/bunco-night-20261124-200509.jsonl",
    ),
    "replay": ("bunco replay night.jsonl", "bunco replay night.jsonl --json"),
    "demo": ("bunco demo", "bunco demo sample.jsonl --force"),
    "serve": ("bunco serve", "bunco serve --host 0.0.0.0 --port 8000"),
    "sheets": (
        "bunco sheets --rules wm --players 12 --out sheets.pdf",
        "bunco sheets --from night.jsonl --out filled.pdf",
    ),
    "report": ("bunco report night.jsonl --out report.html --out report.pdf",),
    "export": (
        "bunco export night.jsonl",
        "bunco export night.jsonl --out standings.csv",
        "bunco export night.jsonl --payouts --out payouts.csv",
    ),
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
    "backup": (
        "bunco backup --db postgresql+psycopg://bunco:PASSWORD@127.0.0.1/bunco "
        "--out bunco-2026-11-24.bunco-backup",
        "bunco backup --db bunco.sqlite3 --out copy.sqlite3",
        "bunco backup --verify bunco-2026-11-24.bunco-backup",
    ),
    "restore": (
        "bunco restore bunco-2026-11-24.bunco-backup "
        "--db postgresql+psycopg://bunco:PASSWORD@127.0.0.1/bunco",
        "bunco restore copy.sqlite3 --db new.sqlite3",
    ),
    "delete": (
        "bunco delete night Xy7kQ2mP9a",
        'bunco delete club "Tuesday Club" --nights --yes',
        'bunco delete member "Tuesday Club" Ann',
    ),
    "prune": (
        "bunco prune --older-than 180d --dry-run",
        "bunco prune --older-than 180d --yes --db postgresql+psycopg://bunco:PASSWORD@127.0.0.1/bunco",
    ),
}


#: Examples at the end of ``bunco --help``.
TOP_EXAMPLES = ("bunco rules wm", "bunco play", "bunco serve", "bunco play --help")


def examples_of(name: str | None) -> tuple[str, ...]:
    """The examples of command ``name`` (None: of ``bunco`` itself; none for a
    subcommand such as ``club create``), printed at the end of its help page."""
    return TOP_EXAMPLES if name is None else EXAMPLES.get(name, ())


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


def load_command(name: str) -> Any:
    """The click command of ``bunco NAME``, its module imported now (None: no such command).

    >>> load_command("score").name
    'score'
    """
    app = BuncoGroup.typer_app
    if name not in COMMANDS or app is None:
        return None
    importlib.import_module(f"bunco.cli.{COMMANDS[name][0]}")
    short, markup = app.pretty_exceptions_short, app.rich_markup_mode
    for info in app.registered_commands:
        if info.name == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=short, rich_markup_mode=markup
            )
    group = next(g for g in app.registered_groups if g.name == name)
    return typer.main.get_group_from_info(
        group,
        pretty_exceptions_short=short,
        rich_markup_mode=markup,
        suggest_commands=app.suggest_commands,
    )


def _summary(name: str) -> Any:
    """A stand-in for ``bunco --help``'s list of commands: the name and its line."""
    return typer.core.TyperCommand(name, help=COMMANDS[name][1])


class BuncoGroup(TyperGroup):
    """The ``bunco`` group: reflowed help with examples, usage errors in our style, and
    each command's module imported only when that command is run or asked for help."""

    _listing = False  # True while the help lists the commands: summaries do
    #: The Typer application the commands register on (set by :mod:`bunco.cli.app`).
    typer_app: Any = None

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in COMMANDS:
            if self._listing:
                return _summary(cmd_name)
            command = self.commands[cmd_name] = load_command(cmd_name)
        if command is not None:
            use_plain_coercion_in(command, ctx)
            polish(command, examples_of, cmd_name)
        return command

    def get_params(self, ctx: Any) -> Any:
        params = super().get_params(ctx)
        use_plain_coercion(params)
        return params

    def format_help(self, ctx: Any, formatter: Any) -> None:
        plain_params(self, ctx)
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
        print_examples(examples_of(None))

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
