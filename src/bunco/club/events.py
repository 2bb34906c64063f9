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
from typing import Any, TypeVar

from bunco.core.club_events import (
    ClubCancelNightEvent,
    ClubCancelPlanEvent,
    ClubDeadlinePassedEvent,
    ClubEvent,
    ClubHostEvent,
    ClubLadderEvent,
    ClubLeaveClubEvent,
    ClubLinkEvent,
    ClubMailEvent,
    ClubMemberEvent,
    ClubMovePlanEvent,
    ClubNightEvent,
    ClubNotifiedEvent,
    ClubPaymentEvent,
    ClubPlanEvent,
    ClubPushEvent,
    ClubPushKeysEvent,
    ClubRecoveryEvent,
    ClubRemindedEvent,
    ClubRotationEvent,
    ClubRsvpEvent,
    ClubSeasonEvent,
    ClubSwapHostsEvent,
    ClubTimezoneEvent,
    ClubUnlinkEvent,
    ClubUnpushEvent,
    LinkKind,
    Measure,
    NoticeKind,
    Role,
    RsvpAnswer,
)
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
NOTICE_KINDS: tuple[NoticeKind, ...] = (
    "seat_open",
    "seat_yours",
    "answer_by",
    "cancelled",
    "moved",
)
ROLES: tuple[Role, ...] = ("regular", "substitute")
ANSWERS: tuple[RsvpAnswer, ...] = ("yes", "no", "maybe")
LINK_KINDS: tuple[LinkKind, ...] = ("member", "night", "season", "calendar")
MEASURES: tuple[Measure, ...] = ("wins", "points", "buncos", "place_points")
MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
NIGHT_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
EMAIL = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
DEADLINE = re.compile(r"^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$")
B64URL = re.compile(r"^[A-Za-z0-9_=-]{1,200}$")
QUOTED = 60
"""The characters of a bad date, time, address or count a refusal quotes (an email or a
time zone name shown whole, a huge value cut short: :func:`bunco.core.errors.shown`)."""


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
    raise InvalidEvent(
        f"{what} {shown(value, QUOTED)}", expected="a date as YYYY-MM-DD, e.g. 2026-02-10"
    )


def count(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidEvent(
            f"{what} {shown(value, QUOTED)}", expected=f"a whole number from {low} to {high}"
        )
    return value


Raw = Mapping[str, object]
"""An event as given (a JSON object not yet checked): its values are checked here."""
_Choice = TypeVar("_Choice", bound=str)


def one_of(value: object, options: tuple[_Choice, ...], what: str, expected: str) -> _Choice:
    """``value`` if it is one of ``options``; raises :class:`InvalidEvent`."""
    for option in options:
        if value == option:
            return option
    raise InvalidEvent(f"{what} {shown(value, QUOTED)}", expected=expected)


def _hex64(value: object, what: str, expected: str = "64 hexadecimal digits") -> str:
    if not isinstance(value, str) or not HEX64.match(value):
        raise InvalidEvent(what, expected=expected)
    return value


def _address(value: object) -> str:
    return text(value, "address", "a street address of up to 300 characters", 300)


def _member(ev: Raw) -> ClubMemberEvent:
    out: ClubMemberEvent = {
        "type": "member",
        "name": text(ev.get("name"), "member", "a member's name"),
        "role": one_of(ev.get("role", "regular"), ROLES, "role", "regular or substitute"),
    }
    email = ev.get("email")
    if email is not None:
        if not isinstance(email, str) or len(email) > 254 or not EMAIL.match(email.strip()):
            raise InvalidEvent(
                f"email {shown(email, QUOTED)}", expected="an address such as ann@example.org"
            )
        out["email"] = email.strip()
    if ev.get("address") is not None:
        out["address"] = _address(ev["address"])
    return out


def _leave(ev: Raw) -> ClubLeaveClubEvent:
    return {"type": "leave_club", "name": text(ev.get("name"), "member", "a member's name")}


def night_id(value: object) -> str:
    """A night's id in the store."""
    if not isinstance(value, str) or not NIGHT_ID.match(value):
        raise InvalidEvent(
            f"night {shown(value, QUOTED)} is not a night's id",
            expected="the id of a night in the store",
        )
    return value


def _night(ev: Raw) -> ClubNightEvent:
    out: ClubNightEvent = {"type": "night", "night": night_id(ev.get("night"))}
    if ev.get("date") is not None:
        out["date"] = day(ev["date"])
    guests = ev.get("guests")
    if guests:
        if not isinstance(guests, list) or len(guests) > 200:
            raise InvalidEvent("guests must be a list of names", expected='["Kim", ...]')
        out["guests"] = [text(g, "guest", "a guest's name") for g in guests]
    if ev.get("digest") is not None:
        out["digest"] = _hex64(ev["digest"], "digest is not a SHA-256")
    return out


def _payment(ev: Raw) -> ClubPaymentEvent:
    player = text(ev.get("player"), "player", "a member's name")
    try:
        amount = parse_amount(ev.get("amount"), "amount")
    except InvalidSetup as exc:
        raise InvalidEvent(exc.message, expected=exc.expected) from None
    if amount == 0:
        raise InvalidEvent("a payment of 0", expected="an amount above 0")
    out: ClubPaymentEvent = {"type": "payment", "player": player, "amount": money_text(amount)}
    if ev.get("note") is not None:
        out["note"] = text(ev["note"], "note", "a short note", 200)
    return out


def clock_time(value: object) -> str:
    """A time of day as HH:MM."""
    if not isinstance(value, str) or not TIME.match(value):
        raise InvalidEvent(f"time {shown(value, QUOTED)}", expected="a time as HH:MM, e.g. 19:00")
    return value


def _plan(ev: Raw) -> ClubPlanEvent:
    out: ClubPlanEvent = {"type": "plan", "date": day(ev.get("date"))}
    if ev.get("time") is not None:
        out["time"] = clock_time(ev["time"])
    if ev.get("address") is not None:
        out["address"] = _address(ev["address"])
    if ev.get("host") is not None:
        out["host"] = text(ev["host"], "host", "a member's name")
    if ev.get("seats") is not None:
        out["seats"] = count(ev["seats"], "seats", 2, 200)
    if ev.get("deadline") is not None:
        out["deadline"] = deadline(ev["deadline"])
    return out


def deadline(value: Any) -> str:
    """An answers' deadline: a date and time as YYYY-MM-DDTHH:MM (the club's time)."""
    if isinstance(value, str) and DEADLINE.match(value):
        day(value[:10], "deadline")
        return value
    raise InvalidEvent(
        f"deadline {shown(value, QUOTED)}",
        expected="a date and time as YYYY-MM-DDTHH:MM, e.g. 2026-02-07T18:00",
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
        f"time zone {shown(value, QUOTED)}",
        expected="an IANA time zone name such as America/Chicago or UTC",
    )


def _cancel_plan(ev: Raw) -> ClubCancelPlanEvent:
    return {"type": "cancel_plan", "date": day(ev.get("date"))}


def _deadline_passed(ev: Raw) -> ClubDeadlinePassedEvent:
    return {"type": "deadline_passed", "date": day(ev.get("date"))}


def _cancel_night(ev: Raw) -> ClubCancelNightEvent:
    return {"type": "cancel_night", "night": night_id(ev.get("night"))}


def _move_plan(ev: Raw) -> ClubMovePlanEvent:
    out: ClubMovePlanEvent = {
        "type": "move_plan",
        "date": day(ev.get("date")),
        "to": day(ev.get("to"), "new date"),
    }
    if out["to"] == out["date"]:
        raise InvalidEvent("a night moved to its own date", expected="another date")
    if ev.get("time") is not None:
        out["time"] = clock_time(ev["time"])
    if ev.get("deadline") is not None:
        out["deadline"] = deadline(ev["deadline"])
    return out


def _push_keys(ev: Raw) -> ClubPushKeysEvent:
    keys: list[str] = []
    for key in ("public", "private"):
        value = ev.get(key)
        if not isinstance(value, str) or not 0 < len(value) <= 400:
            raise InvalidEvent(f"push key {key} is missing", expected="the server's keys")
        keys.append(value)
    out: ClubPushKeysEvent = {"type": "push_keys", "public": keys[0], "private": keys[1]}
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
    return out


def _endpoint(value: object) -> str:
    if (
        not isinstance(value, str)
        or not value.startswith(("https://", "http://"))
        or len(value) > 1000
        or any(c.isspace() for c in value)
    ):
        raise InvalidEvent(
            f"endpoint {shown(value)} is not a push address",
            expected="the https address the phone's browser gave",
        )
    return value


def _unpush(ev: Raw) -> ClubUnpushEvent:
    return {"type": "unpush", "endpoint": _endpoint(ev.get("endpoint"))}


def _push(ev: Raw) -> ClubPushEvent:
    endpoint = _endpoint(ev.get("endpoint"))
    name = text(ev.get("name"), "member", "a member's name")
    keys: list[str] = []
    for key in ("p256dh", "auth"):
        value = ev.get(key)
        if not isinstance(value, str) or not B64URL.match(value):
            raise InvalidEvent(f"{key} is not a key", expected="the key the phone's browser gave")
        keys.append(value)
    return {
        "type": "push",
        "endpoint": endpoint,
        "name": name,
        "p256dh": keys[0],
        "auth": keys[1],
    }


def _notified(ev: Raw) -> ClubNotifiedEvent:
    kind = one_of(ev.get("kind"), NOTICE_KINDS, "notice", "one of " + ", ".join(NOTICE_KINDS))
    out: ClubNotifiedEvent = {
        "type": "notified",
        "kind": kind,
        "names": _names(ev.get("names"), "notified", 1, 200),
    }
    if ev.get("date") is not None:
        out["date"] = day(ev["date"])
    return out


def _recovery(ev: Raw) -> ClubRecoveryEvent:
    code_hash = _hex64(
        ev.get("hash"), "a recovery code's hash is not a SHA-256", expected="64 hex digits"
    )
    sealed = ev.get("sealed")
    if not isinstance(sealed, str) or not B64URL.match(sealed):
        raise InvalidEvent("the sealed token is not text", expected="base64url text")
    return {"type": "recovery", "hash": code_hash, "sealed": sealed}


def _names(value: object, what: str, low: int, high: int) -> list[str]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise InvalidEvent(f"{what} must list {low} to {high} names", expected='["Ann", "Bea"]')
    names = [text(v, "name", "a member's name") for v in value]
    if len(set(names)) != len(names):
        raise InvalidEvent(f"{what} names someone twice", expected="each name once")
    return names


def _ladder(ev: Raw) -> ClubLadderEvent:
    measure = one_of(
        ev.get("measure", "wins"), MEASURES, "measure", "one of " + ", ".join(MEASURES)
    )
    average = ev.get("average", False)
    if not isinstance(average, bool):
        raise InvalidEvent("average must be true or false", expected="true or false")
    out: ClubLadderEvent = {
        "type": "ladder",
        "measure": measure,
        "average": average,
        "min_nights": count(ev.get("min_nights", 0), "min_nights", 0, 100),
    }
    if ev.get("best") is not None and ev.get("drop") is not None:
        raise InvalidEvent(
            "best and drop both given", expected="best N nights, or drop the worst N, not both"
        )
    if ev.get("best") is not None:
        out["best"] = count(ev["best"], "best", 1, 100)
    if ev.get("drop") is not None:
        out["drop"] = count(ev["drop"], "drop", 0, 100)
    points = ev.get("place_points")
    if measure == "place_points" or points is not None:
        if (
            not isinstance(points, list)
            or not 1 <= len(points) <= 100
            or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points)
        ):
            raise InvalidEvent(
                f"place_points {shown(points, QUOTED)}",
                expected="points for 1st, 2nd, ... place, e.g. [10, 8, 6, 5]",
            )
        out["place_points"] = [int(p) for p in points]
    return out


def _mail(ev: Raw) -> ClubMailEvent:
    host = text(ev.get("host"), "SMTP host", "the SMTP server's host name", 253)
    port = count(ev.get("port", 25), "port", 1, 65535)
    sender = ev.get("sender")
    if not isinstance(sender, str) or not EMAIL.match(sender.strip()):
        raise InvalidEvent(
            f"sender {shown(sender, QUOTED)}", expected="the address reminders come from"
        )
    out: ClubMailEvent = {"type": "mail", "host": host, "port": port, "sender": sender.strip()}
    if ev.get("username") is not None:
        out["username"] = text(ev["username"], "username", "the SMTP username", 200)
    if ev.get("password") is not None:
        out["password"] = text(ev["password"], "password", "the SMTP password", 200)
    starttls = ev.get("starttls", False)
    if not isinstance(starttls, bool):
        raise InvalidEvent("starttls must be true or false", expected="true or false")
    out["starttls"] = starttls
    return out


def _season(ev: Raw) -> ClubSeasonEvent:
    return {
        "type": "season",
        "name": text(ev.get("name"), "season", "a season's name such as 2026"),
    }


def _host(ev: Raw) -> ClubHostEvent:
    month = ev.get("month")
    if not isinstance(month, str) or not MONTH.match(month):
        raise InvalidEvent(
            f"month {shown(month, QUOTED)}", expected="a month as YYYY-MM, e.g. 2026-01"
        )
    return {"type": "host", "month": month, "host": text(ev.get("host"), "host", "a member's name")}


def _rotation(ev: Raw) -> ClubRotationEvent:
    return {"type": "rotation", "order": _names(ev.get("order"), "the rotation", 1, 200)}


def _swap_hosts(ev: Raw) -> ClubSwapHostsEvent:
    dates = ev.get("dates")
    if not isinstance(dates, list) or len(dates) != 2:
        raise InvalidEvent("swap_hosts needs two dates", expected='["2026-02-10", "2026-03-10"]')
    out: ClubSwapHostsEvent = {"type": "swap_hosts", "dates": [day(d) for d in dates]}
    if out["dates"][0] == out["dates"][1]:
        raise InvalidEvent("swap_hosts names one night twice", expected="two different dates")
    return out


def _rsvp(ev: Raw) -> ClubRsvpEvent:
    date = day(ev.get("date"))
    name = text(ev.get("name"), "member", "a member's name")
    answer = one_of(ev.get("answer"), ANSWERS, "answer", "yes, no or maybe")
    return {"type": "rsvp", "date": date, "name": name, "answer": answer}


def _link(ev: Raw) -> ClubLinkEvent:
    what = one_of(ev.get("for"), LINK_KINDS, "a link for", "member, night, season or calendar")
    subject = text(ev.get("subject"), "subject", "a member, night id or season")
    link_hash = _hex64(ev.get("hash"), "a link's hash is not a SHA-256")
    return {"type": "link", "for": what, "subject": subject, "hash": link_hash}


def _unlink(ev: Raw) -> ClubUnlinkEvent:
    return {"type": "unlink", "hash": _hex64(ev.get("hash"), "a link's hash is not a SHA-256")}


def _reminded(ev: Raw) -> ClubRemindedEvent:
    date = day(ev.get("date"))
    return {"type": "reminded", "date": date, "names": _names(ev.get("names"), "reminded", 1, 200)}


def _timezone(ev: Raw) -> ClubTimezoneEvent:
    return {"type": "timezone", "zone": zone(ev.get("zone"))}


_BY_KIND: dict[str, Callable[[Raw], ClubEvent]] = {
    "member": _member,
    "leave_club": _leave,
    "season": _season,
    "host": _host,
    "night": _night,
    "payment": _payment,
    "plan": _plan,
    "cancel_plan": _cancel_plan,
    "move_plan": _move_plan,
    "deadline_passed": _deadline_passed,
    "cancel_night": _cancel_night,
    "rotation": _rotation,
    "swap_hosts": _swap_hosts,
    "rsvp": _rsvp,
    "link": _link,
    "unlink": _unlink,
    "ladder": _ladder,
    "mail": _mail,
    "reminded": _reminded,
    "timezone": _timezone,
    "push_keys": _push_keys,
    "push": _push,
    "unpush": _unpush,
    "notified": _notified,
    "recovery": _recovery,
}
assert list(_BY_KIND) == list(CLUB_EVENT_TYPES)


def normalize_club_event(event: object) -> ClubEvent:
    """The canonical form of a club event (a JSON object as given, or a typed event);
    raises :class:`InvalidEvent`."""
    given = event.get("type") if isinstance(event, Mapping) else None
    check = _BY_KIND.get(given) if isinstance(given, str) else None
    if check is None:
        kind = event.get("type") if isinstance(event, Mapping) else type(event).__name__
        raise InvalidEvent(
            f"unknown club event {shown(kind, QUOTED)}",
            expected="one of " + ", ".join(CLUB_EVENT_TYPES),
        )
    assert isinstance(event, Mapping)
    out = check(event)
    for key in ("id", "at"):
        if key in event:
            out[key] = event[key]
    return out
