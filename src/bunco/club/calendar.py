"""The club's nights as iCalendar (RFC 5545): a feed to subscribe to, and a file per night.

Each planned night is a ``VEVENT`` whose ``UID`` stays the same when the night changes
(its time, host or address), so a subscribed calendar updates it in place. A night with a
time starts then (local time where the club meets: a "floating" time) and lasts three
hours; a night without one is an all-day event. The host and the address are in the
``SUMMARY``, ``LOCATION`` and ``DESCRIPTION``. Lines end in CRLF and are folded at 75
octets; text is escaped (backslash, semicolon, comma, newline).

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club"}).apply_all(
...     [{"type": "member", "name": "Ann", "address": "1 Elm St, Springfield"},
...      {"type": "plan", "date": "2026-02-10", "time": "19:00"}])
>>> text = club_calendar(club, "c1", stamp=datetime(2026, 1, 1, tzinfo=UTC))
>>> [line for line in text.split("\\r\\n") if line.startswith(("DTSTART", "LOCATION"))]
['DTSTART:20260210T190000', 'LOCATION:1 Elm St\\\\, Springfield']
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from bunco.club.club import Club
from bunco.club.plans import attendance

LENGTH = timedelta(hours=3)  # a night of Bunco, for calendars
PRODID = "-//bunco//club nights//EN"


def escape(value: str) -> str:
    """TEXT escaped as RFC 5545 section 3.3.11 says."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """A content line folded at 75 octets (never inside a UTF-8 character), CRLF-ended."""
    out: list[str] = []
    current = b""
    limit = 75
    for ch in line:
        octets = ch.encode("utf-8")
        if len(current) + len(octets) > limit:
            out.append(current.decode("utf-8"))
            current = b""
            limit = 74  # the leading space of a continuation counts
        current += octets
    out.append(current.decode("utf-8"))
    return "\r\n ".join(out) + "\r\n"


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _event(club: Club, club_id: str, day: str, stamp: datetime) -> list[str]:
    plan = club.plans[day]
    address = club.address_of(plan)
    seats = attendance(club, day)
    coming = sum(1 for n in seats.roster if seats.answers.get(n) == "yes")
    summary = f"{club.name}: Bunco" + (f" at {plan.host}'s" if plan.host else "")
    details = [f"Host: {plan.host}" if plan.host else "Host: to be settled"]
    if address:
        details.append(f"Address: {address}")
    details.append(f"Coming: {coming} said yes of {seats.seats} seats")
    played = club.night_on(day)
    if played is not None:
        details.append(f"Played: night {played.night}")
    start = date.fromisoformat(day)
    lines = ["BEGIN:VEVENT", f"UID:{day}-{club_id}@bunco-club", f"DTSTAMP:{_stamp(stamp)}"]
    if plan.time:
        begins = datetime.combine(start, datetime.strptime(plan.time, "%H:%M").time())
        lines += [f"DTSTART:{begins:%Y%m%dT%H%M%S}", f"DTEND:{begins + LENGTH:%Y%m%dT%H%M%S}"]
    else:
        lines += [
            f"DTSTART;VALUE=DATE:{start:%Y%m%d}",
            f"DTEND;VALUE=DATE:{start + timedelta(days=1):%Y%m%d}",
        ]
    lines.append(f"SUMMARY:{escape(summary)}")
    if address:
        lines.append(f"LOCATION:{escape(address)}")
    lines.append(f"DESCRIPTION:{escape(chr(10).join(details))}")
    if plan.host:
        lines.append(f"X-BUNCO-HOST:{escape(plan.host)}")
    lines += ["STATUS:CONFIRMED", "TRANSP:OPAQUE", "END:VEVENT"]
    return lines


def _calendar(club: Club, club_id: str, days: Iterable[str], stamp: datetime | None) -> str:
    when = stamp or datetime.now(UTC)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(club.name)}",
    ]
    for day in days:
        lines += _event(club, club_id, day, when)
    lines.append("END:VCALENDAR")
    return "".join(fold(line) for line in lines)


def club_calendar(club: Club, club_id: str, *, stamp: datetime | None = None) -> str:
    """Every planned night of the club (played or to come), as one calendar."""
    return _calendar(club, club_id, club.plans, stamp)


def night_calendar(club: Club, club_id: str, day: str, *, stamp: datetime | None = None) -> str:
    """One planned night as a calendar file of its own (to add it to a calendar)."""
    return _calendar(club, club_id, [day], stamp)
