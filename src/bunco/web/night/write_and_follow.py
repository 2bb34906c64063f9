"""The runtime parts of a held night that run its writes and follow other processes,
apart from its state (:class:`~bunco.web.decision.frozen_state.HeldState`): :class:`Writing` (the
lock its writes take, the commands waiting in its inbox, its writer task) and
:class:`Following` (what other server processes announced, and the task catching up)."""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from bunco.web.decision.commands import NightCommand
from bunco.web.values.replies import Ack

REQUEST_ARRIVED: ContextVar[tuple[float, asyncio.Task[Any] | None] | None] = ContextVar(
    "request_arrived", default=None
)
"""When the request being served arrived (``time.perf_counter()``) and the task serving it,
set by the metrics' middleware (:mod:`bunco.web.server.metrics`): the start of the
request-to-listener time."""


def request_arrival() -> float | None:
    """When the request this task serves arrived, or ``None`` (a bot's or the clock's
    command, or no metrics kept). Only the request's own task counts: a task it started
    (a night's writer, its bots) holds a copy of its context, not the request."""
    held = REQUEST_ARRIVED.get()
    if held is None or held[1] is not asyncio.current_task():
        return None
    return held[0]


@dataclass
class Queued:
    """A command waiting in a night's inbox, the future its caller awaits, and when its
    request arrived (``None``: not a request's, e.g. a bot's, or no metrics kept)."""

    command: NightCommand
    reply: asyncio.Future[Ack]
    arrived: float | None = field(default_factory=request_arrival)


@dataclass
class Writing:
    """How a night's writes run: one at a time under ``lock`` (the writer task's batches,
    and the routes that check the night before they change its server options), the
    commands waiting for the next batch (``inbox``) and the ``writer`` task taking them
    (:mod:`bunco.web.night.command_path`); the changes of its server options one at a
    time under ``options`` (so the options held in memory are those written last)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    options: asyncio.Lock = field(default_factory=asyncio.Lock)
    inbox: list[Queued] = field(default_factory=list)
    writer: asyncio.Task[None] | None = None


@dataclass
class Following:
    """What other server processes announced about a night (PostgreSQL notifications):
    the highest seq heard, whether its server options changed, and the ``follower`` task
    catching the night up (:mod:`bunco.web.night.follow`)."""

    heard: int = -1
    options_stale: bool = False
    follower: asyncio.Task[None] | None = None
