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

Labels are made and read by :mod:`bunco.web.cohost_labels`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from bunco.web.access import require_host, tokens
from bunco.web.cohost_labels import label, number_of
from bunco.web.fields import Name
from bunco.web.replies import ServiceError
from bunco.web.reply_models import (
    CoHostMadeOut,
    CoHostRevokedOut,
    CoHostsOut,
    RevokedOut,
    ViewerLinksOut,
)
from bunco.web.routing import DIGITS, ERRORS, NightId, service

router = APIRouter(prefix="/api/nights/{night_id}/cohosts", responses=ERRORS, tags=["nights"])


class CoHostIn(BaseModel):
    """A new co-host, optionally named (``Bea``) so the list says whose phone it is."""

    name: Name | None = Field(None, description="whose phone it is (optional)")


def _link(request: Request, night_id: str, token: str) -> str:
    base = getattr(request.app.state, "public_base", None) or str(request.base_url).rstrip("/")
    return f"{base}/night/{night_id}?token={token}"


async def _cohosts(request: Request, night_id: str) -> list[dict[str, Any]]:
    svc = service(request)
    out = []
    for record in await svc.db(svc.store.tokens, night_id, "host"):
        number = number_of(record.player)
        if number is None:
            continue
        out.append(
            {
                "id": number,
                "label": record.player,
                "revoked": record.revoked,
                "created_at": record.created_at.isoformat() if record.created_at else None,
            }
        )
    return sorted(out, key=lambda c: c["id"])


@router.get("", response_model=CoHostsOut)
async def list_cohosts(night_id: NightId, request: Request) -> dict[str, Any]:
    """The night's co-hosts (host): id, label, whether revoked."""
    await require_host(request, night_id, "listing co-hosts")
    await service(request).get(night_id)
    return {"night": night_id, "cohosts": await _cohosts(request, night_id)}


@router.post("", status_code=201, response_model=CoHostMadeOut)
async def add_cohost(night_id: NightId, body: CoHostIn, request: Request) -> dict[str, Any]:
    """A second host credential (host): its token and link are shown only here."""
    await require_host(request, night_id, "adding a co-host")
    svc = service(request)
    live = await svc.get(night_id)
    async with live.lock:  # numbers are handed out one at a time
        known = await _cohosts(request, night_id)
        number = max((c["id"] for c in known), default=0) + 1
        if number > 50:
            raise ServiceError(
                409,
                "not_allowed_now",
                "this night already has 50 co-hosts",
                "revoke co-hosts nobody uses",
            )
        book = tokens(request)
        token, record = book.issue(night_id, "host", player=label(number, body.name))
        await svc.db(svc.store.add_tokens, [record])
    book.remember([record])
    return {
        "night": night_id,
        "id": number,
        "label": record.player,
        "token": token,
        "link": _link(request, night_id, token),
    }


@router.delete("/{cohost}", response_model=CoHostRevokedOut)
async def revoke_cohost(
    night_id: NightId, cohost: Annotated[int, DIGITS, Path(ge=1, le=1000)], request: Request
) -> dict[str, Any]:
    """Revoke a co-host's credential (host): its phones stop working at once, and so do the
    viewer links it made (its big screen, its player QR)."""
    await require_host(request, night_id, "revoking a co-host")
    svc = service(request)
    await svc.get(night_id)
    found = next((c for c in await _cohosts(request, night_id) if c["id"] == cohost), None)
    if found is None:
        raise ServiceError(
            404,
            "not_found",
            f"this night has no co-host {cohost}",
            "the id of a co-host from GET .../cohosts",
        )
    count = await svc.db(svc.store.revoke_tokens, night_id, "host", player=found["label"])
    links = 0
    for link in await _viewer_links(request, night_id):
        if link["made_by"] == found["label"] and not link["revoked"]:
            links += await svc.db(svc.store.revoke_tokens, night_id, "viewer", player=link["label"])
    tokens(request).revoked(night_id)
    return {"night": night_id, "id": cohost, "revoked": count, "viewer_links": links}


# -- a viewer link for a host's phone that did not create the night ---------------------------
viewer_router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["nights"])
MAX_VIEWER_LINKS = 60
"""The most viewer tokens a night hands out this way (one per co-host's phone is plenty)."""


class ViewerLinkOut(BaseModel):
    """A read-only token, and the big screen's and the players' links that carry it."""

    night: str
    id: int = Field(description="its number in GET .../viewer-links (to revoke it)")
    token: str = Field(description="a viewer token: reads the night, changes nothing")
    screen: str = Field(description="the big screen's link (for the TV)")
    player: str = Field(description="the players' page link (for the player QR)")


VIEWER_LABEL = re.compile(r"^viewer link (\d+) · (.+)$")
"""How a host-made viewer link is labelled: its number, then who made it."""


def viewer_label(number: int, maker: str | None) -> str:
    """The stored label of viewer link ``number`` made by ``maker`` (a co-host's label;
    ``None``: the host's own link).

    >>> viewer_label(3, "co-host 2 · Bea"), viewer_label(4, None)
    ('viewer link 3 · co-host 2 · Bea', 'viewer link 4 · host')
    """
    return f"viewer link {number} · {maker or 'host'}"


async def _viewer_links(request: Request, night_id: str) -> list[dict[str, Any]]:
    svc = service(request)
    out = []
    for record in await svc.db(svc.store.tokens, night_id, "viewer"):
        found = VIEWER_LABEL.match(record.player or "")
        if found is None:
            continue  # the night's own viewer link (or one made before links were labelled)
        out.append(
            {
                "id": int(found.group(1)),
                "made_by": found.group(2),
                "label": record.player,
                "revoked": record.revoked,
                "created_at": record.created_at.isoformat() if record.created_at else None,
            }
        )
    return sorted(out, key=lambda link: link["id"])


@viewer_router.post("/viewer-links", status_code=201, response_model=ViewerLinkOut)
async def viewer_link(night_id: NightId, request: Request) -> dict[str, Any]:
    """A viewer token for a host's phone (a co-host's) that does not hold the one made with
    the night: its "Big screen" link and player QR carry it (host). 409 past 60 of them.
    It is revoked with the co-host that made it."""
    who = await require_host(request, night_id, "making a viewer link")
    svc = service(request)
    live = await svc.get(night_id)
    async with live.lock:
        known = await svc.db(svc.store.tokens, night_id, "viewer")
        if len(known) >= MAX_VIEWER_LINKS:
            raise ServiceError(
                409,
                "not_allowed_now",
                f"this night already has {len(known)} viewer links",
                "the viewer link a host's phone already made (it keeps it)",
            )
        number = max((link["id"] for link in await _viewer_links(request, night_id)), default=0)
        book = tokens(request)
        token, record = book.issue(night_id, "viewer", player=viewer_label(number + 1, who.player))
        await svc.db(svc.store.add_tokens, [record])
    book.remember([record])
    base = getattr(request.app.state, "public_base", None) or str(request.base_url).rstrip("/")
    return {
        "night": night_id,
        "id": number + 1,
        "token": token,
        "screen": f"{base}/n/{night_id}/screen?token={token}",
        "player": f"{base}/n/{night_id}/player?token={token}",
    }


@viewer_router.get("/viewer-links", response_model=ViewerLinksOut)
async def list_viewer_links(night_id: NightId, request: Request) -> dict[str, Any]:
    """The viewer links the hosts' phones made (host): number, who made it, whether
    revoked. (The night's own viewer link, made with it, is not among them.)"""
    await require_host(request, night_id, "listing viewer links")
    await service(request).get(night_id)
    links = await _viewer_links(request, night_id)
    return {"night": night_id, "links": [_shown(link) for link in links]}


def _shown(link: dict[str, Any]) -> dict[str, Any]:
    return {key: link[key] for key in ("id", "made_by", "revoked", "created_at")}


@viewer_router.delete("/viewer-links/{link}", response_model=RevokedOut)
async def revoke_viewer_link(
    night_id: NightId, link: Annotated[int, DIGITS, Path(ge=1, le=1000)], request: Request
) -> dict[str, Any]:
    """Revoke a viewer link a host's phone made (host): the screens and pages opened with
    it stop at once."""
    await require_host(request, night_id, "revoking a viewer link")
    svc = service(request)
    await svc.get(night_id)
    found = next((v for v in await _viewer_links(request, night_id) if v["id"] == link), None)
    if found is None:
        raise ServiceError(
            404,
            "not_found",
            f"this night has no viewer link {link}",
            "the id of a viewer link from GET .../viewer-links",
        )
    count = await svc.db(svc.store.revoke_tokens, night_id, "viewer", player=found["label"])
    tokens(request).revoked(night_id)
    return {"night": night_id, "revoked": count}
