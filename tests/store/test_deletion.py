"""Deleting nights and clubs, erasing a member, pruning what is unused, in the store
(bunco.store.deletion, erasure, retention), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from stored_nights import all_rows, store_club, store_night, token_hash

from bunco.club.load import fold_club, fold_nights
from bunco.club.season import season_standings
from bunco.store import ClubStore, EventStore
from bunco.store.deletion import DeletionError, delete_club, delete_nights
from bunco.store.erasure import erase_member
from bunco.store.retention import prune


def rows_of(store: EventStore, night: str) -> dict[str, int]:
    counts = {}
    with store.engine.connect() as conn:
        for table in ("events", "tokens", "phone_reports"):
            counts[table] = conn.execute(
                sa.text(f"SELECT COUNT(*) FROM {table} WHERE night_id = :n"), {"n": night}
            ).scalar()
    return counts


def test_deleting_a_night_deletes_every_row_of_it_and_nothing_else(store: EventStore) -> None:
    store_night(store, "n1", seed=1)
    store_night(store, "n2", seed=2, events=30)
    others = {k: v for k, v in all_rows(store.engine).items()}
    before = rows_of(store, "n1")
    assert before["events"] > 500 and before["tokens"] == 4 and before["phone_reports"] == 1
    deleted = delete_nights(store.engine, ["n1", "not-there"])
    assert deleted == {
        "events": before["events"],  # the setup line included
        "phone_reports": 1,
        "tokens": 4,
        "nights": 1,
    }
    assert store.night("n1") is None and store.events("n1") == []
    assert rows_of(store, "n1") == {"events": 0, "tokens": 0, "phone_reports": 0}
    assert store.token(token_hash("n1", "host")) is None
    after = all_rows(store.engine)
    for table, rows in others.items():  # n2 untouched
        assert [r for r in rows if "n2" in r] == [r for r in after[table] if "n2" in r]


def test_deleting_a_club_keeps_its_nights_unless_asked_and_never_another_clubs(
    store: EventStore,
) -> None:
    for night, seed in (("n1", 1), ("n2", 2), ("n3", 3)):
        store_night(store, night, seed=seed, events=20)
    store_club(store, "c1", ["n1", "n2"])
    store_club(store, "c2", ["n2", "n3"])
    store_club(store, "c3", ["n3"])
    kept = delete_club(store.engine, "c3")
    assert kept["clubs"] == 1 and kept["club_events"] > 5 and "nights" not in kept
    assert store.night("n3") is not None
    gone = delete_club(store.engine, "c1", with_nights=True)
    assert gone["nights"] == 1  # n1; n2 is also a night of c2
    assert store.night("n1") is None and store.night("n2") is not None
    assert ClubStore(store.engine).club("c1") is None
    assert ClubStore(store.engine).events("c2")[0]["type"] == "club"
    with pytest.raises(DeletionError, match="there is no club 'c1'"):
        delete_club(store.engine, "c1")


def test_erasing_a_member_keeps_every_standing_under_the_new_name(store: EventStore) -> None:
    logs = {n: store_night(store, n, seed=s) for n, s in (("n1", 1), ("n2", 2))}
    store_night(store, "n9", seed=9, events=30)  # Ann of another night: not this member
    clubs = store_club(store, "c1", ["n1", "n2"])
    club_before = fold_club(clubs.events("c1"))
    standings_before = season_standings(club_before, fold_nights(logs))
    n9_before = [e.body for e in store.events("n9")]

    done = erase_member(store.engine, "c1", "ANN")  # any spelling of the member's name
    assert done.replacement == "Former member 1"
    assert sorted(done.nights) == ["n1", "n2"]
    assert done.appended == [{"type": "unlink", "hash": "a" * 64}]
    assert done.tokens == 2  # the player tokens claimed as Ann at n1 and n2

    club_after = fold_club(clubs.events("c1"))
    nights_after = {n: [e.event for e in store.events(n)] for n in ("n1", "n2")}
    standings_after = season_standings(club_after, fold_nights(nights_after))
    renamed = [
        asdict(row) | ({"player": "Former member 1"} if row.player == "Ann" else {})
        for row in standings_before
    ]
    assert [asdict(row) for row in standings_after] == renamed
    assert any(row["player"] == "Former member 1" and row["wins"] for row in renamed)
    assert club_after.contacts.get("Former member 1", {}) == {}
    assert club_after.link("a" * 64) is None  # the member's personal link stops
    # nothing of this club or its nights names Ann, her email or her address any more
    rows = all_rows(store.engine)
    ours = [r for table, rs in rows.items() for r in rs if "n9" not in r]
    text = json.dumps(ours, ensure_ascii=False)
    for gone in ("Ann", "ann@example.org", "1 Elm St"):
        assert gone not in text
    assert "Former member 1 paid for two" in text  # a payment's note
    assert [e.body for e in store.events("n9")] == n9_before  # another night's Ann stays
    # each event kept its place and its type
    for night, log in logs.items():
        assert [e["type"] for e in nights_after[night]] == [e["type"] for e in log]


def test_an_erasure_is_refused_whole_when_it_cannot_be_done(store: EventStore) -> None:
    store_night(store, "n1", seed=1, events=40)
    store_club(store, "c1", ["n1"])
    before = all_rows(store.engine)
    with pytest.raises(DeletionError, match="is a name the club or its nights already use"):
        erase_member(store.engine, "c1", "Ann", replacement="bea")
    with pytest.raises(DeletionError, match="'Zed' is not a member"):
        erase_member(store.engine, "c1", "Zed")
    with pytest.raises(DeletionError, match="there is no club"):
        erase_member(store.engine, "nope", "Ann")

    def refuse(before_log: list[dict[str, Any]], after_log: list[dict[str, Any]]) -> None:
        assert len(after_log) == len(before_log) + 1  # the unlink, at the end
        raise DeletionError("no", expected="yes")

    with pytest.raises(DeletionError, match="no"):
        erase_member(store.engine, "c1", "Ann", check=refuse)
    assert all_rows(store.engine) == before


def test_prune_deletes_unused_nights_but_keeps_a_clubs(store: EventStore) -> None:
    long_ago = datetime.now(UTC) - timedelta(days=200)
    store_night(store, "old", seed=1, events=20, at=long_ago)
    store_night(store, "old-club", seed=2, events=20, at=long_ago)
    store_night(store, "new", seed=3, events=20)
    store_club(store, "c1", ["old-club"])
    with store.engine.begin() as conn:  # the club itself unused for as long
        conn.execute(sa.text("UPDATE club_events SET created_at = :at"), {"at": long_ago})
    listed = prune(store.engine, timedelta(days=180), dry_run=True)
    assert [n.id for n in listed.nights] == ["old"] and listed.deleted == {}
    assert store.night("old") is not None
    done = prune(store.engine, timedelta(days=180))
    assert done.deleted["nights"] == 1 and done.deleted["events"] == 21
    assert store.night("old") is None and store.night("old-club") is not None
    assert store.night("new") is not None
    with_clubs = prune(store.engine, timedelta(days=180), clubs=True)
    assert [c.id for c in with_clubs.clubs] == ["c1"]
    assert with_clubs.deleted["clubs"] == 1 and with_clubs.deleted["nights"] == 1
    assert store.night("old-club") is None and store.night("new") is not None
    assert prune(store.engine, timedelta(days=1)).nights == []


def test_another_persons_name_holding_the_members_is_left_alone(store: EventStore) -> None:
    players = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Ann Marie"]
    store_night(store, "n1", players, seed=4, name="Ann and Ann Marie's night")
    store_club(store, "c1", ["n1"], members=players)
    done = erase_member(store.engine, "c1", "Ann")
    setup = store.events("n1")[0].event
    assert setup["players"][0] == "Former member 1" and setup["players"][-1] == "Ann Marie"
    assert store.night("n1").name == "Former member 1 and Ann Marie's night"  # type: ignore[union-attr]
    members = [e["name"] for e in ClubStore(store.engine).events("c1") if e["type"] == "member"]
    assert members == ["Former member 1", *players[1:]]
    assert done.nights == ["n1"]
