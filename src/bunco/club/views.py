"""What the club's readers see: the organizer's view of the club, a member's own page (their
nights to come, their answers, the seats offered to them, and who is coming to the nights
they host), and the archive (every night with its results) that share links open.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club"}).apply_all(
...     [{"type": "member", "name": "Ann", "address": "1 Elm St"},
...      {"type": "member", "name": "Bea"}, {"type": "plan", "date": "2026-02-10"}])
>>> member_view(club, "Ann")["nights"][0]["address"]
'1 Elm St'
"""

from __future__ import annotations

from collections.abc import Mapping

from bunco.club.club import Club, ClubNight
from bunco.club.ladder import night_places, rule_text
from bunco.club.ledger import first_roll, played_nights
from bunco.club.month import deadline_passed
from bunco.club.plans import attendance, attendance_view, seat_of, upcoming
from bunco.club.season import night_label, pot_to_carry, season_standings
from bunco.club.view_types import (
    ClubView,
    Contact,
    MailShown,
    MemberNight,
    MemberSeat,
    MemberView,
    NightResults,
    Notified,
    PlanLine,
    ResultRow,
    SharedView,
)
from bunco.core.money import money_text
from bunco.core.night import Night
from bunco.core.settlement import prize_money


def plan_line(club: Club, date: str) -> PlanLine:
    """A planned night in short: when, where, who hosts, how many are coming."""
    plan = club.plans[date]
    seats = attendance(club, date)
    played = club.night_on(date)
    return {
        "date": date,
        "time": plan.time,
        "host": plan.host,
        "address": club.address_of(plan),
        "season": plan.season,
        "seats": seats.seats,
        "coming": sum(1 for n in seats.roster if seats.answers.get(n) == "yes"),
        "roster": len(seats.roster),
        "tables": seats.tables,
        "not_answered": sum(1 for n in club.regulars if n not in seats.answers),
        "open_seats": seats.open_seats,
        "night": played.night if played else None,
        "deadline": plan.deadline,
        "deadline_passed": deadline_passed(club, date),
        "cancelled": plan.cancelled,
        "sequence": plan.sequence,
    }


def mail_shown(club: Club) -> MailShown | None:
    """The club's mail server as shown: never its password."""
    if club.mail is None:
        return None
    shown: MailShown = {
        "host": club.mail["host"],
        "port": club.mail["port"],
        "sender": club.mail["sender"],
        "starttls": club.mail["starttls"],
    }
    if "username" in club.mail:
        shown["username"] = club.mail["username"]
    return shown


def club_view(club_id: str, club: Club, nights: Mapping[str, Night]) -> ClubView:
    """The club now: set-up, members (with their contacts), seasons, nights (with their
    phase), planned nights, hosts, the hosting order, the standings rules, the pot."""
    return {
        "club": club_id,
        "name": club.name,
        "setup": club.setup,
        "regulars": list(club.regulars),
        "substitutes": list(club.substitutes),
        "contacts": {n: _contact(club.contacts.get(n, {})) for n in club.members},
        "season": club.season,
        "seasons": list(club.seasons) or [club.season],
        "nights": [
            {
                "night": n.night,
                "season": n.season,
                "date": n.date,
                "name": nights[n.night].setup.get("name") if n.night in nights else None,
                "phase": nights[n.night].phase if n.night in nights else None,
                "played": n.night in nights and first_roll(nights[n.night]),
            }
            for n in club.nights
        ],
        "plans": [plan_line(club, d) for d in club.plans],
        "upcoming": upcoming(club),
        "hosts": [{"month": m, "host": h} for m, h in sorted(club.hosts.items())],
        "rotation": list(club.host_order),
        "ladder": {"rules": club.ladder, "text": rule_text(club.ladder)},
        "mail": mail_shown(club),
        "pot": money_text(pot_to_carry(club, nights)),
        "timezone": club.timezone,
        "notices": [Notified(**told) for told in club.notified[-20:]],  # told lately
        "recovery": club.recovery is not None,  # whether the organizer has a recovery code
    }


def _contact(given: Mapping[str, str]) -> Contact:
    contact: Contact = {}
    if "email" in given:
        contact["email"] = given["email"]
    if "address" in given:
        contact["address"] = given["address"]
    return contact


def member_view(club: Club, name: str) -> MemberView:
    """A member's own page: each night to come with their answer (and whether they hold a
    seat, wait for one, or are offered one), and who is coming to the nights they host."""
    role = club.members[name]
    out: list[MemberNight] = []
    for date in upcoming(club):
        seats = attendance(club, date)
        seat = seat_of(club, seats, name)
        more: MemberSeat = {}
        if "in_line" in seat:
            more["in_line"] = seat["in_line"]
        if club.plans[date].host == name:
            more["attendance"] = attendance_view(club, date)
        line: MemberNight = {
            **plan_line(club, date),
            "answer": seats.answers.get(name),
            "seat": seat["seat"],
            **more,
        }
        out.append(line)
    return {
        "club": club.name,
        "member": name,
        "role": role,
        "nights": out,
        "currency": club.currency,
        "sub_fee": money_text(club.sub_fee),
    }


def night_results(ref: ClubNight, night: Night, number: int) -> NightResults:
    """A night of the club with its results: places, W, L, Buncos, points, prizes and
    money paid (the archive's entry, and what a night's share link opens)."""
    played = [p for p in night.roster if night.cards[p].marks]
    places = night_places(night, played)
    money = prize_money(night)
    won: dict[str, str] = {}
    for pay in money["payouts"]:
        won[pay["player"]] = pay["amount"]
    rows: list[ResultRow] = [
        {
            "place": places[p],
            "player": p,
            "wins": night.cards[p].wins,
            "losses": night.cards[p].losses,
            "buncos": night.cards[p].buncos,
            "mini_buncos": night.cards[p].minis,
            "points": night.cards[p].points,
            "won": won.get(p, "0.00"),
        }
        for p in sorted(played, key=lambda p: places[p])
    ]
    m = money["money"]
    return {
        "night": ref.night,
        "date": ref.date,
        "label": night_label(ref, number),
        "season": ref.season,
        "name": night.setup.get("name"),
        "phase": night.phase,
        "players": len(night.roster),
        "results": rows,
        "payouts": [
            {"player": p["player"], "amount": p["amount"], "prize": p["label"]}
            for p in money["payouts"]
        ],
        "pot": m["pot"] if m else None,
    }


def archive(club: Club, nights: Mapping[str, Night], season: str) -> list[NightResults]:
    """Every night of the season kept with its results, in the order they were played."""
    refs = [ref for ref, _ in played_nights(club, nights, season)]
    return [night_results(ref, nights[ref.night], i) for i, ref in enumerate(refs, start=1)]


def shared_view(club: Club, nights: Mapping[str, Night], kind: str, subject: str) -> SharedView:
    """What a share link shows: one night's results, or a season (its standings under the
    club's rules and every night with its results). Read-only: no contacts, no tokens."""
    if kind == "night":
        shared: SharedView = {"club": club.name, "currency": club.currency, "shared": kind}
        ref = next((r for r in club.nights if r.night == subject), None)
        if ref is None or ref.night not in nights or not first_roll(nights[ref.night]):
            shared["night"] = None  # taken back, not kept here, or not played yet
            return shared
        refs = [r for r, _ in played_nights(club, nights, ref.season)]
        number = refs.index(ref) + 1 if ref in refs else 1
        shared["night"] = night_results(ref, nights[ref.night], number)
        return shared
    rows = [r.as_dict() for r in season_standings(club, nights, subject)]
    return {
        "club": club.name,
        "currency": club.currency,
        "shared": kind,
        "season": subject,
        "rule": rule_text(club.ladder),
        "standings": rows,
        "nights": archive(club, nights, subject),
    }
