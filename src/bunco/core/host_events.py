"""The typed shapes of the host's events beside the dice (see :mod:`bunco.core.hosting`).

Like :mod:`bunco.core.events`, there is no ``from __future__ import annotations`` here:
TypedDict reads ``NotRequired[...]`` at class creation.
"""

from typing import Literal, NotRequired, TypeAlias

from typing_extensions import TypedDict


class _Kept(TypedDict, total=False):
    id: object  # a client's command id
    at: object  # the wall-clock time it was entered


class JudgeEvent(_Kept):
    """The host names a judged prize's winner: ``ranking``, the winner first."""

    type: Literal["judge"]
    prize: str
    group: NotRequired[str]
    ranking: list[str]


class AbsentEvent(_Kept):
    """The host marks a player as gone home."""

    type: Literal["absent"]
    player: str


class PresentEvent(_Kept):
    """The host marks a player as back in the room."""

    type: Literal["present"]
    player: str


class BreakEvent(_Kept):
    """A break begins, for ``minutes`` if given."""

    type: Literal["break"]
    minutes: NotRequired[int]
    started_at: NotRequired[str]  # when it began (ISO 8601), for the big screen's countdown


class EndBreakEvent(_Kept):
    """The host ends the break."""

    type: Literal["end_break"]


class DrawingEvent(_Kept):
    """A drawing: the candidates in order, the random ``pick`` among them, the winner."""

    type: Literal["drawing"]
    candidates: list[str]
    pick: int
    winner: str
    exclude_winners: bool
    name: NotRequired[str]


class CloseCardsEvent(_Kept):
    """After the last round, the host gives the prizes from the cards as verified; the
    cards not verified as they stand are named (the host was warned of them)."""

    type: Literal["close_cards"]
    unverified: list[str]


HostEvent: TypeAlias = (
    JudgeEvent
    | AbsentEvent
    | PresentEvent
    | BreakEvent
    | EndBreakEvent
    | DrawingEvent
    | CloseCardsEvent
)
"""An event the host records beside the dice."""
