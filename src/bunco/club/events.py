"""The club's events, checked and put in canonical form (each refused with what was wrong
and what was expected).

>>> normalize_club_event({"type": "rsvp", "date": "2026-02-10", "name": " Ann ", "answer": "no"})
{'type': 'rsvp', 'date': '2026-02-10', 'name': 'Ann', 'answer': 'no'}
>>> normalize_club_event({"type": "plan", "date": "2026-02-10", "time": "7pm"})
Traceback (most recent call last):
...
bunco.core.errors.InvalidEvent: time '7pm'; expected a time as HH:MM, e.g. 19:00
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date as Date
from typing import Any

from bunco.core.errors import InvalidEvent, InvalidSetup, shown
from bunco.core.money import money_text, parse_amount
from bunco.core.names import MAX_NAME, clean_text, person_name

CLUB_EVENT_TYPES: dict[str, str] = {
    "member": "a member joins, or changes role or contact: name, role (regular, substitute), "
    "email?, address?",
    "leave_club": "a member leaves the club: name",
    "season": "a new season begins; later nights belong to it: name",
    "host": "who hosts which month: month (YYYY-MM), host",
    "night": "a night of the club: night (its id in the store), date?, guests?, digest?",
    "payment": "a member pays dues: player, amount, note?",
    "plan": "a night to come (or a change to it): date, time?, address?, host?, seats?, "
    "deadline? (YYYY-MM-DDTHH:MM, the club's time: answer by then)",
    "cancel_plan": "a planned night is called off (it stays in the calendar, cancelled): date",
    "move_plan": "a planned night moves to another date (its answers go with it): date, to, "
    "time?, deadline?",
    "deadline_passed": "the answers' deadline of a planned night passed: the seats of those who "
    "have not said yes go to the subs in line: date",
    "cancel_night": "a night the club started and that was never played is taken back (no "
    "dues, no pot): night",
    "rotation": "the hosting order: order (members' names)",
    "swap_hosts": "two planned nights swap their hosts: dates (two dates)",
    "rsvp": "a member answers for a planned night: date, name, answer (yes, no, maybe)",
    "link": "a personal or share link is issued: for (member, night, season, calendar), "
    "subject, hash",
    "unlink": "a link stops working: hash",
    "ladder": "the standings rules: measure, average?, min_nights?, best?, drop?, place_points?",
    "mail": "the SMTP server reminders go through: host, port, sender, username?, password?, "
    "starttls?",
    "reminded": "reminders were sent: date, names",
    "timezone": "the club's time zone (for the calendar and the deadlines): zone (IANA name)",
    "push_keys": "the keys the server signs the club's phone notifications with: public, private",
    "push": "a member's phone asks for notifications: name, endpoint, p256dh, auth",
    "unpush": "a phone's notifications stop: endpoint",
    "notified": "members were told something (on their phones or by email): kind, names, date?",
    "recovery": "the organizer's recovery code (its hash, and the club's token sealed with it): "
    "hash, sealed",
}
NOTICE_KINDS = ("seat_open", "seat_yours", "answer_by", "cancelled", "moved")
ROLES = ("regular", "substitute")
ANSWERS = ("yes", "no", "maybe")
LINK_KINDS = ("member", "night", "season", "calendar")
MEASURES = ("wins", "points", "buncos", "place_points")
MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
NIGHT_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
EMAIL = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
DEADLINE = re.compile(r"^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$")
B64URL = re.compile(r"^[A-Za-z0-9_=-]{1,200}$")


def text(value: Any, what: str, expected: str, limit: int = MAX_NAME) -> str:
    """A name or short text with its spaces tidied; raises :class:`InvalidEvent`."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > limit:
        raise InvalidEvent(f"{what} {shown(value)} is not a name", expected=expected)
    if limit == MAX_NAME:  # a person's name: the engine's one rule for names
        return person_name(value, what, InvalidEvent)
    return " ".join(clean_text(value, what, InvalidEvent).split())


def day(value: Any, what: str = "date") -> str:
    """A real calendar date as YYYY-MM-DD."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            Date.fromisoformat(value)
            return value
        except ValueError:
            pass
    raise InvalidEvent(f"{what} {value!r}", expected="a date as YYYY-MM-DD, e.g. 2026-02-10")


def count(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidEvent(f"{what} {value!r}", expected=f"a whole number from {low} to {high}")
    return value


def _member(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["name"] = text(ev.get("name"), "member", "a member's name")
    if out["type"] == "leave_club":
        return
    role = ev.get("role", "regular")
    if role not in ROLES:
        raise InvalidEvent(f"role {role!r}", expected="regular or substitute")
    out["role"] = role
    if ev.get("email") is not None:
        email = ev["email"]
        if not isinstance(email, str) or len(email) > 254 or not EMAIL.match(email.strip()):
            raise InvalidEvent(f"email {email!r}", expected="an address such as ann@example.org")
        out["email"] = email.strip()
    if ev.get("address") is not None:
        out["address"] = text(
            ev["address"], "address", "a street address of up to 300 characters", 300
        )


def _night(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    night = ev.get("night")
    if not isinstance(night, str) or not NIGHT_ID.match(night):
        raise InvalidEvent(
            f"night {night!r} is not a night's id", expected="the id of a night in the store"
        )
    out["night"] = night
    if ev.get("date") is not None:
        out["date"] = day(ev["date"])
    if ev.get("guests"):
        guests = ev["guests"]
        if not isinstance(guests, list) or len(guests) > 200:
            raise InvalidEvent("guests must be a list of names", expected='["Kim", ...]')
        out["guests"] = [text(g, "guest", "a guest's name") for g in guests]
    if ev.get("digest") is not None:
        if not isinstance(ev["digest"], str) or not HEX64.match(ev["digest"]):
            raise InvalidEvent("digest is not a SHA-256", expected="64 hexadecimal digits")
        out["digest"] = ev["digest"]


def _payment(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["player"] = text(ev.get("player"), "player", "a member's name")
    try:
        amount = parse_amount(ev.get("amount"), "amount")
    except InvalidSetup as exc:
        raise InvalidEvent(exc.message, expected=exc.expected) from None
    if amount == 0:
        raise InvalidEvent("a payment of 0", expected="an amount above 0")
    out["amount"] = money_text(amount)
    if ev.get("note") is not None:
        out["note"] = text(ev["note"], "note", "a short note", 200)


def _plan(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["date"] = day(ev.get("date"))
    if ev.get("time") is not None:
        if not isinstance(ev["time"], str) or not TIME.match(ev["time"]):
            raise InvalidEvent(f"time {ev['time']!r}", expected="a time as HH:MM, e.g. 19:00")
        out["time"] = ev["time"]
    if ev.get("address") is not None:
        out["address"] = text(
            ev["address"], "address", "a street address of up to 300 characters", 300
        )
    if ev.get("host") is not None:
        out["host"] = text(ev["host"], "host", "a member's name")
    if ev.get("seats") is not None:
        out["seats"] = count(ev["seats"], "seats", 2, 200)
    if ev.get("deadline") is not None:
        out["deadline"] = deadline(ev["deadline"])


def deadline(value: Any) -> str:
    """An answers' deadline: a date and time as YYYY-MM-DDTHH:MM (the club's time)."""
    if isinstance(value, str) and DEADLINE.match(value):
        day(value[:10], "deadline")
        return value
    raise InvalidEvent(
        f"deadline {value!r}", expected="a date and time as YYYY-MM-DDTHH:MM, e.g. 2026-02-07T18:00"
    )


def zone(value: Any) -> str:
    """An IANA time zone name the machine knows, e.g. America/Chicago."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if isinstance(value, str) and 0 < len(value) <= 64 and re.fullmatch(r"[A-Za-z0-9_+/-]+", value):
        try:
            ZoneInfo(value)
            return value
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise InvalidEvent(
        f"time zone {value!r}", expected="an IANA time zone name such as America/Chicago or UTC"
    )


def _month(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    """The month's own events: cancelling or moving a planned night, its deadline passing,
    a started night taken back."""
    kind = out["type"]
    if kind == "cancel_night":
        _night({"night": ev.get("night")}, out)
        return
    out["date"] = day(ev.get("date"))
    if kind == "move_plan":
        out["to"] = day(ev.get("to"), "new date")
        if out["to"] == out["date"]:
            raise InvalidEvent("a night moved to its own date", expected="another date")
        if ev.get("time") is not None:
            _plan({"date": out["to"], "time": ev["time"]}, out)
            out["date"] = day(ev.get("date"))
        if ev.get("deadline") is not None:
            out["deadline"] = deadline(ev["deadline"])


def _push(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    kind = out["type"]
    if kind == "push_keys":
        for key in ("public", "private"):
            value = ev.get(key)
            if not isinstance(value, str) or not 0 < len(value) <= 400:
                raise InvalidEvent(f"push key {key} is missing", expected="the server's keys")
            out[key] = value
        contact = ev.get("contact")
        if contact is not None:
            if (
                not isinstance(contact, str)
                or not contact.startswith(("https://", "http://", "mailto:"))
                or len(contact) > 300
            ):
                raise InvalidEvent(
                    f"contact {shown(contact)}", expected="the server's address or a mailto:"
                )
            out["contact"] = contact
        return
    endpoint = ev.get("endpoint")
    if (
        not isinstance(endpoint, str)
        or not endpoint.startswith(("https://", "http://"))
        or len(endpoint) > 1000
        or any(c.isspace() for c in endpoint)
    ):
        raise InvalidEvent(
            f"endpoint {shown(endpoint)} is not a push address",
            expected="the https address the phone's browser gave",
        )
    out["endpoint"] = endpoint
    if kind == "unpush":
        return
    out["name"] = text(ev.get("name"), "member", "a member's name")
    for key in ("p256dh", "auth"):
        if not isinstance(ev.get(key), str) or not B64URL.match(ev[key]):
            raise InvalidEvent(f"{key} is not a key", expected="the key the phone's browser gave")
        out[key] = ev[key]


def _notified(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    if ev.get("kind") not in NOTICE_KINDS:
        raise InvalidEvent(
            f"notice {ev.get('kind')!r}", expected="one of " + ", ".join(NOTICE_KINDS)
        )
    out["kind"] = ev["kind"]
    out["names"] = _names(ev.get("names"), "notified", 1, 200)
    if ev.get("date") is not None:
        out["date"] = day(ev["date"])


def _recovery(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    if not isinstance(ev.get("hash"), str) or not HEX64.match(ev["hash"]):
        raise InvalidEvent("a recovery code's hash is not a SHA-256", expected="64 hex digits")
    sealed = ev.get("sealed")
    if not isinstance(sealed, str) or not B64URL.match(sealed):
        raise InvalidEvent("the sealed token is not text", expected="base64url text")
    out["hash"] = ev["hash"]
    out["sealed"] = sealed


def _names(value: Any, what: str, low: int, high: int) -> list[str]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise InvalidEvent(f"{what} must list {low} to {high} names", expected='["Ann", "Bea"]')
    names = [text(v, "name", "a member's name") for v in value]
    if len(set(names)) != len(names):
        raise InvalidEvent(f"{what} names someone twice", expected="each name once")
    return names


def _ladder(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    measure = ev.get("measure", "wins")
    if measure not in MEASURES:
        raise InvalidEvent(f"measure {measure!r}", expected="one of " + ", ".join(MEASURES))
    out["measure"] = measure
    if not isinstance(ev.get("average", False), bool):
        raise InvalidEvent("average must be true or false", expected="true or false")
    out["average"] = ev.get("average", False)
    out["min_nights"] = count(ev.get("min_nights", 0), "min_nights", 0, 100)
    if ev.get("best") is not None and ev.get("drop") is not None:
        raise InvalidEvent(
            "best and drop both given", expected="best N nights, or drop the worst N, not both"
        )
    for key in ("best", "drop"):
        if ev.get(key) is not None:
            out[key] = count(ev[key], key, 1 if key == "best" else 0, 100)
    points = ev.get("place_points")
    if measure == "place_points" or points is not None:
        if (
            not isinstance(points, list)
            or not 1 <= len(points) <= 100
            or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points)
        ):
            raise InvalidEvent(
                f"place_points {points!r}",
                expected="points for 1st, 2nd, ... place, e.g. [10, 8, 6, 5]",
            )
        out["place_points"] = list(points)


def _mail(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["host"] = text(ev.get("host"), "SMTP host", "the SMTP server's host name", 253)
    out["port"] = count(ev.get("port", 25), "port", 1, 65535)
    sender = ev.get("sender")
    if not isinstance(sender, str) or not EMAIL.match(sender.strip()):
        raise InvalidEvent(f"sender {sender!r}", expected="the address reminders come from")
    out["sender"] = sender.strip()
    for key in ("username", "password"):
        if ev.get(key) is not None:
            out[key] = text(ev[key], key, f"the SMTP {key}", 200)
    if not isinstance(ev.get("starttls", False), bool):
        raise InvalidEvent("starttls must be true or false", expected="true or false")
    out["starttls"] = ev.get("starttls", False)


def _other(ev: Mapping[str, Any], out: dict[str, Any]) -> None:
    kind = out["type"]
    if kind == "season":
        out["name"] = text(ev.get("name"), "season", "a season's name such as 2026")
    elif kind == "host":
        month = ev.get("month")
        if not isinstance(month, str) or not MONTH.match(month):
            raise InvalidEvent(f"month {month!r}", expected="a month as YYYY-MM, e.g. 2026-01")
        out["month"] = month
        out["host"] = text(ev.get("host"), "host", "a member's name")
    elif kind == "rotation":
        out["order"] = _names(ev.get("order"), "the rotation", 1, 200)
    elif kind == "swap_hosts":
        dates = ev.get("dates")
        if not isinstance(dates, list) or len(dates) != 2:
            raise InvalidEvent(
                "swap_hosts needs two dates", expected='["2026-02-10", "2026-03-10"]'
            )
        out["dates"] = [day(d) for d in dates]
        if out["dates"][0] == out["dates"][1]:
            raise InvalidEvent("swap_hosts names one night twice", expected="two different dates")
    elif kind == "rsvp":
        out["date"] = day(ev.get("date"))
        out["name"] = text(ev.get("name"), "member", "a member's name")
        if ev.get("answer") not in ANSWERS:
            raise InvalidEvent(f"answer {ev.get('answer')!r}", expected="yes, no or maybe")
        out["answer"] = ev["answer"]
    elif kind == "link":
        if ev.get("for") not in LINK_KINDS:
            raise InvalidEvent(
                f"a link for {ev.get('for')!r}", expected="member, night, season or calendar"
            )
        out["for"] = ev["for"]
        out["subject"] = text(ev.get("subject"), "subject", "a member, night id or season")
        if not isinstance(ev.get("hash"), str) or not HEX64.match(ev["hash"]):
            raise InvalidEvent("a link's hash is not a SHA-256", expected="64 hexadecimal digits")
        out["hash"] = ev["hash"]
    elif kind == "unlink":
        if not isinstance(ev.get("hash"), str) or not HEX64.match(ev["hash"]):
            raise InvalidEvent("a link's hash is not a SHA-256", expected="64 hexadecimal digits")
        out["hash"] = ev["hash"]
    elif kind == "reminded":
        out["date"] = day(ev.get("date"))
        out["names"] = _names(ev.get("names"), "reminded", 1, 200)
    elif kind == "timezone":
        out["zone"] = zone(ev.get("zone"))


_BY_KIND: dict[str, Callable[[Mapping[str, Any], dict[str, Any]], None]] = {
    "member": _member,
    "leave_club": _member,
    "night": _night,
    "payment": _payment,
    "plan": _plan,
    "ladder": _ladder,
    "mail": _mail,
    "cancel_plan": _month,
    "move_plan": _month,
    "deadline_passed": _month,
    "cancel_night": _month,
    "push_keys": _push,
    "push": _push,
    "unpush": _push,
    "notified": _notified,
    "recovery": _recovery,
}


def normalize_club_event(event: Any) -> dict[str, Any]:
    """The canonical form of a club event; raises :class:`InvalidEvent`."""
    if not isinstance(event, Mapping) or event.get("type") not in CLUB_EVENT_TYPES:
        kind = event.get("type") if isinstance(event, Mapping) else type(event).__name__
        raise InvalidEvent(
            f"unknown club event {kind!r}", expected="one of " + ", ".join(CLUB_EVENT_TYPES)
        )
    out: dict[str, Any] = {"type": event["type"]}
    _BY_KIND.get(event["type"], _other)(event, out)
    for key in ("id", "at"):
        if key in event:
            out[key] = event[key]
    return out
