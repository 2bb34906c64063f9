"""HTTP API, part 4: prize money, judged prizes, presence, breaks and drawings.

Each command is one event of the party log (docs/party-log.md), sent by the host. A
drawing is drawn on the server when the command is decided, with the operating system's
cryptographic generator (:class:`bunco.web.decision.commands.ServerLuck`); the event records the
candidates, the pick and the winner, so the log re-checks it. Reading the payouts is open
to anyone who may read the night.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field, model_validator

from bunco.core.host_events import (
    AbsentEvent,
    BreakEvent,
    CloseCardsEvent,
    JudgeEvent,
    PresentEvent,
)
from bunco.core.settlement import prize_money
from bunco.sheets.payouts import payouts_csv
from bunco.web.api.access import require_read
from bunco.web.api.routing import ERRORS, NightId, night_command, send_file, service
from bunco.web.decision.commands import Drawing
from bunco.web.values.fields import Label, Name, Title
from bunco.web.values.reply_models import PayoutsOut, file_reply
from bunco.web.values.schemas import AckOut, CommandBody

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["money"])


class JudgeIn(CommandBody):
    """The host names a judged prize's winner (or a ranking: who comes next if passed over)."""

    prize: Title = Field(description="best_costume, group_best_costume, …")
    group: Label | None = Field(None, description="the group, for a per-group prize")
    winner: Name | None = None
    ranking: list[Name] | None = Field(None, min_length=1, max_length=50)

    @model_validator(mode="after")
    def _one_of(self) -> JudgeIn:
        if (self.winner is None) == (self.ranking is None):
            raise ValueError("give the winner or the ranking, not both or neither")
        return self


class PresenceIn(CommandBody):
    """The host marks a player as gone home (``present: false``) or back."""

    player: Name
    present: bool


class BreakIn(CommandBody):
    """A break begins, with the minutes the big screen counts down (optional)."""

    minutes: int | None = Field(None, ge=1, le=240)


class CloseCardsIn(CommandBody):
    """The host gives the prizes from the cards as verified: ``unverified`` repeats the
    names the host was warned of (the cards not verified as they stand)."""

    unverified: list[Name] = Field(default_factory=list, max_length=2000)


class DrawingIn(CommandBody):
    """A drawing among the players present, drawn by the server."""

    name: Title | None = None
    exclude_winners: bool = Field(False, description="leave out who won an earlier drawing")


@router.post("/judged", response_model=AckOut)
async def judge(night_id: NightId, body: JudgeIn, request: Request) -> Response:
    """The host names the winner of a judged prize such as Best Costume (host)."""
    if body.ranking is not None:
        ranking = list(body.ranking)
    else:
        assert body.winner is not None  # one of them is given (JudgeIn)
        ranking = [body.winner]
    event: JudgeEvent = {"type": "judge", "prize": body.prize, "ranking": ranking}
    if body.group is not None:
        event["group"] = body.group
    return await night_command(request, night_id, event, body, "judging prizes")


@router.post("/presence", response_model=AckOut)
async def presence(night_id: NightId, body: PresenceIn, request: Request) -> Response:
    """The host marks who has gone home; with "must be present to win" prizes pass them
    over, and drawings always do (host)."""
    event: PresentEvent | AbsentEvent = (
        {"type": "present", "player": body.player}
        if body.present
        else {"type": "absent", "player": body.player}
    )
    return await night_command(request, night_id, event, body, "marking who is present")


@router.post("/breaks", response_model=AckOut)
async def start_break(night_id: NightId, body: BreakIn, request: Request) -> Response:
    """A break begins between rounds; the big screen counts down ``minutes`` (host)."""
    event: BreakEvent = {"type": "break"}
    if body.minutes is not None:
        event["minutes"] = body.minutes
    event["started_at"] = datetime.now(UTC).isoformat(timespec="seconds")  # the countdown's start
    return await night_command(request, night_id, event, body, "starting a break")


@router.post("/breaks/end", response_model=AckOut)
async def end_break(night_id: NightId, body: CommandBody, request: Request) -> Response:
    """The host ends the break (the next round's first roll or bell ends it too)."""
    return await night_command(request, night_id, {"type": "end_break"}, body, "ending a break")


@router.post("/cards/close", response_model=AckOut)
async def close_cards(night_id: NightId, body: CloseCardsIn, request: Request) -> Response:
    """After the last round, the prizes from the cards as verified (host). The names must
    be the cards still unverified (``verification.awaiting`` of the view): 422 naming them
    otherwise; 409 when there are no cards to close."""
    event: CloseCardsEvent = {"type": "close_cards", "unverified": list(body.unverified)}
    return await night_command(request, night_id, event, body, "closing the cards")


@router.post("/drawings", response_model=AckOut)
async def drawing(night_id: NightId, body: DrawingIn, request: Request) -> Response:
    """A random drawing among the players present (host). The server draws the winner with
    a cryptographic generator; the event keeps the candidates in order and the pick, so
    anyone can re-check it from the log. Nobody present: 409."""
    return await night_command(
        request, night_id, Drawing(body.name, body.exclude_winners), body, "drawings"
    )


@router.get("/payouts", response_model=PayoutsOut)
async def payouts(night_id: NightId, request: Request) -> PayoutsOut:
    """Who is handed each prize (``awards``), the night's ``money`` and its ``payouts``
    (``{"player", "prize", "label", "group", "amount"}``, amounts as decimal strings)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return PayoutsOut.model_validate(
        {"night": live.id, "seq": live.seq, "phase": live.night.phase, **prize_money(live.night)}
    )


@router.get(
    "/download/payouts.csv",
    response_class=Response,
    responses=file_reply("text/csv", "the payout sheet (CSV)"),
)
async def payouts_file(night_id: NightId, request: Request) -> Response:
    """The payouts as CSV: player, prize, group, amount, currency."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return send_file(
        payouts_csv(live.night), "text/csv; charset=utf-8", f"bunco-{live.id}-payouts.csv"
    )
