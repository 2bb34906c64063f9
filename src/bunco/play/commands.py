"""What a person types at the ``bunco play`` prompt, parsed into a :class:`PromptCommand`.

Digital dice: Enter (or a space) rolls. Physical dice: the faces (``4 4 1``, ``441``,
``4,4,1``) or a quick tally (``m`` miss, ``1``, ``2``, ``b`` Bunco, ``x`` Mini Bunco, ``l``/``h``
Low/High Bunco, ``w`` wipeout), optionally after a table number (``2: 4 4 1``). Both modes:
``u`` undo, ``t`` tables, ``c`` score cards, ``?`` help, ``q`` quit. Between rounds the
host's words: ``sub Hal Zoe`` (Zoe takes Hal's seat), ``join Ivy``, ``leave Ivy`` and
``end`` (the night ends now, with the rounds played).

>>> parse_command("", physical=False)
PromptCommand(kind='roll', dice=None, outcome=None, table=None, names=())
>>> parse_command("sub Hal Zoe", physical=False).names
('Hal', 'Zoe')
>>> parse_command("4 4 1", physical=True)
PromptCommand(kind='faces', dice=(4, 4, 1), outcome=None, table=None, names=())
>>> parse_command("2: b", physical=True)
PromptCommand(kind='tally', dice=None, outcome='bunco', table=2, names=())
>>> parse_command("q", physical=True).kind
'quit'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from bunco.core.dice import Dice, parse_tally, validate_dice
from bunco.core.errors import BuncoError
from bunco.play.host_words import HOST_HELP, HostWord, parse_host_word

Kind = Literal[
    "roll", "faces", "tally", "undo", "quit", "help", "tables", "cards",
    "end", "substitute", "join", "leave", "host",
]  # fmt: skip

WORDS: dict[str, Kind] = {
    "u": "undo", "undo": "undo",
    "q": "quit", "quit": "quit", "exit": "quit",
    "?": "help", "help": "help",
    "t": "tables", "tables": "tables",
    "c": "cards", "cards": "cards",
    "end": "end",
}  # fmt: skip

#: Words that take player names: ``sub OUT IN``, ``join NAME``, ``leave NAME``.
NAMED: dict[str, Kind] = {
    "sub": "substitute", "substitute": "substitute",
    "join": "join", "leave": "leave",
}  # fmt: skip

BETWEEN_ROUNDS_HELP = """\
Between rounds (after a round's results, before the next first roll), the host:
  [bold]sub Hal Zoe[/]  Zoe takes Hal's seat (names with spaces: sub Al Po, Zoe Li)
  [bold]join Ivy[/]     a late arrival joins   [bold]leave Ivy[/]  a player leaves
  [bold]end[/]          end the night now, with the rounds played so far"""

DIGITAL_HELP = (
    """\
[bold]Enter[/]  roll the dice when it is your turn
[bold]t[/]      show every table    [bold]c[/]  score cards
[bold]?[/]      this help           [bold]q[/]  quit (the night is saved; resume it later)
"""
    + BETWEEN_ROUNDS_HELP
)

PHYSICAL_HELP = (
    """\
Type what the dice show, then Enter:
  [bold]4 4 1[/]  the three faces (also 441 or 4,4,1)
  [bold]m[/] miss   [bold]1[/] one point   [bold]2[/] two points   [bold]b[/] Bunco
  [bold]x[/] Mini/Baby Bunco   [bold]l[/] Low Bunco   [bold]h[/] High Bunco   [bold]w[/] wipeout
  [bold]2: 4 4 1[/]  the same for table 2 (when several tables are rolling)
[bold]u[/]  undo the last entry    [bold]t[/] every table    [bold]c[/] score cards
[bold]?[/]  this help              [bold]q[/] quit (the night is saved; resume it later)
"""
    + BETWEEN_ROUNDS_HELP
)

DIGITAL_HELP += "\n" + HOST_HELP
PHYSICAL_HELP += "\n" + HOST_HELP

PHYSICAL_EXPECTED = "faces like 4 4 1, or a tally: m 1 2 b x l h w (? for help)"
DIGITAL_EXPECTED = "Enter to roll, t tables, c cards, ? help, q quit"


class BadInput(BuncoError):
    """Something typed at the prompt that is not a command."""

    code = "bad_input"


@dataclass(frozen=True, slots=True)
class PromptCommand:
    """One parsed line: ``kind`` plus the dice, the tally outcome and a table number, if any."""

    kind: Kind
    dice: Dice | None = None
    outcome: str | None = None
    table: int | None = None
    names: tuple[str, ...] = ()
    host: HostWord | None = field(default=None, repr=False)  # verify, judge, break, ...


_TABLE = re.compile(r"^\s*(?:t(?:able)?\s*)?(\d+)\s*:\s*(.*)$", re.IGNORECASE)


def parse_command(line: str, *, physical: bool) -> PromptCommand:
    """Parse one line typed at the prompt; raises :class:`BadInput` saying what to type.

    >>> parse_command("441", physical=True).dice
    (4, 4, 1)
    >>> parse_command("1", physical=True).outcome
    '+1'
    >>> parse_command("4 4 7", physical=True)
    Traceback (most recent call last):
    ...
    bunco.play.commands.BadInput: a die cannot show 7; expected faces like 4 4 1, or a tally: \
m 1 2 b x l h w (? for help)
    """
    text = line.strip()
    word = text.lower()
    if word in WORDS:
        return PromptCommand(WORDS[word])
    said = parse_host_word(text)
    if said is not None:
        return PromptCommand("host", host=said)
    head, _, rest = text.partition(" ")
    if head.lower() in NAMED:
        return _named(NAMED[head.lower()], rest)
    if not physical:
        if word in ("", "r", "roll"):
            return PromptCommand("roll")
        raise BadInput(f"{text!r} is not a command here", expected=DIGITAL_EXPECTED)
    if not text:
        raise BadInput("nothing typed", expected=PHYSICAL_EXPECTED)
    table: int | None = None
    match = _TABLE.match(text)
    if match:
        table = int(match.group(1))
        text = match.group(2).strip()
        if table < 1:
            raise BadInput(f"there is no table {table}", expected="a table number from 1")
    faces = _faces(text)
    if faces is not None:
        try:
            return PromptCommand("faces", dice=validate_dice(faces), table=table)
        except BuncoError as exc:
            raise BadInput(exc.message, expected=PHYSICAL_EXPECTED) from None
    try:
        return PromptCommand("tally", outcome=parse_tally(text).value, table=table)
    except BuncoError:
        raise BadInput(
            f"{text!r} is neither dice nor a tally", expected=PHYSICAL_EXPECTED
        ) from None


def _named(kind: Kind, rest: str) -> PromptCommand:
    """``sub OUT IN`` (a comma between names that have spaces), ``join NAME``, ``leave NAME``."""
    rest = " ".join(rest.split())
    if kind == "substitute":
        parts = [p.strip() for p in rest.split(",")] if "," in rest else rest.split(" ")
        if len(parts) != 2 or not all(parts):
            raise BadInput(
                f"sub needs two names (who leaves the seat, who takes it), got {rest!r}",
                expected="sub Hal Zoe, or sub Hal Smith, Zoe Jones",
            )
        return PromptCommand(kind, names=(parts[0], parts[1]))
    if not rest:
        raise BadInput(f"{kind} needs a player's name", expected=f"{kind} Ivy")
    return PromptCommand(kind, names=(rest,))


def _faces(text: str) -> list[str] | None:
    """The faces in ``text`` when it looks like dice (three numbers), else None."""
    parts = [p for p in re.split(r"[\s,;/-]+", text) if p]
    if len(parts) == 1 and parts[0].isdigit() and len(parts[0]) == 3:
        return list(parts[0])
    if len(parts) >= 2 and all(p.isdigit() for p in parts):
        return parts
    return None
