"""Clubs in the store, on SQLite and PostgreSQL: the club's log written as a night's is.
Each command's events in one transaction (all or none), only if the club is still at the
seq the command was decided on, once per command id; writers at once lose nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bunco.store import ClubCommand, ClubMoved, ClubStore, EventStore, StoreError
from bunco.store import clubs as club_rows

SETUP = {"type": "club", "name": "Tuesday Club"}


def member(name: str) -> dict[str, str]:
    return {"type": "member", "name": name, "role": "regular"}


@pytest.fixture
def clubs(store: EventStore) -> ClubStore:
    return ClubStore(store.engine)


def test_a_club_and_its_log(clubs: ClubStore) -> None:
    assert clubs.create("c1", "Tuesday Club", SETUP, "s3cret", [member("Ann"), member("Bea")]) == 2
    record = clubs.club("c1")
    assert record is not None and record.token_hash != "s3cret" and len(record.token_hash) == 64
    assert clubs.token_matches("c1", "s3cret") and not clubs.token_matches("c1", "s3cre")
    assert not clubs.token_matches("nope", "s3cret")
    assert clubs.club_by_name("Tuesday Club") == record
    assert clubs.seq("c1") == 2 and clubs.seq("nope") is None
    assert clubs.record("c1", [member("Cat"), member("Dee")], 2) == ClubCommand(2, 4)
    assert clubs.events("c1") == [SETUP, member("Ann"), member("Bea"), member("Cat"), member("Dee")]
    with pytest.raises(StoreError, match="club 'c1' exists"):
        clubs.create("c1", "Again", {"type": "club", "name": "Again"}, "x", [member("Eve")])
    assert clubs.seq("c1") == 4 and len(clubs.events("c1")) == 5  # the failed create kept nothing
    with pytest.raises(StoreError, match="there is no club 'c2'"):
        clubs.record("c2", [member("Ann")], 0)
    assert clubs.record("c1", [], 4) == ClubCommand(4, 4)  # nothing to store: nothing stored


def test_a_command_retried_is_stored_once(clubs: ClubStore) -> None:
    """A retry (its reply was lost) finds the first try's seq, even once the club moved on;
    the same id in another club is another command."""
    clubs.create("c1", "Tuesday Club", SETUP, "s")
    clubs.create("c2", "Other Club", {"type": "club", "name": "Other Club"}, "s")
    first = clubs.record("c1", [member("Ann"), member("Bea")], 0, "key-1#1")
    assert first == ClubCommand(0, 2, replayed=False)
    clubs.record("c1", [member("Cat")], 2, "key-2#1")
    again = clubs.record("c1", [member("Ann"), member("Bea")], 0, "key-1#1")
    assert again == ClubCommand(0, 2, replayed=True)
    assert clubs.record("c1", [member("Ann")], 3, "key-1#1").replayed  # whatever it holds now
    assert clubs.command("c1", "key-1#1") == again and clubs.command("c1", "key-9#1") is None
    assert [e["name"] for e in clubs.events("c1")] == ["Tuesday Club", "Ann", "Bea", "Cat"]
    assert clubs.record("c2", [member("Ann")], 0, "key-1#1") == ClubCommand(0, 1)


def test_a_command_decided_on_an_old_seq_stores_nothing(clubs: ClubStore) -> None:
    clubs.create("c1", "Tuesday Club", SETUP, "s", [member("Ann")])
    with pytest.raises(ClubMoved) as moved:
        clubs.record("c1", [member("Bea"), member("Cat")], 0, "late#1")
    assert (moved.value.based_on, moved.value.seq) == (0, 1)
    assert "is at 1, not 0" in str(moved.value)
    assert clubs.events("c1") == [SETUP, member("Ann")] and clubs.seq("c1") == 1
    assert clubs.command("c1", "late#1") is None  # refused: the id is free for its retry
    assert clubs.record("c1", [member("Bea")], 1, "late#1") == ClubCommand(1, 2)


def test_a_command_that_fails_halfway_stores_nothing(
    clubs: ClubStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second event cannot be written: the first is not kept, nor the seq moved, nor
    the command id taken; the same command then stores whole."""
    clubs.create("c1", "Tuesday Club", SETUP, "s")
    real_dump = club_rows.dump
    written: list[dict[str, Any]] = []

    def failing_dump(event: dict[str, Any]) -> str:
        written.append(event)
        if len(written) == 2:
            raise OSError("the disk is full")
        return real_dump(event)

    monkeypatch.setattr(club_rows, "dump", failing_dump)
    with pytest.raises(OSError, match="disk is full"):
        clubs.record("c1", [member("Ann"), member("Bea")], 0, "plan#1")
    assert clubs.events("c1") == [SETUP] and clubs.seq("c1") == 0
    assert clubs.command("c1", "plan#1") is None
    monkeypatch.setattr(club_rows, "dump", real_dump)
    assert clubs.record("c1", [member("Ann"), member("Bea")], 0, "plan#1") == ClubCommand(0, 2)


def test_writers_at_once_lose_nothing(clubs: ClubStore) -> None:
    """Four writers, each 25 commands of two events, each retried on the club as it is
    when another came first (as a page does on a 409): every event once, each command's
    two side by side, the seq their count; and four writers sending one command id at
    once store it once."""
    clubs.create("c1", "Tuesday Club", SETUP, "s")
    writers, commands = 4, 25
    refused: list[int] = []

    def write(writer: int) -> None:
        for n in range(commands):
            events = [member(f"W{writer}-{n}-a"), member(f"W{writer}-{n}-b")]
            while True:
                seq = clubs.seq("c1")
                assert seq is not None
                try:
                    clubs.record("c1", events, seq, f"w{writer}-{n}#1")
                    break
                except ClubMoved:
                    refused.append(writer)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = clubs.events("c1")
    names = [e["name"] for e in log[1:]]
    assert clubs.seq("c1") == len(names) == writers * commands * 2 == 200
    assert sorted(names) == sorted(
        f"W{w}-{n}-{x}" for w in range(writers) for n in range(commands) for x in "ab"
    )
    assert all(a[:-1] == b[:-1] for a, b in zip(names[::2], names[1::2], strict=True))
    print(f"\n{len(refused)} commands decided on a seq another writer had moved on")

    seq = clubs.seq("c1")
    assert seq is not None
    answers: list[ClubCommand] = []

    def send_once() -> None:
        try:
            answers.append(clubs.record("c1", [member("Once")], seq, "same#1"))
        except ClubMoved:  # (only if the first try stored it between our two looks)
            found = clubs.command("c1", "same#1")
            assert found is not None
            answers.append(found)

    threads = [threading.Thread(target=send_once) for _ in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [e["name"] for e in clubs.events("c1")].count("Once") == 1
    assert {(a.based_on, a.seq) for a in answers} == {(seq, seq + 1)}
    assert sum(not a.replayed for a in answers) == 1


def test_an_erasure_moves_the_seq_it_adds_to(clubs: ClubStore) -> None:
    """Erasing a member adds an ``unlink`` to the log in its own transaction: the club's
    seq counts it, so a command decided before the erasure is refused, and one after is
    stored after it."""
    from bunco.store.erasure import erase_member

    link = {"type": "link", "for": "member", "subject": "Ann", "hash": "a" * 64}
    clubs.create("c1", "Tuesday Club", SETUP, "s", [member("Ann"), member("Bea"), link])
    done = erase_member(clubs.engine, "c1", "Ann")
    assert done.appended == [{"type": "unlink", "hash": "a" * 64}]
    assert clubs.seq("c1") == 4 == len(clubs.events("c1")) - 1
    with pytest.raises(ClubMoved):
        clubs.record("c1", [member("Cat")], 3)
    assert clubs.record("c1", [member("Cat")], 4) == ClubCommand(4, 5)
