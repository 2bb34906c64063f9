"""The hot path of a live night: ``POST /api/nights/{id}/tables/{n}/rolls`` without the
framework's routing and dependency machinery.

A tournament sends a roll every millisecond, and the general request pipeline (matching
every route, solving dependencies, validating the reply again) costs more than the
roll itself. This middleware answers exactly that one path with the same code the
documented route uses (:func:`bunco.web.api.play.enter_roll`, the same request model,
the same errors), and hands every other request to the app unchanged.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError
from pydantic_core import ErrorDetails
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from bunco.web.api.play import enter_roll
from bunco.web.night.service import NightService
from bunco.web.server.errors import REFUSAL, TEMPLATE, describe_validation, validation_details
from bunco.web.values.replies import ServiceError
from bunco.web.values.schemas import RollIn

ROLLS = re.compile(r"^/api/nights/([^/]{1,32})/tables/(\d{1,5})/rolls$")
ROLLS_TEMPLATE = "/api/nights/{night_id}/tables/{table}/rolls"
"""The documented route's path (the metrics and the access log name it)."""


class FastRolls:
    """ASGI middleware: serve the rolls endpoint directly, pass everything else on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        match = ROLLS.match(scope["path"])
        if match is None or not 1 <= int(match.group(2)) <= 10_000:
            await self.app(scope, receive, send)
            return
        scope[TEMPLATE] = ROLLS_TEMPLATE
        status, payload, extra = await self._roll(
            scope, receive, match.group(1), int(match.group(2))
        )
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
        ]
        headers += [(k.lower().encode(), v.encode()) for k, v in (extra or {}).items()]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    async def _roll(
        self, scope: Scope, receive: Receive, night_id: str, table: int
    ) -> tuple[int, bytes, dict[str, str] | None]:
        chunks = []  # at most the body cap: the BodyCap middleware in front counts
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return 400, b"{}", None
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        try:
            body = RollIn.model_validate_json(b"".join(chunks))
        except ValidationError as exc:
            errors: list[ErrorDetails] = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
            text, expected = describe_validation(errors)
            scope[REFUSAL] = "invalid_request"
            return (
                422,
                json.dumps(
                    {
                        "error": "invalid_request",
                        "message": text,
                        "expected": expected,
                        "details": validation_details(errors),
                    }
                ).encode(),
                None,
            )
        conn = HTTPConnection(scope)
        svc: NightService = conn.app.state.service
        try:
            ack = await enter_roll(svc, conn, night_id, table, body)
        except ServiceError as exc:
            scope[REFUSAL] = exc.code
            return exc.status, json.dumps(exc.as_dict()).encode(), exc.headers
        return 200, ack.as_json().encode(), None
