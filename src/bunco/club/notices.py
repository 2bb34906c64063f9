"""What members are told, and when: the notices a change of the club's month brings.

Compared before and after a change (an answer, a deadline passing, a night cancelled or
moved), for every night to come:

- ``seat_yours``: a sub (or a regular waiting in line) now holds a seat they did not
  hold; not told to whoever's own answer just gave it to them (they see it at once);
- ``seat_open``: a seat opened, and is offered to the subs it was not offered to before;
- ``cancelled``: the night is called off (to every member);
- ``moved``: the night moved to another date or time (to every member).

And, when its time comes (:func:`bunco.club.month.reminders_due`), ``answer_by``: the
regulars who have not answered are asked to answer by the deadline.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club"}).apply_all(
...     [{"type": "member", "name": n} for n in ("Ann", "Bea")]
...     + [{"type": "member", "name": "Zoe", "role": "substitute"},
...        {"type": "plan", "date": "2026-02-10", "time": "19:00"}])
>>> after = club.apply({"type": "rsvp", "date": "2026-02-10", "name": "Bea", "answer": "no"})
>>> [(n.kind, n.names) for n in notices(club, after)]
[('seat_open', ('Zoe',))]
>>> notices(club, after)[0].title
'Tuesday Club: a seat is open on Tue 10 Feb'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date

from bunco.club.club import Club, Plan
from bunco.club.plans import attendance, offered, upcoming
from bunco.core.club_events import NoticeKind


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell some members (on their phones, and by email where the club has a
    mail server and they an address)."""

    kind: NoticeKind  # seat_open, seat_yours, answer_by, cancelled, moved
    date: str  # the night's date (its new date, for a moved night)
    names: tuple[str, ...]
    title: str
    body: str


def day_words(date: str) -> str:
    """A date as people say it: ``Tue 10 Feb``."""
    return Date.fromisoformat(date).strftime("%a %d %b").replace(" 0", " ")


def when_words(plan: Plan) -> str:
    return day_words(plan.date) + (f" at {plan.time}" if plan.time else "")


def notices(before: Club, after: Club) -> list[Notice]:
    """The notices a change from ``before`` to ``after`` brings (see the module)."""
    out: list[Notice] = []
    name = after.name
    members = tuple(after.members)
    by_uid = {p.uid: p for p in before.plans.values()}
    for date, plan in after.plans.items():
        old = by_uid.get(plan.uid)
        if old is None:
            continue
        if plan.cancelled and not old.cancelled:
            out.append(
                Notice(
                    "cancelled",
                    date,
                    members,
                    f"{name}: the night of {day_words(date)} is cancelled",
                    f"{name} will not play on {when_words(plan)}.",
                )
            )
        elif (plan.date, plan.time) != (old.date, old.time) and not plan.cancelled:
            out.append(
                Notice(
                    "moved",
                    date,
                    members,
                    f"{name}: the night of {day_words(old.date)} moves to {day_words(date)}",
                    f"{name} now plays on {when_words(plan)}. Your answer stays as it was: "
                    "change it on your page if the new date does not suit you.",
                )
            )
    for date in upcoming(after):
        if date not in before.plans or before.plans[date].cancelled:
            continue
        out += _seats(before, after, date)
    return out


def _seats(before: Club, after: Club, date: str) -> list[Notice]:
    was, now = attendance(before, date), attendance(after, date)
    answered = {n for n, a in now.answers.items() if was.answers.get(n) != a}
    plan = after.plans[date]
    out: list[Notice] = []
    got = tuple(n for n in now.roster if n not in was.roster and n not in answered)
    if got:
        out.append(
            Notice(
                "seat_yours",
                date,
                got,
                f"{after.name}: you have a seat on {day_words(date)}",
                f"A seat opened and it is yours: {after.name} plays on {when_words(plan)}"
                + (f", hosted by {plan.host}" if plan.host else "")
                + ". If you cannot come after all, say no on your page.",
            )
        )
    newly = tuple(s for s in offered(after, now) if s not in offered(before, was))
    if newly:
        out.append(
            Notice(
                "seat_open",
                date,
                newly,
                f"{after.name}: a seat is open on {day_words(date)}",
                f"{after.name} plays on {when_words(plan)} and a seat is open. "
                "The first to say yes on their page takes it.",
            )
        )
    return out


def answer_by(club: Club, date: str) -> Notice | None:
    """The "answer by" notice of a night: to the regulars who have not answered."""
    plan = club.plans[date]
    seats = attendance(club, date)
    names = tuple(n for n in club.regulars if n not in seats.answers)
    if not names or plan.deadline is None:
        return None
    deadline = plan.deadline.replace("T", " at ")
    return Notice(
        "answer_by",
        date,
        names,
        f"{club.name}: are you coming on {day_words(date)}?",
        f"{club.name} plays on {when_words(plan)}. Please answer on your page by {deadline}: "
        "after that, seats without a yes go to the substitutes.",
    )


def please_answer(club: Club, date: str, names: list[str]) -> Notice:
    """The organizer's reminder, to ``names`` (who have not answered), on their phones."""
    plan = club.plans[date]
    by = f" by {plan.deadline.replace('T', ' at ')}" if plan.deadline else ""
    return Notice(
        "answer_by",
        date,
        tuple(names),
        f"{club.name}: are you coming on {day_words(date)}?",
        f"{club.name} plays on {when_words(plan)}. Please answer on your page{by}.",
    )
