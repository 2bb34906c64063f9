"""``bunco club`` for a club's month: nights to come, who is coming, the calendar, the
standings rules, links and reminders.

- ``bunco club plan CLUB 2026-02-10 --time 19:00 [--host Bea] [--address ...]``
- ``bunco club swap-hosts CLUB 2026-02-10 2026-03-10``, ``bunco club rotation CLUB Ann Bea ...``
- ``bunco club rsvp CLUB 2026-02-10 Dee no``, ``bunco club coming CLUB 2026-02-10 [--json]``
- ``bunco club calendar CLUB --out club.ics [--date 2026-02-10]``
- ``bunco club ladder CLUB --min-nights 2 --best 3 --measure points --average``
- ``bunco club links CLUB --token T --base-url URL``, ``bunco club share CLUB --season 2026
  --token T --base-url URL``
- ``bunco club mail CLUB --smtp-host mail.example.org --sender club@example.org``,
  ``bunco club remind CLUB 2026-02-10 --token T --base-url URL``
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bunco.cli.app import console, fail, print_json, refusals
from bunco.cli.club_db import (
    BaseUrlOption,
    DbOption,
    JsonOption,
    TokenOption,
    append,
    checked,
    club_app,
    decide,
    open_club,
    organizer_token,
)

if TYPE_CHECKING:
    from bunco.club.club import Club
    from bunco.club.view_types import AttendanceView
    from bunco.core.club_events import ClubEvent, LinkKind

DEFAULT_BASE = "http://127.0.0.1:8000"


@club_app.command("plan")
def plan(
    club: str,
    date: Annotated[str, typer.Argument(help="YYYY-MM-DD")],
    time: Annotated[str | None, typer.Option(help="HH:MM")] = None,
    host: Annotated[str | None, typer.Option(help="Who hosts (default: whose turn it is).")] = None,
    address: Annotated[
        str | None, typer.Option(help="Where (default: the host's address).")
    ] = None,
    seats: Annotated[int | None, typer.Option(help="Seats (default: one per regular).")] = None,
    deadline: Annotated[
        str | None,
        typer.Option(
            help="Answer by then, YYYY-MM-DDTHH:MM (after it, seats without a yes go to subs)."
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Plan a night of the club, or change one: date, time, host, address, seats, the
    answers' deadline."""
    from bunco.club.plans import attendance_view

    _, clubs, club_id, state, _ = open_club(db, club)
    event: dict[str, str | int] = {"type": "plan", "date": date}
    event.update(
        {
            k: v
            for k, v in (
                ("time", time),
                ("host", host),
                ("address", address),
                ("seats", seats),
                ("deadline", deadline),
            )
            if v is not None
        }
    )
    state = append(clubs, club_id, state, checked(event))
    view = attendance_view(state, date)
    console.print(
        f"{state.name}: {date}{' ' + view['time'] if view['time'] else ''}, host "
        f"{view['host'] or 'to be settled'}"
        + (f", at {view['address']}" if view["address"] else ""),
        highlight=False,
    )


@club_app.command("swap-hosts")
def swap_hosts(
    club: str,
    first: Annotated[str, typer.Argument(help="YYYY-MM-DD")],
    second: Annotated[str, typer.Argument(help="YYYY-MM-DD")],
    db: DbOption = None,
) -> None:
    """Two planned nights swap their hosts."""
    _, clubs, club_id, state, _ = open_club(db, club)
    state = append(clubs, club_id, state, {"type": "swap_hosts", "dates": [first, second]})
    console.print(
        f"{state.name}: {first} hosted by {state.plans[first].host}, {second} by "
        f"{state.plans[second].host}",
        highlight=False,
    )


@club_app.command("rotation")
def rotation(
    club: str,
    order: Annotated[list[str], typer.Argument(help="Members in hosting order.")],
    db: DbOption = None,
) -> None:
    """The hosting order: each hosts in turn the next night planned without a host."""
    _, clubs, club_id, state, _ = open_club(db, club)
    state = append(clubs, club_id, state, {"type": "rotation", "order": order})
    console.print(f"{state.name}: hosts in turn {', '.join(state.host_order)}", highlight=False)


@club_app.command("rsvp")
def rsvp(
    club: str,
    date: Annotated[str, typer.Argument(help="YYYY-MM-DD")],
    name: str,
    answer: Annotated[str, typer.Argument(help="yes, no or maybe")],
    db: DbOption = None,
) -> None:
    """Record a member's answer for a planned night (members answer through their links)."""
    from bunco.club.plans import attendance_view

    _, clubs, club_id, state, _ = open_club(db, club)
    answered = checked({"type": "rsvp", "date": date, "name": name, "answer": answer})
    state = append(clubs, club_id, state, answered)
    _print_coming(attendance_view(state, date))


def _print_coming(view: AttendanceView) -> None:
    console.print(
        f"{view['date']}: {len(view['coming'])} coming, {len(view['roster'])} "
        f"holding seats of {view['seats']} ({view['tables']} tables)"
        + (f", {view['open_seats']} open" if view["open_seats"] else ""),
        highlight=False,
    )
    for label, names in (
        ("coming", view["coming"]),
        ("maybe", view["maybe"]),
        ("not answered", view["not_answered"]),
        ("not coming", view["not_coming"]),
        ("waiting for a seat", view["waiting"]),
        ("seat offered to", view["offered_to"]),
    ):
        if names:
            console.print(f"  {label}: {', '.join(names)}", highlight=False)
    for sub in view["subs_in"]:
        console.print(
            f"  sub: {sub['sub']}" + (f" for {sub['for']}" if sub["for"] else ""), highlight=False
        )
    console.print(f"  roster: {', '.join(view['roster'])}", highlight=False)


@club_app.command("coming")
def coming(
    club: str,
    date: Annotated[str, typer.Argument(help="YYYY-MM-DD")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Who is coming to a planned night: answers, seats and tables, subs, the roster."""
    from bunco.club.plans import attendance_view

    _, _, _, state, _ = open_club(db, club, write=False)
    if date not in state.plans:
        fail(
            f"there is no night planned on {date}",
            expected="one of " + (", ".join(state.plans) or "(none: bunco club plan)"),
        )
    view = attendance_view(state, date)
    if as_json:
        print_json(view)
    else:
        _print_coming(view)


@club_app.command("calendar")
def calendar(
    club: str,
    out: Annotated[Path, typer.Option("--out", "-o", help="The .ics file to write.")],
    date: Annotated[str | None, typer.Option(help="Only this night.")] = None,
    db: DbOption = None,
) -> None:
    """The club's nights as an iCalendar file (with hosts and addresses)."""
    from bunco.club.calendar import club_calendar, night_calendar

    if out.suffix.lower() != ".ics":
        fail(f"cannot write a calendar to {out}", expected="a file ending in .ics")
    _, _, club_id, state, _ = open_club(db, club, write=False)
    if date is not None and date not in state.plans:
        fail(
            f"there is no night planned on {date}",
            expected="one of " + (", ".join(state.plans) or "(none: bunco club plan)"),
        )
    text = night_calendar(state, club_id, date) if date else club_calendar(state, club_id)
    out.write_bytes(text.encode("utf-8"))  # CRLF line ends as written
    console.print(f"wrote {out} ({1 if date else len(state.plans)} nights)", highlight=False)


@club_app.command("ladder")
def ladder(
    club: str,
    measure: Annotated[str, typer.Option(help="wins, points, buncos or place_points.")] = "wins",
    average: Annotated[
        bool, typer.Option("--average", help="Rank by the average per night counted.")
    ] = False,
    min_nights: Annotated[int, typer.Option(help="Nights to qualify.")] = 0,
    best: Annotated[int | None, typer.Option(help="Count the best N nights.")] = None,
    drop: Annotated[int | None, typer.Option(help="Drop the worst N nights.")] = None,
    place_points: Annotated[
        str | None, typer.Option(help="Points for 1st, 2nd, ... e.g. 10,8,6,5.")
    ] = None,
    db: DbOption = None,
) -> None:
    """The club's standings rules (the standings show them applied)."""
    from bunco.club.ladder import rule_text

    event: dict[str, str | bool | int | list[int]] = {
        "type": "ladder",
        "measure": measure,
        "average": average,
        "min_nights": min_nights,
    }
    if best is not None:
        event["best"] = best
    if drop is not None:
        event["drop"] = drop
    if place_points is not None:
        try:
            event["place_points"] = [int(p) for p in place_points.split(",")]
        except ValueError:
            fail(f"place points {place_points!r}", expected="whole numbers, e.g. 10,8,6,5")
    _, clubs, club_id, state, nights = open_club(db, club)
    state = append(clubs, club_id, state, checked(event))
    console.print(f"{state.name}: standings by {rule_text(state.ladder)}", highlight=False)
    from bunco.cli.club_tables import standings_table

    console.print(standings_table(state, nights, None, console.width))


@club_app.command("links")
def links(
    club: str,
    token: TokenOption = None,
    base_url: BaseUrlOption = DEFAULT_BASE,
    db: DbOption = None,
    as_json: JsonOption = False,
    sheet: Annotated[
        Path | None, typer.Option(help="Also write every link and its QR code on one PDF.")
    ] = None,
) -> None:
    """Every member's personal link (issued now for members without one) and the calendar
    feed, to send them."""
    from bunco.web.club.links import issue_events, links_view

    _, clubs, club_id, state, _ = open_club(db, club)
    secret = organizer_token(clubs, club_id, token)
    state = decide(clubs, club_id, state, lambda now: issue_events(now, club_id, secret))
    view = links_view(state, club_id, secret, base_url.rstrip("/"))
    if as_json:
        print_json(view)
        return
    for m in view["members"]:
        console.print(f"{m['name']} ({m['role']}): {m['url']}", highlight=False, soft_wrap=True)
    console.print(f"calendar: {view['calendar']}", highlight=False, soft_wrap=True)
    if sheet is not None:
        from bunco.sheets.club_links import links_sheet

        sheet.write_bytes(links_sheet(state.name, view["members"]))
        console.print(f"wrote {sheet} (every member's link and QR code)", highlight=False)


@club_app.command("share")
def share(
    club: str,
    night: Annotated[str | None, typer.Option(help="A night's id.")] = None,
    season: Annotated[str | None, typer.Option(help="A season's name.")] = None,
    token: TokenOption = None,
    base_url: BaseUrlOption = DEFAULT_BASE,
    db: DbOption = None,
) -> None:
    """A read-only link to one night's results or a whole season."""
    from bunco.club.links import link_path
    from bunco.web.club.links import live_token, new_link_event

    if (night is None) == (season is None):
        fail("a share is of a night or of a season", expected="--night ID or --season NAME")
    kind: LinkKind = "night" if night else "season"
    subject = night or season
    assert subject is not None
    _, clubs, club_id, state, _ = open_club(db, club)
    secret = organizer_token(clubs, club_id, token)

    def new_share(now: Club) -> list[ClubEvent]:
        if live_token(now, club_id, secret, kind, subject) is not None:
            return []  # the same link while it lives
        return [new_link_event(now, club_id, secret, kind, subject)[0]]

    state = decide(clubs, club_id, state, new_share)
    found = live_token(state, club_id, secret, kind, subject)
    assert found is not None  # the club after the command holds it
    console.print(
        base_url.rstrip("/") + link_path(club_id, kind, found), highlight=False, soft_wrap=True
    )


@club_app.command("mail")
def mail(
    club: str,
    smtp_host: Annotated[str, typer.Option(help="The SMTP server.")],
    sender: Annotated[str, typer.Option(help="The address reminders come from.")],
    smtp_port: Annotated[int, typer.Option(help="Its port.")] = 25,
    username: Annotated[str | None, typer.Option(help="If it needs a login.")] = None,
    password: Annotated[str | None, typer.Option(help="If it needs a login.")] = None,
    starttls: Annotated[bool, typer.Option("--starttls", help="Use STARTTLS.")] = False,
    db: DbOption = None,
) -> None:
    """The SMTP server the club's reminders go through."""
    event: dict[str, str | int | bool] = {
        "type": "mail",
        "host": smtp_host,
        "port": smtp_port,
        "sender": sender,
        "starttls": starttls,
    }
    event.update({k: v for k, v in (("username", username), ("password", password)) if v})
    _, clubs, club_id, state, _ = open_club(db, club)
    state = append(clubs, club_id, state, checked(event))
    console.print(f"{state.name}: reminders go through {smtp_host}:{smtp_port}", highlight=False)


@club_app.command("remind")
def remind(
    club: str,
    date: Annotated[str, typer.Argument(help="YYYY-MM-DD")],
    token: TokenOption = None,
    base_url: BaseUrlOption = DEFAULT_BASE,
    db: DbOption = None,
) -> None:
    """Email every regular who has not answered for the night, with their personal link."""
    from bunco.club.reminders import reminder, to_remind
    from bunco.web.club.links import issue_events, links_view
    from bunco.web.club.mail import MailError, send_all

    _, clubs, club_id, state, _ = open_club(db, club)
    secret = organizer_token(clubs, club_id, token)
    with refusals():
        names, no_email = to_remind(state, date)
        messages_state = state.apply_all(issue_events(state, club_id, secret))
        urls = {
            m["name"]: url
            for m in links_view(messages_state, club_id, secret, base_url.rstrip("/"))["members"]
            if (url := m["url"]) is not None
        }
        messages = [reminder(messages_state, date, n, urls[n]) for n in names]
    state = decide(clubs, club_id, state, lambda now: issue_events(now, club_id, secret))
    try:
        failed = send_all(state.mail, messages) if messages else []
    except MailError as exc:
        fail(str(exc), expected="a reachable SMTP server (bunco club mail)")
    sent = [n for n, m in zip(names, messages, strict=True) if str(m["To"]) not in failed]
    if sent:
        append(clubs, club_id, state, {"type": "reminded", "date": date, "names": sent})
    console.print(f"reminded: {', '.join(sent) or 'nobody'}", highlight=False)
    if no_email:
        console.print(f"no email address: {', '.join(no_email)}", highlight=False)
    if failed:
        console.print(f"refused by the server: {', '.join(failed)}", highlight=False)
