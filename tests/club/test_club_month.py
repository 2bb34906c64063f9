"""A club's month as pure folds: nights planned with hosts in turn, answers and seats with
subs in line, the ladder's rules, the calendar as RFC 5545 says, reminder emails."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from bunco.club.calendar import club_calendar
from bunco.club.club import Club
from bunco.club.nights import night_setup
from bunco.club.plans import attendance, attendance_view
from bunco.club.reminders import reminder, to_remind
from bunco.club.season import season_ledger, season_standings
from bunco.core.errors import BuncoError
from bunco.core.night import Night
from night_helpers import roll

REGULARS = ["Ann", "Bea", "Cat", "Dee"]
DAY = "2026-02-10"


def club(*events: dict[str, Any], **setup: Any) -> Club:
    c = Club.start({"name": "Tuesday Club", "dues": "5", **setup})
    c = c.apply_all(
        [{"type": "member", "name": n} for n in REGULARS]
        + [{"type": "member", "name": n, "role": "substitute"} for n in ("Zoe", "Yan", "Xia")]
        + [{"type": "season", "name": "2026"}, {"type": "plan", "date": DAY}]
    )
    return c.apply_all(list(events))


def said(name: str, answer: str, day: str = DAY) -> dict[str, Any]:
    return {"type": "rsvp", "date": day, "name": name, "answer": answer}


def test_every_regular_holds_a_seat_until_they_say_no() -> None:
    seats = attendance(club(said("Ann", "yes"), said("Bea", "maybe")), DAY)
    assert seats.roster == REGULARS and seats.open_seats == 0 and seats.tables == 1
    view = attendance_view(club(said("Ann", "yes"), said("Bea", "maybe")), DAY)
    assert (view["coming"], view["maybe"], view["not_answered"]) == (
        ["Ann"],
        ["Bea"],
        ["Cat", "Dee"],
    )
    assert view["offered_to"] == []


def test_a_no_opens_a_seat_the_first_sub_to_say_yes_takes() -> None:
    c = club(said("Bea", "no"))
    view = attendance_view(c, DAY)
    assert view["open_seats"] == 1 and view["offered_to"] == ["Zoe", "Yan", "Xia"]
    c = c.apply_all([said("Xia", "yes"), said("Zoe", "yes"), said("Yan", "yes")])
    view = attendance_view(c, DAY)
    assert view["subs_in"] == [{"sub": "Xia", "for": "Bea"}]
    assert view["waiting"] == ["Zoe", "Yan"] and view["offered_to"] == []
    assert view["roster"] == ["Ann", "Xia", "Cat", "Dee"]
    # Dee says no: Zoe, first in line, takes the seat; Xia gives hers up: Yan takes it
    c = c.apply_all([said("Dee", "no"), said("Xia", "no")])
    view = attendance_view(c, DAY)
    assert view["subs_in"] == [{"sub": "Zoe", "for": "Dee"}, {"sub": "Yan", "for": "Bea"}]
    assert view["roster"] == ["Ann", "Yan", "Cat", "Zoe"] and view["waiting"] == []
    # Bea changes her mind: no seat is open, so she waits, first in line
    c = c.apply(said("Bea", "yes"))
    view = attendance_view(c, DAY)
    assert view["waiting"] == ["Bea"] and "Bea" not in view["roster"]
    c = c.apply(said("Zoe", "no"))  # a seat opens: Bea takes it back
    assert attendance_view(c, DAY)["roster"] == ["Ann", "Bea", "Cat", "Yan"]


def test_more_seats_than_regulars_are_offered_at_once() -> None:
    c = club({"type": "plan", "date": DAY, "seats": 6}, said("Yan", "yes"))
    seats = attendance(c, DAY)
    assert seats.roster == [*REGULARS, "Yan"] and seats.open_seats == 1
    assert seats.tables == 2


def test_hosts_take_turns_swap_and_bring_their_address() -> None:
    c = club(
        {"type": "member", "name": "Bea", "address": "2 Oak Ave"},
        {"type": "plan", "date": "2026-03-10", "time": "19:00"},
        {"type": "plan", "date": "2026-04-14"},
        {"type": "plan", "date": "2026-05-12", "host": "Ann"},
        {"type": "plan", "date": "2026-06-09"},
    )
    assert [(d, p.host) for d, p in c.plans.items()] == [
        (DAY, "Ann"),
        ("2026-03-10", "Bea"),
        ("2026-04-14", "Cat"),
        ("2026-05-12", "Ann"),
        ("2026-06-09", "Bea"),
    ]
    assert c.address_of(c.plans["2026-03-10"]) == "2 Oak Ave"
    c = c.apply({"type": "swap_hosts", "dates": ["2026-03-10", "2026-04-14"]})
    assert (c.plans["2026-03-10"].host, c.plans["2026-04-14"].host) == ("Cat", "Bea")
    assert c.address_of(c.plans["2026-04-14"]) == "2 Oak Ave"
    assert c.plans["2026-03-10"].time == "19:00"  # the swap keeps the time
    c = c.apply({"type": "rotation", "order": ["Dee", "Cat"]})
    c = c.apply({"type": "plan", "date": "2026-07-14"})
    assert c.plans["2026-07-14"].host == "Dee"  # Bea (not in the order) hosted last


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (said("Ann", "sure"), "answer 'sure'"),
        (said("Ann", "yes", "2026-02-11"), "there is no night planned on 2026-02-11"),
        (said("Kim", "yes"), "'Kim' is not a member"),
        ({"type": "plan", "date": "2026-02-30"}, "date '2026-02-30'"),
        ({"type": "plan", "date": DAY, "host": "Kim"}, "'Kim' is not a member"),
        ({"type": "plan", "date": DAY, "seats": 1}, "seats 1"),
        ({"type": "swap_hosts", "dates": [DAY, "2026-09-01"]}, "no night planned on 2026-09-01"),
        ({"type": "rotation", "order": ["Ann", "Ann"]}, "names someone twice"),
        ({"type": "ladder", "best": 2, "drop": 1}, "best and drop both given"),
        ({"type": "ladder", "measure": "place_points"}, "place_points None"),
        ({"type": "member", "name": "Ann", "email": "ann.example.org"}, "email 'ann.example.org'"),
    ],
)
def test_bad_month_events_are_refused(event: dict[str, Any], message: str) -> None:
    with pytest.raises(BuncoError) as caught:
        club().apply(event)
    assert message in caught.value.message and caught.value.expected


def four_nights() -> tuple[Club, dict[str, Night]]:
    """Four nights at one table; every round its first roller rolls a Bunco (and then
    misses), so the one seated first wins all six rounds (6 wins, 6 Buncos, 126 points)
    and the three others win two each. First: Ann, Ann (Zoe in for Dee), Bea, Cat.
    Season: Ann 16 wins in 4 nights, Bea 12 in 4, Cat 12 in 4, Dee 6 in 3, Zoe 2 in 1."""
    c = club()
    nights: dict[str, Night] = {}
    rosters = [
        REGULARS,
        ["Ann", "Bea", "Cat", "Zoe"],
        ["Bea", "Ann", "Cat", "Dee"],
        ["Cat", "Bea", "Ann", "Dee"],
    ]
    for i, roster in enumerate(rosters):
        setup = night_setup(c.setup, roster, carried_over=Decimal(0))
        night = Night.start({**setup, "tables": [roster]})
        for r in range(1, 7):
            night = roll(night, 1, r, r, r)
            night = roll(night, 1, *[f for f in range(1, 7) if f != r][:3])
        nights[f"n{i}"] = night
        c = c.apply({"type": "night", "night": f"n{i}", "date": f"2026-0{i + 1}-01"})
    return c, nights


def ranked(c: Club, nights: dict[str, Night]) -> list[tuple[int | None, str, str]]:
    return [(r.rank, r.player, r.score) for r in season_standings(c, nights)]


def test_ladder_rules_change_the_standings_as_documented() -> None:
    c, nights = four_nights()
    assert ranked(c, nights) == [  # the season's wins; Bea and Cat level on everything
        (1, "Ann", "16"),
        (2, "Bea", "12"),
        (2, "Cat", "12"),
        (4, "Dee", "6"),
        (5, "Zoe", "2"),
        (6, "Yan", "0"),
        (6, "Xia", "0"),
    ]
    # at least 3 nights to qualify: Zoe, Yan and Xia are listed last, unranked
    assert ranked(c.apply({"type": "ladder", "min_nights": 3}), nights)[3:] == [
        (4, "Dee", "6"),
        (None, "Zoe", "2"),
        (None, "Yan", "0"),
        (None, "Xia", "0"),
    ]
    # averages per night: Dee (3 nights) is level with Zoe on 2.00, ahead on wins
    assert ranked(c.apply({"type": "ladder", "average": True}), nights)[:5] == [
        (1, "Ann", "4.00"),
        (2, "Bea", "3.00"),
        (2, "Cat", "3.00"),
        (4, "Dee", "2.00"),
        (5, "Zoe", "2.00"),
    ]
    # the best 2 nights of each: Ann 6 + 6; the others are listed as dropped
    best = c.apply({"type": "ladder", "best": 2})
    assert ranked(best, nights)[:4] == [
        (1, "Ann", "12"),
        (2, "Bea", "8"),
        (2, "Cat", "8"),
        (4, "Dee", "4"),
    ]
    ann = season_standings(best, nights)[0]
    assert (ann.counted, ann.dropped) == (2, ("2026-03-01", "2026-04-01"))
    # drop the worst night: Dee keeps 2 of 3, Zoe keeps her only one
    dropped = {
        r.player: r for r in season_standings(c.apply({"type": "ladder", "drop": 1}), nights)
    }
    assert [(dropped[p].score, dropped[p].counted) for p in ("Ann", "Dee", "Zoe")] == [
        ("14", 3),
        ("4", 2),
        ("2", 1),
    ]
    # points per place (10 for 1st, 6 for 2nd, 3 for 3rd): the three level 2nd each night
    places = c.apply({"type": "ladder", "measure": "place_points", "place_points": [10, 6, 3]})
    assert ranked(places, nights)[:5] == [
        (1, "Ann", "32"),
        (2, "Bea", "28"),
        (2, "Cat", "28"),
        (4, "Dee", "18"),
        (5, "Zoe", "6"),
    ]


def test_the_sub_fee_is_owed_for_each_seat_a_sub_takes_once_the_night_is_played() -> None:
    c = club(said("Bea", "no"), said("Zoe", "yes"), said("Yan", "yes"), sub_fee="2.50")
    # no night played yet: no seat costs anything
    assert season_ledger(c, {})["totals"]["sub_fees"] == "0.00"
    roster = attendance(c, DAY).roster
    night = Night.start(night_setup(c.setup, roster, carried_over=Decimal(0)))
    c = c.apply({"type": "night", "night": "n1", "date": DAY})
    waiting = season_ledger(c, {"n1": night})  # started, no roll: still nothing owed
    assert waiting["totals"]["dues_owed"] == "0.00" and not waiting["nights"][0]["played"]
    night = roll(night, 1, 1, 2, 3)
    ledger = season_ledger(c, {"n1": night})
    zoe = next(m for m in ledger["members"] if m["player"] == "Zoe")
    yan = next(m for m in ledger["members"] if m["player"] == "Yan")
    assert (zoe["sub_seats"], zoe["sub_fees"], zoe["owed"], zoe["balance"]) == (
        1,
        "2.50",
        "7.50",
        "7.50",
    )
    assert (yan["sub_seats"], yan["owed"]) == (0, "0.00")  # waiting: no seat, no fee
    assert ledger["totals"]["sub_fees"] == "2.50" and ledger["sub_fee"] == "2.50"


def test_the_calendar_is_rfc_5545() -> None:
    icalendar = pytest.importorskip("icalendar")
    long_address = (
        "Apartment 12, The Very Long Building Name; 1234 Extraordinarily Long "
        "Avenue, Springfield — ünïcödé"
    )
    c = club(
        {"type": "member", "name": "Ann", "address": long_address},
        {"type": "plan", "date": DAY, "time": "19:00"},
    )
    text = club_calendar(c, "c1", stamp=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert "\r\n " in text  # the long LOCATION line is folded
    cal = icalendar.Calendar.from_ical(text)
    (event,) = cal.walk("VEVENT")
    assert str(event["LOCATION"]) == long_address
    assert str(event["UID"]) == "2026-02-10-c1@bunco-club"
    assert event.decoded("DTSTAMP") == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert event.decoded("DTEND").isoformat() == "2026-02-10T22:00:00"
    assert str(cal["VERSION"]) == "2.0" and str(cal["PRODID"])
    assert "LOCATION:Apartment 12\\, The Very Long Building Name\\; 1234" in text


def test_reminders_name_who_has_not_answered() -> None:
    c = club(
        {"type": "member", "name": "Ann", "email": "ann@example.org"},
        {"type": "member", "name": "Bea", "email": "bea@example.org"},
        said("Bea", "yes"),
    )
    assert to_remind(c, DAY) == (["Ann"], ["Cat", "Dee"])
    with pytest.raises(BuncoError, match="no mail server"):
        reminder(c, DAY, "Ann", "http://x/c/c1/me?token=t")
    c = c.apply({"type": "mail", "host": "localhost", "sender": "club@example.org"})
    text = reminder(c, DAY, "Ann", "http://x/c/c1/me?token=t").get_content()
    assert "http://x/c/c1/me?token=t" in text and "hosted by Ann" in text
