"""Backups and restores in the store (bunco.store.backup, bunco.store.restore), on SQLite
and PostgreSQL: every row comes back identical, into the same or the other kind of
database; a damaged backup is found out and restores nothing; a database that is not
empty is refused unless told, and then replaced in one transaction; an older schema's
backup restores into a newer database."""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from stored_nights import all_rows, another_postgres, store_club, store_night

from bunco.store import EventStore
from bunco.store.backup import take_backup, verify_backup
from bunco.store.backup_format import BackupError
from bunco.store.db import current_revision, head_revision, make_engine, upgrade_database
from bunco.store.restore import restore_backup


def filled(url: str) -> EventStore:
    """Two nights (one over, one in play), a club naming the first, rate counts."""
    store = EventStore(url)
    store.upgrade()
    store_night(store, "n1", seed=1)
    store_night(store, "n2", seed=2, events=40, name="Saturday")
    store_club(store, "c1", ["n1"])
    if store.dialect == "postgresql":  # the counts of failed attempts: PostgreSQL only
        with store.engine.begin() as conn:
            conn.execute(
                sa.text("INSERT INTO rate_counts (key, hits, expires_at) VALUES ('k', :h, 9e9)"),
                {"h": [1.0]},
            )
    return store


def test_a_backup_restores_every_row_into_either_kind_of_database(
    empty_url: str, tmp_path: Path
) -> None:
    store = filled(empty_url)
    before = all_rows(store.engine)
    assert len(before["events"]) > 500 and len(before["tokens"]) == 8
    file = tmp_path / ("copy.sqlite3" if store.dialect == "sqlite" else "copy.bunco-backup")
    taken = take_backup(store.engine, file)
    assert taken.kind == ("sqlite" if store.dialect == "sqlite" else "archive")
    assert taken.revision == head_revision()
    assert taken.tables == {name: len(rows) for name, rows in before.items()}
    assert "rate_counts" not in taken.tables  # left out: an hour long at most
    checked = verify_backup(file)
    assert checked.problems == [] and checked.nights_replayed == 2
    # into SQLite
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    done = restore_backup(file, target)
    assert done.tables == taken.tables and done.replaced == {}
    assert all_rows(target) == before
    assert current_revision(make_engine(target)) == head_revision()
    restored = EventStore(target)
    assert [e.event for e in restored.events("n2")] == [e.event for e in store.events("n2")]
    # into PostgreSQL
    with another_postgres() as url:
        restore_backup(file, url)
        assert all_rows(url) == before
    store.close()


def test_a_damaged_archive_is_found_out_and_restores_nothing(tmp_path: Path) -> None:
    store = filled(f"sqlite:///{tmp_path / 'live.sqlite3'}")
    copy = tmp_path / "copy.sqlite3"
    take_backup(store.engine, copy)
    # an archive of the same database (restored into an archive's source: PostgreSQL's
    # path is the same code on any engine but SQLite, so build one from the copy)
    archive = tmp_path / "night.bunco-backup"
    from bunco.store.backup import write_archive  # the writer of PostgreSQL's archives

    write_archive(make_engine(f"sqlite:///{copy}"), archive)
    assert verify_backup(archive).problems == []
    lines = gzip.decompress(archive.read_bytes()).decode().splitlines(keepends=True)
    events_at = next(i for i, line in enumerate(lines) if '"table": "events"' in line)

    def written(name: str, body: list[str]) -> Path:
        path = tmp_path / name
        path.write_bytes(gzip.compress("".join(body).encode()))
        return path

    cut = written("cut.bunco-backup", lines[:-3])
    row = lines[events_at + 5]
    assert '"caller"' in row
    changed = written(
        "changed.bunco-backup",
        [*lines[: events_at + 5], row.replace('"caller"', '"callex"'), *lines[events_at + 6 :]],
    )
    dropped = written("dropped.bunco-backup", lines[: events_at + 5] + lines[events_at + 6 :])
    assert "cut short" in verify_backup(cut).problems[0]
    assert verify_backup(changed).problems == ["table events's rows differ from their checksum"]
    problems = verify_backup(dropped).problems
    assert any("where" in p and "was due" in p for p in problems)
    assert any("events has" in p for p in problems)
    target = f"sqlite:///{tmp_path / 'target.sqlite3'}"
    for bad in (cut, changed, dropped):
        with pytest.raises(BackupError):
            restore_backup(bad, target)
        assert not any(all_rows(target).values())  # nothing restored
    truncated = tmp_path / "half.bunco-backup"
    truncated.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    assert "damaged or cut short" in verify_backup(truncated).problems[0]
    not_one = tmp_path / "notes.txt"
    not_one.write_text("hello")
    with pytest.raises(BackupError, match="not a bunco backup"):
        verify_backup(not_one)
    store.close()


def test_an_sqlite_copy_with_a_gap_or_a_bad_event_is_found_out(tmp_path: Path) -> None:
    store = filled(f"sqlite:///{tmp_path / 'live.sqlite3'}")
    copy = tmp_path / "copy.sqlite3"
    take_backup(store.engine, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM events WHERE night_id = 'n2' AND seq = 7")
        conn.execute("UPDATE events SET body = '[1]' WHERE night_id = 'n1' AND seq = 3")
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
        conn.execute("DELETE FROM club_events WHERE club_id = 'c1' AND seq = 12")
    problems = verify_backup(copy).problems
    assert "night n1: event 3 is not a JSON object" in problems
    assert "night n2: event 8 where 7 was due" in problems
    assert "club c1: its seq is 12, its log's last event 11" in problems
    assert any("newer than this bunco knows" in p for p in problems)
    store.close()


def test_a_database_that_is_not_empty_is_refused_unless_replaced(
    empty_url: str, tmp_path: Path
) -> None:
    source = filled(f"sqlite:///{tmp_path / 'live.sqlite3'}")
    file = tmp_path / "copy.sqlite3"
    take_backup(source.engine, file)
    target = EventStore(empty_url)
    target.upgrade()
    store_night(target, "other", seed=5, events=10)
    kept = all_rows(target.engine)
    with pytest.raises(BackupError, match="not empty: it holds 1 night, 11 events") as refused:
        restore_backup(file, target.engine)
    assert "--replace" in refused.value.expected
    assert all_rows(target.engine) == kept
    # a damaged backup with --replace: the database stays as it was
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(file.read_bytes()[:8192])
    with pytest.raises(BackupError):
        restore_backup(damaged, target.engine, replace=True)
    assert all_rows(target.engine) == kept
    done = restore_backup(file, target.engine, replace=True)
    assert done.replaced["nights"] == 1 and done.replaced["events"] == 11
    assert all_rows(target.engine) == all_rows(source.engine)
    source.close()
    target.close()


def test_a_backup_of_an_older_schema_restores_into_a_newer_database(tmp_path: Path) -> None:
    old = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    upgrade_database(old, "0005")  # before the phone reports
    # written as a server of revision 0005 wrote it (today's store writes later columns)
    party = '{"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]}'
    with old.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO nights (id, name, created_at, options)"
                    " VALUES ('n1', 'Old', '2026-01-01 20:00:00', '{}')")
        )  # fmt: skip
        conn.execute(
            sa.text("INSERT INTO events (night_id, seq, caller, body, created_at)"
                    " VALUES ('n1', 0, '', :body, '2026-01-01 20:00:00')"),
            {"body": party},
        )  # fmt: skip
    file = tmp_path / "old-copy.sqlite3"
    assert take_backup(old, file).revision == "0005"
    target = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    new = EventStore(target)
    new.upgrade()  # an empty database at the newest revision: taken down, filled, brought up
    restore_backup(file, target)
    assert current_revision(new.engine) == head_revision()
    assert new.night("n1") is not None and new.night("n1").name == "Old"  # type: ignore[union-attr]
    old.dispose()
    new.close()
