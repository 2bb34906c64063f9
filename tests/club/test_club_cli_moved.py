"""`bunco club` when the club moves under a command: another writer (the server, another
command) stores a change between the command's read and its write. The command is then
decided again on the club as it is (the loop the server's own writers use,
:func:`bunco.web.club.log.keep_deciding`) and lands once; only a club that moves at
every try ends the command, with nothing kept."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunco.cli.app import app
from bunco.core.club_events import ClubEvent, ClubMemberEvent
from bunco.store import ClubCommand, ClubStore, EventStore
from bunco.store.db import sqlite_url
from bunco.web.club.log import TRIES

Record = Callable[..., ClubCommand]


def club_cli(db: str) -> Callable[..., tuple[int, str]]:
    runner = CliRunner()

    def bunco(*args: str) -> tuple[int, str]:
        done = runner.invoke(app, ["club", *args, "--db", db], env={"COLUMNS": "80"})
        return done.exit_code, done.output

    return bunco


def made_club(tmp_path: Path) -> tuple[Callable[..., tuple[int, str]], ClubStore, str, str]:
    """The command line on a new club's database, the club store, the club's id and its
    organizer's token (printed at creation)."""
    db = str(tmp_path / "club.sqlite3")
    bunco = club_cli(db)
    code, out = bunco("create", "Tuesday Club", "--regular", "Ann", "--regular", "Bea", "--json")
    assert code == 0, out
    made = json.loads(out)
    clubs = ClubStore(EventStore(sqlite_url(db)).engine)
    assert clubs.token_matches(made["club"], made["token"])
    return bunco, clubs, made["club"], made["token"]


def another_writer_first(
    monkeypatch: pytest.MonkeyPatch, clubs: ClubStore, club_id: str, times: int
) -> list[int]:
    """Before each of the command's next ``times`` writes, another writer stores a member
    of its own (so the command's read is one event behind); returns the seqs it wrote at."""
    record: Record = ClubStore.record
    wrote: list[int] = []

    def first(
        self: ClubStore,
        club: str,
        events: Sequence[ClubEvent],
        based_on: int,
        command_id: str | None = None,
    ) -> ClubCommand:
        if len(wrote) < times:
            now = clubs.seq(club_id)
            assert now is not None
            other: ClubMemberEvent = {"type": "member", "name": f"Other {len(wrote) + 1}"}
            record(self, club_id, [other], now)
            wrote.append(now + 1)
        return record(self, club, events, based_on, command_id)

    monkeypatch.setattr(ClubStore, "record", first)
    return wrote


def test_a_command_the_club_moved_under_is_decided_again_and_lands_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bunco, clubs, club_id, _ = made_club(tmp_path)
    before = clubs.seq(club_id)
    assert before is not None
    wrote = another_writer_first(monkeypatch, clubs, club_id, times=1)
    code, out = bunco("member", "Tuesday Club", "Cal", "--sub")
    assert code == 0, out
    assert out.strip() == "Tuesday Club: Cal is a substitute"
    log = clubs.events(club_id)
    assert wrote == [before + 1]
    assert [e.get("name") for e in log[before + 1 :]] == ["Other 1", "Cal"]  # each once
    assert clubs.seq(club_id) == before + 2


def test_a_decision_that_depends_on_the_club_is_made_on_the_fresh_club(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`links` issues a link to every member who has none: the member another writer
    added between the command's read and its write gets one too (the links decided again
    on the club read again), and nobody gets two."""
    bunco, clubs, club_id, token = made_club(tmp_path)
    another_writer_first(monkeypatch, clubs, club_id, times=1)
    code, out = bunco("links", "Tuesday Club", "--token", token)
    assert code == 0, out
    assert [line.split(":")[0] for line in out.splitlines()] == [
        "Ann (regular)",
        "Bea (regular)",
        "Other 1 (regular)",
        "calendar",
    ]
    links = [e for e in clubs.events(club_id) if e["type"] == "link"]
    subjects = [(e["for"], e["subject"]) for e in links if e["type"] == "link"]  # (typed)
    assert sorted(subjects) == sorted(
        [("calendar", "feed")]
        + [(kind, name) for name in ("Ann", "Bea", "Other 1") for kind in ("member", "calendar")]
    )


def test_a_club_that_moves_at_every_try_ends_the_command_with_nothing_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bunco, clubs, club_id, _ = made_club(tmp_path)
    before = clubs.seq(club_id)
    assert before is not None
    wrote = another_writer_first(monkeypatch, clubs, club_id, times=TRIES)
    code, out = bunco("season", "Tuesday Club", "2027")
    assert code != 0
    assert "changed at every try" in " ".join(out.split())
    assert len(wrote) == TRIES
    names = [e.get("name") for e in clubs.events(club_id)[before + 1 :]]
    assert names == [f"Other {n}" for n in range(1, TRIES + 1)]  # the season: not kept
