"""A command to a held night, typed (:class:`NightCommand`): what a route asks the command
path to decide (:func:`bunco.web.decision.decide.decide`).

What the command writes is one of five kinds (:data:`Intent`): an event as given
(:class:`Given`), a roll whose dice the server draws (:class:`RollForMe`), a player's
roll at wherever it is their turn when the command's turn comes (:class:`MyTurnRoll`),
a drawing whose winner the server picks among the players present then
(:class:`Drawing`), and an entry credited to a player whose turn comes after others'
(:class:`Credited`: the turns passed as misses, then the entry, all or nothing). The dice and the picks come from :class:`Luck`, an input of the
decision like the command and the state.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Protocol

from bunco.core.events import Event, ScoringEvent
from bunco.web.decision.entry_rules import Tapped
from bunco.web.decision.frozen_state import DicelessRoll
from bunco.web.decision.rights import Check


def fingerprint(*parts: object) -> str:
    """The SHA-256 of a request (JSON values), stored beside its command id.

    >>> fingerprint("rolls", 1, {"dice": [1, 1, 4]}) == fingerprint("rolls", 1, {"dice": [1, 1, 4]})
    True
    """
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def roll_for_me() -> list[int]:
    """Three dice drawn with the operating system's cryptographic generator."""
    return [secrets.randbelow(6) + 1 for _ in range(3)]


@dataclass(frozen=True, slots=True)
class Given:
    """An event as the caller gave it."""

    event: Event


@dataclass(frozen=True, slots=True)
class RollForMe:
    """A roll (``event`` without its dice) whose dice the server draws."""

    event: DicelessRoll


@dataclass(frozen=True, slots=True)
class MyTurnRoll:
    """A player's roll at wherever it is their turn when the command is decided (a
    table or the roll-off): ``dice`` as rolled, or ``None`` for the server to draw."""

    player: str
    dice: list[int] | None = None


@dataclass(frozen=True, slots=True)
class Drawing:
    """A random drawing among the players present (the host's), the winner picked by the
    server: see :func:`bunco.core.hosting.drawing_event`."""

    name: str | None = None
    exclude_winners: bool = False


@dataclass(frozen=True, slots=True)
class Credited:
    """An entry at a table (``event``: a roll or tally naming its ``player``) credited to
    a player other than the roller the table shows: the ``passed`` turns before that
    player's ended without scoring, and are entered as misses first. One command: the
    misses and the entry are accepted together or not at all, under its one id."""

    event: ScoringEvent
    passed: int


Intent = Given | RollForMe | MyTurnRoll | Drawing | Credited


@dataclass(frozen=True, slots=True)
class NightCommand:
    """One command to a night: what it writes, its id and whose id it is (``caller``: a
    token's hash, ``bot``), the :func:`fingerprint` of the request the
    id stands for, the version it was sent with (``expected_seq``), the caller's rights
    (:mod:`bunco.web.decision.rights`) and where an entry was tapped (:mod:`bunco.web.decision.entry_rules`).
    """

    intent: Intent
    command_id: str
    caller: str = ""
    request: str | None = None
    expected_seq: int | None = None
    authorize: Check | None = None
    tapped: Tapped | None = None
    more: int | None = None
    """An entry from a table's phone: how many entries of the round it still holds after
    this one (``None``: not said). The room waits for a phone that holds more
    (:mod:`bunco.web.night.phone_book`)."""

    @classmethod
    def of(
        cls,
        intent: Intent | Event,
        *,
        command_id: str,
        caller: str = "",
        request: str | None = None,
        expected_seq: int | None = None,
        authorize: Check | None = None,
        tapped: Tapped | None = None,
        more: int | None = None,
    ) -> NightCommand:
        """The command of a route: ``intent`` may be a plain event (:class:`Given`).
        Without ``request``, an event's is its fingerprint with ``expected_seq`` (and
        whether the server rolls); other intents then have none (no id_reused check)."""
        if not isinstance(intent, Given | RollForMe | MyTurnRoll | Drawing | Credited):
            intent = Given(intent)
        if request is None and isinstance(intent, Given | RollForMe):
            request = fingerprint(intent.event, expected_seq, isinstance(intent, RollForMe))
        elif request is None and isinstance(intent, Credited):
            request = fingerprint(intent.event, expected_seq, False, intent.passed)
        return cls(intent, command_id, caller, request, expected_seq, authorize, tapped, more)


class Luck(Protocol):
    """Where the server's dice and picks come from."""

    def dice(self) -> list[int]:
        """Three dice."""

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``."""


class ServerLuck:
    """The operating system's cryptographic generator (:mod:`secrets`)."""

    def dice(self) -> list[int]:
        return roll_for_me()

    def below(self, n: int) -> int:
        return secrets.randbelow(n)
