"""``bunco delete night|club|member`` and ``bunco prune``: deleting from the server's
database (:mod:`bunco.store.deletion`, :mod:`bunco.store.erasure`,
:mod:`bunco.store.retention`).

Each asks before it deletes (``--yes``: do not ask; needed where nobody can answer, such
as a timer), and each deletion is one transaction. On PostgreSQL every running server
process hears of it at once: the deleted nights' links stop working there too. On
SQLite, run it with the server stopped (its one process keeps what it has read).
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from bunco.cli.app import app, fail, print_json
from bunco.cli.store_options import DbOption, JsonOption, YesOption, existing_database

delete_app = typer.Typer(
    help="Delete a night, a club, or a club member's name, email and address.",
    no_args_is_help=True,
)
app.add_typer(delete_app, name="delete")


def confirm(question: str, yes: bool) -> None:
    """Ask ``question`` (or go on with ``--yes``); refuse where nobody can answer."""
    if yes:
        return
    if not sys.stdin.isatty():
        fail(f"{question} (nobody here to answer)", expected="--yes to delete without asking")
    if not typer.confirm(question, default=False):
        fail("nothing was deleted", expected="--yes, or answer y", code=1)


def _rows(deleted: dict[str, int]) -> str:
    from bunco.store.restore import counted

    return counted({k: v for k, v in deleted.items() if v}) or "nothing"


def _club(engine: Any, name: str) -> Any:
    from bunco.store import ClubStore

    clubs = ClubStore(engine)
    record = clubs.club(name) or clubs.club_by_name(name)
    if record is None:
        fail(f"there is no club {name!r}", expected="a club's id or name (bunco club show)")
    return record


@delete_app.command("night")
def delete_night(
    night: Annotated[str, typer.Argument(help="The night's id (in its links: /night/ID).")],
    db: DbOption = None,
    yes: YesOption = False,
) -> None:
    """Delete a night: its log, its tokens and join codes (every link of it stops working)
    and its phone reports."""
    from sqlalchemy import text

    from bunco.store import EventStore
    from bunco.store.deletion import clubs_naming, delete_nights

    engine = existing_database(db)
    record = EventStore(engine).night(night)
    if record is None:
        fail(f"there is no night {night!r}", expected="a night's id, as its links show it")
    with engine.connect() as conn:
        events = conn.execute(
            text("SELECT COUNT(*) FROM events WHERE night_id = :n"), {"n": night}
        ).scalar()
        clubs = clubs_naming(conn, night)
    confirm(f"Delete the night {record.name!r} ({night}, {events} events)?", yes)
    deleted = delete_nights(engine, [night])
    typer.echo(f"bunco delete: deleted {_rows(deleted)}")
    for name in clubs:
        typer.echo(f"It was a night of the club {name!r}: the club's standings no longer count it.")


@delete_app.command("club")
def delete_club_command(
    club: Annotated[str, typer.Argument(help="The club's id or name.")],
    nights: Annotated[
        bool,
        typer.Option("--nights", help="Delete the club's nights too (not those of another club)."),
    ] = False,
    db: DbOption = None,
    yes: YesOption = False,
) -> None:
    """Delete a club: its members, seasons, plans, dues and links; with --nights, its
    nights too."""
    from bunco.store.deletion import club_nights, delete_club

    engine = existing_database(db)
    record = _club(engine, club)
    with engine.connect() as conn:
        named = club_nights(conn, record.id)
    what = f" and its {len(named)} nights" if nights else ""
    confirm(f"Delete the club {record.name!r}{what}?", yes)
    deleted = delete_club(engine, record.id, with_nights=nights)
    typer.echo(f"bunco delete: deleted {_rows(deleted)}")
    if named and not nights:
        typer.echo(f"Its {len(named)} nights are kept (bunco delete club --nights deletes them).")


@delete_app.command("member")
def delete_member(
    club: Annotated[str, typer.Argument(help="The club's id or name.")],
    name: Annotated[str, typer.Argument(help="The member's name.")],
    as_name: Annotated[
        str | None,
        typer.Option("--as", help="The name to put in its place (default: Former member 1, 2...)."),
    ] = None,
    db: DbOption = None,
    yes: YesOption = False,
) -> None:
    """Erase a member's personal data: their name is replaced in the club's log and in
    every night of the club, their email and address are taken out; the standings keep
    their row under the new name.

    Each rewritten night is checked to fold to the same score cards, set winners and
    prizes as before; if one does not, nothing changes."""
    from bunco.core.errors import BuncoError
    from bunco.store.deletion import DeletionError
    from bunco.store.erasure import erase_member

    engine = existing_database(db)
    record = _club(engine, club)
    confirm(f"Erase {name!r} from the club {record.name!r} and its nights?", yes)

    def check(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
        from bunco.club.load import fold_club

        try:
            fold_club(after)
        except BuncoError as exc:
            raise DeletionError(
                f"the club's log does not fold with the name replaced ({exc.message})",
                expected="another name for the member: --as NAME",
            ) from None

    try:
        done = erase_member(engine, record.id, name, replacement=as_name, check=check)
    except DeletionError as exc:
        fail(exc.message, expected=exc.expected)
    typer.echo(
        f"bunco delete: {done.name!r} is now {done.replacement!r} in the club's log "
        f"({done.club_events} events) and in {len(done.nights)} nights "
        f"({done.events} events); email and address taken out"
    )


@app.command("prune")
def prune_command(
    older_than: Annotated[
        str,
        typer.Option(
            "--older-than",
            metavar="AGE",
            help="Delete what was last used longer ago than this: 180d, 26w, 12h.",
        ),
    ],
    clubs: Annotated[
        bool,
        typer.Option("--clubs", help="Also delete clubs (with their nights) unused for that long."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list what would be deleted.")
    ] = False,
    db: DbOption = None,
    yes: YesOption = False,
    as_json: JsonOption = False,
) -> None:
    """Delete the nights nobody has used for a while, for a public server.

    A night's last use is its last event. The nights of a club are kept as long as the
    club (--clubs: delete the clubs unused for that long too, with their nights)."""
    from bunco.store.retention import parse_age, prune

    try:
        age = parse_age(older_than)
    except ValueError:
        fail(
            f"--older-than {older_than!r} is not an age",
            expected="a number and d (days), w (weeks) or h (hours): 180d",
        )
    engine = existing_database(db)
    found = prune(engine, age, clubs=clubs, dry_run=True)
    if not dry_run and (found.nights or found.clubs):
        confirm(
            f"Delete {len(found.nights)} nights and {len(found.clubs)} clubs last used "
            f"before {found.cutoff:%Y-%m-%d %H:%M} UTC?",
            yes,
        )
        found = prune(engine, age, clubs=clubs, now=found.cutoff + age)
    if as_json:
        print_json(
            {
                "cutoff": found.cutoff.isoformat(),
                "dry_run": dry_run,
                "nights": [
                    {"id": n.id, "name": n.name, "last_used": n.last_used.isoformat()}
                    for n in found.nights
                ],
                "clubs": [
                    {"id": c.id, "name": c.name, "last_used": c.last_used.isoformat()}
                    for c in found.clubs
                ],
                "deleted": found.deleted,
            }
        )
        return
    verb = "would delete" if dry_run else "deleted"
    for item in [*found.nights, *found.clubs]:
        typer.echo(f"  {item.id}  {item.name}  (last used {item.last_used:%Y-%m-%d})")
    summary = (
        f"{len(found.nights)} nights and {len(found.clubs)} clubs"
        if dry_run
        else _rows(found.deleted)
    )
    typer.echo(
        f"bunco prune: {verb} {summary} (last used before {found.cutoff:%Y-%m-%d %H:%M} UTC)"
    )
