"""Reminder emails: to each member who has not answered for a planned night, with their
personal link (composed here; sent by the server or the command line through the SMTP
server the club configured).

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club"}).apply_all(
...     [{"type": "member", "name": "Ann", "email": "ann@example.org"},
...      {"type": "member", "name": "Bea"}, {"type": "plan", "date": "2026-02-10"},
...      {"type": "mail", "host": "localhost", "sender": "club@example.org"}])
>>> to_remind(club, "2026-02-10")
(['Ann'], ['Bea'])
>>> message = reminder(club, "2026-02-10", "Ann", "https://bunco.example/c/c1/me?token=t")
>>> message["To"], message["Subject"]
('Ann <ann@example.org>', 'Tuesday Club on 2026-02-10: are you coming?')
"""

from __future__ import annotations

from email.headerregistry import Address
from email.message import EmailMessage

from bunco.club.club import Club
from bunco.club.plans import attendance
from bunco.core.errors import InvalidSetup


def to_remind(club: Club, date: str) -> tuple[list[str], list[str]]:
    """The regulars (and subs offered nothing) who have not answered for ``date``: those
    with an email address, and those without one."""
    if date not in club.plans:
        raise InvalidSetup(
            f"there is no night planned on {date}", expected="the date of a planned night"
        )
    if club.night_on(date) is not None:
        raise InvalidSetup(f"the night of {date} has started", expected="a night to come")
    answered = attendance(club, date).answers
    waiting = [n for n in club.regulars if n not in answered]
    with_mail = [n for n in waiting if club.contacts.get(n, {}).get("email")]
    return with_mail, [n for n in waiting if n not in with_mail]


def reminder(club: Club, date: str, name: str, url: str) -> EmailMessage:
    """The reminder to one member: when, where, who hosts, and their link to answer."""
    if club.mail is None:
        raise InvalidSetup(
            f"{club.name} has no mail server",
            expected="the club's SMTP server first (host, port, sender)",
        )
    plan = club.plans[date]
    address = club.address_of(plan)
    message = EmailMessage()
    message["From"] = Address(club.name, addr_spec=club.mail["sender"])
    message["To"] = Address(name, addr_spec=club.contacts[name]["email"])
    message["Subject"] = f"{club.name} on {date}: are you coming?"
    lines = [
        f"Hello {name},",
        "",
        f"{club.name} plays Bunco on {date}"
        + (f" at {plan.time}" if plan.time else "")
        + (f", hosted by {plan.host}" if plan.host else "")
        + ".",
        *([f"Where: {address}"] if address else []),
        "",
        "Please say whether you are coming (yes, no or maybe):",
        url,
        "",
        "If you cannot come, your seat is offered to the club's substitutes.",
    ]
    message.set_content("\n".join(lines) + "\n")
    return message


def notice_mail(club: Club, title: str, body: str, name: str) -> EmailMessage | None:
    """A notice (a seat opened, a night cancelled, ...) as an email to one member, or None
    when the club has no mail server or the member no address. It carries no link: the
    member answers on the page their personal link opens."""
    email = club.contacts.get(name, {}).get("email")
    if club.mail is None or not email:
        return None
    message = EmailMessage()
    message["From"] = Address(club.name, addr_spec=club.mail["sender"])
    message["To"] = Address(name, addr_spec=email)
    message["Subject"] = title
    message.set_content(
        f"Hello {name},\n\n{body}\n\nYour page is the personal link the club sent you.\n"
    )
    return message
