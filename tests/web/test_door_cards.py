"""Check-in by scanning a player's door card (docs/room.md): the card's address names the
player by a card id that grants nothing; a host's (or co-host's) phone that opens it
checks the player in, once; any other phone learns whose card it is and checks in nobody;
a made-up card, a player off the seating and a scan after round 1 began are refused."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from test_ws import receive, until_caught_up, ws_url
from web_helpers import bearer, cid, make_night

from bunco.web.app import create_app

CARDS: dict[tuple[str, str], str] = {}


def card_of(client, night, name: str) -> str:
    """The card id of ``name``, as their own page shows it (they picked their name)."""
    if (night.id, name) in CARDS:
        return CARDS[night.id, name]
    reply = client.post(night.url("/claim"), json={"name": name}, headers=night.viewer)
    assert reply.status_code == 200, reply.text
    me = client.get(night.url("/checkin/me"), headers=bearer(reply.json()["token"])).json()
    prefix = f"http://testserver/n/{night.id}/door/"
    assert me["door_url"].startswith(prefix), me
    CARDS[night.id, name] = str(me["door_url"][len(prefix) :])
    return CARDS[night.id, name]


def scan(client, night, card: str, headers, command_id: str | None = None):
    return client.post(
        night.url(f"/door/{card}"), headers=headers, json={"command_id": command_id or cid()}
    )


def door_list(client, night) -> dict:
    return client.get(night.url("/checkin"), headers=night.host).json()


def test_a_host_scan_checks_in_once(client, night) -> None:
    card = card_of(client, night, "Cat")
    assert len(card) == 16 and card != card_of(client, night, "Dee")
    with client.websocket_connect(ws_url(night, night.created["host_token"])) as ws:
        until_caught_up(ws)
        first = scan(client, night, card, night.host, "scan-1")
        assert first.status_code == 200, first.text
        done = first.json()
        assert done["player"] == "Cat" and done["already"] is False
        assert (done["table"], done["seat"], done["here"], done["players"]) == (1, 3, 1, 8)
        news = receive(ws)  # the door list on the host's page follows
        assert news["type"] == "checkin" and news["here"] == 1
    # the same request again (a retry): the first reply; a second scan: since when
    assert scan(client, night, card, night.host, "scan-1").json() == done
    again = scan(client, night, card, night.host).json()
    assert again["already"] is True and again["at"] == done["at"] and again["here"] == 1
    door = door_list(client, night)
    assert [(p["player"], p["at"]) for p in door["players"] if p["here"]] == [("Cat", done["at"])]
    # a co-host's phone scans too, with the same mark
    cohost = client.post(night.url("/cohosts"), headers=night.host, json={"name": "Bea"})
    assert cohost.status_code == 201, cohost.text
    dee = scan(client, night, card_of(client, night, "Dee"), bearer(cohost.json()["token"]))
    assert dee.status_code == 200 and dee.json()["here"] == 2


def test_other_phones_check_in_nobody(client, night) -> None:
    card = card_of(client, night, "Eve")
    # no token, a viewer, a table's phone, the player themselves: refused, nothing stored
    ann = client.post(night.url("/claim"), json={"name": "Ann"}, headers=night.viewer).json()
    for headers in ({}, night.viewer, night.table_token(2), bearer(ann["token"])):
        refused = scan(client, night, card, headers)
        assert refused.status_code in (401, 403), refused.text
        body = refused.json()
        assert set(body) >= {"error", "message", "expected"}
    assert door_list(client, night)["here"] == 0
    # what the card shows any phone: whose it is and where they sit, nothing else
    shown = client.get(night.url(f"/door/{card}"))
    assert shown.status_code == 200, shown.text
    assert shown.json() == {
        "night": night.id,
        "name": shown.json()["name"],
        "player": "Eve",
        "open": True,
        "table": 2,
        "seat": 1,
    }
    assert door_list(client, night)["here"] == 0


def test_made_up_cards_late_scans_and_players_off_the_seating(client, night) -> None:
    hal = card_of(client, night, "Hal")
    for made_up in ("a" * 16, hal[:-1] + ("b" if hal[-1] != "b" else "c"), "Hal", "x" * 64):
        for reply in (
            scan(client, night, made_up, night.host),
            client.get(night.url(f"/door/{made_up}")),
        ):
            assert reply.status_code == 404, reply.text
            assert reply.json()["error"] == "no_such_card"
            assert "door card" in reply.json()["expected"]
    # another night's card names nobody here
    other = make_night(client)
    assert scan(client, night, card_of(client, other, "Hal"), night.host).status_code == 404
    # Hal does not come: off the seating, his card names nobody any more
    gone = client.post(
        night.url("/departures"), headers=night.host, json={"command_id": cid(), "player": "Hal"}
    )
    assert gone.status_code == 200, gone.text
    assert scan(client, night, hal, night.host).json()["error"] == "no_such_card"
    # once round 1 is under way the door list is closed: refused, nothing stored
    gus = card_of(client, night, "Gus")
    assert night.roll(1, [2, 3, 5]).status_code == 200
    late = scan(client, night, gus, night.host)
    assert late.status_code == 409 and late.json()["error"] == "too_late"
    assert "arrivals" in late.json()["expected"]
    assert door_list(client, night)["here"] == 0
    assert client.get(night.url(f"/door/{gus}")).json()["open"] is False


def test_the_card_survives_a_restart_on_both_databases(any_db_url) -> None:
    """The card id is kept with the night: the same card scans after the server restarts."""
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        night = make_night(client)
        card = card_of(client, night, "Bea")
    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        night.client = client
        done = scan(client, night, card, night.host)
        assert done.status_code == 200, done.text
        assert done.json()["player"] == "Bea" and door_list(client, night)["here"] == 1


def test_the_badges_download_is_the_hosts(client, night) -> None:
    client.app.state.downloads._pool = ThreadPoolExecutor(1)  # made on a thread of the test
    reply = client.get(night.url("/download/badges.pdf"), headers=night.host)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/pdf"
    assert "badges.pdf" in reply.headers["content-disposition"]
    assert reply.content.startswith(b"%PDF")
    cohost = client.post(night.url("/cohosts"), headers=night.host, json={})
    by_cohost = client.get(
        night.url("/download/badges.pdf"), headers=bearer(cohost.json()["token"])
    )
    assert by_cohost.status_code == 200 and by_cohost.content == reply.content
    for headers in ({}, night.viewer, night.table_token(1)):
        assert client.get(night.url("/download/badges.pdf"), headers=headers).status_code in (
            401,
            403,
        )


def test_a_night_made_without_a_salt_keeps_a_key_of_its_own(db_url) -> None:
    """A night stored without a creation salt (a club's night made from the command line)
    draws its card key once and keeps it with the night: its cards scan after a restart."""
    from sqlalchemy import create_engine, update

    from bunco.store.models import NightRow

    with TestClient(create_app(db_url, bot_pace=0)) as client:
        night = make_night(client)
    engine = create_engine(db_url)
    with engine.begin() as db:
        db.execute(update(NightRow).where(NightRow.id == night.id).values(create_salt=None))
    engine.dispose()
    with TestClient(create_app(db_url, bot_pace=0)) as client:
        night.client = client
        card = card_of(client, night, "Gus")
        assert client.get(night.url(f"/door/{card}")).json()["player"] == "Gus"
    with TestClient(create_app(db_url, bot_pace=0)) as client:
        night.client = client
        done = scan(client, night, card, night.host)
        assert done.status_code == 200 and done.json()["player"] == "Gus", done.text
