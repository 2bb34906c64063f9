"""HTTP API, timed rounds: ``GET /api/nights/{id}/clock``, the round's clock on the server's time.

Every page of a timed night (house rule ``round_minutes``) counts the round down from
this reply, never from the phone's own clock: ``remaining_ms`` is what was left when the
server answered, so a phone whose clock is wrong still shows the room's time. A page asks
again when its countdown reaches zero: if the server has not rung the bell yet (its timer
rings it at zero, :mod:`bunco.web.night.round_timer`), this request rings it, through the
command path like any command (one bell per round, however many pages ask at once).
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from bunco.web.api.access import require_read
from bunco.web.api.routing import ERRORS, NightId, service
from bunco.web.decision.timed_rounds import bell_command, clock_reply
from bunco.web.values.replies import ServiceError

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["play"])
log = logging.getLogger("bunco.round_timer")


class RoundClockOut(BaseModel):
    """A timed round's clock, as the party log has it."""

    set: int
    round: int
    minutes: int = Field(description="the round's minutes (house rule round_minutes)")
    started_at: str = Field(description="when the clock started (the start_round's clock)")
    ends_at: str = Field(description="when it reaches zero (ISO 8601)")
    rung: bool = Field(description="its bell at zero has rung (a time_up is in the log)")


class ClockOut(BaseModel):
    """The round's clock on the server's time."""

    clock: RoundClockOut | None = Field(
        description="the round in play's clock; null between rounds, before the round "
        "starts, or on a night without timed rounds"
    )
    minutes: int = Field(description="minutes per round (0: the rounds are not timed)")
    now: str = Field(description="the server's time of this reply (ISO 8601)")
    remaining_ms: int = Field(description="milliseconds left at `now` (0 at zero, or rung)")
    seq: int = Field(description="the night's last event when the server answered")


@router.get("/clock", response_model=ClockOut)
async def round_clock(night_id: NightId, request: Request) -> ClockOut:
    """The round's clock now (any token of the night); rings its bell if it is at zero."""
    await require_read(request, night_id)
    svc = service(request)
    live = await svc.get(night_id)
    bell = bell_command(live.night, svc.path.clock.now())
    if bell is not None:
        try:
            await svc.path.send(night_id, bell)
        except ServiceError as exc:  # the store is away: the timer rings it again
            log.warning("night %s: the round's bell at zero was not stored: %s", night_id, exc)
    return ClockOut(**clock_reply(live.night, svc.path.clock.now()), seq=live.seq)
