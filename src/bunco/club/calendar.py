"""The club's nights as iCalendar (RFC 5545), written with the ``icalendar`` library: a
feed to subscribe to, and a file per night.

Each planned night is a ``VEVENT`` whose ``UID`` stays the same when the night changes
(its time, host or address, or its date when it moves), so a subscribed calendar updates
it in place; its ``SEQUENCE`` goes up with every change. A cancelled night stays in the
feed with ``STATUS:CANCELLED`` (calendars strike it through). A night with a time starts
then, in the club's time zone (``TZID``, with the zone's ``VTIMEZONE`` in the calendar;
a club without a time zone keeps a "floating" local time), and lasts three hours, with a
reminder (``VALARM``) two hours before; a night without a time is an all-day event. The
host and the address are in ``SUMMARY``, ``LOCATION`` and ``DESCRIPTION``.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club", "timezone": "America/Chicago"}).apply_all(
...     [{"type": "member", "name": "Ann", "address": "1 Elm St, Springfield"},
...      {"type": "plan", "date": "2026-02-10", "time": "19:00"}])
>>> text = club_calendar(club, "c1", stamp=datetime(2026, 1, 1, tzinfo=UTC))
>>> [line for line in text.split("\\r\\n") if line.startswith(("DTSTART;", "TRIGGER", "TZID"))]
['TZID:America/Chicago', 'DTSTART;TZID=America/Chicago:20260210T190000', 'TRIGGER:-PT2H']
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar

from bunco.club.club import Club
from bunco.club.plans import attendance

LENGTH = timedelta(hours=3)  # a night of Bunco, for calendars
ALARM = timedelta(hours=2)  # the reminder, before the night starts
PRODID = "-//bunco//club nights//EN"


def event_uid(club_id: str, uid: str) -> str:
    """A planned night's calendar id: from the date it was first planned on."""
    return f"{uid}-{club_id}@bunco-club"


def _event(club: Club, club_id: str, day: str, stamp: datetime) -> icalendar.Event:
    plan = club.plans[day]
    address = club.address_of(plan)
    seats = attendance(club, day)
    coming = sum(1 for n in seats.roster if seats.answers.get(n) == "yes")
    summary = f"{club.name}: Bunco" + (f" at {plan.host}'s" if plan.host else "")
    details = [f"Host: {plan.host}" if plan.host else "Host: to be settled"]
    if address:
        details.append(f"Address: {address}")
    if plan.cancelled:
        details.insert(0, "Cancelled.")
    else:
        details.append(f"Coming: {coming} said yes of {seats.seats} seats")
    if plan.deadline and not plan.cancelled:
        details.append(f"Answer by {plan.deadline.replace('T', ' ')}")
    played = club.night_on(day)
    if played is not None:
        details.append(f"Played: night {played.night}")
    event = icalendar.Event()
    event.add("uid", event_uid(club_id, plan.uid or day))
    event.add("dtstamp", stamp)
    event.add("sequence", plan.sequence)
    start = date.fromisoformat(day)
    if plan.time:
        hour, minute = (int(x) for x in plan.time.split(":"))
        begins = datetime(start.year, start.month, start.day, hour, minute)
        if club.timezone:
            begins = begins.replace(tzinfo=ZoneInfo(club.timezone))
        event.add("dtstart", begins)
        event.add("dtend", begins + LENGTH)
    else:
        event.add("dtstart", start)
        event.add("dtend", start + timedelta(days=1))
    event.add("summary", ("Cancelled: " if plan.cancelled else "") + summary)
    if address:
        event.add("location", address)
    event.add("description", "\n".join(details))
    if plan.host:
        event.add("x-bunco-host", plan.host)
    event.add("status", "CANCELLED" if plan.cancelled else "CONFIRMED")
    event.add("transp", "TRANSPARENT" if plan.cancelled else "OPAQUE")
    if plan.time and not plan.cancelled:
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", summary)
        alarm.add("trigger", -ALARM)
        event.add_component(alarm)
    return event


def _calendar(club: Club, club_id: str, days: Iterable[str], stamp: datetime | None) -> str:
    cal = icalendar.Calendar()
    cal.add("version", "2.0")
    cal.add("prodid", PRODID)
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", club.name)
    if club.timezone:
        cal.add("x-wr-timezone", club.timezone)
    when = stamp or datetime.now(UTC)
    days = list(days)
    for day in days:
        cal.add_component(_event(club, club_id, day, when))
    if days:  # the VTIMEZONE of every TZID used, over the years of the nights
        first, last = date.fromisoformat(min(days)), date.fromisoformat(max(days))
        cal.add_missing_timezones(date(first.year, 1, 1), date(last.year + 1, 1, 1))
    text: str = cal.to_ical().decode("utf-8")
    return text


def club_calendar(club: Club, club_id: str, *, stamp: datetime | None = None) -> str:
    """Every planned night of the club (played, to come or cancelled), as one calendar."""
    return _calendar(club, club_id, club.plans, stamp)


def night_calendar(club: Club, club_id: str, day: str, *, stamp: datetime | None = None) -> str:
    """One planned night as a calendar file of its own (to add it to a calendar)."""
    return _calendar(club, club_id, [day], stamp)
