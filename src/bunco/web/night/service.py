"""The live nights: the one command path between the API and the engine and store.

Every write goes through :meth:`NightService.submit`. Commands to one night wait in the
night's inbox; one writer task per night takes everything waiting (a *batch*) and, under
the night's lock, checks each command in order against the night as the batch leaves it:
idempotency (a command id the same caller already used for the same request returns
its first result; for another request it is refused as ``id_reused``), the caller's
rights at this moment, the table's version (``expected_seq``), then lets the engine
apply the event. The batch's events are committed to the store in one transaction on a
writer thread (group commit: the event loop never waits for the database, and rolls
that arrive together cost one commit), and only then is the in-memory night advanced,
each event published and each command answered. A refused command changes nothing.

The in-memory state of a night is rebuilt from the stored log the first time the
night is used after a start, so killing the server loses nothing acknowledged.

Several processes may serve one night from one PostgreSQL database. The store then
notifies every process of each commit (:mod:`bunco.store.notify`); a process that holds
the night reads the events it missed from the store, in seq order, applies them to its
night and publishes them to its own listeners (:mod:`bunco.web.night.follow`). Processes
writing one night take turns: each batch is stored holding the night's write lock
(:mod:`bunco.store.night_lock`), and checked again under it when another process
stored events first, so a command is never refused because another process wrote, and
is refused as ``stale`` only when its own table (or the night, for commands of the
whole night) changed since the ``expected_seq`` it sent.

The parts, which :class:`NightService` holds: :class:`~bunco.web.night.night_registry.HeldNights`
(loading, catching up, advancing, publishing through :mod:`bunco.web.night.fanout`; each
night a :class:`~bunco.web.night.night_in_memory.LiveNight`: its frozen
:class:`~bunco.web.decision.frozen_state.HeldState` and its runtime parts),
:class:`~bunco.web.night.command_path.CommandPath` (batching and committing the writes, each
command decided by :func:`bunco.web.decision.decide.decide`) and the store's
:class:`~bunco.store.writers.NightWriter` (SQLite or PostgreSQL); here, the creation of
a night.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.events import Event
from bunco.core.night import Night
from bunco.core.server_options import NightOptions
from bunco.store import (
    ChangedOptions,
    EventStore,
    NightGone,
    StoreError,
    TokenChange,
    TokensChanged,
)
from bunco.store.events import OptionsChange
from bunco.store.writers import NightWriter, SqliteWriter, writer_for
from bunco.web.decision.commands import Intent, Luck
from bunco.web.decision.entry_rules import Tapped
from bunco.web.decision.frozen_state import started
from bunco.web.decision.night_options import OptionRefused
from bunco.web.decision.refusals import Refused
from bunco.web.decision.rights import Check
from bunco.web.decision.timed_rounds import ServerClock
from bunco.web.gate.auth import NightSecrets, creation_lookup, night_root, night_secrets
from bunco.web.live.pubsub import PubSub
from bunco.web.night.command_path import CommandPath, refused_error
from bunco.web.night.fanout import Publisher
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.night_registry import HeldNights
from bunco.web.values.replies import Ack, ServiceError, not_found


class NightService:
    """The nights held (``held``), the command path that writes them (``path``) and the
    store's writer they share (``writer``); and the creation of nights."""

    def __init__(
        self,
        store: EventStore,
        pubsub: PubSub | None = None,
        *,
        writer: NightWriter | None = None,
        luck: Luck | None = None,
        clock: ServerClock | None = None,
    ) -> None:
        self.writer = writer or writer_for(store)
        self.held = HeldNights(store, pubsub, self.writer)
        self.path = CommandPath(self.held, self.writer, luck, clock)

    # -- the parts' interface, for the routes ----------------------------------------------

    @property
    def store(self) -> EventStore:
        return self.held.store

    @property
    def pubsub(self) -> PubSub:
        return self.held.pubsub

    @property
    def publisher(self) -> Publisher:
        return self.held.publisher

    @property
    def nights(self) -> dict[str, LiveNight]:
        return self.held.nights

    @property
    def after_commit(self) -> list[Callable[[LiveNight], None]]:
        return self.held.after_commit

    @property
    def on_tokens_changed(self) -> list[Callable[[str], None]]:
        return self.held.on_tokens_changed

    @property
    def on_dropped(self) -> list[Callable[[str], None]]:
        return self.held.on_dropped

    def drop(self, night_id: str) -> None:
        """:meth:`HeldNights.drop`: the night was deleted; let it go."""
        self.held.drop(night_id)

    async def reload(self, night_id: str) -> None:
        """:meth:`HeldNights.reload`: the night's log was rewritten; read it again."""
        await self.held.reload(night_id)

    async def db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """:meth:`HeldNights.db`: a store call, inline for SQLite, on a thread otherwise."""
        return await self.held.db(fn, *args, **kwargs)

    async def change_options(self, live: LiveNight, change: OptionsChange) -> ChangedOptions:
        """Change ``live``'s server options by ``change`` (a decision of
        :mod:`bunco.web.decision.night_options`), through the writer: decided on the
        options as stored, written all or nothing and never over another change made
        meanwhile; ``live.options`` is then what was written. A refused change
        (:class:`~bunco.web.decision.night_options.OptionRefused`: ``missing``, what it
        names is not there, or ``conflict``, no room) is answered as a command's refusal
        is (:func:`~bunco.web.night.command_path.refused_error`: 404 or 409), nothing
        written."""
        async with live.writing.options:
            try:
                changed = await self.writer.change_options(live.id, change)
            except OptionRefused as refused:
                raise refused_error(refused) from None
            except NightGone:
                raise not_found(live.id) from None
            live.options = changed.after
        return changed

    async def change_tokens(self, night_id: str, change: TokenChange) -> TokensChanged:
        """Make ``change`` to the night's tokens (and options, kept in memory as
        :meth:`change_options` keeps them) through the writer, all or nothing."""
        live = self.nights.get(night_id)
        if change.options is None or live is None:
            return await self._tokens(night_id, change)
        async with live.writing.options:
            done = await self._tokens(night_id, change)
            if done.options is not None:
                live.options = done.options.after
        return done

    async def _tokens(self, night_id: str, change: TokenChange) -> TokensChanged:
        try:
            return await self.writer.change_tokens(night_id, change)
        except NightGone:
            raise not_found(night_id) from None

    async def get(self, night_id: str, *, at_least: int = -1, fresh: bool = True) -> LiveNight:
        """:meth:`HeldNights.get`: the live night, 404 if there is none."""
        return await self.held.get(night_id, at_least=at_least, fresh=fresh)

    async def catch_up(self, live: LiveNight) -> None:
        """:meth:`HeldNights.catch_up`."""
        await self.held.catch_up(live)

    async def submit(
        self,
        night_id: str,
        event: Intent | Event,
        *,
        command_id: str,
        caller: str = "",
        request: str | None = None,
        expected_seq: int | None = None,
        authorize: Check | None = None,
        tapped: Tapped | None = None,
        more: int | None = None,
    ) -> Ack:
        """:meth:`CommandPath.submit`: decide one command, apply it, reply (an event the
        server rolls the dice of is given as :class:`~bunco.web.decision.commands.RollForMe`)."""
        return await self.path.submit(
            night_id,
            event,
            command_id=command_id,
            caller=caller,
            request=request,
            expected_seq=expected_seq,
            authorize=authorize,
            tapped=tapped,
            more=more,
        )

    async def open(self) -> None:
        """Open the writer's connections now, not during the first burst of writes."""
        await self.writer.open()

    async def aclose(self) -> None:
        """Let the last batch finish and close the writer."""
        await self.writer.close()

    def close(self) -> None:
        """Stop the SQLite writer thread, without an event loop (after the last batch)."""
        if isinstance(self.writer, SqliteWriter):
            self.writer.shutdown()

    # -- creating nights -------------------------------------------------------------------

    async def create(
        self,
        setup: dict[str, Any],
        *,
        name: str,
        options: NightOptions,
        key: bytes | None,
        request: str,
    ) -> tuple[LiveNight, NightSecrets]:
        """Check and store a new night (setup line as event 0) with its host, viewer and
        table secrets, in one transaction; return it with the secrets.

        ``key`` is the creation key of the client's command id (:func:`creation_key`), or
        ``None``. A creation already made with the same key and the same ``request`` is
        answered with that night and the same secrets; with another request it is
        refused (409 ``id_reused``).
        """
        try:
            night = Night.start(setup)
        except BuncoError as exc:
            raise refused_error(Refused.of_engine(exc)) from None  # a setup: invalid, 422
        lookup = None if key is None else creation_lookup(key)
        tables = len(night.seating)
        for _attempt in range(8):
            if lookup is not None:
                again = await self._created_before(lookup, key, request)
                if again is not None:
                    return again
            night_id = secrets.token_urlsafe(6)
            if await self.db(self.store.night, night_id) is not None:
                continue
            salt = secrets.token_hex(16)
            made = night_secrets(night_root(key, salt, night_id), tables)
            try:
                await self.db(
                    self.store.create_night,
                    night_id,
                    name,
                    night.setup,
                    command_id=lookup,
                    options=options,
                    tokens=made.records(night_id),
                    salt=salt,
                    request_hash=request,
                )
            except StoreError:  # the same creation meanwhile, or a code hash taken: again
                continue
            stored = (await self.db(self.store.events, night_id))[0]
            live = LiveNight(
                night_id, name, stored.created_at, options, started(night_id, night, stored)
            )
            self.nights[night_id] = live
            for hook in self.after_commit:
                hook(live)
            return live, made
        raise ServiceError(
            503,
            "busy",
            "the night could not be stored; nothing was created",
            "the same request again",
        )

    async def _created_before(
        self, lookup: str, key: bytes | None, request: str
    ) -> tuple[LiveNight, NightSecrets] | None:
        """The night a creation with this key made, with its secrets, if any."""
        record = await self.db(self.store.night_by_command, lookup)
        if record is None or key is None or record.create_salt is None:
            return None
        if record.create_request != request:
            raise ServiceError(
                409,
                "id_reused",
                "this command_id already created a night with another request",
                "a new command_id for a new night (the same one only to retry the "
                "very same request)",
            )
        live = await self.get(record.id)
        tables = len(Night.start(live.log[0].event).seating)
        return live, night_secrets(night_root(key, record.create_salt, record.id), tables)
