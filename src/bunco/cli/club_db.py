"""The club commands' database: opening it (never creating it for a command that only
reads), finding the club by id or name, folding it and its nights."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from bunco.cli.app import app, fail, refusals

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


def open_store(db: str | None, *, write: bool = True) -> tuple[Any, Any]:
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
) -> tuple[Any, Any, str, Any, dict[str, Any]]:
    """The stores, the club's id, the club and its nights, folded."""
    from bunco.club.load import fold_club, fold_nights

    store, clubs = open_store(db, write=write)
    record = clubs.club(name) or clubs.club_by_name(name)
    if record is None:
        fail(f"there is no club {name!r}", expected="a club's id or name (bunco club create)")
    club = fold_club(clubs.events(record.id))
    logs = {ref.night: [e.event for e in store.events(ref.night)] for ref in club.nights}
    return store, clubs, record.id, club, fold_nights({k: v for k, v in logs.items() if v})


def append(clubs: Any, club_id: str, club: Any, *events: dict[str, Any]) -> Any:
    """The club after ``events``, all checked before any is stored; the members a change
    concerns are told (their phones, their email), as the server does."""
    after = club
    with refusals():
        for event in events:
            after = after.apply(event)
    for event in events:
        clubs.append(club_id, event)
    from bunco.club.notices import notices

    told = notices(club, after)
    if told and (after.phones or after.mail):
        from bunco.web.club_notify import deliver

        deliver(clubs.engine, club_id, told)
    return after


def organizer_token(clubs: Any, club_id: str, token: str | None) -> str:
    """The club's token, checked (links are derived from it)."""
    if not token:
        fail(
            "this command needs the club's token",
            expected="--token TOKEN (printed by bunco club create)",
        )
    if not clubs.token_matches(club_id, token):
        fail("that is not the club's token", expected="the token printed by bunco club create")
    return token
