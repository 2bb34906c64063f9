"""Who is asking, and may they do this: the checks every endpoint makes (the rights
checked when a command is decided are :mod:`bunco.web.decision.rights`, re-exported here).

A token comes in ``Authorization: Bearer <token>`` or, where a header cannot be set
(a link, a WebSocket), as ``?token=``. No token or an unknown one is a 401; a token
of another night or of a role that may not do this is a 403.
"""

from __future__ import annotations

import asyncio

from fastapi import Request
from starlette.requests import HTTPConnection

from bunco.store import TokenRecord
from bunco.web.decision.rights import (
    host_only,
    host_or_head_table,
    is_turn_of,
    own_turn,
    seating_writer,
    table_writer,
    undo_writer,
)
from bunco.web.gate.auth import TokenBook, is_code, principal_of
from bunco.web.gate.guard import Guard
from bunco.web.gate.principal import Principal
from bunco.web.values.replies import ServiceError

__all__ = [
    "authenticate",
    "client_key",
    "guard",
    "host_only",
    "host_or_head_table",
    "is_turn_of",
    "join_credential",
    "missed",
    "own_turn",
    "require",
    "require_host",
    "require_read",
    "seating_writer",
    "table_writer",
    "token_of",
    "tokens",
    "too_many",
    "unauthorized",
    "undo_writer",
]

TOKEN_HINT = "a token in 'Authorization: Bearer <token>' or ?token=<token>"


def token_of(conn: HTTPConnection) -> str | None:
    """The bearer token of a request or WebSocket, if any."""
    header = conn.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return conn.query_params.get("token")


def tokens(conn: HTTPConnection) -> TokenBook:
    book: TokenBook = conn.app.state.tokens
    return book


def guard(conn: HTTPConnection) -> Guard:
    value: Guard = conn.app.state.guard
    return value


def client_key(conn: HTTPConnection) -> str:
    """The key under which a client's failures are counted: its address (as the proxy
    named it, when the host trusts a proxy: see ``bunco serve --trusted-proxy``)."""
    return Guard.client(conn.client.host if conn.client else None)


def too_many(wait: int, what: str, expected: str) -> ServiceError:
    return ServiceError(
        429,
        "too_many_attempts",
        what,
        expected,
        retry_after=wait,
        headers={"Retry-After": str(wait)},
    )


def unauthorized(what: str) -> ServiceError:
    return ServiceError(401, "unauthorized", f"{what} needs a token of this night", TOKEN_HINT)


async def authenticate(conn: HTTPConnection, night_id: str | None, what: str = "this") -> Principal:
    """The principal of the caller's bearer token, or a refusal.

    No token: 401. A token this process holds in memory is answered at once; any other
    is looked up on a worker thread (the event loop never waits for the database), with
    the failure counts (:class:`Guard`, in the database when several processes share
    it) counting the unknown ones. An unknown token counts as a failure of the client and
    of the night it was presented at. A client past its failures gets an answer about an
    unknown token once every 30 s (429 with ``Retry-After`` in between); past a night's
    failures, an unknown token there gets 429 instead of 401. Live tokens always work,
    from any address, so nobody can lock a night's phones out. A revoked token or a join credential
    is a 401 that counts nothing: they are not guesses.
    """
    token = token_of(conn)
    if not token:
        raise unauthorized(what)
    book = tokens(conn)
    record = book.cached_record(token)
    if record is None:
        record = await asyncio.to_thread(
            _look_up, book, guard(conn), client_key(conn), night_id, what, token
        )
    if record.role == "join":
        raise ServiceError(
            401,
            "unauthorized",
            "a join token is not a bearer token",
            "exchange it at POST /api/join for a table token",
        )
    if record.revoked:
        raise ServiceError(
            401,
            "unauthorized",
            "this token was revoked by the host",
            "a new token: join the table again or ask the host",
        )
    return principal_of(record)


def _look_up(
    book: TokenBook, limits: Guard, client: str, night_id: str | None, what: str, token: str
) -> TokenRecord:
    """The stored record of a token not in memory, counting it as a failure if there is
    none (a blocking call, for a worker thread). A token is 192 random bits, no guess: it
    is looked up whoever sends it, so a live one works from any address (the room's phones
    after a restart, behind the address of a guesser). Past its failures, the client's
    unknown tokens are on the slow path (see :mod:`bunco.web.gate.guard`)."""
    record = book.lookup(token)
    if record is not None:
        return record
    keys = [client] if night_id is None else [client, Guard.night(night_id)]
    with limits.exclusive(*keys):
        wait = limits.admit(client)
        if wait is not None:
            raise too_many(
                wait,
                "too many unknown tokens from here",
                f"wait {wait} s; then use the link or token the host gave you",
            )
        wait = limits.blocked(*keys[1:])
        if wait is not None:
            raise too_many(
                wait,
                "too many unknown tokens at this night",
                f"wait {wait} s; then use the link or token the host gave you",
            )
        limits.failed(*keys)
    if is_code(token):
        raise ServiceError(
            401,
            "unauthorized",
            "a join code is not a token",
            "exchange the join code at POST /api/join for a table token",
        )
    raise unauthorized(what)


async def join_credential(
    conn: HTTPConnection, code: str | None, token: str | None, night: str | None = None
) -> Principal:
    """The table a join code (typed) or join token (QR link) lets the caller score, or a
    refusal (404 for a wrong one). Looked up on a worker thread.

    A typed code is limited per client address and, with ``night`` (typed on a page of
    that night), checked against that night's codes only and counted for that night;
    without it, counted for the whole server. Past those limits: one attempt per address
    every 30 s (429 with ``Retry-After`` in between). A QR link's token (192 random bits,
    not guessable) is looked up whoever sends it: a live one always joins; a wrong one
    counts for the client.
    """
    keys = [client_key(conn)]
    if code is not None:
        keys.append(Guard.CODES if night is None else Guard.night_codes(night))
    return await asyncio.to_thread(_join, tokens(conn), guard(conn), keys, code, token, night)


def _join(
    book: TokenBook,
    limits: Guard,
    keys: list[str],
    code: str | None,
    token: str | None,
    night: str | None,
) -> Principal:
    if code is None:
        who = book.resolve_join(None, token)
        if who is not None:  # a live 192-bit token: no guess, no limit
            return who
    with limits.exclusive(*keys):
        wait = limits.admit(*keys)
        if wait is not None:
            typed = (
                "here"
                if code is None
                else "here, or typed " + ("on this server" if night is None else "at this night")
            )
            raise too_many(
                wait,
                f"too many wrong join codes (from {typed}): one attempt at a time now",
                f"wait {wait} s, or scan the table's QR code",
            )
        who = book.resolve_join(code, token) if code is not None else None
        if who is not None and night is not None and who.night_id != night:
            who = None  # a code of another night: checked against this night's only
        if who is None:
            limits.failed(*keys)
    if who is None:
        raise ServiceError(
            404,
            "unknown_code",
            "no table has this join code"
            if night is None
            else "no table of this night has this join code",
            "the six-character code shown at the table, or its QR link",
        )
    return who


async def missed(conn: HTTPConnection, refusal: ServiceError, what: str) -> ServiceError:
    """A guess at something secret in an address that named nothing (a door card, whose
    night may not exist either): counted as a failure of the client, like an unknown
    token, and answered ``refusal``; past the client's failures, 429 instead, once every
    30 s on the slow path (:mod:`bunco.web.gate.guard`). Returns the error to raise."""
    await asyncio.to_thread(_missed, guard(conn), client_key(conn), what)
    return refusal


def _missed(limits: Guard, client: str, what: str) -> None:
    with limits.exclusive(client):
        wait = limits.admit(client)
        if wait is not None:
            raise too_many(wait, f"too many unknown {what} from here", f"wait {wait} s")
        limits.failed(client)


async def require(
    conn: HTTPConnection, night_id: str, *roles: str, what: str = "this"
) -> Principal:
    """The caller's principal if it belongs to ``night_id`` and has one of ``roles``."""
    who = await authenticate(conn, night_id, what)
    if who.night_id != night_id:
        raise ServiceError(
            403,
            "forbidden",
            "this token belongs to another night",
            "a token of night " + repr(night_id),
        )
    if who.role not in roles:
        raise ServiceError(
            403,
            "forbidden",
            f"{who.describe()} may not do {what}",
            "a token of the " + " or ".join(roles),
        )
    return who


async def require_read(conn: HTTPConnection, night_id: str) -> Principal:
    return await require(conn, night_id, "host", "table", "player", "viewer", what="reading")


async def require_host(request: Request, night_id: str, what: str) -> Principal:
    return await require(request, night_id, "host", what=what)
