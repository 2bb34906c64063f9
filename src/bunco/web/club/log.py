"""One door for every write of a club's log (docs/club.md, "How the log is written").

Every change the server makes to a club, an organizer's or a member's request, the club's
clock or the notices it sends, is a command: its events are checked against the club it
was decided on (:meth:`Club.apply <bunco.club.club.Club.apply>`, a refusal stores
nothing), then stored by :meth:`ClubStore.record <bunco.store.clubs.ClubStore.record>`:
all of them in one transaction, only if the club is still at the seq it was decided on,
and once per command id.

- A request's commands take their ids from its ``Idempotency-Key`` header: ``key#1``,
  ``key#2``... in the order the route makes them. A request sent again with the same key
  (its reply was lost) finds each command already taken: nothing is stored twice, and the
  route answers from the club as each command left it.
- A route gives its decision as a function of the club (``decide(club) -> events``: its
  checks, then its events) and :func:`decide_and_record` runs it: when the club moved on
  between the request's read and its write (another command was stored first: another
  phone, another process, the server's own clock or notices), the club is read again and
  the decision made again on it, checks included (:data:`TRIES` times), so every check
  runs on the club its events are stored against. Only a club that moves on at every try
  refuses the command: 409 ``club_changed``, nothing kept.
- The server's own writers (the clock, the notices) do the same with nobody to answer
  (:func:`keep_recording`).
- A new club is stored with its first events in one transaction (:func:`create`); made
  with an ``Idempotency-Key``, it is made once (:mod:`bunco.web.club.creation`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated

from fastapi import Header, Request

from bunco.club.club import Club
from bunco.club.load import fold_club
from bunco.core.club_events import ClubEvent
from bunco.core.errors import BuncoError
from bunco.store import ClubMoved, ClubStore, StoreError
from bunco.store.events import dump
from bunco.web.values.replies import ServiceError

log = logging.getLogger("bunco.club")

KEY_PATTERN = r"^[!-~]{1,100}$"
TRIES = 5
"""How often a command is decided (a request's, or the server's own) when another command
was stored first each time (each try is a fresh decision on the club read again)."""
_KEY = re.compile(KEY_PATTERN)


def idempotency_key(
    key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            min_length=1,
            max_length=100,
            pattern=KEY_PATTERN,
            description="a write's own id (e.g. a UUID): the same request sent again with "
            "the same key (its reply was lost) is applied once; reads ignore it",
        ),
    ] = None,
) -> str | None:
    """The ``Idempotency-Key`` header, declared on the club's routes (its rules, in the
    API's schema: a malformed key is refused with 422 before the route runs)."""
    return key


@dataclass(frozen=True, slots=True)
class Recorded:
    """A command as the club took it: the club after it, and whether an earlier try of
    the same command had stored it (``replayed``: nothing new, tell nobody again)."""

    club: Club
    replayed: bool = False


def refused(exc: BuncoError) -> ServiceError:
    """A command the club refuses (its rules): 422 with the rule's words."""
    return ServiceError(422, exc.code, exc.message, exc.expected)


def command_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key``, or ``None``; a malformed one is refused (422)."""
    key = request.headers.get("idempotency-key")
    if key is None:
        return None
    if not _KEY.match(key):
        raise ServiceError(
            422,
            "invalid_idempotency_key",
            "the Idempotency-Key header is not a key this server keeps",
            "1 to 100 printable characters without spaces, e.g. a UUID",
        )
    return key


def next_command_id(request: Request) -> str | None:
    """The id of the request's next command (``key#1``, ``key#2``...), or ``None``
    without an ``Idempotency-Key``."""
    key = command_key(request)
    number = int(getattr(request.state, "club_commands", 0)) + 1
    request.state.club_commands = number
    return None if key is None else f"{key}#{number}"


Decide = Callable[[Club], Sequence[ClubEvent]]
"""A command as a function of the club it is decided on: its checks (raising
:class:`BuncoError` or :class:`ServiceError`), then its events (none: nothing to store)."""


def read_club(store: ClubStore, club_id: str) -> Club:
    """The club as its log stands now (blocking)."""
    return fold_club(store.events(club_id))


def club_at(store: ClubStore, club_id: str, seq: int) -> Club:
    """The club as its log stood at ``seq`` (blocking)."""
    return fold_club(store.events(club_id)[: seq + 1])


def taken(store: ClubStore, club_id: str, command_id: str) -> Recorded | None:
    """The club as the command ``command_id`` left it, if the club took it already (a
    retry: nothing to decide or store again), else ``None`` (blocking)."""
    done = store.command(club_id, command_id)
    return None if done is None else Recorded(club_at(store, club_id, done.seq), replayed=True)


def record(
    store: ClubStore,
    club_id: str,
    club: Club,
    events: Sequence[ClubEvent],
    command_id: str | None = None,
) -> Recorded:
    """Check ``events`` against ``club`` and store them as one command (blocking: call it
    in a thread). A command id the club already took answers with the club as that
    command left it (before anything is checked: the club has moved on since). Raises
    :class:`BuncoError` (refused: nothing stored) and :class:`ClubMoved`."""
    if command_id is not None:
        done = taken(store, club_id, command_id)
        if done is not None:
            return done
    return _store(store, club_id, club, events, command_id)


def _store(
    store: ClubStore,
    club_id: str,
    club: Club,
    events: Sequence[ClubEvent],
    command_id: str | None,
) -> Recorded:
    after = club.apply_all(events)
    done = store.record(club_id, events, club.seq, command_id)
    if done.replayed:  # the same command, sent twice at once: the other try stored it
        return Recorded(club_at(store, club_id, done.seq), replayed=True)
    return Recorded(after)


def club_changed(club: Club) -> ServiceError:
    """409 ``club_changed``: the club moved on at every try (nothing kept)."""
    return ServiceError(
        409,
        "club_changed",
        f"{club.name} changed while this was being saved (someone else saved a change "
        "at the same moment): nothing of this was kept",
        "the same change again: it is then made on the club as it is now",
    )


async def decide_and_record(
    request: Request,
    store: ClubStore,
    club_id: str,
    club: Club,
    decide: Decide,
    reread: Callable[[], Awaitable[Club]] | None = None,
) -> tuple[Club, Recorded]:
    """A request's command, under its next command id: ``decide(club)`` makes its events
    (its checks first), which are checked against that club and stored. When another
    command was stored first, the club is read again (``reread``, else its log) and
    ``decide`` runs again on it, :data:`TRIES` times. A command id the club already took
    (the request sent again, its reply lost) is answered from the club as that command
    left it, without deciding again. Returns the club the events were decided on and
    what was stored (the club unchanged when ``decide`` had nothing to store).

    Raises :class:`ServiceError`: what ``decide`` raises, 422 for a command the club
    refuses, 409 ``club_changed`` when the club moved on at every try."""
    command_id = next_command_id(request)
    if command_id is not None:
        done = await asyncio.to_thread(taken, store, club_id, command_id)
        if done is not None:
            return club, done
    for _ in range(TRIES):
        try:
            events = list(decide(club))
            if not events:
                return club, Recorded(club)
            stored = await asyncio.to_thread(_store, store, club_id, club, events, command_id)
            return club, stored
        except BuncoError as exc:
            raise refused(exc) from None
        except ClubMoved:
            club = await (reread() if reread else asyncio.to_thread(read_club, store, club_id))
    log.warning("club %s: other commands kept coming first; the request is refused", club_id)
    raise club_changed(club)


async def retried(request: Request, store: ClubStore, club_id: str) -> Club | None:
    """The club as it was before this request's first command, when the request is a
    retry of one the club already took (same ``Idempotency-Key``); else ``None``. A
    route whose checks the first try changed (a night made is then open) decides on it."""
    key = command_key(request)
    if key is None:
        return None
    done = await asyncio.to_thread(store.command, club_id, f"{key}#1")
    if done is None:
        return None
    return await asyncio.to_thread(club_at, store, club_id, done.based_on)


def night_command_id(token: str, club_id: str, key: str) -> str:
    """The creation id of the night a club's request makes (a retry with the same key
    makes the same night, with the same tokens): derived from the caller's token, which
    the server never keeps, so the id is as secret as that token."""
    return hashlib.sha256(f"bunco-club-night:{token}:{club_id}:{key}".encode()).hexdigest()


def keep_deciding(
    store: ClubStore, club_id: str, club: Club, decide: Decide
) -> tuple[Club, Recorded] | None:
    """A command decided and stored without a request (blocking: the server's own, the
    command line's): ``decide(club)`` makes its events (its checks first), which are
    checked against that club and stored; when another command was stored first, the
    club is read again and ``decide`` runs again on it, :data:`TRIES` times. Returns the
    club the events were decided on and what was stored, or ``None`` when ``decide`` had
    nothing to store. Raises :class:`BuncoError` (refused: nothing stored) and, when the
    club moved on at every try, :class:`ClubMoved` (nothing stored)."""
    tries = 1
    while True:
        events = list(decide(club))
        if not events:
            return None
        try:
            return club, _store(store, club_id, club, events, None)
        except ClubMoved:
            if tries == TRIES:
                raise
            tries += 1
            club = read_club(store, club_id)


def keep_recording(
    store: ClubStore, club_id: str, club: Club, decide: Decide
) -> tuple[Club, Recorded] | None:
    """A command of the server's own (blocking), by :func:`keep_deciding`. Returns the
    club it was decided on and what was stored, or ``None`` when ``decide`` had nothing
    to store (or the club kept moving: the next look tries again)."""
    try:
        return keep_deciding(store, club_id, club, decide)
    except ClubMoved:
        log.warning("club %s: other commands kept coming first; the next look tries again", club_id)
        return None


async def create(
    store: ClubStore, club_id: str, club: Club, token: str, events: Sequence[ClubEvent]
) -> bool:
    """Store a new club: ``club`` is the club after ``events`` (checked by the caller),
    stored with its set-up line in one transaction (nothing if any part fails). A club of
    that id made by the same creation (its id and token derived from the request's key,
    :mod:`bunco.web.club.creation`: the same request sent again) is there already:
    nothing is stored, ``False``. Raises :class:`ServiceError` 409 ``id_reused`` when the
    key made a club with another request."""
    return await asyncio.to_thread(_create, store, club_id, club, token, list(events))


def _create(
    store: ClubStore, club_id: str, club: Club, token: str, events: list[ClubEvent]
) -> bool:
    try:
        store.create(club_id, club.name, club.setup, token, events)
        return True
    except StoreError:
        if not store.token_matches(club_id, token):
            raise  # another club's id (drawn at random: never in practice)
    first = [json.loads(dump(dict(line))) for line in [club.setup, *events]]
    if store.events(club_id)[: len(first)] != first:
        raise ServiceError(
            409,
            "id_reused",
            "this Idempotency-Key already made a club with another request",
            "a new key for a new club (the same one only to send the very same request again)",
        )
    return False
