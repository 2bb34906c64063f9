"""``bunco club`` for the nights that change: a night started and never played taken
back, a planned night cancelled or moved, and the organizer's way back in.

- ``bunco club cancel CLUB 2026-02-10``: the night is called off (a night started on that
  date and never played is taken back first); members are told.
- ``bunco club postpone CLUB 2026-02-10 2026-02-17 [--time 19:30]``: it moves.
- ``bunco club take-back CLUB NIGHT``: a night started from the club and never played
  leaves the club (no dues, no pot); its planned date is a night to come again.
- ``bunco club recover CLUB CODE``: the club's page link, for its recovery code.
- ``bunco club timezone CLUB America/Chicago``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from bunco.cli.app import console, fail
from bunco.cli.club_db import (
    BaseUrlOption,
    DbOption,
    append,
    checked,
    club_app,
    decide,
    open_club,
)

DEFAULT_BASE = "http://127.0.0.1:8000"


@club_app.command("cancel")
def cancel(
    club: str, date: Annotated[str, typer.Argument(help="YYYY-MM-DD")], db: DbOption = None
) -> None:
    """Call off a planned night (it stays in the calendar, cancelled); members are told."""
    from bunco.club.ledger import take_back_on

    _, clubs, club_id, state, nights = open_club(db, club)
    called_off = checked({"type": "cancel_plan", "date": date})
    state = decide(  # decided on the club as it is stored against
        clubs, club_id, state, lambda now: [*take_back_on(now, nights, date), called_off]
    )
    console.print(f"{state.name}: the night of {date} is cancelled", highlight=False)


@club_app.command("postpone")
def postpone(
    club: str,
    date: Annotated[str, typer.Argument(help="YYYY-MM-DD: the night planned")],
    to: Annotated[str, typer.Argument(help="YYYY-MM-DD: its new date")],
    time: Annotated[str | None, typer.Option(help="Its new time, HH:MM.")] = None,
    deadline: Annotated[
        str | None, typer.Option(help="Its new answers' deadline, YYYY-MM-DDTHH:MM.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Move a planned night to another date: its answers go with it; members are told."""
    from bunco.club.ledger import take_back_on

    _, clubs, club_id, state, nights = open_club(db, club)
    given = {"type": "move_plan", "date": date, "to": to}
    given.update({k: v for k, v in (("time", time), ("deadline", deadline)) if v})
    moved = checked(given)
    state = decide(clubs, club_id, state, lambda now: [*take_back_on(now, nights, date), moved])
    plan = state.plans[to]
    console.print(
        f"{state.name}: the night of {date} moves to {to}"
        + (f" at {plan.time}" if plan.time else ""),
        highlight=False,
    )


@club_app.command("take-back")
def take_back(
    club: str,
    night: Annotated[str, typer.Argument(help="The night's id (bunco club show).")],
    db: DbOption = None,
) -> None:
    """Take back a night started from the club and never played: no dues, no pot."""
    from bunco.club.ledger import take_back as taken_back

    _, clubs, club_id, state, nights = open_club(db, club)
    state = decide(clubs, club_id, state, lambda now: [taken_back(now, nights, night)])
    console.print(f"{state.name}: night {night} is taken back (no dues, no pot)", highlight=False)


@club_app.command("recover")
def recover(
    club: str,
    code: Annotated[str, typer.Argument(help="The recovery code shown when the club was made.")],
    base_url: BaseUrlOption = DEFAULT_BASE,
    db: DbOption = None,
) -> None:
    """The club's page link (and token) again, for its recovery code."""
    from bunco.web.club.recovery import unseal

    _, _, club_id, state, _ = open_club(db, club, write=False)
    token = unseal(state.recovery, club_id, code) if state.recovery else None
    if token is None:
        fail("that is not this club's recovery code", expected="the code shown at its creation")
    console.print(f"token {token}", highlight=False)
    console.print(
        f"{base_url.rstrip('/')}/c/{club_id}?token={token}", highlight=False, soft_wrap=True
    )


@club_app.command("timezone")
def timezone(
    club: str,
    zone: Annotated[str, typer.Argument(help="An IANA time zone, e.g. America/Chicago.")],
    db: DbOption = None,
) -> None:
    """The club's time zone (its calendar's times and its answers' deadlines)."""
    _, clubs, club_id, state, _ = open_club(db, club)
    state = append(clubs, club_id, state, {"type": "timezone", "zone": zone})
    console.print(f"{state.name}: time zone {state.timezone}", highlight=False)
