"""The live stream: one WebSocket per night (or per table of a night).

``/api/nights/{id}/ws?token=...&since=SEQ&table=N`` (or ``&player=NAME``)

With ``player=NAME`` (a player's phone; the name as in the player URLs, case and
spacing ignored), the socket follows the table that player sits at, as with ``table``,
and keeps following the player: when the seating changes (a new round, a substitute),
the server moves it to the player's new table and sends that table's page in a ``table``
message whose ``table`` is the new table (``null`` when the player sits at no table: it
then gets the messages of the whole night only, and the phone loads the night). The
hello's ``table`` says where the player sits now.

1. ``{"type": "hello", "night", "seq", "since", "table", "role", "status"}``: ``seq`` is
   the night's last event now. With ``table``, the status leaves out ``expects`` (as in
   the status messages below), and the hello carries what the table's phones draw at that
   seq: ``table_view`` (absent when the table is not in play), ``view`` (the rest of
   :func:`~bunco.party.view.table_page`) and ``versions`` (the ``expected_seq`` to send:
   ``"night"``, ``"rolloff"``, ``"N"``), so a phone that reconnects needs no GET.
2. Every stored event with a seq above ``since`` (those of table N and of the whole night
   when ``table`` is given), oldest first: ``{"type": "event", "seq", "table", "event"}``.
3. ``{"type": "caught_up", "seq"}``.
4. The live stream: ``event`` messages (with ``table_view``, the table after the event);
   ``status`` messages (``{"type": "status", "seq", "status"}``) whenever the phase,
   set, round or bell changes, or an event of the whole night happens (a table follower's
   status leaves out ``expects``, who may roll at every table); and then a ``table``
   message (``{"type": "table", "seq", "table", "table_view", "view"}``) for each table
   whose page changed: its new players and whose turn it is, and (``view``) the round's
   result there, where its players go, their cards, the roll-off, the prizes.

The server subscribes before it reads the backlog and drops live messages it already
sent, so a client that reconnects with the last seq it saw gets everything after it,
without gaps or duplicates. A listener that falls far behind is closed with code 4008
and reconnects with ``since``. A client may send ``{"type": "ping"}``; the reply is
``{"type": "pong", "seq"}``. A message from the client above :data:`MAX_MESSAGE`
characters closes the socket with 1009 (``bunco serve`` has Uvicorn refuse it before it
is read whole, see :mod:`bunco.web.server.connections`), and under ``bunco serve`` a socket
that sends more messages than its budget (:mod:`bunco.web.server.message_budget`: 30 at once,
one more every 2 s) is closed with 1008 before they reach this code. When the socket's
token is revoked
(on any process) the socket gets ``{"type": "error", "error": "unauthorized", ...}`` and
is closed with code 4401 (:mod:`bunco.web.live.open_sockets`).

Each message is typed once in :mod:`bunco.web.values.socket_messages`; the app's OpenAPI
document has their schemas under ``components/schemas`` (``SocketMessage``, their union,
``HelloMessage``, ``EventMessage``, ...: :func:`bunco.web.app.publish_schemas`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from bunco.web.api.access import require_read
from bunco.web.api.routing import player_named
from bunco.web.live.open_sockets import OpenSockets, SocketWatch
from bunco.web.live.pubsub import Overflow, Subscription
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService
from bunco.web.values.fields import plain_integer
from bunco.web.values.json_text import loads_shallow
from bunco.web.values.replies import ServiceError, event_text, json_text
from bunco.web.values.socket_messages import (
    CaughtUpMessage,
    HelloMessage,
    PongMessage,
)

router = APIRouter()
CLOSE_BEHIND = 4008
CLOSE_TOO_BIG = 1009
MAX_MESSAGE = 4096
"""The largest message a client may send (the pages send ``{"type":"ping"}``)."""
REVOKED = ServiceError(
    401,
    "unauthorized",
    "this token was revoked by the host",
    "a new token: join the table again or ask the host",
)


def _int_param(websocket: WebSocket, name: str, default: int | None, low: int) -> int | None:
    raw = websocket.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(str(plain_integer(raw)))  # ASCII digits only, as in every path and query
    except ValueError:
        raise ServiceError(
            422,
            "invalid_request",
            f"{name}={raw!r} is not a whole number",
            f"{name} as an integer of at least {low}",
        ) from None
    if value < low:
        raise ServiceError(
            422, "invalid_request", f"{name}={value} is too small", f"{name} of at least {low}"
        )
    return value


async def _refuse(websocket: WebSocket, exc: ServiceError) -> None:
    await websocket.send_text(json.dumps({"type": "error", **exc.as_dict()}))
    await websocket.close(code=4000 + exc.status if exc.status < 1000 else 4000)


@router.websocket("/api/nights/{night_id}/ws")
async def night_socket(websocket: WebSocket, night_id: str) -> None:
    """Stream a night's events in order: backlog after ``since``, then live."""
    await websocket.accept()
    svc: NightService = websocket.app.state.service
    try:
        since = _int_param(websocket, "since", -1, -1)
        table = _int_param(websocket, "table", None, 1)
        player = websocket.query_params.get("player")
        if player is not None and table is not None:
            raise ServiceError(
                422,
                "invalid_request",
                "table and player were both given",
                "table=N (a table's phone) or player=NAME (a player's phone)",
            )
        who = await require_read(websocket, night_id)
        assert since is not None
        # a client may have seen `since` through another server process: catch up to it
        live = await svc.get(night_id, at_least=since)
        if since > live.seq:
            raise ServiceError(
                422,
                "invalid_request",
                f"since={since} is beyond the night's last event {live.seq}",
                f"since between -1 and {live.seq}",
            )
        if player is not None:
            player = player_named(live, player)
    except ServiceError as exc:
        await _refuse(websocket, exc)
        return
    sockets: OpenSockets = websocket.app.state.sockets
    watch = sockets.open(night_id, who.caller)
    try:
        await _follow(websocket, svc, live, night_id, since, table, player, who.role, watch)
    finally:
        sockets.close(watch)


async def _follow(
    websocket: WebSocket,
    svc: NightService,
    live: LiveNight,
    night_id: str,
    since: int,
    table: int | None,
    player: str | None,
    role: str,
    watch: SocketWatch,
) -> None:
    """The hello, the backlog and the live stream of an authorised socket."""
    if player is not None:  # nothing awaits from here to the snapshot: the table holds
        table = live.table_of(player)
        subscription = svc.pubsub.subscribe(night_id, table, player=player)
    else:
        subscription = svc.pubsub.subscribe(night_id, table)
    follows = table is not None or player is not None  # a phone: its table's page
    try:
        # the snapshot: nothing awaits between these lines, so it is consistent
        backlog = live.since(since, table, whole=not follows)
        upto = live.seq
        # a table's follower: as in its status messages, its table's page says whose turn
        status = live.status(expects=not follows)
        hello: HelloMessage = {
            "type": "hello",
            "night": night_id,
            "seq": upto,
            "since": since,
            "table": table,
            "role": role,
            "status": status,
        }
        if player is not None:
            hello["player"] = player
        text = json_text(hello)
        if table is not None:  # a table's page: everything it draws, so it needs no GET
            page = live.page(table)  # JSON built once per seq, shared by every phone
            versions = json.dumps(live.versions(table), separators=(",", ":"))
            view = "" if page.table == "null" else f',"table_view":{page.table}'
            text = f'{text[:-1]}{view},"view":{page.rest},"versions":{versions}}}'
        await websocket.send_text(text)
        for stored in backlog:
            await websocket.send_text(event_text(stored))
        caught_up: CaughtUpMessage = {"type": "caught_up", "seq": upto}
        await websocket.send_text(json_text(caught_up))
        await _stream(websocket, subscription, live, upto, watch)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        subscription.close()


async def _stream(
    websocket: WebSocket, subscription: Subscription, live: LiveNight, upto: int, watch: SocketWatch
) -> None:
    async def pump() -> None:
        while True:
            message = await subscription.get()
            if message.seq > upto or message.kind == "options":
                await websocket.send_text(message.text)

    async def read() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text") or ""
            if len(text) > MAX_MESSAGE or len(message.get("bytes") or b"") > MAX_MESSAGE:
                raise MessageTooBig
            with contextlib.suppress(ValueError, AttributeError, TypeError):
                data: Any = loads_shallow(text)
                if data.get("type") == "ping":
                    pong: PongMessage = {"type": "pong", "seq": live.seq}
                    await websocket.send_text(json_text(pong))

    tasks = {asyncio.ensure_future(pump()), asyncio.ensure_future(read()), watch.revoked}
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
    for task in done:
        exc = task.exception()
        with contextlib.suppress(Exception):
            if task is watch.revoked:
                await _refuse(websocket, REVOKED)
            elif isinstance(exc, Overflow):
                await websocket.close(
                    code=CLOSE_BEHIND, reason="fell behind; reconnect with since=<last seq>"
                )
            elif isinstance(exc, MessageTooBig):
                await websocket.close(
                    code=CLOSE_TOO_BIG, reason=f"messages of at most {MAX_MESSAGE} characters"
                )


class MessageTooBig(Exception):
    """The client sent a message above :data:`MAX_MESSAGE`."""
