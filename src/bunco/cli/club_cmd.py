"""``bunco club``: a club's roster, seasons, nights, dues and standings, in the database.

The club lives in the same database as ``bunco serve`` (``--db``, default: the SQLite file
in your data directory), so the web pages and the command line see the same club.

- ``bunco club create "Tuesday Club" --dues 5 --regular Ann --regular Bea --sub Zoe
  --payout most_wins=50%``: prints the club's id and secret token (for the web pages).
- ``bunco club member|season|host|pay CLUB ...``: the club's events.
- ``bunco club add-night CLUB night.jsonl --date 2026-01-13``: a night played on paper
  (or with ``bunco play``) becomes a night of the club.
- ``bunco club show|standings|ledger CLUB [--json]``, ``--csv FILE``,
  ``bunco club report CLUB --out season.pdf --out season.html``.

CLUB is the club's id or its name.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from bunco.cli.app import console, fail, print_json, refusals
from bunco.cli.club_db import (
    DbOption,
    JsonOption,
    SeasonOption,
    club_app,
    open_store,
)
from bunco.cli.club_db import append as _append
from bunco.cli.club_db import open_club as _open

if TYPE_CHECKING:
    from bunco.core.club_events import (
        ClubEvent,
        ClubMemberEvent,
        ClubNightEvent,
        ClubPaymentEvent,
        Payout,
    )


def local_zone() -> str:
    """This machine's time zone (IANA name: $TZ, else /etc/localtime's), else UTC."""
    import os
    from pathlib import Path
    from zoneinfo import available_timezones

    named = os.environ.get("TZ", "").lstrip(":")
    if not named:
        link = Path("/etc/localtime")
        target = str(link.resolve()) if link.is_symlink() else ""
        named = target.partition("zoneinfo/")[2]
    return named if named in available_timezones() else "UTC"


@club_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The club's name.")],
    dues: Annotated[str, typer.Option(help="Dues per player per night, e.g. 5.")] = "0",
    sub_fee: Annotated[
        str | None, typer.Option(help="What a substitute owes the club for each seat they take.")
    ] = None,
    currency: Annotated[str, typer.Option(help="The currency sign.")] = "$",
    rules: Annotated[str, typer.Option(help="The club's preset.")] = "classic",
    regular: Annotated[list[str] | None, typer.Option(help="A regular (repeatable).")] = None,
    sub: Annotated[list[str] | None, typer.Option(help="A substitute (repeatable).")] = None,
    payout: Annotated[
        list[str] | None,
        typer.Option(help="PRIZE=AMOUNT or PRIZE=SHARE%, e.g. most_wins=50% (repeatable)."),
    ] = None,
    season: Annotated[str | None, typer.Option(help="The first season's name.")] = None,
    timezone: Annotated[
        str | None,
        typer.Option(help="The club's time zone, e.g. America/Chicago (default: this machine's)."),
    ] = None,
    base_url: Annotated[
        str, typer.Option("--base-url", help="The server's address, as the organizer opens it.")
    ] = "http://127.0.0.1:8000",
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create a club; prints its page's link (with its secret token) and a recovery code
    to keep: with it, `bunco club recover` (or the club's page) gives the link back."""
    from bunco.club.club import Club

    payouts: list[Payout] = []
    for item in payout or []:
        prize, sep, value = item.partition("=")
        if not sep:
            fail(f"payout {item!r} has no amount", expected="PRIZE=AMOUNT or PRIZE=SHARE%")
        if value.strip().endswith("%"):
            payouts.append({"prize": prize.strip(), "share": value.strip()})
        else:
            payouts.append({"prize": prize.strip(), "amount": value.strip()})
    setup: dict[str, str | list[Payout]] = {
        "type": "club",
        "name": name,
        "dues": dues,
        "currency": currency,
        "rules": rules,
        "payouts": payouts,
    }
    if sub_fee is not None:
        setup["sub_fee"] = sub_fee
    setup["timezone"] = timezone or local_zone()
    events: list[ClubEvent] = [
        {"type": "member", "name": n, "role": "regular"} for n in regular or []
    ]
    events += [{"type": "member", "name": n, "role": "substitute"} for n in sub or []]
    if season:
        events.append({"type": "season", "name": season})
    with refusals():
        club = Club.start(setup).apply_all(events)
    _, clubs = open_store(db)
    token = secrets.token_urlsafe(24)
    club_id = secrets.token_urlsafe(6)
    from bunco.web.club.recovery import new_recovery

    code, recovery = new_recovery(token, club_id)
    clubs.create(club_id, club.name, club.setup, token, [*events, recovery])
    url = f"{base_url.rstrip('/')}/c/{club_id}?token={token}"
    if as_json:
        print_json(
            {"club": club_id, "token": token, "name": club.name, "recovery_code": code, "url": url}
        )
    else:
        console.print(f"club {club.name}: id {club_id}, token {token}", highlight=False)
        console.print(f"the club's page (keep it secret): {url}", highlight=False, soft_wrap=True)
        console.print(
            f"recovery code (shown once; keep it apart): {code}\n"
            f"  bunco club recover {club_id} {code} gives the link back",
            highlight=False,
        )


@club_app.command("member")
def member(
    club: str,
    name: str,
    sub: Annotated[bool, typer.Option("--sub", help="As a substitute.")] = False,
    gone: Annotated[bool, typer.Option("--gone", help="Leaves the club.")] = False,
    email: Annotated[str | None, typer.Option(help="Where reminders go.")] = None,
    address: Annotated[
        str | None, typer.Option(help="Their address (the nights they host are there).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Add a member (a regular, or a substitute with --sub), change their email or address,
    or remove one (--gone)."""
    _, clubs, club_id, state, _ = _open(db, club)
    role: Literal["regular", "substitute"] = "substitute" if sub else "regular"
    joins: ClubMemberEvent = {"type": "member", "name": name, "role": role}
    if email:
        joins["email"] = email
    if address:
        joins["address"] = address
    _append(clubs, club_id, state, {"type": "leave_club", "name": name} if gone else joins)
    console.print(
        f"{state.name}: {name} " + ("leaves" if gone else f"is a {role}"), highlight=False
    )


@club_app.command("season")
def season(club: str, name: str, db: DbOption = None) -> None:
    """Begin a new season: later nights belong to it."""
    _, clubs, club_id, state, _ = _open(db, club)
    _append(clubs, club_id, state, {"type": "season", "name": name})
    console.print(f"{state.name}: season {name} begins", highlight=False)


@club_app.command("host")
def host(
    club: str, month: Annotated[str, typer.Argument(help="YYYY-MM")], name: str, db: DbOption = None
) -> None:
    """Who hosts which month."""
    _, clubs, club_id, state, _ = _open(db, club)
    _append(clubs, club_id, state, {"type": "host", "month": month, "host": name})
    console.print(f"{state.name}: {name} hosts {month}", highlight=False)


@club_app.command("pay")
def pay(
    club: str,
    player: str,
    amount: str,
    note: Annotated[str | None, typer.Option(help="A note.")] = None,
    db: DbOption = None,
) -> None:
    """A member pays dues."""
    _, clubs, club_id, state, _ = _open(db, club)
    paid: ClubPaymentEvent = {"type": "payment", "player": player, "amount": amount}
    if note:
        paid["note"] = note
    _append(clubs, club_id, state, paid)
    console.print(f"{state.name}: {player} paid {state.currency}{amount}", highlight=False)


@club_app.command("add-night")
def add_night(
    club: str,
    log: Annotated[Path, typer.Argument(help="A party log (.jsonl).")],
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD")] = None,
    guest: Annotated[
        list[str] | None, typer.Option(help="A player who is not a member (repeatable).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Store a party log (a night played on paper or with bunco play) as a night of the club.

    Refused: a night already in the club (the same log twice), and a night with players
    who are neither members nor listed with --guest."""
    from bunco.cli.replay_cmd import load_night
    from bunco.club.nights import log_digest, night_players_check, night_setup
    from bunco.club.season import pot_to_carry
    from bunco.core.night import Night

    night = load_night(log)
    store, clubs, club_id, state, nights = _open(db, club)
    night_id = secrets.token_urlsafe(6)
    event: ClubNightEvent = {
        "type": "night",
        "night": night_id,
        "digest": log_digest(night.setup, night.events),
    }
    if date:
        event["date"] = date
    if guest:
        event["guests"] = guest
    with refusals():
        night_players_check(state, list(night.setup["players"]), guest or [])
        state.apply(event)
        if "money" not in night.setup:  # the club's money: dues as buy-in, the pot carried over
            club_line = night_setup(
                state.setup,
                night.roster[: len(night.setup["players"])],
                carried_over=pot_to_carry(state, nights),
            )
            night = Night.start({**night.setup, "money": club_line["money"]}).apply_all(
                list(night.events)
            )
    store.create_night(night_id, str(night.setup.get("name") or state.name), night.setup)
    for seq, ev in enumerate(night.events, start=1):
        table = ev.get("table")
        store.append(
            night_id,
            seq,
            table=table if isinstance(table, int) else None,
            command_id=None,
            event=ev,
        )
    _append(clubs, club_id, state, event)
    console.print(
        f"{state.name}: night {night_id} added ({len(night.roster)} players)", highlight=False
    )


@club_app.command("show")
def show(club: str, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The club: members, seasons, nights, hosts."""
    from bunco.club.views import club_view

    _, _, club_id, state, nights = _open(db, club, write=False)
    view = club_view(club_id, state, nights)
    if as_json:
        print_json(view)
        return
    console.print(
        f"[bold]{state.name}[/] ({club_id}) · season {view['season']} · dues "
        f"{state.currency}{state.setup['dues']} · pot {state.currency}{view['pot']}"
    )
    console.print("Regulars: " + (", ".join(view["regulars"]) or "none"), highlight=False)
    console.print("Substitutes: " + (", ".join(view["substitutes"]) or "none"), highlight=False)
    for n in view["nights"]:
        name = n["name"] or f"night {n['night']}"
        phase = {"over": "played", None: "not in this database"}.get(n["phase"], "under way")
        console.print(
            f"  {n['date'] or 'no date'}  {name} ({n['season']}, {phase})", highlight=False
        )
    for p in view["plans"]:
        if p["night"] is None:
            where = f" at {p['address']}" if p["address"] else ""
            console.print(
                f"  {p['date']} {p['time'] or ''} to come: host {p['host'] or '?'}"
                f"{where}; {p['coming']} coming of {p['seats']} seats, "
                f"{p['not_answered']} not answered",
                highlight=False,
            )
    console.print("Standings: " + view["ladder"]["text"], highlight=False)


@club_app.command("standings")
def standings(
    club: str,
    season_name: SeasonOption = None,
    db: DbOption = None,
    csv: Annotated[Path | None, typer.Option("--csv", help="Write them as CSV.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The season's standings: nights (counted of played), W, L, Buncos, Minis, points,
    prizes, money won, and the nights each score left out."""
    from bunco.club.ladder import rule_text
    from bunco.club.season import season_standings

    _, _, _, state, nights = _open(db, club, write=False)
    with refusals():
        rows = season_standings(state, nights, season_name)
    if csv is not None:
        from bunco.sheets.season import season_csv

        csv.write_text(season_csv(state, nights, season_name), encoding="utf-8")
    rule = rule_text(state.ladder)
    if as_json:
        print_json(
            {
                "season": season_name or state.season,
                "rule": rule,
                "rules": state.ladder,
                "standings": [r.as_dict() for r in rows],
            }
        )
        return
    from bunco.cli.club_tables import standings_table

    console.print(standings_table(state, nights, season_name, console.width))


@club_app.command("ledger")
def ledger(
    club: str, season_name: SeasonOption = None, db: DbOption = None, as_json: JsonOption = False
) -> None:
    """Dues owed and paid, each night's pot and payouts, the pot carried over."""
    from bunco.club.season import season_ledger

    _, _, _, state, nights = _open(db, club, write=False)
    data = season_ledger(state, nights, season_name)
    if as_json:
        print_json(data)
        return

    from bunco.cli.club_tables import ledger_table

    console.print(ledger_table(state, data, console.width))


@club_app.command("report")
def report(
    club: str,
    out: Annotated[
        list[Path], typer.Option("--out", "-o", help="season.html and/or season.pdf (repeatable).")
    ],
    season_name: SeasonOption = None,
    db: DbOption = None,
) -> None:
    """The season report: standings, a chart of them over the season, nights, dues."""
    from bunco.sheets.season import season_report_html, season_report_pdf

    for path in out:
        if path.suffix.lower() not in (".html", ".htm", ".pdf"):
            fail(f"cannot tell the format of {path}", expected="a file ending in .html or .pdf")
    _, _, _, state, nights = _open(db, club, write=False)
    for path in out:
        if path.suffix.lower() == ".pdf":
            path.write_bytes(season_report_pdf(state, nights, season_name))
        else:
            path.write_text(season_report_html(state, nights, season_name), encoding="utf-8")
        console.print(f"wrote {path}", highlight=False)


from bunco.cli import club_month_cmd, club_night_cmd  # noqa: E402, F401  (their commands)
