"""Schema versions: an empty database and a database at the previous revision upgrade."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext

from bunco.store import ClubMoved, ClubStore, DuplicateCommand, EventStore
from bunco.store.db import (
    MIGRATIONS,
    current_revision,
    default_db_path,
    head_revision,
    make_engine,
    upgrade_database,
)
from bunco.store.models import Base


def downgrade_database(engine: sa.Engine, revision: str) -> None:
    """Take the schema back to ``revision`` (``"base"`` drops every table): the tests' way
    to an older database (the server only ever upgrades)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def test_empty_database_upgrades_to_head_and_matches_the_models(empty_url):
    engine = make_engine(empty_url)
    assert current_revision(engine) is None
    upgrade_database(engine)
    assert current_revision(engine) == head_revision() == "0008"
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    engine.dispose()


def test_a_database_at_the_first_revision_upgrades_and_keeps_its_events(empty_url):
    engine = make_engine(empty_url)
    upgrade_database(engine, "0001")
    assert current_revision(engine) == "0001"
    now = datetime.now(UTC)
    with engine.begin() as conn:
        assert "tokens" not in sa.inspect(conn).get_table_names()
        conn.execute(
            sa.text(
                "INSERT INTO nights (id, name, created_at, create_command_id) VALUES (:i, :n, :c, NULL)"
            ),
            {"i": "old", "n": "Old night", "c": now},
        )
        conn.execute(
            sa.text(
                "INSERT INTO events (night_id, seq, table_no, command_id, body, created_at)"
                " VALUES ('old', 0, NULL, NULL, :b, :c)"
            ),
            {"b": '{"type":"party","rules":"classic","players":["A","B"]}', "c": now},
        )
    engine.dispose()

    store = EventStore(empty_url)
    store.upgrade()
    assert current_revision(store.engine) == "0008"
    assert store.night("old").options == {}
    assert store.events("old")[0].event["players"] == ["A", "B"]
    assert store.tokens("old") == []
    store.close()


def test_downgrade_to_base_and_up_again(empty_url):
    engine = make_engine(empty_url)
    upgrade_database(engine)
    downgrade_database(engine, "base")
    with engine.connect() as conn:
        assert set(sa.inspect(conn).get_table_names()) <= {"alembic_version"}
    upgrade_database(engine)
    assert current_revision(engine) == "0008"
    engine.dispose()


def test_a_database_at_0002_keeps_its_events_and_their_command_ids(empty_url):
    """Revisions 0003 and 0007 keep old events (their caller is empty); a command id is
    then one command of the night, whoever sends it: the same id from a token is the old
    event again, refused as a duplicate."""
    engine = make_engine(empty_url)
    upgrade_database(engine, "0002")
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO nights (id, name, created_at, create_command_id) VALUES ('n', 'N', :c,"
                " 'made-1')"
            ),
            {"c": now},
        )
        for seq, command in ((0, None), (1, "1")):
            conn.execute(
                sa.text(
                    "INSERT INTO events (night_id, seq, table_no, command_id, body, created_at)"
                    " VALUES ('n', :s, NULL, :i, '{\"type\":\"party\"}', :c)"
                ),
                {"s": seq, "i": command, "c": now},
            )
    engine.dispose()
    store = EventStore(empty_url)
    store.upgrade()
    old = store.events("n")[1]
    assert (old.caller, old.command_id, old.request_hash) == ("", "1", None)
    assert store.night("n").create_salt is None
    with pytest.raises(DuplicateCommand) as again:
        store.append("n", 2, table=1, command_id="1", caller="a" * 32, event={"type": "x"})
    assert again.value.stored.seq == 1
    store.append(
        "n",
        2,
        table=1,
        command_id="2",
        caller="a" * 32,
        request_hash="h",
        event={"type": "undo", "table": 1},
    )
    with pytest.raises(DuplicateCommand) as again:
        store.append("n", 3, table=1, command_id="2", caller="b" * 32, event={"type": "x"})
    assert again.value.stored.seq == 2 and again.value.stored.request_hash == "h"
    store.append("n", 3, table=1, command_id="2", caller="bot", event={"type": "x"})
    downgrade_database(store.engine, "0002")  # and back: the old unique key again
    upgrade_database(store.engine)
    assert [e.command_id for e in store.events("n")] == [None, "1", "a" * 32 + ":2", "bot:2"]
    store.close()


def test_a_database_at_0006_keeps_two_tokens_equal_ids_and_answers_the_first(empty_url):
    """Before revision 0007 two tokens could store one command id twice (a phone that
    joined again, say): both events stay; the id then stands for the first, and no token
    stores it again."""
    engine = make_engine(empty_url)
    upgrade_database(engine, "0006")
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO nights (id, name, created_at) VALUES ('n', 'N', :c)"), {"c": now}
        )
        for seq, caller, command in ((0, "", None), (1, "a" * 32, "x"), (2, "b" * 32, "x")):
            conn.execute(
                sa.text(
                    "INSERT INTO events (night_id, seq, table_no, caller, command_id, body,"
                    " created_at) VALUES ('n', :s, 1, :w, :i, '{}', :c)"
                ),
                {"s": seq, "w": caller, "i": command, "c": now},
            )
    engine.dispose()
    store = EventStore(empty_url)
    store.upgrade()
    assert [(e.seq, e.caller[:1], e.command_id) for e in store.events("n")[1:]] == [
        (1, "a", "x"),
        (2, "b", "x"),
    ]
    assert store.find_command("n", "x", "c" * 32).seq == 1  # type: ignore[union-attr]
    with pytest.raises(DuplicateCommand) as again:
        store.append("n", 3, table=1, command_id="x", caller="c" * 32, event={"type": "x"})
    assert again.value.stored.seq == 1
    store.close()


def test_a_database_at_0007_gives_its_clubs_their_seq(empty_url):
    """Revision 0008 counts each club's events into its seq: the next command is decided
    on the log as it was, and stored after it."""
    engine = make_engine(empty_url)
    upgrade_database(engine, "0007")
    now = datetime.now(UTC)
    with engine.begin() as conn:
        for club, events in (("old", 3), ("new", 0)):
            conn.execute(
                sa.text(
                    "INSERT INTO clubs (id, name, token_hash, created_at) VALUES (:i, 'C', 'h', :c)"
                ),
                {"i": club, "c": now},
            )
            for seq in range(events + 1):
                conn.execute(
                    sa.text(
                        "INSERT INTO club_events (club_id, seq, body, created_at)"
                        " VALUES (:i, :s, '{}', :c)"
                    ),
                    {"i": club, "s": seq, "c": now},
                )
    engine.dispose()
    store = EventStore(empty_url)
    store.upgrade()
    clubs = ClubStore(store.engine)
    assert (clubs.seq("old"), clubs.seq("new")) == (3, 0)
    with pytest.raises(ClubMoved):
        clubs.record("old", [{"type": "x"}], 2)
    assert clubs.record("old", [{"type": "x"}], 3, "k#1").seq == 4
    assert len(clubs.events("old")) == 5
    downgrade_database(store.engine, "0007")
    with store.engine.connect() as conn:
        assert "club_commands" not in sa.inspect(conn).get_table_names()
    store.close()


def test_sqlite_files_use_wal(tmp_path):
    engine = make_engine(str(tmp_path / "wal.sqlite3"))  # a bare path means an SQLite file
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_default_path_follows_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "bunco" / "bunco.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / ".local" / "share" / "bunco" / "bunco.sqlite3"
