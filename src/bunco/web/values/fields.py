"""The checked values of the API's bodies: names, labels, dice, tallies, table numbers.

One check of each, shared by every request body (:mod:`bunco.web.values.schemas`) and by the
party log's events as the API takes them (:mod:`bunco.web.values.event_models`). The checks are
the engine's own (:mod:`bunco.core.names`, :mod:`bunco.core.dice`), so the API and the
party log refuse the same values.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, Strict, StringConstraints

from bunco.core.dice import parse_tally
from bunco.core.errors import BuncoError
from bunco.core.names import clean_text as core_clean_text
from bunco.core.names import person_name


def clean_text(value: str) -> str:
    """``value`` if the one check of every text a person sends finds nothing wrong (no
    control, format, bidi or line-separator character, not invisible-only): the engine's
    own (:mod:`bunco.core.text`), so the API and the party log refuse the same texts.

    >>> clean_text("Ann-Marie")
    'Ann-Marie'
    >>> clean_text("A\\u2028B")
    Traceback (most recent call last):
    ...
    bunco.core.errors.InvalidSetup: text 'A\\u2028B' holds a line or paragraph separator: \
U+2028 LINE SEPARATOR; expected text of letters, digits, spaces, punctuation and symbols, \
on one line
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


_INTEGER = re.compile(r"-?[0-9]{1,9}")
_DECIMAL = re.compile(r"[0-9]{1,9}(\.[0-9]{1,6})?")


def plain_integer(value: object) -> object:
    """A whole number in a path or a query string is its ASCII digits only (a minus sign
    before them where the number may be negative): ``1``, not ``1.0``, ``+1``, `` 1``,
    ``1_0``, ``1e0`` or ``١`` (all of which Python's ``int`` and pydantic would take).

    >>> plain_integer("12"), plain_integer("-1")
    ('12', '-1')
    >>> plain_integer("1.0")
    Traceback (most recent call last):
    ...
    ValueError: a whole number is written in ASCII digits only, such as 1; got '1.0'
    """
    if isinstance(value, str) and not _INTEGER.fullmatch(value):
        raise ValueError(
            f"a whole number is written in ASCII digits only, such as 1; got {value[:20]!r}"
        )
    return value


def plain_decimal(value: object) -> object:
    """A number in a query string is ASCII digits, with a decimal point maybe (``0.5``, not
    ``5e-1``, ``.5`` or `` 5``).

    >>> plain_decimal("0.5")
    '0.5'
    >>> plain_decimal("5e-1")
    Traceback (most recent call last):
    ...
    ValueError: a number is written in ASCII digits with a decimal point maybe, such as 2.5; got '5e-1'
    """
    if isinstance(value, str) and not _DECIMAL.fullmatch(value):
        raise ValueError(
            f"a number is written in ASCII digits with a decimal point maybe, such as 2.5; "
            f"got {value[:20]!r}"
        )
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
