"""The event store: append order, sequence numbers, idempotency, table filters, tokens."""

from __future__ import annotations

import json
import threading

import pytest

from bunco.store import DuplicateCommand, EventStore, SeqTaken, StoreError, TokenRecord

SETUP = {"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]}


def roll(table, dice):
    return {"type": "roll", "table": table, "dice": dice}


def test_setup_line_is_seq_zero_and_events_come_back_in_order(store):
    store.create_night("n1", "Friday", SETUP, command_id="create-1")
    store.append("n1", 1, table=1, command_id="a", event=roll(1, [1, 1, 4]))
    store.append("n1", 2, table=2, command_id="b", event=roll(2, [2, 5, 6]))
    events = store.events("n1")
    assert [e.seq for e in events] == [0, 1, 2]
    assert events[0].event == SETUP
    assert events[0].table is None
    assert events[1].event == {"type": "roll", "table": 1, "dice": [1, 1, 4]}
    assert events[2].command_id == "b"
    assert store.last_seq("n1") == 2
    assert store.last_seq("nope") == -1


def test_created_times_read_back_exactly(store):
    store.create_night("n1", "Friday", SETUP)
    written = store.append("n1", 1, table=1, command_id="a", event=roll(1, [1, 1, 4]))
    read = store.events("n1")
    assert read[1].created_at == written.created_at
    assert read[0].created_at <= read[1].created_at
    assert written.created_at.utcoffset().total_seconds() == 0


def test_body_is_compact_party_log_json(store):
    store.create_night("n1", "Friday", SETUP)
    stored = store.append("n1", 1, table=1, command_id="a", event=roll(1, [1, 1, 4]))
    assert stored.body == '{"type":"roll","table":1,"dice":[1,1,4]}'
    assert json.loads(store.events("n1")[1].body) == roll(1, [1, 1, 4])


def test_events_after_and_table_filter_include_whole_night_events(store):
    store.create_night("n1", "Friday", SETUP)
    store.append("n1", 1, table=1, command_id="a", event=roll(1, [1, 1, 4]))
    store.append("n1", 2, table=2, command_id="b", event=roll(2, [2, 5, 6]))
    store.append("n1", 3, table=None, command_id="c", event={"type": "join", "player": "Zed"})
    store.append("n1", 4, table=1, command_id="d", event=roll(1, [3, 3, 3]))
    assert [e.seq for e in store.events("n1", after=2)] == [3, 4]
    assert [e.seq for e in store.events("n1", table=1)] == [0, 1, 3, 4]
    assert [e.seq for e in store.events("n1", after=1, table=2)] == [2, 3]


def test_a_command_id_is_stored_once_per_night(store):
    store.create_night("n1", "Friday", SETUP)
    store.create_night("n2", "Saturday", SETUP)
    store.append("n1", 1, table=1, command_id="same", event=roll(1, [1, 1, 4]))
    with pytest.raises(DuplicateCommand) as info:
        store.append("n1", 2, table=1, command_id="same", event=roll(1, [6, 6, 6]))
    assert info.value.stored.seq == 1
    assert info.value.stored.event["dice"] == [1, 1, 4]
    assert store.last_seq("n1") == 1
    # the same id at another night is another command
    assert store.append("n2", 1, table=1, command_id="same", event=roll(1, [2, 2, 2])).seq == 1
    assert store.find_command("n1", "same").seq == 1
    assert store.find_command("n1", "other") is None


def test_a_taken_seq_is_refused_and_nothing_changes(store):
    store.create_night("n1", "Friday", SETUP)
    store.append("n1", 1, table=1, command_id="a", event=roll(1, [1, 1, 4]))
    with pytest.raises(SeqTaken):
        store.append("n1", 1, table=2, command_id="b", event=roll(2, [2, 2, 2]))
    assert [e.command_id for e in store.events("n1")] == [None, "a"]


def test_racing_writers_for_one_seq_one_wins(store):
    store.create_night("n1", "Friday", SETUP)
    results: list[str] = []
    barrier = threading.Barrier(8)

    def writer(i: int) -> None:
        barrier.wait()
        try:
            store.append("n1", 1, table=1, command_id=f"w{i}", event=roll(1, [i % 6 + 1] * 3))
            results.append("won")
        except SeqTaken:
            results.append("lost")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["lost"] * 7 + ["won"]
    assert len(store.events("n1")) == 2


def test_creation_command_id_is_unique(store):
    store.create_night("n1", "Friday", SETUP, command_id="make-it")
    with pytest.raises(StoreError):
        store.create_night("n2", "Friday again", SETUP, command_id="make-it")
    assert store.night("n2") is None
    assert store.night_by_command("make-it").id == "n1"


def test_night_options_and_listing(store):
    store.create_night("n1", "Friday", SETUP, options={"bots": ["Ann"]})
    store.create_night("n2", "Saturday", SETUP)
    assert store.night("n1").options == {"bots": ["Ann"]}
    store.set_options("n1", {"bots": [], "bot_pace": 0.5})
    assert store.night("n1").options == {"bots": [], "bot_pace": 0.5}
    assert {n.id for n in store.nights()} == {"n1", "n2"}
    assert store.night("n1").name == "Friday"
    assert store.night("n1").created_at.tzinfo is not None


def test_tokens_are_stored_by_hash_and_revoked(store):
    store.create_night(
        "n1",
        "Friday",
        SETUP,
        tokens=[
            TokenRecord("h-host", "n1", "host"),
            TokenRecord("h-t1", "n1", "table", table=1),
        ],
    )
    store.add_tokens([TokenRecord("h-ann", "n1", "player", player="Ann")])
    assert store.token("h-t1").table == 1
    assert store.token("h-ann").player == "Ann"
    assert store.token("missing") is None
    with pytest.raises(StoreError):
        store.add_tokens([TokenRecord("h-host", "n1", "viewer")])
    assert store.revoke_tokens("n1", "table", table=1) == 1
    assert store.token("h-t1").revoked
    assert not store.token("h-host").revoked
    assert {t.role for t in store.tokens("n1")} == {"host", "table", "player"}


def test_data_survives_reopening_the_database(empty_url):
    url = empty_url
    first = EventStore(url)
    first.upgrade()
    first.create_night("n1", "Friday", SETUP)
    first.append("n1", 1, table=1, command_id="a", event=roll(1, [1, 1, 4]))
    first.close()
    second = EventStore(url)
    second.upgrade()
    assert [e.event for e in second.events("n1")] == [SETUP, roll(1, [1, 1, 4])]
    second.close()
