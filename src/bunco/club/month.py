"""The club's month, changed: a planned night cancelled or moved, the answers' deadline
passing, and a night that was started and never played taken back.

- ``cancel_plan``: the night is called off. It stays in the club's calendar with its
  status cancelled (a subscribed calendar shows it struck through), takes no more answers
  and is no night to come.
- ``move_plan``: the night moves to another date (and time). Its answers go with it; its
  deadline moves by as many days (or to the one given), and a deadline that had passed
  counts again from the new one. Its calendar event keeps its id and is one version on.
- ``deadline_passed``: from then on, the seat of every regular who has not said yes (no
  answer, or maybe) goes to the subs in line (see :mod:`bunco.club.plans`).
- ``cancel_night``: the club forgets a night it started (its roster, dues and pot): the
  caller checks that the night has no roll. Its planned date is a night to come again.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club"}).apply_all(
...     [{"type": "member", "name": "Ann"}, {"type": "member", "name": "Bea"},
...      {"type": "plan", "date": "2026-02-10", "deadline": "2026-02-07T18:00"},
...      {"type": "rsvp", "date": "2026-02-10", "name": "Ann", "answer": "yes"},
...      {"type": "move_plan", "date": "2026-02-10", "to": "2026-02-17"}])
>>> plan = club.plans["2026-02-17"]
>>> plan.uid, plan.sequence, plan.deadline, [a.name for a in club.rsvps if a.date == plan.date]
('2026-02-10', 1, '2026-02-14T18:00', ['Ann'])
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date as Date
from datetime import datetime, timedelta
from typing import Protocol, TypeAlias, TypeVar

from bunco.club.records import Answer, ClubNight, Plan
from bunco.core.club_events import (
    ClubCancelNightEvent,
    ClubCancelPlanEvent,
    ClubDeadlinePassedEvent,
    ClubMovePlanEvent,
    Told,
)
from bunco.core.errors import InvalidSetup
from bunco.core.evolve import evolve


class _Club(Protocol):
    """What the month's changes read of a club (:class:`bunco.club.club.Club`)."""

    @property
    def name(self) -> str: ...
    @property
    def plans(self) -> Mapping[str, Plan]: ...
    @property
    def rsvps(self) -> tuple[Answer, ...]: ...
    @property
    def nights(self) -> tuple[ClubNight, ...]: ...
    @property
    def timezone(self) -> str | None: ...
    @property
    def notified(self) -> tuple[Told, ...]: ...
    def night_on(self, date: str) -> ClubNight | None: ...


Club = TypeVar("Club", bound=_Club)

MONTH_EVENTS = ("cancel_plan", "move_plan", "deadline_passed", "cancel_night")
DEADLINE = "deadline"  # the answer an Answer carries when the deadline passed
MonthEvent: TypeAlias = (
    ClubCancelPlanEvent | ClubMovePlanEvent | ClubDeadlinePassedEvent | ClubCancelNightEvent
)
"""One of the month's own events (:data:`MONTH_EVENTS`)."""


def apply_month(club: Club, ev: MonthEvent) -> Club:
    """The club after one of :data:`MONTH_EVENTS`; raises InvalidSetup and changes nothing."""
    if ev["type"] == "cancel_night":
        return _cancel_night(club, ev["night"])
    plan = _planned(club, ev["date"])
    if ev["type"] == "deadline_passed":
        if plan.cancelled or deadline_passed(club, plan.date):
            return club  # said once already (two servers may say it at once)
        return evolve(club, rsvps=(*club.rsvps, Answer(plan.date, "", DEADLINE)))
    if plan.cancelled:
        raise InvalidSetup(
            f"the night of {plan.date} is cancelled already", expected="a night to come"
        )
    night = club.night_on(plan.date)
    if night is not None:
        raise InvalidSetup(
            f"the night of {plan.date} has been started (night {night.night})",
            expected="a night not yet started (cancel the started night first, if it "
            "has no roll yet)",
        )
    if ev["type"] == "cancel_plan":
        return evolve(
            club,
            plans={
                **club.plans,
                plan.date: evolve(plan, cancelled=True, sequence=plan.sequence + 1),
            },
        )
    return _move(club, plan, ev)


def deadline_passed(club: _Club, date: str) -> bool:
    """Whether the answers' deadline of the night planned on ``date`` has passed (as the
    club's log says: the server records it when the time comes)."""
    return any(a.date == date and a.name == "" for a in club.rsvps)


def _planned(club: _Club, date: str) -> Plan:
    if date not in club.plans:
        raise InvalidSetup(
            f"there is no night planned on {date}",
            expected="the date of a planned night: " + (", ".join(club.plans) or "plan one first"),
        )
    return club.plans[date]


def _move(club: Club, plan: Plan, ev: ClubMovePlanEvent) -> Club:
    to = ev["to"]
    there = club.plans.get(to)
    if there is not None and not there.cancelled:
        raise InvalidSetup(
            f"a night is planned on {to} already", expected="a date with no night planned"
        )
    if club.night_on(to) is not None:
        raise InvalidSetup(f"a night was played on {to}", expected="a date with no night played")
    deadline = ev.get("deadline")
    if deadline is None and plan.deadline is not None:
        days = (Date.fromisoformat(to) - Date.fromisoformat(plan.date)).days
        moved = datetime.fromisoformat(plan.deadline) + timedelta(days=days)
        deadline = moved.strftime("%Y-%m-%dT%H:%M")
    if deadline is not None and deadline[:10] > to:
        raise InvalidSetup(
            f"the answers' deadline {deadline} is after the night ({to})",
            expected="a deadline on or before the night's date",
        )
    new = evolve(
        plan,
        date=to,
        time=ev.get("time", plan.time),
        deadline=deadline,
        sequence=plan.sequence + 1,
    )
    plans = {d: p for d, p in club.plans.items() if d != plan.date}
    plans[to] = new
    answers = tuple(
        a._replace(date=to) if a.date == plan.date else a
        for a in club.rsvps
        if not (a.date == plan.date and a.name == "") and a.date != to
    )
    return evolve(club, plans=dict(sorted(plans.items())), rsvps=answers)


def _cancel_night(club: Club, night: str) -> Club:
    if not any(n.night == night for n in club.nights):
        raise InvalidSetup(
            f"night {night!r} is not a night of {club.name}",
            expected="one of " + (", ".join(n.night for n in club.nights) or "(none)"),
        )
    return evolve(club, nights=tuple(n for n in club.nights if n.night != night))


def local_time(club: _Club, stamp: str) -> datetime:
    """A club time (YYYY-MM-DDTHH:MM) as an aware datetime: in the club's time zone, or
    the machine's for a club without one."""
    from zoneinfo import ZoneInfo

    naive = datetime.fromisoformat(stamp)
    return naive.replace(tzinfo=ZoneInfo(club.timezone)) if club.timezone else naive.astimezone()


def due_deadlines(club: _Club, now: datetime) -> list[str]:
    """The nights to come whose answers' deadline is past ``now`` (an aware datetime) and
    not yet recorded as passed."""
    return [
        date
        for date, plan in club.plans.items()
        if plan.deadline
        and not plan.cancelled
        and club.night_on(date) is None
        and not deadline_passed(club, date)
        and local_time(club, plan.deadline) <= now
    ]


REMIND_BEFORE = timedelta(hours=48)  # "answer by ..." goes out this long before the deadline


def reminders_due(club: _Club, now: datetime) -> list[str]:
    """The nights to come whose "answer by" notice is due (the deadline within
    :data:`REMIND_BEFORE` of ``now``, not passed) and not sent yet."""
    told = {n.get("date") for n in club.notified if n["kind"] == "answer_by"}
    return [
        date
        for date, plan in club.plans.items()
        if plan.deadline
        and date not in told
        and not plan.cancelled
        and club.night_on(date) is None
        and not deadline_passed(club, date)
        and now < local_time(club, plan.deadline) <= now + REMIND_BEFORE
    ]
