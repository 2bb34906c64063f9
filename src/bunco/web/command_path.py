"""The command path: every write goes through :meth:`CommandPath.submit`.

Commands to one night wait in the night's inbox; one writer task per night takes
everything waiting (a *batch*) and, under the night's lock, checks each command in order
against the night as the batch leaves it, then stores the batch's events in one
transaction on a writer thread and only then advances the night, publishes each event and
answers each command (see :mod:`bunco.web.service` for the whole story).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.store import SeqTaken, StoredEvent
from bunco.store.events import dump, now
from bunco.web.decide import Entry, HeldTable, Tapped, decide_entry
from bunco.web.held_nights import HeldNights
from bunco.web.live_night import (
    TABLE_EVENTS,
    Command,
    LiveNight,
    bump_versions,
    moved,
    version_in,
)
from bunco.web.replies import (
    Ack,
    ServiceError,
    envelope_dict,
    event_table,
    fingerprint,
    roll_for_me,
)

log = logging.getLogger("bunco.service")
MAX_BATCH = 512
"""The most commands one transaction stores."""
MAX_ATTEMPTS = 20
"""How often a batch is checked again after a writer that does not take the night's
write lock (SQLite: another process on the same file) stored a seq first."""


@dataclass
class _Planned:
    """What a batch does with one command: a new event (with the night after it), the
    seq of an earlier event it repeats, or a refusal."""

    command: Command
    stored: StoredEvent | None = None
    after: Night | None = None
    kind: str = ""
    repeats: int | None = None
    refusal: ServiceError | None = None


class CommandPath(HeldNights):
    """The nights held, and the one command path that writes them."""

    async def submit(
        self,
        night_id: str,
        event: dict[str, Any] | Callable[[LiveNight], dict[str, Any]],
        *,
        command_id: str,
        caller: str = "",
        request: str | None = None,
        expected_seq: int | None = None,
        authorize: Callable[[LiveNight, dict[str, Any]], None] | None = None,
        draw: bool = False,
        tapped: Tapped | None = None,
    ) -> Ack:
        """Apply one command; see the module docstring for the order of the checks.

        ``caller`` scopes ``command_id`` (a token's hash, ``bot`` for the bots);
        ``request`` is the :func:`fingerprint` of the request (by default: of the event,
        ``expected_seq`` and ``draw``). ``event`` may be a function of the live night,
        called under its lock once the command is known to be new.
        ``authorize(live, event)`` raises a :class:`ServiceError` when the caller may
        not do this now. ``draw=True`` draws the dice on the server ("roll for me").
        ``tapped``: where an entry was tapped; :func:`~bunco.web.decide.decide_entry`
        applies it only there.
        The reply comes once the event is committed (or the command refused).
        """
        # not caught up first: the writer checks the command against the night after
        # catching up with what the other processes stored itself
        live = await self.get(night_id, fresh=False)
        if request is None and not callable(event):
            request = fingerprint(event, expected_seq, draw)
        known = live.commands.get((caller, command_id))
        if known is not None:
            return self._again(live, live.log[known], request)
        reply: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
        reply.add_done_callback(_retrieved)
        live.inbox.append(Command(event, command_id, expected_seq, authorize, draw, reply,
                                  caller, request, tapped))
        if live.writer is None or live.writer.done():
            live.writer = asyncio.get_running_loop().create_task(self._write(live))
        # the writer answers even if this caller goes away (the command still counts)
        return await asyncio.shield(reply)

    async def _write(self, live: LiveNight) -> None:
        """The night's writer task: one batch after another while commands wait."""
        while live.inbox:
            batch, live.inbox = live.inbox[:MAX_BATCH], live.inbox[MAX_BATCH:]
            try:
                async with live.lock:
                    await self._commit_batch(live, batch)
            except BaseException as exc:  # the store failed: nothing of the batch counts
                failure = ServiceError(
                    503, "store_unavailable", f"the database did not take the event: {exc}",
                    "the same command (same command_id) again in a moment")
                for command in batch:
                    if not command.reply.done():
                        command.reply.set_exception(failure)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                log.exception("night %s: a batch of %d commands failed", live.id, len(batch))
            for hook in self.after_commit:
                hook(live)

    async def _commit_batch(self, live: LiveNight, batch: list[Command]) -> None:
        """Check, store and publish one batch; answer each of its commands."""
        for _attempt in range(MAX_ATTEMPTS):
            try:
                plan = await self._store_batch(live, batch)
            except SeqTaken:  # a writer that takes no write lock stored a seq first
                await self._catch_up_locked(live)
                continue
            break
        else:
            busy = ServiceError(503, "busy", "the night changed under this command "
                                f"{MAX_ATTEMPTS} times in a row (other server processes)",
                                "the same command (same command_id) again")
            for command in batch:
                command.reply.set_exception(busy)
            return
        acks: dict[int, Ack] = {}
        for planned in plan:  # everything is committed: advance, publish, answer in order
            if planned.stored is not None and planned.after is not None:
                acks[planned.stored.seq] = self._advance(live, planned.stored, planned.after,
                                                         planned.kind)
        for planned in plan:
            reply = planned.command.reply
            if reply.done():
                continue
            if planned.refusal is not None:
                reply.set_exception(planned.refusal)
            elif planned.stored is not None:
                reply.set_result(acks[planned.stored.seq])
            elif planned.repeats is not None:
                try:
                    reply.set_result(self._again(live, live.log[planned.repeats],
                                                 planned.command.request))
                except ServiceError as exc:
                    reply.set_exception(exc)

    async def _store_batch(self, live: LiveNight, batch: list[Command]) -> list[_Planned]:
        """Plan the batch against the night as this process holds it (caught up first if
        it is known to be behind: a notice, or a client's ``expected_seq``) and store its
        events (raises :class:`~bunco.store.SeqTaken` if a writer that takes no write
        lock stored a seq first: nothing is stored).

        SQLite (one process) commits on the writer thread. On PostgreSQL, other processes
        may write the night too: the events are stored holding the night's write lock
        (:mod:`bunco.store.night_lock`, on the event loop). If another process stored
        events since the night's seq here, they are applied and the batch is planned
        again while the lock is held, then stored: the other processes wait meanwhile,
        and no command is refused because another process wrote.
        """
        wanted = max([live.heard, *(c.expected_seq or -1 for c in batch)])
        if wanted > live.seq:  # another process wrote; a client saw it
            await self._catch_up_locked(live)
        plan = self._plan(live, batch)
        new = [p.stored for p in plan if p.stored is not None]
        if self.inline_db:
            await self.commit(live.id, new)  # raises SeqTaken if another writer was first
            return plan
        if not new:
            return plan
        assert self.writes is not None
        lock = await self.writes.lock(live.id, live.seq)
        try:
            if lock.missed:
                await self._apply_stored(live, lock.missed)
                plan = self._plan(live, batch)
                new = [p.stored for p in plan if p.stored is not None]
        except BaseException:
            await asyncio.shield(lock.release())
            raise
        # the commit goes on if this task is cancelled: its replies then say 503, and a
        # retry of a command that was stored finds it
        await asyncio.shield(lock.commit(new))
        return plan

    def _plan(self, live: LiveNight, batch: list[Command]) -> list[_Planned]:
        """Check each command of the batch against the night as the batch leaves it, and
        apply it there; the committed night (``live``) is left as it was."""
        committed = live.night
        head, seq = committed, live.seq
        versions = dict(live.table_seq)
        ids: dict[tuple[str, str], int] = {}
        pending: list[StoredEvent] = []
        created = now()
        plan: list[_Planned] = []
        try:
            for command in batch:
                planned = _Planned(command)
                plan.append(planned)
                key = (command.caller, command.command_id)
                known = live.commands.get(key, ids.get(key))
                if known is not None:
                    planned.repeats = known
                    continue
                live.night = head_before = head  # what ``authorize`` looks at: the night before
                try:
                    stored, after = self._check(live, command, head, seq, versions, pending,
                                                created)
                except ServiceError as exc:
                    planned.refusal = exc
                    continue
                planned.stored, planned.after = stored, after
                planned.kind = after.events[-1]["type"]
                head, seq = after, stored.seq
                bump_versions(versions, stored, planned.kind, moved(head_before, after))
                ids[key] = stored.seq
                pending.append(stored)
        finally:
            live.night = committed
        return plan

    def _check(self, live: LiveNight, command: Command, head: Night, seq: int,
               versions: dict[int | None, int], pending: list[StoredEvent],
               created: datetime) -> tuple[StoredEvent, Night]:
        """One command against the night ``head`` (at ``seq``): the new event and the night
        after it, or the :class:`ServiceError` refusing it."""
        event = command.event(live) if callable(command.event) else command.event
        if command.authorize is not None:
            command.authorize(live, event)
        table = event_table(event)
        night_wide = event.get("type") not in TABLE_EVENTS and table is None
        if command.tapped is not None and table is not None \
                and event.get("type") in TABLE_EVENTS:
            state = HeldTable.of(head, table, version_in(versions, table), seq)
            decision = decide_entry(Entry(event["type"], table, command.tapped,
                                          command.expected_seq), state)
            if decision.code == "stale" and command.expected_seq is not None:
                # the refusal with the events the entry missed
                self._check_version(live, table, command.expected_seq, seq, versions,
                                    pending, night_wide=False)
            if decision.refused:
                raise ServiceError(decision.status, decision.code, decision.reason,
                                   decision.expected, tapped=command.tapped.as_dict(),
                                   now=state.where())
        if command.expected_seq is not None:
            self._check_version(live, table, command.expected_seq, seq, versions, pending,
                                night_wide=night_wide)
        if command.draw:
            event = {**event, "dice": roll_for_me()}
        try:
            after = head.apply(event)
        except BuncoError as exc:
            raise ServiceError(_status_of(exc), exc.code, exc.message, exc.expected) from None
        normalized = after.events[-1]
        stored = StoredEvent(live.id, seq + 1, event_table(normalized), command.command_id,
                             dump(dict(normalized)), created, command.caller, command.request)
        return stored, after

    def _again(self, live: LiveNight, stored: StoredEvent, request: str | None) -> Ack:
        """The reply to a command id the caller already used: the first reply if the
        request is the same, else 409 ``id_reused``."""
        if stored.request_hash is not None and request is not None \
                and stored.request_hash != request:
            raise ServiceError(
                409, "id_reused", f"command id {stored.command_id!r} was already used for "
                f"another request (event {stored.seq})",
                "a new command_id for each new command (the same one only to retry the very "
                "same request)", seq=stored.seq)
        return self._ack(live, stored, duplicate=True)

    def _check_version(self, live: LiveNight, table: int | None, expected: int, seq: int,
                       versions: dict[int | None, int], pending: list[StoredEvent], *,
                       night_wide: bool) -> None:
        current = seq if night_wide else version_in(versions, table)
        if expected == current:
            return
        if expected > seq or expected < 0:
            raise ServiceError(
                409, "stale", f"expected_seq {expected} is not a version of this night "
                f"(its last event is {seq})",
                f"expected_seq {current}, the seq of the last event you saw here",
                current_seq=current, missed=[])
        events = [*live.since(expected, None, whole=True),
                  *(e for e in pending if e.seq > expected)]
        missed = events if night_wide else [
            e for e in events if e.table is None or e.table == table]
        where = "the night" if table is None else f"table {table}"
        raise ServiceError(
            409, "stale",
            f"{where} changed since you last looked: {len(missed)} event(s) you have not seen",
            f"expected_seq {current} after looking at the missed events",
            current_seq=current,
            missed=[envelope_dict(e) for e in missed],
        )


def _retrieved(reply: asyncio.Future[Ack]) -> None:
    """Take a refusal from a reply whose caller went away (so asyncio does not warn)."""
    if not reply.cancelled():
        reply.exception()


def _status_of(exc: BuncoError) -> int:
    """409 for a command that does not fit the night now; 422 for a malformed one."""
    if exc.code in ("not_your_turn", "round_over", "not_allowed_now"):
        return 409
    return 422
