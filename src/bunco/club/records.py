"""The values a club's fold is made of: a night of the club, a planned night, an answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True, slots=True)
class ClubNight:
    night: str  # the night's id in the store
    season: str
    date: str | None
    guests: tuple[str, ...] = ()
    digest: str | None = None  # SHA-256 of the night's log as it was added (add-night)


@dataclass(frozen=True, slots=True)
class Plan:
    """A night to come: its date, time, host and address (the host's, unless given)."""

    date: str
    season: str
    time: str | None = None
    host: str | None = None
    address: str | None = None  # given for this night; else the host's address
    seats: int | None = None  # else one per regular
    deadline: str | None = None  # answer by then (YYYY-MM-DDTHH:MM, the club's time)
    uid: str = ""  # the date it was first planned on: its calendar event's id, kept when moved
    sequence: int = 0  # its calendar event's version: one more each time it moves or changes
    cancelled: bool = False  # called off: kept in the calendar as cancelled


class Answer(NamedTuple):
    """An answer for a planned night, or (name "", answer "deadline") its deadline passing."""

    date: str
    name: str
    answer: str
