"""A club's month through the API, on SQLite and PostgreSQL: nights planned with hosts in
turn, members answering through their personal links, a "no" whose seat the subs are
offered (the first yes takes it, the next waits in line), the night's roster from the
answers, the sub fee in the ledger, share links that read and cannot write, the calendar,
the ladder rules, and reminder emails through an SMTP server started here."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from email import message_from_bytes
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402
from web_helpers import Night, bearer  # noqa: E402

from bunco.web.app import create_app  # noqa: E402

REGULARS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
SUBS = ["Zoe", "Yan", "Xia"]


@pytest.fixture
def any_client(any_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(any_db_url, bot_pace=0)) as c:
        yield c


def make_club(client: TestClient, **extra: Any) -> tuple[str, dict[str, str]]:
    body = {
        "name": "Tuesday Club",
        "dues": "5",
        "regulars": REGULARS,
        "substitutes": SUBS,
        "season": "2026",
        "sub_fee": "2",
        **extra,
    }
    reply = client.post("/api/clubs", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()["club"], bearer(reply.json()["token"])


def token_of(url: str) -> dict[str, str]:
    return bearer(parse_qs(urlsplit(url).query)["token"][0])


def member_links(client: TestClient, club: str, org: dict[str, str]) -> dict[str, dict[str, str]]:
    reply = client.get(f"/api/clubs/{club}/links", headers=org)
    assert reply.status_code == 200, reply.text
    return {m["name"]: token_of(m["url"]) for m in reply.json()["members"]}


def test_a_no_offers_the_seat_to_the_subs_and_the_first_yes_takes_it(
    any_client: TestClient,
) -> None:
    client = any_client
    club, org = make_club(client)
    for name, address in (("Ann", "1 Elm St"), ("Bea", "2 Oak Ave")):
        reply = client.post(
            f"/api/clubs/{club}/members",
            json={"name": name, "address": address, "email": f"{name.lower()}@example.org"},
            headers=org,
        )
        assert reply.status_code == 200, reply.text
    # three nights planned without hosts: each regular hosts in turn, at their address
    for day in ("2026-02-10", "2026-03-10", "2026-04-14"):
        reply = client.post(
            f"/api/clubs/{club}/plans", json={"date": day, "time": "19:00"}, headers=org
        )
        assert reply.status_code == 201, reply.text
    view = client.get(f"/api/clubs/{club}", headers=org).json()
    assert [(p["date"], p["host"], p["address"]) for p in view["plans"]] == [
        ("2026-02-10", "Ann", "1 Elm St"),
        ("2026-03-10", "Bea", "2 Oak Ave"),
        ("2026-04-14", "Cat", None),
    ]
    swapped = client.post(
        f"/api/clubs/{club}/plans/swap", json={"dates": ["2026-03-10", "2026-04-14"]}, headers=org
    ).json()
    assert [p["host"] for p in swapped["plans"]] == ["Ann", "Cat", "Bea"]

    links = member_links(client, club, org)
    assert set(links) == set(REGULARS + SUBS)
    day = "2026-02-10"
    for name in ("Ann", "Bea", "Cat"):
        reply = client.post(
            f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "yes"}, headers=links[name]
        )
        assert reply.status_code == 200, reply.text
    client.post(
        f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "maybe"}, headers=links["Eve"]
    )
    board = client.get(f"/api/clubs/{club}/plans/{day}", headers=org).json()
    assert board["coming"] == ["Ann", "Bea", "Cat"] and board["maybe"] == ["Eve"]
    assert board["not_answered"] == ["Dee", "Fay", "Gus", "Hal"]
    assert (board["seats"], board["tables"], board["open_seats"]) == (8, 2, 0)
    assert board["offered_to"] == []

    # Dee says no: the seat is offered to every sub, in the list's order
    client.post(
        f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "no"}, headers=links["Dee"]
    )
    board = client.get(f"/api/clubs/{club}/plans/{day}", headers=org).json()
    assert board["open_seats"] == 1 and board["offered_to"] == ["Zoe", "Yan", "Xia"]
    zoe = client.get(f"/api/clubs/{club}/me", headers=links["Zoe"]).json()
    assert zoe["nights"][0]["seat"] == "offered" and zoe["role"] == "substitute"
    # Yan answers first and takes it; Zoe's yes comes second: she waits, first in line
    yan = client.post(
        f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "yes"}, headers=links["Yan"]
    ).json()
    assert yan["nights"][0]["seat"] == "seat"
    zoe = client.post(
        f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "yes"}, headers=links["Zoe"]
    ).json()
    assert (zoe["nights"][0]["seat"], zoe["nights"][0]["in_line"]) == ("waiting", 1)
    board = client.get(f"/api/clubs/{club}/plans/{day}", headers=org).json()
    assert board["subs_in"] == [{"sub": "Yan", "for": "Dee"}] and board["waiting"] == ["Zoe"]
    assert board["roster"] == ["Ann", "Bea", "Cat", "Yan", "Eve", "Fay", "Gus", "Hal"]
    # the host (Ann) sees who is coming; another member does not
    assert client.get(f"/api/clubs/{club}/plans/{day}", headers=links["Ann"]).status_code == 200
    hidden = client.get(f"/api/clubs/{club}/plans/{day}", headers=links["Bea"])
    assert hidden.status_code == 403 and hidden.json()["error"] == "organizer_only"
    # Hal says no too: Zoe, first in line, takes his seat at once
    client.post(
        f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "no"}, headers=links["Hal"]
    )
    board = client.get(f"/api/clubs/{club}/plans/{day}", headers=org).json()
    assert board["subs_in"] == [{"sub": "Yan", "for": "Dee"}, {"sub": "Zoe", "for": "Hal"}]
    assert board["roster"][-1] == "Zoe" and board["waiting"] == []
    # the night follows the answers: its roster is the seats' holders
    made = client.post(f"/api/clubs/{club}/nights", json={"date": day}, headers=org)
    assert made.status_code == 201, made.text
    night = Night(client, made.json())
    assert night.state()["setup"]["players"] == board["roster"]
    # the sub fee (2 a seat) is in the ledger from the night's first roll
    ledger = client.get(f"/api/clubs/{club}/ledger", headers=org).json()
    assert {m["player"]: m["owed"] for m in ledger["members"]}["Yan"] == "0.00"
    night.roll(1, [1, 2, 3])
    dues = {
        m["player"]: m
        for m in client.get(f"/api/clubs/{club}/ledger", headers=org).json()["members"]
    }
    assert (dues["Yan"]["sub_seats"], dues["Yan"]["sub_fees"], dues["Yan"]["owed"]) == (
        1,
        "2.00",
        "7.00",
    )
    after = client.post(
        f"/api/clubs/{club}/me/rsvp", json={"date": day, "answer": "yes"}, headers=links["Dee"]
    )
    assert after.status_code == 422 and "has started" in after.json()["message"]
    again = client.post(f"/api/clubs/{club}/nights", json={"date": day}, headers=org)
    assert again.status_code == 422 and "is not over" in again.json()["message"]


def test_answers_are_refused_clearly(client: TestClient) -> None:
    club, org = make_club(client)
    client.post(f"/api/clubs/{club}/plans", json={"date": "2026-02-10"}, headers=org)
    links = member_links(client, club, org)
    for headers, path, body, status, text in (
        (
            links["Ann"],
            "me/rsvp",
            {"date": "2026-02-11", "answer": "yes"},
            422,
            "there is no night planned on 2026-02-11",
        ),
        (
            links["Ann"],
            "me/rsvp",
            {"date": "2026-02-10", "answer": "perhaps"},
            422,
            "answer 'perhaps'",
        ),
        (
            links["Ann"],
            "me/rsvp",
            {"date": "2026-02-30", "answer": "yes"},
            422,
            "date '2026-02-30'",
        ),
        (org, "plans", {"date": "2026-03-10", "host": "Zed"}, 422, "'Zed' is not a member"),
        (org, "plans", {"date": "2026-03-10", "time": "7pm"}, 422, "time '7pm'"),
        (links["Ann"], "payments", {"player": "Ann", "amount": "5"}, 403, "member's link"),
        (
            bearer("nonsense"),
            "me/rsvp",
            {"date": "2026-02-10", "answer": "yes"},
            401,
            "does not open this club",
        ),
    ):
        reply = client.post(f"/api/clubs/{club}/{path}", json=body, headers=headers)
        assert reply.status_code == status, (path, reply.text)
        assert text in reply.json()["message"], reply.text
    assert (
        client.get(f"/api/clubs/{club}/plans/2026-02-10", headers=org).json()["not_answered"]
        == REGULARS
    )
    # a new link for Ann: the old one stops working
    client.post(f"/api/clubs/{club}/links/member", json={"name": "Ann"}, headers=org)
    old = client.get(f"/api/clubs/{club}/me", headers=links["Ann"])
    assert old.status_code == 401
    assert (
        client.get(f"/api/clubs/{club}/me", headers=member_links(client, club, org)["Ann"]).json()[
            "member"
        ]
        == "Ann"
    )


def play_night(client: TestClient, club: str, org: dict[str, str], **body: Any) -> Night:
    reply = client.post(f"/api/clubs/{club}/nights", json=body, headers=org)
    assert reply.status_code == 201, reply.text
    night = Night(client, reply.json())
    while night.state()["status"]["phase"] != "over":
        night.play_round()
    return night


def test_a_share_link_reads_and_cannot_write(any_client: TestClient) -> None:
    client = any_client
    club, org = make_club(client, regulars=REGULARS[:4], substitutes=["Zoe"])
    first = play_night(client, club, org, date="2026-01-13")
    season = client.post(f"/api/clubs/{club}/shares", json={"season": "2026"}, headers=org)
    assert season.status_code == 201, season.text
    one = client.post(f"/api/clubs/{club}/shares", json={"night": first.id}, headers=org).json()
    assert urlsplit(one["url"]).path == f"/c/{club}/shared"
    share, night_share = token_of(season.json()["url"]), token_of(one["url"])
    seen = client.get(f"/api/clubs/{club}/shared", headers=share).json()
    assert seen["season"] == "2026" and len(seen["nights"]) == 1
    assert {r["player"] for r in seen["standings"]} == {"Ann", "Bea", "Cat", "Dee", "Zoe"}
    results = seen["nights"][0]["results"]
    assert sum(r["wins"] + r["losses"] for r in results) == 6 * 4
    assert "contacts" not in seen and "token" not in str(seen)
    night_view = client.get(f"/api/clubs/{club}/shared", headers=night_share).json()
    assert night_view["night"]["night"] == first.id
    assert night_view["night"]["results"] == results
    report = client.get(
        f"/api/clubs/{club}/download/season.html", params={"token": share["Authorization"][7:]}
    )
    assert report.status_code == 200 and "Season standings" in report.text
    # every write, and every read the share does not open, is refused; nothing changes
    before = client.get(f"/api/clubs/{club}", headers=org).json()
    for method, path, body in (
        ("POST", "payments", {"player": "Ann", "amount": "5"}),
        ("POST", "members", {"name": "Kim"}),
        ("POST", "nights", {}),
        ("POST", "plans", {"date": "2026-05-12"}),
        ("POST", "shares", {"season": "2026"}),
        ("POST", "ladder", {"measure": "points"}),
        ("GET", "ledger", None),
        ("GET", "links", None),
        ("GET", "", None),
    ):
        for headers in (share, night_share):
            reply = client.request(
                method, f"/api/clubs/{club}/{path}".rstrip("/"), json=body, headers=headers
            )
            assert reply.status_code == 403, (path, reply.text)
            assert reply.json()["error"] == "read_only"
    night_report = client.get(f"/api/clubs/{club}/download/season.pdf", headers=night_share)
    assert night_report.status_code == 403
    assert client.get(f"/api/clubs/{club}", headers=org).json() == before
    # revoked: the link reads nothing more
    client.post(
        f"/api/clubs/{club}/links/revoke", json={"token": share["Authorization"][7:]}, headers=org
    )
    assert client.get(f"/api/clubs/{club}/shared", headers=share).status_code == 401


def test_ladder_rules_change_the_standings(client: TestClient) -> None:
    club, org = make_club(client, regulars=REGULARS[:4], substitutes=["Zoe"])
    for day, swaps in (("2026-01-13", {}), ("2026-02-10", {"Dee": "Zoe"}), ("2026-03-10", {})):
        play_night(client, club, org, date=day, substitutes=swaps)
    plain = client.get(f"/api/clubs/{club}/standings", headers=org).json()
    assert plain["rule"] == "wins"
    rows = {r["player"]: r for r in plain["standings"]}
    assert rows["Zoe"]["rank"] is not None and rows["Zoe"]["nights"] == 1
    reply = client.post(
        f"/api/clubs/{club}/ladder",
        json={"measure": "wins", "average": True, "min_nights": 2},
        headers=org,
    )
    assert reply.status_code == 200, reply.text
    ruled = reply.json()
    assert ruled["rule"] == "average wins per night, at least 2 nights to qualify"
    rows = {r["player"]: r for r in ruled["standings"]}
    assert rows["Zoe"]["rank"] is None and not rows["Zoe"]["qualified"]
    assert ruled["standings"][-1]["player"] == "Zoe"
    ann = rows["Ann"]
    assert ann["score"] == f"{ann['wins'] / 3:.2f}"
    dee = rows["Dee"]
    assert dee["score"] == f"{dee['wins'] / 2:.2f}" and dee["counted"] == 2
    best = client.post(
        f"/api/clubs/{club}/ladder", json={"measure": "points", "best": 1}, headers=org
    ).json()
    assert best["rule"] == "points, best 1 nights counted"
    assert all(r["counted"] <= 1 for r in best["standings"])
    assert {len(r["dropped"]) for r in best["standings"] if r["nights"] == 3} == {2}
    bad = client.post(f"/api/clubs/{club}/ladder", json={"best": 2, "drop": 1}, headers=org)
    assert bad.status_code == 422 and "not both" in bad.json()["expected"]


def test_the_calendar_feed_and_a_file_per_night(any_client: TestClient) -> None:
    icalendar = pytest.importorskip("icalendar")
    client = any_client
    club, org = make_club(client)
    client.post(
        f"/api/clubs/{club}/members",
        json={"name": "Ann", "address": "1 Elm St, Springfield"},
        headers=org,
    )
    client.post(
        f"/api/clubs/{club}/plans", json={"date": "2026-02-10", "time": "19:30"}, headers=org
    )
    client.post(
        f"/api/clubs/{club}/plans",
        json={"date": "2026-03-10", "host": "Bea", "address": "Room 4; Town Hall"},
        headers=org,
    )
    feed = client.get(f"/api/clubs/{club}/links", headers=org).json()["calendar"]
    assert urlsplit(feed).path == f"/api/clubs/{club}/calendar.ics"
    reply = client.get(urlsplit(feed).path + "?" + urlsplit(feed).query)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/calendar")
    assert "\r\n" in reply.text
    cal = icalendar.Calendar.from_ical(reply.content)
    events = {str(e["UID"]): e for e in cal.walk("VEVENT")}
    assert len(events) == 2
    first = events[f"2026-02-10-{club}@bunco-club"]
    assert first.decoded("DTSTART").isoformat() == "2026-02-10T19:30:00"
    assert str(first["LOCATION"]) == "1 Elm St, Springfield"
    assert "Host: Ann" in str(first["DESCRIPTION"]) and "Ann's" in str(first["SUMMARY"])
    second = events[f"2026-03-10-{club}@bunco-club"]
    assert str(second["LOCATION"]) == "Room 4; Town Hall"
    assert second.decoded("DTSTART").isoformat() == "2026-03-10"  # all day: no time set
    one = client.get(f"/api/clubs/{club}/calendar/2026-03-10.ics", headers=org)
    assert [str(e["UID"]) for e in icalendar.Calendar.from_ical(one.content).walk("VEVENT")] == [
        f"2026-03-10-{club}@bunco-club"
    ]
    missing = client.get(f"/api/clubs/{club}/calendar/2026-03-11.ics", headers=org)
    assert missing.status_code == 404 and "no night planned" in missing.json()["message"]
    assert client.get(f"/api/clubs/{club}/calendar.ics").status_code == 401


def test_reminders_go_to_who_has_not_answered(client: TestClient) -> None:
    mailbox = pytest.importorskip("smtp_box")
    club, org = make_club(client, regulars=REGULARS[:4], substitutes=["Zoe"])
    client.post(
        f"/api/clubs/{club}/plans", json={"date": "2026-02-10", "time": "19:00"}, headers=org
    )
    refused = client.post(f"/api/clubs/{club}/reminders", json={"date": "2026-02-10"}, headers=org)
    assert refused.status_code == 422 and "no mail server" in refused.json()["message"]
    for name in ("Ann", "Bea", "Cat"):
        client.post(
            f"/api/clubs/{club}/members",
            json={"name": name, "email": f"{name.lower()}@example.org"},
            headers=org,
        )
    links = member_links(client, club, org)
    client.post(
        f"/api/clubs/{club}/me/rsvp",
        json={"date": "2026-02-10", "answer": "yes"},
        headers=links["Bea"],
    )
    with mailbox.SmtpBox() as box:
        reply = client.post(
            f"/api/clubs/{club}/mail",
            json={
                "host": "127.0.0.1",
                "port": box.port,
                "sender": "club@example.org",
                "password": "hunter2",
                "username": "club",
            },
            headers=org,
        )
        assert reply.status_code == 200 and "password" not in reply.json()["mail"]
        client.post(
            f"/api/clubs/{club}/mail",
            json={"host": "127.0.0.1", "port": box.port, "sender": "club@example.org"},
            headers=org,
        )
        sent = client.post(f"/api/clubs/{club}/reminders", json={"date": "2026-02-10"}, headers=org)
        assert sent.status_code == 200, sent.text
        assert sent.json() == {
            "date": "2026-02-10",
            "sent": ["Ann", "Cat"],
            "refused": [],
            "no_email": ["Dee"],
            "phones": [],
        }
        got = {m["rcpt"][0]: message_from_bytes(m["data"]) for m in box.messages}
    assert set(got) == {"ann@example.org", "cat@example.org"}
    body = got["ann@example.org"].get_payload()
    url = next(line for line in body.splitlines() if "/me?token=" in line)
    assert client.get(f"/api/clubs/{club}/me", headers=token_of(url)).json()["member"] == "Ann"
    assert got["cat@example.org"]["Subject"] == "Tuesday Club on 2026-02-10: are you coming?"
    client.post(
        f"/api/clubs/{club}/mail",
        json={"host": "127.0.0.1", "port": 1, "sender": "club@example.org"},
        headers=org,
    )
    down = client.post(f"/api/clubs/{club}/reminders", json={"date": "2026-02-10"}, headers=org)
    assert down.status_code == 502 and down.json()["error"] == "mail_failed"
