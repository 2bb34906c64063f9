"""The shape of a night's server options: what the server keeps with a night beside its log.

The options hold what is not a move of the game (:mod:`bunco.web.decision.night_options`
decides each change of them, the store keeps them as JSON in the night's row): the bots
and their pace, the dice mode, the door list (who is here, and the scanned card that
marked them), the room (the announcement, the tables calling the host), the entries a
table set aside for the host, the tables' join cards and the door cards' key. Every key
is optional: a night made without bots has none.

The shape is here, below the store and the web, because both read it: one type for the
options the store writes and the decisions that change them.

>>> options: NightOptions = {"dice": "phones", "checkin": {"Ann": "2026-12-05T19:00:00+00:00"}}
>>> sorted(options)
['checkin', 'dice']
"""

from typing import Literal, NotRequired

from typing_extensions import TypedDict

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation, so the runtime __required_keys__ / __optional_keys__ match what mypy sees.


Stage = Literal["first_roll", "playing", "finishing", "tie_break"]
"""A table's stage in its round, as a page shows it: rolling for who starts, play, the
turn finished after the bell, a tie-break."""


class TappedShown(TypedDict):
    """Where an entry was tapped, as a table's page says it (the API's ``TappedIn``)."""

    set: int
    round: int
    table: int
    roller: str | None
    based_on: int
    at: str
    stage: Stage | None


class RefusedEntry(TypedDict):
    """An entry the server refused, as the table's phone holds it until a person decides:
    its command ``id``, the entry in words, the refusal's code and message."""

    id: str
    label: str
    code: str
    message: str
    tapped: NotRequired[TappedShown | None]


class SetAsideEntry(RefusedEntry):
    """A refused entry a table sent to the host: which ``table``, when it was ``sent``,
    and whether it was ``handled`` (it leaves the list then)."""

    table: int
    sent: str
    handled: bool


class Announcement(TypedDict):
    """The text shown on every page: the command ``id`` that put it up, and when."""

    id: str
    text: str
    at: str


class HostCall(TypedDict):
    """A table calling the host: since when, with the newest note (``None``: none)."""

    table: int
    at: str
    note: str | None


class Room(TypedDict):
    """The room: the announcement (``None``: none) and the calls, by table number (as text)."""

    announcement: Announcement | None
    calls: dict[str, HostCall]


class JoinCard(TypedDict):
    """A table's join card kept for the hosts: its join code and its QR's join token."""

    code: str
    token: str


class NightOptions(TypedDict, total=False):
    """A night's server options (every key optional)."""

    bots: list[str]
    bot_pace: float
    dice: str
    checkin: dict[str, str]
    checkin_ids: dict[str, str]
    set_aside: list[SetAsideEntry]
    room: Room
    join_cards: dict[str, JoinCard]
    door_key: str
