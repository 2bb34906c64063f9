"""Entries tapped before the bell that reach the log after it, and the room that waits
for a table's phone: store and forward at the bell.

A table's phone keeps its entries until the server has them (docs/outbox.md). When the
Wi-Fi drops before the bell and comes back after it, the table's entries of play arrive
after the bell although the players rolled them before it. The party log keeps such an
entry as a ``roll`` or ``tally`` with ``before_bell: true``, and the fold places it where
it was rolled: at the end of the table's play before the bell, the bell then applied to
the table again (a turn under way is finished, a table tied plays its tie-break, a table
ahead is done). So the table's result is worked out again and a tie-break it was put in
is dropped, or begun again on the new points. It is taken while the table's round has not
moved past it: no entry at that table since the bell (nor its result entered by hand),
and the room not reseated (the round not over).

While a table's phone is known to hold entries of the round (it said so, or it fell
silent since its last entry), the round does not end without it: a ``wait_for_phone``
event (written by the server) makes the room wait for that table, and the round ends
only once a ``go_on`` (the phone's entries are in, or the host's decision: who won there,
from the table's paper tally, or go on without it) releases every table waited for.

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "players": [
...     "Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]})
>>> for n in range(11):  # Ann scores at the head table until the bell; table 2 is quiet
...     night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 2]})
>>> night.bell, night.tables[1].status.value
(True, 'tie_break')
>>> night = night.apply({"type": "tally", "table": 2, "outcome": "+2", "before_bell": True})
>>> night.tables[1].side_scores, night.tables[1].status.value
((2, 0), 'finishing')
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

from bunco.core.corrections import whole_field
from bunco.core.errors import InvalidEvent, shown
from bunco.core.names import person_name

LATE_EVENT_TYPES: dict[str, str] = {
    "wait_for_phone": "the room waits for a table's phone, which holds entries of the round "
    "(or fell silent since its last entry): of_table, entries?",
    "go_on": "the room stops waiting for a table's phone: its entries are in, or the host "
    "decided (winner: who won there, from the table's paper tally): of_table, winner?, why?",
}
WHY = ("sent", "host")
"""Why the room goes on: the phone's entries are in (``sent``), or the host decided."""
MAX_TABLE = 10_000


# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation (as in bunco.core.events).


class WaitForPhoneEvent(TypedDict):
    """The round does not end without table ``of_table``'s phone, which holds ``entries``
    entries of the round (absent: it fell silent since its last entry)."""

    type: Literal["wait_for_phone"]
    of_table: int
    entries: NotRequired[int]
    id: NotRequired[object]
    at: NotRequired[object]


class GoOnEvent(TypedDict):
    """The room stops waiting for table ``of_table``'s phone; with ``winner``, that player's
    side won there (the host, from the table's paper tally)."""

    type: Literal["go_on"]
    of_table: int
    winner: NotRequired[str]
    why: NotRequired[Literal["sent", "host"]]
    id: NotRequired[object]
    at: NotRequired[object]


def normalize_late(event: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical fields of a ``wait_for_phone`` or ``go_on`` event after ``type``.

    >>> normalize_late({"type": "go_on", "of_table": 7, "winner": " Eve "})
    {'of_table': 7, 'winner': 'Eve'}
    """
    out: dict[str, Any] = {"of_table": whole_field(event, "of_table", 1, MAX_TABLE)}
    if event["type"] == "wait_for_phone":
        if event.get("entries") is not None:
            out["entries"] = whole_field(event, "entries", 0, 100_000)
        return out
    if event.get("winner") is not None:
        winner = event["winner"]
        if not isinstance(winner, str) or not winner.strip():
            raise InvalidEvent(
                f"go_on event's winner {shown(winner)} is not a player's name",
                expected='"winner": a player seated at that table',
            )
        out["winner"] = person_name(winner, "go_on event's 'winner'", InvalidEvent)
    why = event.get("why")
    if why is not None:
        if why not in WHY:
            raise InvalidEvent(
                f"go_on event's why {shown(why)} is not a reason the room goes on",
                expected='"why": "sent" (the phone\'s entries are in) or "host"',
            )
        out["why"] = why
    return out


def before_bell(event: Mapping[str, Any]) -> bool:
    """Whether a roll or tally says it was tapped before the bell (``before_bell: true``).

    >>> before_bell({"type": "tally", "table": 2, "outcome": "+1", "before_bell": True})
    True
    """
    value = event.get("before_bell")
    if value is None or value is False:
        return False
    if value is True:
        return True
    raise InvalidEvent(
        f"before_bell {shown(value)} is not true or false",
        expected='"before_bell": true (an entry tapped before the bell), or leave it out',
    )
