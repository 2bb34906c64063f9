"""Timed rounds: the round's clock and its bell (the house rule ``round_minutes``).

Some big events end a round on a clock instead of waiting for the head table: each
round has ``round_minutes`` on the clock, and at zero the bell rings for the room as if
the head table had rung it. The party log holds the clock as two facts, so a night
replays to the same result whenever it is folded:

- the round's start: the ``clock`` of its ``start_round`` event, the time (ISO 8601,
  with its offset) the clock started, written by whoever keeps the time (the server);
- the bell at zero: a ``time_up`` event naming the set and round whose clock ran out.

This module is pure like the rest of ``core``: it reads times from the log and compares
them with a ``now`` it is given; it never reads a clock itself.

>>> clock = RoundClock(1, 3, "2026-11-27T20:00:00+00:00", 12)
>>> clock.ends_at
'2026-11-27T20:12:00+00:00'
>>> clock.remaining(parse_time("2026-11-27T20:11:30Z", "now")), clock.due(parse_time("2026-11-27T20:12:00Z", "now"))
(30.0, True)
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, NotRequired

from typing_extensions import TypedDict

from bunco.core.errors import InvalidEvent, shown

CLOCK_EVENT_TYPES: dict[str, str] = {
    "time_up": "timed rounds: the round's clock reached zero and its bell ends the round for all: "
    "set, round",
}


# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation (see bunco.core.events).


class TimeUpEvent(TypedDict):
    """The clock of round ``round`` of set ``set`` reached zero: the bell rings for the room."""

    type: Literal["time_up"]
    set: int
    round: int
    id: NotRequired[object]
    at: NotRequired[object]


def parse_time(value: object, what: str) -> datetime:
    """An ISO 8601 time with its offset (``2026-11-27T20:00:00+00:00``, or ``...Z``).

    >>> parse_time("2026-11-27T20:00:00Z", "clock").isoformat()
    '2026-11-27T20:00:00+00:00'
    """
    if isinstance(value, str) and 0 < len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            moment = None
        if moment is not None and moment.utcoffset() is not None:
            return moment
    raise InvalidEvent(
        f"{what} {shown(value)} is not a time with its offset",
        expected='an ISO 8601 time such as "2026-11-27T20:00:00+00:00"',
    )


def time_text(moment: datetime) -> str:
    """The log's form of a time: ISO 8601 to the millisecond (``+00:00`` for UTC).

    >>> from datetime import UTC
    >>> time_text(datetime(2026, 11, 27, 20, 0, 5, 123456, tzinfo=UTC))
    '2026-11-27T20:00:05.123+00:00'
    """
    return moment.isoformat(timespec="milliseconds")


def normalize_clock(value: object) -> str:
    """A ``start_round`` event's ``clock``: the time as the log writes it (to the
    millisecond; ``...Z`` becomes ``+00:00``)."""
    moment = parse_time(value, "start_round clock")
    return time_text(moment) if moment.microsecond else moment.isoformat()


def normalize_time_up(event: Mapping[str, object]) -> TimeUpEvent:
    """A ``time_up`` event without ``id`` and ``at``: ``set`` (1-4) and ``round`` (1-6)."""
    numbers = []
    for key, top in (("set", 4), ("round", 6)):
        value = event.get(key)
        if type(value) is not int or not 1 <= value <= top:
            raise InvalidEvent(
                f"time_up event's {key} {shown(value)} is not a {key} number",
                expected=f'"{key}": a whole number from 1 to {top}',
            )
        numbers.append(value)
    return {"type": "time_up", "set": numbers[0], "round": numbers[1]}


class ClockView(TypedDict):
    """A round's clock as the pages read it (times in the log's form)."""

    set: int
    round: int
    minutes: int
    started_at: str
    ends_at: str
    rung: bool


@dataclass(frozen=True, slots=True)
class RoundClock:
    """The clock of round ``round_no`` of set ``set_no``: started at ``started_at`` (the
    log's text), ``minutes`` long; ``rung`` once its bell (``time_up``) is in the log."""

    set_no: int
    round_no: int
    started_at: str
    minutes: int
    rung: bool = False

    @property
    def start(self) -> datetime:
        return parse_time(self.started_at, "clock")

    @property
    def ends(self) -> datetime:
        """When the clock reaches zero."""
        return self.start + timedelta(minutes=self.minutes)

    @property
    def ends_at(self) -> str:
        """:attr:`ends` as the log writes times."""
        ends = self.ends
        return time_text(ends) if ends.microsecond else ends.isoformat()

    def remaining(self, now: datetime) -> float:
        """Seconds left at ``now`` (0 at and after zero)."""
        return max(0.0, (self.ends - now).total_seconds())

    def due(self, now: datetime) -> bool:
        """Whether the bell is due at ``now``: zero reached and not rung yet."""
        return not self.rung and now >= self.ends

    def as_dict(self) -> ClockView:
        """The clock as the pages read it (times in the log's form)."""
        return {
            "set": self.set_no,
            "round": self.round_no,
            "minutes": self.minutes,
            "started_at": self.started_at,
            "ends_at": self.ends_at,
            "rung": self.rung,
        }
