"""A refusal in the decision's own words: what kind of refusal it is, its code and its
words, and no HTTP status.

Every refusal of :mod:`bunco.web.decision` is one of four kinds (:data:`RefusalKind`):

- ``forbidden``: this caller may not do this (the rights, :mod:`bunco.web.decision.rights`);
- ``conflict``: the command does not fit the night now (``stale``, ``not_your_turn``,
  ``round_closed``, ``id_reused``, ``not_seated``, ...) or the options (no room left);
- ``invalid``: the command is malformed (``wrong_table``, ``invalid_request``, an event
  the engine's rules cannot read);
- ``missing``: what the command names is not there (an entry or a call the options do
  not hold).

A check deep in the decision raises :class:`Refused`; :func:`bunco.web.decision.decide.decide`
returns it as a refusing :class:`~bunco.web.decision.entry_rules.Decision`. An error of
the engine (:class:`~bunco.core.errors.BuncoError`) is a refusal too, its kind given by
its code in one place (:func:`engine_kind`), in the decision and beside it (a route's
engine error, :mod:`bunco.web.server.errors`). The HTTP status
is the command path's to give, from the kind alone, in one place
(:data:`bunco.web.night.command_path.STATUS_OF_KIND`).

>>> refused = Refused("conflict", "not_your_turn", "it is not Ann's turn", "your roll")
>>> refused.kind, refused.code, str(refused)
('conflict', 'not_your_turn', "it is not Ann's turn")
"""

from __future__ import annotations

from typing import Literal, TypedDict, Unpack, cast, get_args

from bunco.core.errors import BuncoError
from bunco.core.events import Event
from bunco.core.server_options import TappedShown
from bunco.core.stored_event import StoredEvent

RefusalKind = Literal["forbidden", "conflict", "invalid", "missing"]
"""What a refusal is (see the module's docstring)."""
KINDS: tuple[RefusalKind, ...] = get_args(RefusalKind)
"""Every kind of refusal."""


class TableWhere(TypedDict):
    """Where a table is now, as a refusal's answer shows it (``now``)."""

    set: int
    round: int
    phase: str
    roller: str | None


class MissedEvent(TypedDict):
    """An event a stale command did not see, in its envelope (as the night's events show it)."""

    seq: int
    table: int | None
    command_id: str | None
    at: str
    event: Event


def missed_event(stored: StoredEvent) -> MissedEvent:
    """``stored`` as a stale refusal lists it (a stored event is one the engine normalized)."""
    event = cast(Event, stored.event)  # the log holds events as the engine normalized them
    return {
        "seq": stored.seq,
        "table": stored.table,
        "command_id": stored.command_id,
        "at": stored.at,
        "event": event,
    }


class RefusalExtra(TypedDict, total=False):
    """The fields a refusal's answer carries beside its code and words: a stale command's
    ``current_seq``, the events it ``missed``, their ``cause`` and who changed the table
    (``by_caller``, a token's hash prefix, named by the route); a reused id's ``seq``; an
    entry's ``tapped`` and where its table is ``now``."""

    current_seq: int
    missed: list[MissedEvent]
    cause: str
    by_caller: str
    seq: int
    tapped: TappedShown
    now: TableWhere


CONFLICT_CODES = frozenset(
    {"not_your_turn", "round_over", "not_allowed_now", "not_seated", "seating_changed"}
)
"""The engine's errors (:class:`~bunco.core.errors.BuncoError`'s ``code``) that are a
``conflict``: the command does not fit the night now. Any other is ``invalid``."""


def engine_kind(error: BuncoError) -> RefusalKind:
    """What the engine's refusal ``error`` is: a ``conflict`` for a command that does not
    fit the night now (:data:`CONFLICT_CODES`); ``invalid`` for a malformed one.

    >>> from bunco.core.errors import NotYourTurn, InvalidDice
    >>> engine_kind(NotYourTurn("not Ann's turn")), engine_kind(InvalidDice("no dice"))
    ('conflict', 'invalid')
    """
    return "conflict" if error.code in CONFLICT_CODES else "invalid"


class Refused(Exception):
    """A refusal: its ``kind``, ``code``, ``message``, what is ``expected`` instead and any
    ``extra`` fields the answer carries (``current_seq``, ``missed``, ``cause``, ...)."""

    def __init__(
        self,
        kind: RefusalKind,
        code: str,
        message: str,
        expected: str = "",
        **extra: Unpack[RefusalExtra],
    ) -> None:
        super().__init__(message)
        self.kind: RefusalKind = kind
        self.code = code
        self.message = message
        self.expected = expected
        self.extra = extra

    @classmethod
    def of_engine(cls, error: BuncoError) -> Refused:
        """The refusal the engine's ``error`` is (its kind: :func:`engine_kind`), wherever
        it is raised: in the decision or in a route that asks the engine directly."""
        return cls(engine_kind(error), error.code, error.message, error.expected or "")
