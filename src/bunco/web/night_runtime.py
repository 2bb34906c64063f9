"""The runtime parts of a held night that run its writes and follow other processes,
apart from its state (:class:`~bunco.web.held_state.HeldState`): :class:`Writing` (the
lock its writes take, the commands waiting in its inbox, its writer task) and
:class:`Following` (what other server processes announced, and the task catching up)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bunco.web.commands import NightCommand
from bunco.web.replies import Ack


@dataclass
class Queued:
    """A command waiting in a night's inbox, and the future its caller awaits."""

    command: NightCommand
    reply: asyncio.Future[Ack]


@dataclass
class Writing:
    """How a night's writes run: one at a time under ``lock`` (the writer task's batches,
    and the routes that change the night's server options), the commands waiting for the
    next batch (``inbox``) and the ``writer`` task taking them
    (:mod:`bunco.web.command_path`)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    inbox: list[Queued] = field(default_factory=list)
    writer: asyncio.Task[None] | None = None


@dataclass
class Following:
    """What other server processes announced about a night (PostgreSQL notifications):
    the highest seq heard, whether its server options changed, and the ``follower`` task
    catching the night up (:mod:`bunco.web.follow`)."""

    heard: int = -1
    options_stale: bool = False
    follower: asyncio.Task[None] | None = None
