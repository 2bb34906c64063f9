"""The door list (docs/room.md), shared by the routes that mark players here: the host's
taps and a player's own "I'm here" (:mod:`bunco.web.api_checkin`) and a scanned door card
(:mod:`bunco.web.api_door`). The marks are kept with the night (its options), not in the
party log: a door list, not part of the score record.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from bunco.core.night import Night
from bunco.web.live_night import LiveNight
from bunco.web.pubsub import Message
from bunco.web.replies import ServiceError, json_text
from bunco.web.service import NightService


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
) -> CheckInOut:
    """Mark ``player`` (seated, the list open: the caller checked both under the night's
    lock, which it holds) here or take the mark back; store the door list with the night,
    tell the night's pages (a ``checkin`` message) and return the list. The first mark's
    time stays; ``command_id`` (a scanned card's) is kept beside it, so the same scan sent
    again is known as that scan."""
    marks = marks_of(live)
    ids: dict[str, str] = dict(live.options.get("checkin_ids") or {})
    if here:
        if player not in marks:
            marks[player] = datetime.now(UTC).isoformat(timespec="seconds")
            if command_id is not None:
                ids[player] = command_id
    else:
        marks.pop(player, None)
        ids.pop(player, None)
    options: dict[str, Any] = {**live.options, "checkin": marks, "checkin_ids": ids}
    await svc.db(svc.store.set_options, live.id, options)
    live.options = options
    out = door_list(live)
    # the host's list follows (the counts only: who is here is the hosts' to read)
    news = {"type": "checkin", "seq": live.seq, "here": out.here, "missing": out.missing}
    svc.publisher.deliver(Message(live.id, live.seq, None, json_text(news), kind="options"))
    return out
