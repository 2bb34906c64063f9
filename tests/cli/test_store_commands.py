"""`bunco backup`, `restore`, `delete` and `prune` as an organizer meets them: what they
print, their refusals (error and expected, exit code), and that nothing is deleted
without being asked or told."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from bunco.cli import app
from bunco.store import ClubStore, EventStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
from stored_nights import store_club, store_night

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "200", "NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def filled(tmp_path: Path) -> tuple[str, EventStore]:
    db = str(tmp_path / "bunco.sqlite3")
    store = EventStore(f"sqlite:///{db}")
    store.upgrade()
    store_night(store, "n1", seed=1, events=60)
    store_night(store, "n2", seed=2, events=10, at=datetime.now(UTC) - timedelta(days=400))
    store_club(store, "c1", ["n1"])
    return db, store


def test_backup_verify_and_restore(tmp_path: Path) -> None:
    db, _ = filled(tmp_path)
    copy = tmp_path / "copy.sqlite3"
    code, out, err = run("backup", "--db", db, "-o", str(copy))
    assert code == 0, err
    assert out.startswith(f"bunco backup: wrote {copy} (an SQLite copy, ")
    assert "2 nights, 1 club, 1 club event" not in out and "2 nights" in out and "1 club," in out
    code, out, _ = run("backup", "--verify", str(copy))
    assert code == 0 and "sound" in out and "every night's log replays (2 nights)" in out
    code, out, err = run("restore", str(copy), "--db", str(tmp_path / "new.sqlite3"))
    assert (
        code == 0 and out.startswith(f"bunco restore: {copy} into sqlite:///") and "2 nights" in out
    )
    code, out, err = run("restore", str(copy), "--db", str(tmp_path / "new.sqlite3"))
    assert code == 2 and out == ""
    assert err.startswith("error: the database is not empty: it holds 1 club, 2 nights")
    assert "expected: an empty database (a new one), or --replace" in err
    code, out, _ = run("restore", str(copy), "--db", str(tmp_path / "new.sqlite3"), "--replace")
    assert code == 0 and "(in place of 1 club, 2 nights" in out


def test_a_damaged_backup_fails_verify_with_exit_code_1(tmp_path: Path) -> None:
    db, _ = filled(tmp_path)
    archive = tmp_path / "copy.bunco-backup"
    from bunco.store.backup import write_archive
    from bunco.store.db import make_engine

    write_archive(make_engine(f"sqlite:///{db}"), archive)
    archive.write_bytes(archive.read_bytes()[:-40])
    code, out, err = run("backup", "--verify", str(archive))
    assert code == 1
    assert "cut short" in out
    assert err.startswith(f"error: {archive} is damaged: 1 problem(s) (listed above)")
    code, out, err = run("backup", "--verify", str(archive), "--json")
    assert code == 1 and json.loads(out)["problem_count"] == 1
    code, _, err = run("backup", "--db", db)
    assert code == 2 and "expected: --out FILE to take a backup, or --verify FILE" in err
    code, _, err = run("backup", "--db", str(tmp_path / "none.sqlite3"), "-o", "x")
    assert code == 2 and err.startswith("error: there is no SQLite database at")


def test_nothing_is_deleted_unless_asked_or_told(tmp_path: Path) -> None:
    db, store = filled(tmp_path)
    code, _, err = run("delete", "night", "n1", "--db", db)
    assert code == 2
    assert "Delete the night 'Friday' (n1, 61 events)? (nobody here to answer)" in err
    assert "expected: --yes to delete without asking" in err
    assert store.night("n1") is not None
    code, out, _ = run("delete", "night", "n1", "--db", db, "--yes")
    assert code == 0
    assert "bunco delete: deleted 61 events, 1 phone report, 4 tokens, 1 night" in out
    assert "It was a night of the club 'Club c1': the club's standings no longer count it." in out
    assert store.night("n1") is None
    code, _, err = run("delete", "night", "n1", "--db", db, "--yes")
    assert code == 2 and err.startswith("error: there is no night 'n1'")
    code, out, err = run("delete", "member", "Club c1", "Ann", "--db", db, "--yes")
    assert code == 0, err
    assert out.startswith("bunco delete: 'Ann' is now 'Former member 1' in the club's log")
    assert ClubStore(store.engine).events("c1")[1]["name"] == "Former member 1"
    code, out, _ = run("delete", "club", "Club c1", "--db", db, "--yes")
    assert code == 0 and "1 club" in out and "Its 1 nights are kept" in out


def test_prune(tmp_path: Path) -> None:
    db, store = filled(tmp_path)
    code, _, err = run("prune", "--older-than", "half a year", "--db", db)
    assert code == 2 and "expected: a number and d (days), w (weeks) or h (hours): 180d" in err
    code, out, _ = run("prune", "--older-than", "180d", "--dry-run", "--db", db)
    assert code == 0 and "  n2  Friday  (last used " in out
    assert "bunco prune: would delete 1 nights and 0 clubs" in out
    assert store.night("n2") is not None
    code, out, _ = run("prune", "--older-than", "180d", "--db", db, "--yes", "--json")
    assert code == 0
    done = json.loads(out)
    assert [n["id"] for n in done["nights"]] == ["n2"] and done["deleted"]["events"] == 11
    assert store.night("n2") is None and store.night("n1") is not None
