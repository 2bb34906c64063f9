"""Who is coming to a planned night: the answers, the seats, the subs and the roster.

A planned night has one seat per regular (or the seats it was planned with). Every regular
holds a seat until they answer "no"; a seat that is open (a "no", or more seats than
regulars) is offered to every substitute who has not said no, through their personal
links. The first substitute to say yes takes it; later yeses wait in the order they came
and take the next seat that opens. A sub who holds a seat and then says no opens it again
(the first in line takes it). A regular who said no and then yes takes an open seat, or
waits first in line. When the answers' deadline passes (``deadline_passed``), every
regular who has not said yes (no answer, or maybe) gives up their seat to the subs in
line; a yes from them afterwards puts them first in line. The roster is the regulars
holding seats in club order, each regular who is out replaced in their place by the subs
who took the seats.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club"}).apply_all(
...     [{"type": "member", "name": n} for n in ("Ann", "Bea", "Cat", "Dee")]
...     + [{"type": "member", "name": n, "role": "substitute"} for n in ("Zoe", "Yan")]
...     + [{"type": "plan", "date": "2026-02-10"},
...        {"type": "rsvp", "date": "2026-02-10", "name": "Bea", "answer": "no"},
...        {"type": "rsvp", "date": "2026-02-10", "name": "Yan", "answer": "yes"},
...        {"type": "rsvp", "date": "2026-02-10", "name": "Zoe", "answer": "yes"}])
>>> seats = attendance(club, "2026-02-10")
>>> seats.roster, seats.subs_in, seats.waiting
(['Ann', 'Yan', 'Cat', 'Dee'], ['Yan'], ['Zoe'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bunco.club.club import Club, Plan
from bunco.club.view_types import AttendanceView, SeatState, SubIn

TABLE = 4  # players at a table


@dataclass(slots=True)
class Attendance:
    """A planned night's answers and seats, as they stand after every answer so far."""

    date: str
    seats: int
    answers: dict[str, str] = field(default_factory=dict)  # name -> yes, no, maybe
    holders: list[str] = field(default_factory=list)  # regulars holding a seat
    subs_in: list[str] = field(default_factory=list)  # subs who took a seat, in order
    waiting: list[str] = field(default_factory=list)  # in line for the next open seat
    taken: list[tuple[str, str | None]] = field(default_factory=list)  # (sub, whose seat)
    roster: list[str] = field(default_factory=list)

    @property
    def open_seats(self) -> int:
        return max(0, self.seats - len(self.holders) - len(self.subs_in))

    @property
    def tables(self) -> int:
        """Tables needed for everyone holding a seat (four to a table)."""
        return -(-len(self.roster) // TABLE)


def _seat_count(club: Club, plan: Plan) -> int:
    return plan.seats or max(len(club.regulars), 2)


def attendance(club: Club, date: str) -> Attendance:
    """The answers and seats of the night planned on ``date`` (see the module's rules)."""
    plan = club.plans[date]
    regulars = club.regulars
    subs = club.substitutes
    out = Attendance(date, _seat_count(club, plan), holders=list(regulars))
    out.holders = out.holders[: out.seats]  # more regulars than seats: the first ones
    out.waiting = [r for r in regulars if r not in out.holders]

    def fill() -> None:
        while out.open_seats and out.waiting:
            who = out.waiting.pop(0)
            if who in regulars:
                out.holders.append(who)
            else:
                out.subs_in.append(who)
                out.taken.append((who, _whose_seat(out, regulars)))

    for when, name, answer in club.rsvps:
        if when != date:
            continue
        if name == "":  # the deadline passed: who has not said yes gives up their seat
            for regular in [r for r in out.holders if out.answers.get(r) != "yes"]:
                out.holders.remove(regular)
            out.waiting = [
                w for w in out.waiting if w not in regulars or out.answers.get(w) == "yes"
            ]
            fill()
            continue
        if name not in club.members:
            continue
        out.answers[name] = answer
        if name in regulars:
            if answer == "no":
                if name in out.holders:
                    out.holders.remove(name)
                if name in out.waiting:
                    out.waiting.remove(name)
            elif name not in out.holders and name not in out.waiting:
                out.waiting.insert(0, name)  # a regular comes before the subs in line
        elif name in subs:
            if answer == "yes":
                if name not in out.subs_in and name not in out.waiting:
                    out.waiting.append(name)
            else:
                if name in out.subs_in:
                    out.subs_in.remove(name)
                    out.taken = [t for t in out.taken if t[0] != name]
                if name in out.waiting:
                    out.waiting.remove(name)
        fill()
    fill()
    out.roster = _roster(regulars, out)
    return out


def _whose_seat(out: Attendance, regulars: tuple[str, ...]) -> str | None:
    """The regular whose seat a sub just took (the first out not yet replaced)."""
    replaced = {whose for _, whose in out.taken}
    return next((r for r in regulars if r not in out.holders and r not in replaced), None)


def _roster(regulars: tuple[str, ...], out: Attendance) -> list[str]:
    instead = {whose: sub for sub, whose in out.taken if whose is not None}
    roster: list[str] = []
    for regular in regulars:
        if regular in out.holders:
            roster.append(regular)
        elif regular in instead:
            roster.append(instead[regular])
    roster += [s for s in out.subs_in if s not in roster]
    return roster


def offered(club: Club, seats: Attendance) -> list[str]:
    """The subs a seat is offered to now (every sub not holding or waiting who has not
    said no), in the order of the club's substitute list."""
    if not seats.open_seats:
        return []
    return [
        s
        for s in club.substitutes
        if s not in seats.subs_in and s not in seats.waiting and seats.answers.get(s) != "no"
    ]


def attendance_view(club: Club, date: str) -> AttendanceView:
    """Who is coming to the night on ``date``: answers, the count against the seats and
    tables, who has not answered, the subs in, waiting and offered, and the roster."""
    plan = club.plans[date]
    seats = attendance(club, date)
    coming = [n for n in seats.roster if seats.answers.get(n) == "yes"]
    played = club.night_on(date)
    return {
        "date": date,
        "time": plan.time,
        "host": plan.host,
        "address": club.address_of(plan),
        "season": plan.season,
        "seats": seats.seats,
        "tables": seats.tables,
        "coming": coming,
        "maybe": [n for n in seats.roster if seats.answers.get(n) == "maybe"],
        "not_answered": [n for n in club.regulars if n not in seats.answers],
        "not_coming": [n for n, a in seats.answers.items() if a == "no" and n in club.members],
        "subs_in": [SubIn({"sub": s, "for": w}) for s, w in seats.taken],
        "waiting": seats.waiting,
        "offered_to": offered(club, seats),
        "open_seats": seats.open_seats,
        "roster": seats.roster,
        "night": played.night if played else None,
        "deadline": plan.deadline,
        "deadline_passed": any(a.date == date and a.name == "" for a in club.rsvps),
        "cancelled": plan.cancelled,
    }


def upcoming(club: Club) -> list[str]:
    """The dates of planned nights not yet started nor cancelled, soonest first."""
    return [d for d, p in club.plans.items() if club.night_on(d) is None and not p.cancelled]


def seat_of(club: Club, seats: Attendance, name: str) -> SeatState:
    """Where a member stands for a night: ``seat`` (holds one), ``waiting`` (with their
    number in line), ``offered`` (a seat is open: a yes takes it), ``full`` (a sub who has
    not said yes while every seat is held: a yes would put them in line, at ``in_line``),
    or None (a regular who said no, a sub who said no)."""
    if name in seats.roster:
        return {"seat": "seat"}
    if name in seats.waiting:
        return {"seat": "waiting", "in_line": seats.waiting.index(name) + 1}
    if name in offered(club, seats):
        return {"seat": "offered"}
    if club.members.get(name) == "substitute" and seats.answers.get(name) != "no":
        return {"seat": "full", "in_line": len(seats.waiting) + 1}
    return {"seat": None}
