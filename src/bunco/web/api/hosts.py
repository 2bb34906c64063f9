"""HTTP API: co-hosts, so that losing the host's phone never stalls the night, and the
viewer links a host's phone makes for itself.

A co-host holds a second host credential: a ``host`` token of its own, stored (as a hash,
like every token) with a label in the token's ``player`` column (``co-host 2 · Bea``), so
it can be listed and revoked without touching the host's own link. A co-host may do
everything the host may, except that nobody can revoke the host's own link here.

A viewer link made by a host's phone (``POST .../viewer-links``) is labelled in the same
column with its number and who made it (``viewer link 3 · co-host 2 · Bea``, or ``· host``;
a viewer's principal never carries it), so the hosts can list and revoke them, and
revoking a co-host revokes the viewer links it made.

Labels are made and read by :mod:`bunco.web.gate.cohost_labels`. A new co-host's or viewer
link's number is decided where its token is stored, in the store's one transaction
(:class:`~bunco.store.night_tokens.Numbered`): two processes adding at once never hand out
one number twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from bunco.store import Revoke, TokenChange, TokenRecord
from bunco.store.night_tokens import NumbersFull
from bunco.web.api.access import require_host, tokens
from bunco.web.api.routing import DIGITS, ERRORS, NightId, service
from bunco.web.gate import cohost_labels
from bunco.web.gate.cohost_labels import (
    MAX_COHOSTS,
    number_of,
    viewer_maker,
    viewer_number,
)
from bunco.web.values.fields import Name
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import (
    CoHost,
    CoHostMadeOut,
    CoHostRevokedOut,
    CoHostsOut,
    RevokedOut,
    ViewerLink,
    ViewerLinksOut,
)

router = APIRouter(prefix="/api/nights/{night_id}/cohosts", responses=ERRORS, tags=["nights"])


class CoHostIn(BaseModel):
    """A new co-host, optionally named (``Bea``) so the list says whose phone it is."""

    name: Name | None = Field(None, description="whose phone it is (optional)")


def _base(request: Request) -> str:
    return getattr(request.app.state, "public_base", None) or str(request.base_url).rstrip("/")


def _link(request: Request, night_id: str, token: str) -> str:
    return f"{_base(request)}/night/{night_id}?token={token}"


def _created(record: TokenRecord) -> str | None:
    return record.created_at.isoformat() if record.created_at else None


async def _cohosts(request: Request, night_id: str) -> list[CoHost]:
    svc = service(request)
    out = []
    for record in await svc.db(svc.store.tokens, night_id, "host"):
        number = number_of(record.player)
        if number is None:
            continue
        out.append(
            CoHost(
                id=number, label=record.player, revoked=record.revoked, created_at=_created(record)
            )
        )
    return sorted(out, key=lambda c: c.id)


@router.get("", response_model=CoHostsOut)
async def list_cohosts(night_id: NightId, request: Request) -> CoHostsOut:
    """The night's co-hosts (host): id, label, whether revoked."""
    await require_host(request, night_id, "listing co-hosts")
    await service(request).get(night_id)
    return CoHostsOut(night=night_id, cohosts=await _cohosts(request, night_id))


@router.post("", status_code=201, response_model=CoHostMadeOut)
async def add_cohost(night_id: NightId, body: CoHostIn, request: Request) -> CoHostMadeOut:
    """A second host credential (host): its token and link are shown only here."""
    await require_host(request, night_id, "adding a co-host")
    svc = service(request)
    await svc.get(night_id)
    book = tokens(request)
    token, record = book.issue(night_id, "host")
    try:  # its number is decided where it is stored (one transaction, any process)
        done = await svc.change_tokens(
            night_id, TokenChange(numbered=cohost_labels.cohost(record, body.name))
        )
    except NumbersFull:
        raise ServiceError(
            409,
            "not_allowed_now",
            f"this night already has {MAX_COHOSTS} co-hosts",
            "revoke co-hosts nobody uses",
        ) from None
    assert done.numbered is not None and done.number is not None
    book.remember([done.numbered])
    return CoHostMadeOut(
        night=night_id,
        id=done.number,
        label=done.numbered.player,
        token=token,
        link=_link(request, night_id, token),
    )


@router.delete("/{cohost}", response_model=CoHostRevokedOut)
async def revoke_cohost(
    night_id: NightId, cohost: Annotated[int, DIGITS, Path(ge=1, le=1000)], request: Request
) -> CoHostRevokedOut:
    """Revoke a co-host's credential (host): its phones stop working at once, and so do the
    viewer links it made (its big screen, its player QR)."""
    await require_host(request, night_id, "revoking a co-host")
    svc = service(request)
    await svc.get(night_id)
    found = next((c for c in await _cohosts(request, night_id) if c.id == cohost), None)
    if found is None:
        raise ServiceError(
            404,
            "not_found",
            f"this night has no co-host {cohost}",
            "the id of a co-host from GET .../cohosts",
        )
    made = [
        Revoke("viewer", player=link.label)
        for link in await _viewer_links(request, night_id)
        if link.made_by == found.label and not link.revoked
    ]
    # the co-host and the links they made, at once: none of them left working
    change = TokenChange(revoke=(Revoke("host", player=found.label), *made))
    done = await svc.change_tokens(night_id, change)
    tokens(request).revoked(night_id)
    count, links = done.revoked[0], sum(done.revoked[1:])
    return CoHostRevokedOut(night=night_id, id=cohost, revoked=count, viewer_links=links)


# -- a viewer link for a host's phone that did not create the night ---------------------------
viewer_router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["nights"])


class ViewerLinkOut(BaseModel):
    """A read-only token, and the big screen's and the players' links that carry it."""

    night: str
    id: int = Field(description="its number in GET .../viewer-links (to revoke it)")
    token: str = Field(description="a viewer token: reads the night, changes nothing")
    screen: str = Field(description="the big screen's link (for the TV)")
    player: str = Field(description="the players' page link (for the player QR)")


@dataclass(frozen=True, slots=True)
class _HostMade:
    """A viewer link a host's phone made, as stored: its label and what the list shows."""

    label: str
    shown: ViewerLink

    @property
    def made_by(self) -> str:
        return self.shown.made_by

    @property
    def revoked(self) -> bool:
        return self.shown.revoked


async def _viewer_links(request: Request, night_id: str) -> list[_HostMade]:
    svc = service(request)
    out = []
    for record in await svc.db(svc.store.tokens, night_id, "viewer"):
        number, maker = viewer_number(record.player), viewer_maker(record.player)
        if number is None or maker is None or record.player is None:
            continue  # the night's own viewer link (or one made before links were labelled)
        shown = ViewerLink(
            id=number, made_by=maker, revoked=record.revoked, created_at=_created(record)
        )
        out.append(_HostMade(record.player, shown))
    return sorted(out, key=lambda link: link.shown.id)


@viewer_router.post("/viewer-links", status_code=201, response_model=ViewerLinkOut)
async def viewer_link(night_id: NightId, request: Request) -> ViewerLinkOut:
    """A viewer token for a host's phone (a co-host's) that does not hold the one made with
    the night: its "Big screen" link and player QR carry it (host). 409 past 60 of them.
    It is revoked with the co-host that made it."""
    who = await require_host(request, night_id, "making a viewer link")
    svc = service(request)
    await svc.get(night_id)
    book = tokens(request)
    token, record = book.issue(night_id, "viewer")
    numbered = cohost_labels.viewer_link(record, who.player)
    try:  # its number is decided where it is stored (one transaction, any process)
        done = await svc.change_tokens(night_id, TokenChange(numbered=numbered))
    except NumbersFull as full:
        raise ServiceError(
            409,
            "not_allowed_now",
            f"this night already has {full.tokens} viewer links",
            "the viewer link a host's phone already made (it keeps it)",
        ) from None
    assert done.numbered is not None and done.number is not None
    book.remember([done.numbered])
    base = _base(request)
    return ViewerLinkOut(
        night=night_id,
        id=done.number,
        token=token,
        screen=f"{base}/n/{night_id}/screen?token={token}",
        player=f"{base}/n/{night_id}/player?token={token}",
    )


@viewer_router.get("/viewer-links", response_model=ViewerLinksOut)
async def list_viewer_links(night_id: NightId, request: Request) -> ViewerLinksOut:
    """The viewer links the hosts' phones made (host): number, who made it, whether
    revoked. (The night's own viewer link, made with it, is not among them.)"""
    await require_host(request, night_id, "listing viewer links")
    await service(request).get(night_id)
    links = await _viewer_links(request, night_id)
    return ViewerLinksOut(night=night_id, links=[link.shown for link in links])


@viewer_router.delete("/viewer-links/{link}", response_model=RevokedOut)
async def revoke_viewer_link(
    night_id: NightId, link: Annotated[int, DIGITS, Path(ge=1, le=1000)], request: Request
) -> RevokedOut:
    """Revoke a viewer link a host's phone made (host): the screens and pages opened with
    it stop at once."""
    await require_host(request, night_id, "revoking a viewer link")
    svc = service(request)
    await svc.get(night_id)
    found = next((v for v in await _viewer_links(request, night_id) if v.shown.id == link), None)
    if found is None:
        raise ServiceError(
            404,
            "not_found",
            f"this night has no viewer link {link}",
            "the id of a viewer link from GET .../viewer-links",
        )
    revoke = Revoke("viewer", player=found.label)
    done = await svc.change_tokens(night_id, TokenChange(revoke=(revoke,)))
    tokens(request).revoked(night_id)
    return RevokedOut(night=night_id, revoked=done.revoked[0])
