"""The door list (docs/room.md), shared by the routes that mark players here: the host's
taps and a player's own "I'm here" (:mod:`bunco.web.api.checkin`) and a scanned door card
(:mod:`bunco.web.api.door`). The marks are kept with the night (its options), not in the
party log: a door list, not part of the score record.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, Field

from bunco.core.night import Night
from bunco.store import ChangedOptions
from bunco.web.decision.night_options import marked
from bunco.web.live.pubsub import Message
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService
from bunco.web.values.replies import ServiceError, json_text
from bunco.web.values.socket_messages import CheckinMessage


class CheckedOut(BaseModel):
    player: str
    table: int | None = Field(description="the table the player sits at in round 1")
    seat: int | None = Field(description="the seat there (1-based)")
    here: bool
    at: str | None = Field(description="when the player was marked here (UTC, ISO 8601)")


class CheckInOut(BaseModel):
    """The door list: every seated player, here or not yet, in the order of the seating."""

    night: str
    open: bool = Field(
        description="true until round 1's first roll: no-shows may still "
        "be seated as ghosts or replaced without touching a score"
    )
    here: int
    missing: int
    players: list[CheckedOut]


def before_play(night: Night) -> bool:
    """True while nothing of the night is scored: round 1 of set 1, not started, no roll at
    any table (rolling for high or order included)."""
    if night.phase != "playing" or night.set_no != 1 or night.round_no != 1 or night.started:
        return False
    return all(len(t.rolls) == 0 and not t.first_rolls for t in night.tables)


def require_door_open(night: Night) -> None:
    """Refuse a check-in once round 1 is under way (a late arrival joins between rounds)."""
    if not before_play(night):
        raise ServiceError(
            409,
            "too_late",
            "round 1 is under way: the door list is closed",
            "a late arrival joins between rounds (POST .../arrivals)",
        )


def marks_of(live: LiveNight) -> dict[str, str]:
    """Who is marked here, and since when (UTC, ISO 8601)."""
    return dict(live.options.get("checkin") or {})


def door_list(live: LiveNight) -> CheckInOut:
    """The night's door list as it stands."""
    marks = marks_of(live)
    players = []
    for number, seats in enumerate(live.night.seating, start=1):
        for seat, name in enumerate(seats, start=1):
            if name is not None:
                players.append(
                    CheckedOut(
                        player=name, table=number, seat=seat, here=name in marks, at=marks.get(name)
                    )
                )
    here = sum(1 for p in players if p.here)
    return CheckInOut(
        night=live.id,
        open=before_play(live.night),
        here=here,
        missing=len(players) - here,
        players=players,
    )


async def mark(
    svc: NightService, live: LiveNight, player: str, *, here: bool, command_id: str | None = None
) -> ChangedOptions:
    """Mark ``player`` (seated, the list open: the caller checked both under the night's
    lock, which it holds) here or take the mark back, decided on the door list as stored
    (:func:`~bunco.web.decision.night_options.marked`: another host's marks made meanwhile,
    on this process or another, stay); tell the night's pages (a ``checkin`` message) and
    return the options before and after. The first mark's time stays; ``command_id`` (a
    scanned card's) is kept beside it, so the same scan sent again is known as that
    scan."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    changed = await svc.change_options(
        live, marked(player, here=here, now=now, command_id=command_id)
    )
    if changed.after == changed.before:
        return changed  # marked already (or not marked): nothing to tell
    out = door_list(live)
    # the host's list follows (the counts only: who is here is the hosts' to read)
    news: CheckinMessage = {
        "type": "checkin",
        "seq": live.seq,
        "here": out.here,
        "missing": out.missing,
    }
    svc.publisher.deliver(Message(live.id, live.seq, None, json_text(news), kind="options"))
    return changed
