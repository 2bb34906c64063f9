"""Error replies: every refusal is JSON ``{"error", "message", "expected"}`` with a 4xx.

- :class:`~bunco.web.values.replies.ServiceError` carries its own status.
- :class:`~bunco.core.errors.BuncoError`: a refusal of the kind its code says
  (:meth:`Refused.of_engine <bunco.web.decision.refusals.Refused.of_engine>`), answered with
  the status of that kind (:func:`bunco.web.night.command_path.refused_error`), as the
  decision's own refusals are: 409 when the command does not fit the night now (not your
  turn, round over, not allowed now, not seated), 422 when it is malformed.
- Request validation (FastAPI): 422 naming each wrong field and what it should be.
- A body above its cap (:mod:`bunco.web.server.bodycap`): 413 ``too_large``.
- Starlette's HTTP errors (400 a body that cannot be read, e.g. not UTF-8; 404 unknown
  path, 405 wrong method): their status, same shape, ``expected`` always filled.
- Anything else is a bug: 500 with no details, logged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, TypedDict

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic_core import ErrorDetails
from starlette.exceptions import HTTPException as StarletteHTTPException

from bunco.core.errors import BuncoError
from bunco.web.decision.refusals import Refused
from bunco.web.night.command_path import refused_error
from bunco.web.server.bodycap import TooLarge, too_large_body
from bunco.web.values.replies import ServiceError

log = logging.getLogger("bunco.web")
REFUSAL = "bunco.refusal"
"""The request scope's key where a refusal's ``error`` is left for the metrics
(:mod:`bunco.web.server.metrics`)."""
TEMPLATE = "bunco.template"
"""The request scope's key where a route served outside the router names its path's
template (the fast path), for the metrics and the access log."""


def refused(request: Request, code: str) -> None:
    """Leave a refusal's ``error`` in the request's scope, for the metrics."""
    request.scope[REFUSAL] = code


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or "body"


class FieldProblem(TypedDict):
    """One wrong field of a request: where it is (``dice.0``, ``body``) and what is wrong."""

    where: str
    message: str


def _plain(err: ErrorDetails) -> tuple[str, str]:
    """Where an error is and what it says (a JSON syntax error is said one way)."""
    if err.get("type") == "json_invalid":
        return "body", "the body is not valid JSON"
    return _where(tuple(err.get("loc", ()))), str(err.get("msg", "invalid"))


def describe_validation(errors: Sequence[ErrorDetails]) -> tuple[str, str]:
    """A one-line message and an 'expected' text from pydantic's error list."""
    messages = []
    for err in errors[:5]:
        where, what = _plain(err)
        messages.append(f"{where}: {what}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(messages) + more, "a request that follows the API schema (see /docs)"


def validation_details(errors: Sequence[ErrorDetails]) -> list[FieldProblem]:
    """Each wrong field and what is wrong with it (at most 20)."""
    details: list[FieldProblem] = []
    for err in errors[:20]:
        where, message = _plain(err)
        details.append({"where": where, "message": message})
    return details


def install(app: FastAPI) -> None:
    """Register the exception handlers on ``app``."""

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        refused(_request, exc.code)
        return JSONResponse(exc.as_dict(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(TooLarge)
    async def too_large(_request: Request, exc: TooLarge) -> Response:
        refused(_request, "too_large")
        return Response(
            too_large_body(exc.cap),
            status_code=413,
            media_type="application/json",
            headers={"connection": "close"},
        )

    @app.exception_handler(BuncoError)
    async def bunco_error(_request: Request, exc: BuncoError) -> JSONResponse:
        error = refused_error(Refused.of_engine(exc))
        refused(_request, error.code)
        return JSONResponse(error.as_dict(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        message, expected = describe_validation(errors)
        refused(_request, "invalid_request")
        return JSONResponse(
            {
                "error": "invalid_request",
                "message": message,
                "expected": expected,
                "details": validation_details(errors),
            },
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(
            exc.status_code, "http_error"
        )
        expected = {
            400: "a request body of JSON as the API schema says (see /docs)",
            404: "a path of the API (see /docs)",
            405: "a method this path accepts (see /docs)",
        }.get(exc.status_code, "a request the API accepts (see /docs)")
        refused(_request, code)
        return JSONResponse(
            {"error": code, "message": str(exc.detail), "expected": expected},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {
                "error": "internal",
                "message": "the server failed on this request; nothing was changed",
                "expected": "the same request again later (the failure is logged "
                "for the server's keeper)",
            },
            status_code=500,
        )
