"""The event store: append order, sequence numbers, idempotency, table filters, tokens."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from bunco.store import (
    DuplicateCommand,
    EventStore,
    NightGone,
    OptionsBusy,
    Revoke,
    SeqTaken,
    StoreError,
    TokenChange,
    TokenRecord,
)
from bunco.store.events import OPTION_TRIES

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
    changed = store.change_options("n1", lambda o: {**o, "bots": [], "bot_pace": 0.5})
    assert (changed.before, changed.after) == ({"bots": ["Ann"]}, {"bots": [], "bot_pace": 0.5})
    assert store.night("n1").options == {"bots": [], "bot_pace": 0.5}
    assert {n.id for n in store.nights()} == {"n1", "n2"}
    assert store.night("n1").name == "Friday"
    assert store.night("n1").created_at.tzinfo is not None


def test_an_options_change_is_decided_again_on_a_change_written_meanwhile(store):
    """Another process writes the options between this change's read and its write: the
    write finds them changed, writes nothing, and the change runs again on them (both
    kept), as many times as they move, up to OPTION_TRIES."""
    store.create_night("n1", "Friday", SETUP)
    seen: list[dict[str, Any]] = []

    def mark_bea(options: dict[str, Any]) -> dict[str, Any]:
        seen.append(dict(options))
        if len(seen) == 1:  # a door phone on another process marks Ann meanwhile
            store.change_options("n1", lambda o: {**o, "checkin": {"Ann": "19:00"}})
        return {**options, "checkin": {**options.get("checkin", {}), "Bea": "19:01"}}

    changed = store.change_options("n1", mark_bea)
    assert seen == [{}, {"checkin": {"Ann": "19:00"}}]
    assert changed.after == {"checkin": {"Ann": "19:00", "Bea": "19:01"}}
    assert store.night("n1").options == changed.after

    def always_moved(options: dict[str, Any]) -> dict[str, Any]:
        n = len(options.get("moves", []))
        store.change_options("n1", lambda o: {**o, "moves": [*o.get("moves", []), n]})
        return {**options, "mine": True}

    with pytest.raises(OptionsBusy):
        store.change_options("n1", always_moved)
    assert "mine" not in store.night("n1").options
    assert len(store.night("n1").options["moves"]) == OPTION_TRIES


def test_an_options_change_that_refuses_writes_nothing(store):
    store.create_night("n1", "Friday", SETUP, options={"dice": "real"})

    def refuse(options: dict[str, Any]) -> dict[str, Any]:
        options["dice"] = "phones"  # its own copy: what is stored is untouched
        raise ValueError("no")

    with pytest.raises(ValueError):
        store.change_options("n1", refuse)
    assert store.night("n1").options == {"dice": "real"}
    unchanged = store.change_options("n1", lambda o: o)
    assert unchanged.before == unchanged.after == {"dice": "real"}
    with pytest.raises(NightGone):
        store.change_options("nope", lambda o: o)


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


def test_a_change_of_tokens_is_stored_whole_or_not_at_all(store):
    """A table's new join code: the old code out, the new code and QR token in and the
    hosts' card kept, in one transaction. When any part fails (a hash already stored, the
    options' change refusing), nothing of it is kept: the old code still works."""
    store.create_night("n1", "Friday", SETUP, tokens=[TokenRecord("h-old", "n1", "join", 1)])
    new = (TokenRecord("h-new", "n1", "join", 1), TokenRecord("h-qr", "n1", "join", 1))

    def card(options: dict[str, Any]) -> dict[str, Any]:
        return {**options, "join_cards": {"1": {"code": "new", "token": "qr"}}}

    taken = TokenChange(
        revoke=(Revoke("join", table=1),), add=(*new, TokenRecord("h-old", "n1", "join", 1))
    )
    with pytest.raises(StoreError):
        store.change_tokens("n1", taken)

    def refuse(options: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("no room")

    with pytest.raises(ValueError):
        store.change_tokens(
            "n1", TokenChange(revoke=(Revoke("join", table=1),), add=new, options=refuse)
        )
    assert not store.token("h-old").revoked
    assert store.token("h-new") is None and store.night("n1").options == {}

    done = store.change_tokens(
        "n1", TokenChange(revoke=(Revoke("join", table=1),), add=new, options=card)
    )
    assert done.revoked == (1,) and done.claimed is None
    assert done.options.after == {"join_cards": {"1": {"code": "new", "token": "qr"}}}
    assert store.token("h-old").revoked and not store.token("h-new").revoked
    assert store.night("n1").options == done.options.after


def test_a_change_of_tokens_is_made_again_when_the_options_moved_under_it(store):
    if store.dialect != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: no write comes between")
    store.create_night("n1", "Friday", SETUP)
    calls: list[dict[str, Any]] = []

    def card(options: dict[str, Any]) -> dict[str, Any]:
        calls.append(dict(options))
        if len(calls) == 1:  # another process checks Ann in meanwhile
            store.change_options("n1", lambda o: {**o, "checkin": {"Ann": "19:00"}})
        return {**options, "join_cards": {"2": {"code": "c", "token": "t"}}}

    done = store.change_tokens(
        "n1", TokenChange(add=(TokenRecord("h-2", "n1", "join", 2),), options=card)
    )
    assert len(calls) == 2  # the first try rolled back whole (its token too), then again
    assert done.options.after == {
        "checkin": {"Ann": "19:00"},
        "join_cards": {"2": {"code": "c", "token": "t"}},
    }
    assert [t.hash for t in store.tokens("n1", "join")] == ["h-2"]


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
