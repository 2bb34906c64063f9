"""The checked values of the API's bodies: names, labels, dice, tallies, table numbers.

One check of each, shared by every request body (:mod:`bunco.web.schemas`) and by the
party log's events as the API takes them (:mod:`bunco.web.event_models`). The checks are
the engine's own (:mod:`bunco.core.names`, :mod:`bunco.core.dice`), so the API and the
party log refuse the same values.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, Strict, StringConstraints

from bunco.core.dice import parse_tally
from bunco.core.errors import BuncoError
from bunco.core.names import clean_text as core_clean_text
from bunco.core.names import person_name


def clean_text(value: str) -> str:
    """``value`` if it holds no control character (NUL, tab, newline, ...), no lone
    surrogate and no bidi control: the engine's own check (:mod:`bunco.core.names`), so the
    API and the party log refuse the same texts.

    >>> clean_text("Ann-Marie")
    'Ann-Marie'
    >>> clean_text("A\\x00B")
    Traceback (most recent call last):
    ...
    bunco.core.errors.InvalidSetup: text 'A\\x00B' holds one of the control characters (NUL, \
tab, newline, ...): U+0000 NUL; expected text without control or direction characters
    """
    return core_clean_text(value)


def _person(value: str) -> str:
    """A person's name in its one spelling (NFC, spaces squeezed, nothing invisible)."""
    return person_name(value)


def _check_tally(value: str) -> str:
    try:
        parse_tally(value)
    except BuncoError as exc:
        raise ValueError(f"{exc.message}; expected {exc.expected}") from None
    return value


_CLEAN = AfterValidator(clean_text)
Name = Annotated[
    str,
    Strict(),
    StringConstraints(min_length=1, max_length=60),
    AfterValidator(_person),
    Field(description="a player's name"),
]
"""A person's name: checked and put in its one spelling by the engine's rule."""
Label = Annotated[str, Strict(), StringConstraints(min_length=1, max_length=60), _CLEAN]
"""A short text without control characters: a rule's or a group's name, a checker."""
Word = Annotated[str, Strict(), StringConstraints(min_length=1, max_length=40), _CLEAN]
"""A preset's name, a prize."""
Title = Annotated[str, Strict(), StringConstraints(min_length=1, max_length=200), _CLEAN]
"""A night's name, a house rule's text value."""
CommandId = Annotated[
    str,
    Strict(),
    Field(
        min_length=1,
        max_length=100,
        pattern=r"^[!-~]+$",
        description="an id the client makes for this command (e.g. a UUID); a retried request "
        "with the same id from the same token is applied once and answered with the first "
        "result; the same id with another request is refused (409 id_reused)",
    ),
]
CREATION_ID_LENGTH = 16
"""The shortest creation ``command_id``: it stands for the night's secrets, so one
anybody could send again (``"1"``) would hand them the host's token."""
CreationId = Annotated[
    str,
    Strict(),
    Field(
        min_length=CREATION_ID_LENGTH,
        max_length=100,
        pattern=r"^[!-~]+$",
        description="this creation's own random id (a UUID; at least 16 characters): a retry "
        "with the same id and the same request gets the first reply again, with the same "
        "tokens, so the id is as secret as the host's token",
    ),
]
ExpectedSeq = Annotated[
    int | None,
    Strict(),
    Field(
        default=None,
        ge=0,
        le=10_000_000,
        description="the seq of the last event you saw at this table (or of the whole night, for "
        "commands of the whole night); if something changed since, the reply is 409 with the "
        "events you missed. Leave it out to skip the check.",
    ),
]


def table_digits(value: object) -> object:
    """A table number in a path is its digits only: ``1``, not ``1.0``, ``+1`` or ``1e0``.

    >>> table_digits("12")
    '12'
    >>> table_digits("1.0")
    Traceback (most recent call last):
    ...
    ValueError: a table number is written in digits only, such as 1; got '1.0'
    """
    if isinstance(value, str) and not (value.isascii() and value.isdigit() and len(value) <= 5):
        raise ValueError(f"a table number is written in digits only, such as 1; got {value[:20]!r}")
    return value


TableNumber = Annotated[int, Strict(), Field(ge=1, le=10_000, description="a table, 1 = head")]
Die = Annotated[int, Strict(), Field(ge=1, le=6)]
Dice = Annotated[
    list[Die], Field(min_length=3, max_length=3, description="three faces, e.g. [1, 1, 4]")
]
"""The one check of dice on every write path: three JSON integers from 1 to 6 (a boolean,
a string or 1.0 is not a die)."""
HighTotal = Annotated[
    int,
    Strict(),
    Field(ge=3, le=18, description="a roll for high's total: what three real dice show, 3 to 18"),
]
"""The one check of a roll for high entered as its total (real dice: only the total counts)."""
Outcome = Annotated[
    str,
    Strict(),
    StringConstraints(min_length=1, max_length=20),
    AfterValidator(_check_tally),
    Field(description="a quick tally: +1, +2, miss, bunco, mini, ..."),
]
"""The one check of a quick tally on every write path (the engine's own tally names)."""
HouseValue = (
    Annotated[bool, Strict()]
    | Annotated[int, Strict(), Field(ge=-1_000_000_000, le=1_000_000_000)]
    | Annotated[float, Strict(), Field(ge=-1e9, le=1e9, allow_inf_nan=False)]
    | Title
    | Annotated[list[Word], Field(max_length=40)]
    # a list of whole numbers (breaks_after_rounds: [2, 4]), JSON integers as number rules take
    | Annotated[
        list[Annotated[int, Strict(), Field(ge=-1_000_000_000, le=1_000_000_000)]],
        Field(max_length=40),
    ]
    | None
)


Seating = Annotated[list[list[Name | None]], Field(min_length=1, max_length=500)]


SeatOverrides = list[Literal["no_repeat_partners"]]
"""Rules a host's seating breaks on purpose (bunco.core.seating_partners)."""
