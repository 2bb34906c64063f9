"""Clubs in the store: the club's log appended in order, its token kept as a hash, on
SQLite and PostgreSQL; concurrent appends never share a seq."""

from __future__ import annotations

import threading

import pytest

from bunco.store import ClubStore, EventStore, StoreError


def test_a_club_and_its_log(empty_url: str) -> None:
    store = EventStore(empty_url)
    store.upgrade()
    clubs = ClubStore(store.engine)
    clubs.create("c1", "Tuesday Club", {"type": "club", "name": "Tuesday Club"}, "s3cret")
    record = clubs.club("c1")
    assert record is not None and record.token_hash != "s3cret" and len(record.token_hash) == 64
    assert clubs.token_matches("c1", "s3cret") and not clubs.token_matches("c1", "s3cre")
    assert not clubs.token_matches("nope", "s3cret")
    assert clubs.club_by_name("Tuesday Club") == record
    members = [{"type": "member", "name": f"P{i}", "role": "regular"} for i in range(20)]
    seqs: list[int] = []

    def add(events: list[dict[str, str]]) -> None:
        seqs.extend(clubs.append("c1", e) for e in events)

    threads = [threading.Thread(target=add, args=(members[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seqs) == list(range(1, 21))
    log = clubs.events("c1")
    assert log[0] == {"type": "club", "name": "Tuesday Club"}
    assert sorted(e["name"] for e in log[1:]) == sorted(m["name"] for m in members)
    with pytest.raises(StoreError):
        clubs.create("c1", "Again", {"type": "club", "name": "Again"}, "x")
    with pytest.raises(StoreError, match="there is no club 'c2'"):
        clubs.append("c2", members[0])
    store.close()
