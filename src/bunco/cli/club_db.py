"""The club commands' database: opening it (never creating it for a command that only
reads), finding the club by id or name, folding it and its nights."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from bunco.cli.app import app, fail, refusals

if TYPE_CHECKING:
    from bunco.club.club import Club
    from bunco.core.club_events import ClubEvent
    from bunco.core.night import Night
    from bunco.store import ClubStore, EventStore

club_app = typer.Typer(
    help="A club's season: roster, nights, dues, standings.", no_args_is_help=True
)
app.add_typer(club_app, name="club")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="SQLAlchemy URL or SQLite file; default: the SQLite file of bunco serve."
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
SeasonOption = Annotated[
    str | None, typer.Option("--season", help="A season (default: the current).")
]
TokenOption = Annotated[
    str | None,
    typer.Option(
        "--token", help="The club's token (printed by bunco club create): links are made from it."
    ),
]
BaseUrlOption = Annotated[
    str, typer.Option("--base-url", help="The server's address, as members open it.")
]


def _url(db: str | None, *, write: bool) -> str:
    from pathlib import Path

    from bunco.store.db import default_db_path, sqlite_url

    if db is None:
        path = default_db_path()
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
        url = sqlite_url(path)
    else:
        url = db if "://" in db else sqlite_url(db)
    if not write and url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        path = Path(url.removeprefix("sqlite:///"))
        if not path.exists():
            fail(
                f"there is no database at {path} (so no club in it)",
                expected="--db with the database of bunco serve, or bunco club create first",
            )
    return url


def open_store(db: str | None, *, write: bool = True) -> tuple[EventStore, ClubStore]:
    """The event store and the club store. A command that writes brings the schema to its
    newest revision; one that only reads creates nothing and migrates nothing."""
    from sqlalchemy import inspect

    from bunco.store import ClubStore, EventStore

    url = _url(db, write=write)
    try:
        store = EventStore(url)
        if write:
            store.upgrade()
        elif not inspect(store.engine).has_table("clubs"):
            fail("the database has no clubs", expected="bunco club create first, or another --db")
    except typer.Exit:
        raise
    except Exception as exc:  # a bad URL or a missing driver
        fail(
            f"cannot open the database: {exc}",
            expected="an SQLAlchemy URL such as sqlite:///bunco.sqlite3 or an SQLite file",
        )
    return store, ClubStore(store.engine)


def open_club(
    db: str | None, name: str, *, write: bool = True
) -> tuple[EventStore, ClubStore, str, Club, dict[str, Night]]:
    """The stores, the club's id, the club and its nights, folded."""
    from bunco.club.load import fold_club, fold_nights

    store, clubs = open_store(db, write=write)
    record = clubs.club(name) or clubs.club_by_name(name)
    if record is None:
        fail(f"there is no club {name!r}", expected="a club's id or name (bunco club create)")
    club = fold_club(clubs.events(record.id))
    logs = {ref.night: [e.event for e in store.events(ref.night)] for ref in club.nights}
    return store, clubs, record.id, club, fold_nights({k: v for k, v in logs.items() if v})


def checked(given: Mapping[str, str | int | bool | list[int]]) -> ClubEvent:
    """The club event a command's arguments make, checked (a refusal ends the command)."""
    from bunco.club.events import normalize_club_event

    with refusals():
        return normalize_club_event(given)


def append(clubs: ClubStore, club_id: str, club: Club, *events: ClubEvent) -> Club:
    """The club after ``events``: one command (:func:`decide`), the same events whatever
    the club is when they are stored (checked again against it)."""
    return decide(clubs, club_id, club, lambda _club: events)


def decide(
    clubs: ClubStore, club_id: str, club: Club, decision: Callable[[Club], Sequence[ClubEvent]]
) -> Club:
    """The club after one command, decided and stored as the server stores its own
    (:func:`bunco.web.club.log.keep_deciding`): ``decision(club)`` makes its events
    (its checks first), which are checked against that club and stored in one
    transaction if the club is still as it was read; when the server or another command
    saved a change first, the club is read again and the command decided again on it.
    The members a change concerns are told (their phones, their email), as the server
    does. A refusal, or a club that changed at every try, ends the command (nothing
    kept)."""
    from bunco.store import ClubMoved
    from bunco.web.club.log import keep_deciding

    try:
        with refusals():
            done = keep_deciding(clubs, club_id, club, decision)
    except ClubMoved:
        fail(
            f"{club.name} changed at every try while this command ran (the server or other "
            "commands kept saving changes at the same moment): nothing of it was kept",
            expected="the same command again",
        )
    if done is None:
        return club
    before, recorded = done
    from bunco.club.notices import notices

    told = notices(before, recorded.club)
    if told and (recorded.club.phones or recorded.club.mail):
        from bunco.web.club.notify import deliver

        deliver(clubs.engine, club_id, told)
    return recorded.club


def organizer_token(clubs: ClubStore, club_id: str, token: str | None) -> str:
    """The club's token, checked (links are derived from it)."""
    if not token:
        fail(
            "this command needs the club's token",
            expected="--token TOKEN (printed by bunco club create)",
        )
    if not clubs.token_matches(club_id, token):
        fail("that is not the club's token", expected="the token printed by bunco club create")
    return token
