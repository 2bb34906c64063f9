"""Typed shapes of the night routes' replies that are built as plain JSON values: the
host's view of the tables' phones (``GET .../phones``), a round at one table
(``GET .../rounds/{set}/{round}/tables/{table}``) and the audit list's entries.

Each is a ``TypedDict``: the route builds exactly these keys, and the reply models
(:mod:`bunco.web.values.reply_models`) may name them for the OpenAPI schema.
"""

from typing import Literal, TypedDict

from bunco.core.server_options import RefusedEntry

# No ``from __future__ import annotations`` here: TypedDict reads its annotations at class
# creation, so the runtime keys match what mypy sees.


class PhoneShown(TypedDict):
    """A table's phone as the host sees it: seconds since it was last heard (``None``:
    never), the entries waiting on it and the age of the oldest, the refused entries
    waiting for a person there, and its offline mode."""

    table: int
    heard_ago: float | None
    waiting: int
    oldest_age: float | None
    refused: list[RefusedEntry]
    mode: Literal["offline-ready", "outbox-only"] | None


class RoundWord(TypedDict):
    """What a table's phone means for the round in play: the entries of it it ``holds``,
    whether it fell ``silent``, whether the room waits for it (``awaited``; ``awaiting``
    the entries it said it holds), whether it has not finished since the bell with nothing
    entered or its phone silent (``unsettled``: the host may enter its paper), the table's
    ``status``, its ``sides`` and ``players``."""

    holds: int
    silent: bool
    awaited: bool
    awaiting: int | None
    unsettled: bool
    status: str | None
    sides: list[list[str]]
    players: list[str]


class TablePhone(PhoneShown, RoundWord):
    """One line of ``GET .../phones``: the phone and what it means for the round."""


class RollShown(TypedDict):
    """A roll of a round at one table, numbered as a correction names it, in words."""

    number: int
    player: str | None
    roller: str | None
    dice: list[int]
    points: int
    kind: str
    phase: str
    words: str


class RoundTable(TypedDict, total=False):
    """One table's round, finished or in play (``running``, with the table's ``status``)."""

    set: int
    round: int
    table: int
    running: bool
    status: str
    players: list[str | None]
    team: bool
    scores: list[int]
    winners: list[str]
    rolls: list[RollShown]
    corrected: int
