"""HTTP API: the tables' current join codes for every host of the night (docs/server.md).

A co-host (or the host on another phone) shows and prints the same table cards as the
phone that created the night: ``GET .../join-codes`` answers each table's code, QR token
and link as kept by :mod:`bunco.web.room.join_cards`.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from bunco.web.api.access import require_host
from bunco.web.api.routing import ERRORS, NightId, service
from bunco.web.room.join_cards import kept_cards
from bunco.web.values.schemas import TableCredentials

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["nights"])


class JoinCodesOut(BaseModel):
    """Every table's current join code, QR token and link (the table cards' contents)."""

    night: str
    tables: list[TableCredentials]
    missing: list[int] = Field(
        description="tables of the seating with no code kept (a table added since, or a "
        "night created before codes were kept): POST .../tables/{n}/credentials makes one"
    )


@router.get("/join-codes", response_model=JoinCodesOut)
async def join_codes(night_id: NightId, request: Request) -> JoinCodesOut:
    """The join codes to show and print (host and co-hosts)."""
    await require_host(request, night_id, "reading the join codes")
    live = await service(request).get(night_id, fresh=False)
    public: str | None = getattr(request.app.state, "public_base", None)
    base = public or str(request.base_url).rstrip("/")
    cards = kept_cards(live)
    count = max(len(live.night.seating), 1)
    return JoinCodesOut(
        night=night_id,
        tables=[
            TableCredentials(table=n, code=code, token=token, link=f"{base}/join?token={token}")
            for n, (code, token) in cards.items()
            if n <= count
        ],
        missing=[n for n in range(1, count + 1) if n not in cards],
    )
