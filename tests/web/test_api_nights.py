"""Creating and reading nights; exports; bad set-ups get a 422 saying what is wrong."""

from __future__ import annotations

import csv
import io
import json

from web_helpers import EIGHT, bearer, make_night

from bunco.core.party_log import read_log
from bunco.party.night_report import night_report


def test_create_night_returns_secret_links_and_table_codes(client):
    reply = client.post(
        "/api/nights", json={"name": "Friday", "rules": "classic", "players": EIGHT}
    )
    assert reply.status_code == 201
    body = reply.json()
    assert body["seq"] == 0 and body["name"] == "Friday"
    assert len(body["tables"]) == 2  # eight players: two tables of four
    assert [t["table"] for t in body["tables"]] == [1, 2]
    tokens = [body["host_token"], body["viewer_token"]] + [t["token"] for t in body["tables"]]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 32 for t in tokens)
    for t in body["tables"]:
        assert len(t["code"]) == 6 and t["code"].isalnum() and t["code"].upper() == t["code"]
        assert t["token"] in t["link"]
    assert body["host_token"] in body["links"]["host"]
    assert body["links"]["websocket"].startswith("ws")


def test_the_night_reads_back_with_its_setup_view_and_role(client, night):
    state = night.state()
    assert state["night"] == night.id and state["seq"] == 0
    assert state["setup"]["players"] == EIGHT and state["setup"]["rules"] == "classic"
    assert state["status"] == {
        "phase": "playing",
        "set": 1,
        "round": 1,
        "bell": False,
        "started": False,
        "bell_roll": None,
        "traveler": None,
        "last_bunco": None,
        "dice": "real",
        "round_version": 0,
        "expects": [{"table": 1, "player": "Ann"}, {"table": 2, "player": "Eve"}],
    }
    assert [t["players"] for t in state["view"]["tables"]] == [EIGHT[:4], EIGHT[4:]]
    assert state["you"] == {"role": "host", "table": None, "player": None}
    viewer = client.get(night.url(), headers=night.viewer).json()
    assert viewer["you"]["role"] == "viewer"


def test_reading_needs_a_token_of_that_night(client, night):
    assert client.get(night.url()).status_code == 401
    other = make_night(client)
    reply = client.get(night.url(), headers=other.host)
    assert reply.status_code == 403
    assert "another night" in reply.json()["message"]
    # a token names its night: at an unknown night it is a token of another night
    assert client.get("/api/nights/nosuchnight", headers=night.host).status_code == 403


def test_bad_setups_are_refused_with_what_was_expected(client):
    cases = [
        ({"players": ["Ann"]}, "players"),
        ({"players": ["Ann", "Ann", "Bea"]}, "twice"),
        ({"players": EIGHT, "rules": "poker"}, "poker"),
        ({"players": EIGHT, "house_rules": {"no_such_rule": 1}}, "no_such_rule"),
        ({"players": EIGHT, "sets": 9}, "sets"),
        ({"players": EIGHT, "bots": ["Zed"]}, "Zed"),
        ({"players": EIGHT, "colour": "red"}, "colour"),
    ]
    for body, word in cases:
        reply = client.post("/api/nights", json=body)
        assert reply.status_code == 422, (body, reply.text)
        error = reply.json()
        assert word in error["message"], (word, error)
        assert error["expected"], error


def test_a_creation_command_id_makes_one_night_and_a_retry_gets_its_reply(client):
    body = {"players": EIGHT, "command_id": "make-1-5f0c9a2e-retry"}
    first = client.post("/api/nights", json=body)
    again = client.post("/api/nights", json=body)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()  # the same night, the same tokens and codes
    assert len(client.app.state.service.store.nights()) == 1  # type: ignore[attr-defined]
    host = bearer(again.json()["host_token"])
    assert client.get(f"/api/nights/{first.json()['night']}", headers=host).status_code == 200
    joined = client.post("/api/join", json={"code": again.json()["tables"][1]["code"]})
    assert joined.status_code == 200 and joined.json()["table"] == 2
    other = client.post("/api/nights", json={**body, "players": EIGHT[:4]})
    assert other.status_code == 409 and other.json()["error"] == "id_reused"
    assert len(client.app.state.service.store.nights()) == 1  # type: ignore[attr-defined]


def test_house_rules_and_preset_reach_the_engine(client):
    night = make_night(
        client, ["Ann", "Bea", "Cat", "Dee"], rules="wm", house_rules={"quick_game": True}
    )
    view = night.state()["view"]
    assert night.state()["setup"]["rules"] == "winning-moves"
    assert view["tables"][0]["target"] == 11


def test_exports_log_and_standings(client, night):
    assert night.roll(1, [1, 1, 4]).status_code == 200  # Ann: two 1s in round 1 = 2 points
    assert night.roll(1, [2, 3, 5]).status_code == 200  # a miss: Bea's turn
    log_text = client.get(night.url("/export/log.jsonl"), headers=night.viewer)
    assert log_text.status_code == 200
    assert log_text.headers["content-type"].startswith("application/x-ndjson")
    lines = log_text.text.splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0])["type"] == "party"
    assert json.loads(lines[1])["dice"] == [1, 1, 4]
    replayed = read_log(lines)  # the export is a party log the engine reads back
    assert replayed.tables[0].side_scores == (2, 0)
    csv_reply = client.get(night.url("/export/standings.csv"), headers=night.viewer)
    rows = list(csv.DictReader(io.StringIO(csv_reply.text)))
    assert [r["player"] for r in rows] == sorted(EIGHT)  # nobody has a win yet
    assert list(rows[0]) == [
        "rank",
        "player",
        "wins",
        "losses",
        "buncos",
        "mini_buncos",
        "points",
        "prizes_won",
        "group",
    ]
    assert (
        csv_reply.text
        == client.get(night.url("/download/standings.csv"), headers=night.viewer).text
    )  # one standings file


def test_standings_cards_and_prizes_after_a_round(client, night):
    night.play_round()
    standings = client.get(night.url("/standings"), headers=night.viewer).json()["standings"]
    assert len(standings) == 8
    assert sum(r["wins"] for r in standings) == 4  # two tables, one team of two wins each
    assert sum(r["losses"] for r in standings) == 4
    keys = [(-r["wins"], -r["buncos"], -r["points"]) for r in standings]
    assert keys == sorted(keys)  # best first; players level on all three share a rank
    assert [r["rank"] for r in standings] == [keys.index(k) + 1 for k in keys]
    assert all(r["wins"] == 1 for r in standings[:4])
    card = client.get(night.url("/players/Ann/card"), headers=night.viewer).json()
    assert card["card"]["rounds"][0]["set"] == 1 and card["card"]["rounds"][0]["round"] == 1
    assert card["card"]["rounds"][0]["result"] in ("W", "L")
    assert card["table"] in (1, 2)
    missing = client.get(night.url("/players/Zed/card"), headers=night.viewer)
    assert missing.status_code == 404 and "Zed" in missing.json()["message"]
    prizes = client.get(night.url("/prizes"), headers=night.viewer).json()
    assert prizes["phase"] == "playing" and prizes["prizes"] == []
    view = client.get(night.url(""), headers=night.viewer).json()["view"]
    assert view["standings"] == standings  # the pages rank players as /standings does


def test_report_matches_the_replay_of_the_export(client, night):
    night.play_round()
    report = client.get(night.url("/report"), headers=night.host).json()
    text = client.get(night.url("/export/log.jsonl"), headers=night.host).text
    assert report == night_report(read_log(text.splitlines()))
    assert len(report["rounds"]) == 1


def test_events_endpoint_filters_by_table_and_since(client, night):
    night.roll(1, [2, 3, 5])
    night.roll(2, [2, 3, 5])
    night.roll(1, [2, 3, 5])
    all_events = client.get(night.url("/events"), headers=night.viewer).json()
    assert [e["seq"] for e in all_events["events"]] == [0, 1, 2, 3]
    table2 = client.get(night.url("/events?table=2&since=0"), headers=night.viewer).json()
    assert [e["seq"] for e in table2["events"]] == [2]
    assert table2["events"][0]["event"]["table"] == 2


def test_health_root_and_openapi(client):
    assert client.get("/api/health").json()["database"] == "sqlite"
    assert client.get("/").status_code == 200
    schema = client.get("/openapi.json").json()
    assert "/api/nights/{night_id}/tables/{table}/rolls" in schema["paths"]
    assert client.get("/api/no/such/path").json()["error"] == "not_found"


def test_qr_code_is_an_svg(client):
    reply = client.get("/api/qr.svg", params={"text": "http://example.invalid/join?token=x"})
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in reply.content


def test_bots_can_be_chosen_by_the_host_only(client, night):
    reply = client.put(
        night.url("/bots"), json={"players": ["Bea"], "pace": 0}, headers=night.viewer
    )
    assert reply.status_code == 403
    bad = client.put(night.url("/bots"), json={"players": ["Zed"]}, headers=night.host)
    assert bad.status_code == 422
    ok = client.put(night.url("/bots"), json={"players": ["Bea"], "pace": 0}, headers=night.host)
    assert ok.json()["bots"] == ["Bea"]
    assert night.state()["bots"] == ["Bea"]


def test_command_ids_are_per_night(client, night):
    other = make_night(client)
    assert night.roll(1, [2, 3, 5], command_id="same").json()["seq"] == 1
    assert other.roll(1, [2, 3, 5], command_id="same").json()["duplicate"] is False


def test_the_player_list_is_the_names_only(client, night):
    reply = client.get(night.url("/players"), headers=night.viewer)
    assert reply.status_code == 200
    body = reply.json()
    assert body == {"night": night.id, "name": body["name"], "seq": 0, "players": EIGHT}
    assert body["name"] == client.get(night.url(), headers=night.host).json()["name"]
    # a few hundred bytes, where the whole night is many kilobytes
    assert len(reply.content) * 5 < len(client.get(night.url(), headers=night.viewer).content)
    assert client.get(night.url("/players")).status_code == 401
    missing = client.get("/api/nights/nope/players", headers=night.viewer)
    assert missing.status_code in (403, 404) and missing.json()["expected"]


def test_the_status_names_the_traveler_as_it_passes(client):
    night = make_night(client, EIGHT, rules="classic", house_rules={"traveling": "bunco"})
    assert night.state()["status"]["traveler"] is None
    ack = night.roll(1, [1, 1, 1]).json()  # Ann's Bunco: the traveler's trigger
    holder = night.state()["view"]["traveler"]
    assert holder == "Ann" and ack["status"]["traveler"] == "Ann"
    assert night.state()["status"]["traveler"] == "Ann"
    # the last Bunco's roller too: the whole-night pages follow both from each message
    assert ack["status"]["last_bunco"] == "Ann" == night.state()["view"]["last_bunco"]
