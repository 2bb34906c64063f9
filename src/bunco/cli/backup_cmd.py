"""``bunco backup`` and ``bunco restore``: a consistent copy of the server's database,
taken while it runs, checked, and brought back (:mod:`bunco.store.backup`).

- ``bunco backup --db URL --out FILE``: SQLite: an SQLite copy (the online backup);
  PostgreSQL: a portable archive. Either restores into either kind of database.
- ``bunco backup --verify FILE``: reads the backup whole; exit code 1 when it is damaged.
- ``bunco restore FILE --db URL [--replace]``: into an empty database (``--replace``:
  delete what it holds first, in the same transaction).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from bunco.cli.app import app, fail, print_json
from bunco.cli.store_options import DbOption, JsonOption, database_url


def size_text(size: int) -> str:
    """A file size in words.

    >>> size_text(826), size_text(2_400_000)
    ('826 bytes', '2.4 MB')
    """
    if size < 10_000:
        return f"{size:,} bytes"
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"


def holds(tables: dict[str, int]) -> str:
    """What a backup holds, in words: nights, clubs and the rest."""
    from bunco.store.restore import counted

    return counted(tables) if tables else "nothing"


def _failed(exc: Any) -> None:
    fail(exc.message, expected=exc.expected)


@app.command("backup")
def backup_command(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="The backup file to write (written whole under another name, then renamed).",
        ),
    ] = None,
    verify: Annotated[
        Path | None,
        typer.Option("--verify", help="Check this backup file instead of taking one."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Copy the server's database while it runs (or check a copy with --verify).

    SQLite is copied with SQLite's online backup into an SQLite file; PostgreSQL into a
    portable archive (compressed JSON lines) of every night's and club's log, the
    nights' tokens, options and phone reports. Either is one consistent snapshot, taken
    while the server goes on taking rolls, and restores with bunco restore into either
    kind of database. --verify reads a backup whole and checks it: exit code 1 when it
    is damaged."""
    from bunco.store.backup import take_backup, verify_backup
    from bunco.store.backup_format import BackupError

    if (out is None) == (verify is None):
        fail(
            "say either where to write the backup or which backup to check",
            expected="--out FILE to take a backup, or --verify FILE to check one",
        )
    if verify is not None:
        try:
            checked = verify_backup(verify)
        except BackupError as exc:
            _failed(exc)
        if as_json:
            print_json(
                {
                    "file": str(verify),
                    "kind": checked.kind,
                    "schema": checked.revision,
                    "taken_at": checked.taken_at,
                    "tables": checked.tables,
                    "nights_replayed": checked.nights_replayed,
                    "problems": checked.problems,
                    "problem_count": checked.problem_count,
                }
            )
        elif checked.problem_count:
            for problem in checked.problems:
                typer.echo(f"- {problem}")
        if checked.problem_count:
            fail(
                f"{verify} is damaged: {checked.problem_count} problem(s)"
                + ("" if as_json else " (listed above)"),
                expected="another backup, or take a new one",
                code=1,
            )
        if not as_json:
            typer.echo(
                f"{verify}: sound. {'An SQLite copy' if checked.kind == 'sqlite' else 'An archive'}"
                f" taken {checked.taken_at}, schema {checked.revision}: "
                f"{holds(checked.tables)}; every night's log replays "
                f"({checked.nights_replayed} nights)."
            )
        return
    assert out is not None
    url = database_url(db)
    try:
        taken = take_backup(url, out)
    except BackupError as exc:
        _failed(exc)
    except Exception as exc:  # a bad URL, a missing driver, a database that is not there
        fail(
            f"cannot read the database: {exc}",
            expected="--db with the database of bunco serve (an SQLite file or a URL)",
        )
    if as_json:
        print_json(
            {
                "file": str(out),
                "kind": taken.kind,
                "schema": taken.revision,
                "bytes": taken.bytes,
                "seconds": round(taken.seconds, 3),
                "tables": taken.tables,
            }
        )
        return
    what = "an SQLite copy" if taken.kind == "sqlite" else "an archive"
    typer.echo(
        f"bunco backup: wrote {out} ({what}, {size_text(taken.bytes)}, schema "
        f"{taken.revision}) in {taken.seconds:.1f} s: {holds(taken.tables)}"
    )


@app.command("restore")
def restore_command(
    file: Annotated[Path, typer.Argument(help="A backup written by bunco backup.")],
    db: DbOption = None,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="Delete what the database holds and put the backup in its place (in one "
            "transaction: a restore that fails leaves it as it was).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Bring a backup back into an empty database (or, with --replace, any).

    Restore before the servers start on that database: every night, club, token and
    link of the backup works again. A damaged backup changes nothing."""
    from bunco.store.backup_format import BackupError
    from bunco.store.restore import restore_backup

    if not file.exists():
        fail(f"there is no file {file}", expected="a file written by bunco backup")
    url = database_url(db)
    try:
        done = restore_backup(file, url, replace=replace)
    except BackupError as exc:
        _failed(exc)
    except Exception as exc:  # a bad URL, a missing driver, a database that is not there
        fail(
            f"cannot restore into the database: {exc}",
            expected="--db with an SQLite file or a database URL bunco may write to",
        )
    if as_json:
        print_json(
            {
                "file": str(file),
                "schema": done.revision,
                "seconds": round(done.seconds, 3),
                "tables": done.tables,
                "replaced": done.replaced,
            }
        )
        return
    from sqlalchemy.engine import make_url

    replaced = f" (in place of {holds(done.replaced)})" if done.replaced else ""
    shown = make_url(url).render_as_string(hide_password=True)
    typer.echo(
        f"bunco restore: {file} into {shown} in {done.seconds:.1f} s: "
        f"{holds(done.tables)}{replaced}"
    )
