"""What the API's route modules share: path parameters, the documented refusals, the
service of a request, a player by name, a file reply, and the reply and envelope of a
command. Route modules import these from here, never from each other (import-linter's
contract for ``bunco.web.api``, docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from fastapi import Path, Request
from fastapi.responses import Response
from pydantic import BeforeValidator

from bunco.core.events import Event
from bunco.web.api.access import host_only, require
from bunco.web.decision.commands import Drawing, fingerprint
from bunco.web.decision.rights import Check
from bunco.web.gate.principal import Principal
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService
from bunco.web.values.fields import plain_decimal, plain_integer
from bunco.web.values.replies import Ack, ServiceError
from bunco.web.values.schemas import CommandBody, ErrorOut, name_key

NightId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the night's id"),
]
DIGITS = BeforeValidator(plain_integer)
"""A whole number in a path or query string: ASCII digits only (``Annotated[int, DIGITS,
Path(...)]``): ``1.0``, ``+1`` and ``1e0`` are refused."""
DECIMAL = BeforeValidator(plain_decimal)
"""A number in a query string: ASCII digits, a decimal point maybe (no exponent, no sign)."""
TableNo = Annotated[
    int,
    DIGITS,
    Path(ge=1, le=10_000, description="a table number, 1 = head table"),
]
PlayerName = Annotated[
    str,
    Path(
        min_length=1,
        max_length=200,
        description=(
            "a player's name, percent-encoded (a name with a slash is A%2FB); case and spacing "
            "do not matter"
        ),
    ),
]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422, 429)
}
"""The refusals every route may answer, in the documented error shape."""


def service(request: Request) -> NightService:
    """The server's night service."""
    svc: NightService = request.app.state.service
    return svc


def player_named(live: LiveNight, name: str) -> str:
    """The player of the night called ``name`` (case and spacing ignored), else 404."""
    if name in live.night.cards:
        return name
    wanted = name_key(name)
    found = next((p for p in live.night.cards if name_key(p) == wanted), None)
    if found is None:
        raise ServiceError(
            404,
            "no_such_player",
            f"{name!r} is not a player tonight",
            "one of " + ", ".join(live.night.roster[:20]),
        )
    return found


def send_file(
    body: bytes | str, media_type: str, filename: str, *, inline: bool = False
) -> Response:
    """A file to download (or to show, ``inline``) under ``filename``."""
    how = "inline" if inline else "attachment"
    return Response(
        body,
        media_type=media_type,
        headers={"content-disposition": f'{how}; filename="{filename}"'},
    )


_BY_WORDS = {
    ("undone", "host"): "the host undid an entry there",
    ("undone", "phone"): "an entry there was undone on another phone",
    ("other_phone", "host"): "the host entered something there first",
    ("other_phone", "phone"): "another phone entered something there first",
    ("other_phone", "player"): "a player entered their own roll there first",
    ("other_phone", "server"): "the server rolled for a bot there first",
}


async def named_refusal(svc: NightService, night_id: str, error: ServiceError) -> ServiceError:
    """``error`` with whoever changed the table named (``by``: ``host``, ``phone``,
    ``player`` or ``server``) in place of their token's ``by_caller``, and its words
    saying so ("the host undid an entry there"), so a page says what really happened."""
    caller = error.extra.pop("by_caller", None)
    if not isinstance(caller, str):
        return error
    by = "server" if caller in ("bot", "clock", "server") else None
    if by is None:
        for role in ("host", "table", "player"):
            records = await svc.db(svc.store.tokens, night_id, role)
            if any(r.hash[:32] == caller for r in records):
                by = "phone" if role == "table" else role
                break
    if by is None:
        return error
    cause = str(error.extra.get("cause", ""))
    error.extra["by"] = by
    if by == "host" and cause == "other_phone":
        error.extra["cause"] = "host_entered"
    words = _BY_WORDS.get((cause, by))
    for old in ("an entry there was undone", "another phone entered something there first"):
        if words and old in error.message:
            error.message = error.message.replace(old, words)
    return error


def ack_reply(ack: Ack) -> Response:
    """The reply of an accepted command (the AckOut shape, serialised once)."""
    return Response(ack.as_json(), media_type="application/json")


class CommandEnvelope(TypedDict):
    """A command's id, whose it is and the fingerprint of its request
    (:class:`~bunco.web.decision.commands.NightCommand`'s own), passed on as keywords."""

    command_id: str
    caller: str
    request: str


def command_of(
    who: Principal, body: CommandBody, *route: Any, omit: frozenset[str] = frozenset()
) -> CommandEnvelope:
    """The envelope of a command: its id, whose it is, and the request it stands for (the
    route and every field but the id and those in ``omit``), so a reused id with another
    request is refused."""
    return {
        "command_id": body.command_id,
        "caller": who.caller,
        "request": fingerprint(
            *route, body.model_dump(mode="json", by_alias=True, exclude={"command_id", *omit})
        ),
    }


async def night_command(
    request: Request,
    night_id: str,
    event: Event | Drawing,
    body: Any,
    what: str,
    *,
    roles: tuple[str, ...] = ("host",),
    allowed: Callable[[Principal], Check] = host_only,
) -> Response:
    """A command of the whole night (an event, or a drawing the server draws), sent by
    one of ``roles`` and checked by ``allowed``."""
    svc = service(request)
    who = await require(request, night_id, *roles, what=what)
    await svc.get(night_id, fresh=False)  # 404 first; the writer catches up itself
    kind = "drawing" if isinstance(event, Drawing) else event["type"]
    try:
        ack = await svc.submit(
            night_id,
            event,
            **command_of(who, body, kind),
            expected_seq=body.expected_seq,
            authorize=allowed(who),
        )
    except ServiceError as exc:
        raise await named_refusal(svc, night_id, exc) from None
    return ack_reply(ack)
