"""The command path: every write goes through :meth:`CommandPath.submit`, which only
batches and commits; what is accepted is :func:`bunco.web.decision.decide.decide`'s.

Commands to one night wait in the night's inbox; one writer task per night takes
everything waiting (a *batch*) and, under the night's lock, decides each command in
order on the state the batch leaves (the committed night is not touched), stores the
accepted events in one transaction through the store's
:class:`~bunco.store.writers.NightWriter`, and only then advances the night, publishes
each event and answers each command (see :mod:`bunco.web.night.service` for the whole story).

The decision refuses in its own words: a kind of refusal (:mod:`bunco.web.decision.refusals`),
a code, a reason. The command path answers it, and this is the one place a kind becomes an
HTTP status (:data:`STATUS_OF_KIND`, :func:`refusal_error`), for a command's refusal and
for a night's options' (:meth:`NightService.change_options
<bunco.web.night.service.NightService.change_options>`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Literal

from bunco.core.events import Event
from bunco.core.late_entries import GoOnEvent, WaitForPhoneEvent
from bunco.core.table import Status
from bunco.store import NightGone, StoredEvent
from bunco.store.events import dump, now
from bunco.store.phone_reports import PhoneReports
from bunco.store.writers import NightWriter, WriteBusy
from bunco.web.decision.commands import Intent, Luck, NightCommand, ServerLuck
from bunco.web.decision.decide import Decision, decide, repeat_of
from bunco.web.decision.entry_rules import Tapped
from bunco.web.decision.frozen_state import HeldState, event_table
from bunco.web.decision.refusals import RefusalExtra, RefusalKind, Refused
from bunco.web.decision.rights import Check
from bunco.web.decision.timed_rounds import ServerClock, bell_command, start_command
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.night_registry import HeldNights
from bunco.web.night.phone_book import PhoneBook, to_wait_for
from bunco.web.night.write_and_follow import Queued
from bunco.web.values.replies import Ack, ServiceError, not_found

log = logging.getLogger("bunco.service")
MAX_BATCH = 512
"""The most commands one transaction stores."""
SERVER_CALLER = "server"
"""The caller of the commands the server writes about the tables' phones (the room waits
for one, or goes on): their command ids are in a space of their own."""
MERGE_EVERY = 1.0
"""Seconds: how fresh the phones' reports from other processes must be for a round's end."""
STATUS_OF_KIND: Mapping[RefusalKind, int] = MappingProxyType(
    {"forbidden": 403, "conflict": 409, "invalid": 422, "missing": 404}
)
"""The HTTP status of each kind of refusal: ``forbidden`` (this caller may not), 403;
``conflict`` (it does not fit the night, or the options, now), 409; ``invalid`` (it is
malformed), 422; ``missing`` (what it names is not there), 404."""
Outcomes = Sequence[tuple[NightCommand, float | None, Decision | None]]
"""Commands decided: each with when its request arrived (:attr:`Queued.arrived`) and its
decision (``None``: the store did not take the batch, and the command was answered 503,
or 404 for a night deleted meanwhile)."""


def refusal_error(
    kind: RefusalKind,
    code: str,
    message: str,
    expected: str = "",
    extra: RefusalExtra | None = None,
) -> ServiceError:
    """The answer to a refusal of ``kind``: its status is :data:`STATUS_OF_KIND`'s."""
    return ServiceError(
        STATUS_OF_KIND[kind], code, message, expected or None, **(extra or RefusalExtra())
    )


def refused_error(refused: Refused) -> ServiceError:
    """The answer to ``refused`` (a refused change of a night's options, too)."""
    return refusal_error(
        refused.kind, refused.code, refused.message, refused.expected, refused.extra
    )


def as_error(decision: Decision) -> ServiceError:
    """The answer to a refusing ``decision``."""
    assert decision.refused and decision.kind is not None, decision
    return refusal_error(
        decision.kind, decision.code, decision.reason, decision.expected, decision.extra
    )


def stored_events(
    command: NightCommand, decision: Decision, state: HeldState, created: datetime
) -> tuple[StoredEvent, ...]:
    """The events an acceptance stores after ``state``, in order, as the store keeps them:
    the command's id and request go on its last event (a credited entry's misses carry
    none: the entry's id stands for the whole command, stored in the same transaction)."""
    last = len(decision.steps) - 1
    return tuple(
        StoredEvent(
            state.night_id,
            state.seq + 1 + i,
            event_table(step.event),
            command.command_id if i == last else None,
            dump(step.event),
            created,
            command.caller,
            command.request if i == last else None,
        )
        for i, step in enumerate(decision.steps)
    )


@dataclass(frozen=True, slots=True)
class _Planned:
    """One command of a batch and its decision (an acceptance with the events it stores:
    one, or a credited entry's misses and then the entry)."""

    queued: Queued
    decision: Decision
    stored: tuple[StoredEvent, ...] = ()


class CommandPath:
    """The one command path that writes the nights held (``nights``), through ``writer``,
    with ``luck`` for the server's dice."""

    def __init__(
        self,
        nights: HeldNights,
        writer: NightWriter,
        luck: Luck | None = None,
        clock: ServerClock | None = None,
    ) -> None:
        self.nights = nights
        self.writer = writer
        self.luck: Luck = luck or ServerLuck()
        self.clock = clock or ServerClock()  # timed rounds: the server's time
        self.after_batch: list[Callable[[Outcomes], None]] = []
        """Called after each batch, once its events are published and its commands
        answered, and for a repeat answered at once (the metrics, :mod:`bunco.web.server.metrics`)."""

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
        """Decide one command and apply it: ``event`` is an event or what the command
        writes (:mod:`bunco.web.decision.commands`); the other arguments are the
        :class:`~bunco.web.decision.commands.NightCommand`'s (``caller`` scopes ``command_id``:
        a token's hash, ``bot`` for the bots; ``request`` is the fingerprint of the
        request the id stands for; ``authorize`` the caller's rights, a pure check of
        the night before the command and the event, :mod:`bunco.web.decision.rights`).
        The reply comes once the event is committed (or the command refused:
        :class:`ServiceError`)."""
        return await self.send(
            night_id,
            NightCommand.of(
                event,
                command_id=command_id,
                caller=caller,
                request=request,
                expected_seq=expected_seq,
                authorize=authorize,
                tapped=tapped,
                more=more,
            ),
        )

    async def send(self, night_id: str, command: NightCommand) -> Ack:
        """:meth:`submit` a typed command."""
        # not caught up first: the writer decides the command on the night after catching
        # up with what the other processes stored itself
        live = await self.nights.get(night_id, fresh=False)
        seen = live.state.known(command.caller, command.command_id)
        if seen is not None:
            repeat = repeat_of(command, seen)
            for watcher in self.after_batch:
                watcher([(command, None, repeat)])
            return self._answer_repeat(live, repeat)
        reply: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
        reply.add_done_callback(_retrieved)
        writing = live.writing
        writing.inbox.append(Queued(command, reply))
        if writing.writer is None or writing.writer.done():
            writing.writer = asyncio.get_running_loop().create_task(self._write(live))
        # the writer answers even if this caller goes away (the command still counts)
        return await asyncio.shield(reply)

    async def _write(self, live: LiveNight) -> None:
        """The night's writer task: one batch after another while commands wait."""
        writing = live.writing
        while writing.inbox:
            batch, writing.inbox = writing.inbox[:MAX_BATCH], writing.inbox[MAX_BATCH:]
            try:
                async with writing.lock:
                    await self._commit_batch(live, batch)
            except BaseException as exc:  # the store failed: nothing of the batch counts
                failure = (
                    not_found(live.id)  # deleted meanwhile (here or by another process)
                    if isinstance(exc, NightGone)
                    else ServiceError(
                        503,
                        "store_unavailable",
                        f"the database did not take the event: {exc}",
                        "the same command (same command_id) again in a moment",
                    )
                )
                for queued in batch:
                    if not queued.reply.done():
                        queued.reply.set_exception(failure)
                for watcher in self.after_batch:
                    watcher([(queued.command, queued.arrived, None) for queued in batch])
                if isinstance(exc, asyncio.CancelledError):
                    raise
                if isinstance(exc, NightGone):  # let it go here too (its inbox: 404)
                    self.nights.drop(live.id)
                    continue
                log.exception("night %s: a batch of %d commands failed", live.id, len(batch))
            for hook in self.nights.after_commit:
                hook(live)

    async def _commit_batch(self, live: LiveNight, batch: list[Queued]) -> None:
        """Decide, store and publish one batch; answer each of its commands.

        The batch is decided on the night as this process holds it, caught up first if
        it is known to be behind (a notice, or a client's ``expected_seq``). If another
        process stored events after it meanwhile, the writer hands them over: they are
        applied and published, and the batch is decided again after them (so no command
        is refused because another process wrote)."""
        wanted = max([live.following.heard, *(q.command.expected_seq or -1 for q in batch)])
        if wanted > live.seq:  # another process wrote; a client saw it
            await self.nights.catch_up_locked(live)
        await self._phones_fresh(live)
        plan = self._plan(live, batch)

        async def replan(missed: list[StoredEvent]) -> list[StoredEvent]:
            nonlocal plan
            await self.nights.apply_stored(live, missed)
            plan = self._plan(live, batch)
            return _events(plan)

        try:
            await self.writer.commit(live.id, _events(plan), replan)
        except WriteBusy as exc:
            busy = ServiceError(
                503,
                "busy",
                f"{exc} (other server processes)",
                "the same command (same command_id) again",
            )
            for queued in batch:
                queued.reply.set_exception(busy)
            for watcher in self.after_batch:
                watcher([(queued.command, queued.arrived, None) for queued in batch])
            return
        acks: dict[int, Ack] = {}
        for planned in plan:  # everything is committed: advance, publish, answer in order
            for stored, step in zip(planned.stored, planned.decision.steps, strict=True):
                acks[stored.seq] = self.nights.advance(live, stored, step.after)
        for planned in plan:
            reply, decision = planned.queued.reply, planned.decision
            if reply.done():
                continue
            if decision.refused:
                reply.set_exception(as_error(decision))
            elif planned.stored:
                reply.set_result(acks[planned.stored[-1].seq])  # the command's own event
            else:
                reply.set_result(self._answer_repeat(live, decision))
        for watcher in self.after_batch:
            watcher([(p.queued.command, p.queued.arrived, p.decision) for p in plan])

    async def _phones_fresh(self, live: LiveNight) -> None:
        """While the round may end (the bell rang, a table has settled), what every
        process's phones reported, merged into this process's :class:`PhoneBook` (at most
        once a second): a round does not end without a phone that holds its entries."""
        night, book = live.night, live.phones
        if night.phase != "playing" or time.time() - book.merged < MERGE_EVERY:
            return
        if night.bell_at is None and not any(t.status is Status.DONE for t in night.tables):
            return
        reports = PhoneReports(self.nights.store.engine)
        book.merge(await self.nights.db(reports.load, live.id), time.time())

    def _plan(self, live: LiveNight, batch: list[Queued]) -> list[_Planned]:
        """Decide each command of the batch on the state the batch leaves; the committed
        state (``live.state``) is left as it is. An accepted command's events are stored
        in order (:func:`stored_events`)."""
        state: HeldState = live.state
        created, moment = now(), self.clock.now()
        plan: list[_Planned] = []
        for queued in batch:
            # timed rounds (bunco.web.decision.timed_rounds): the bell at zero comes first, and a
            # round's first entry starts the clock (kept only if the entry is accepted)
            bell = bell_command(state.night, moment)
            if bell is not None:
                state = self._plan_one(
                    state, _clock_queued(bell), plan, created, moment, phones=live.phones
                )
            start = start_command(state.night, queued.command.intent)
            if start is not None:
                trial: list[_Planned] = []
                started = self._plan_one(state, _clock_queued(start), trial, created, moment)
                decision = decide(queued.command, started, self.luck, moment)
                if decision.verdict == "accept":
                    plan += trial
                    state = self._plan_one(
                        started, queued, plan, created, moment, decision, phones=live.phones
                    )
                    continue
            state = self._plan_one(state, queued, plan, created, moment, phones=live.phones)
        return plan

    def _plan_one(
        self,
        state: HeldState,
        queued: Queued,
        plan: list[_Planned],
        created: datetime,
        moment: datetime,
        decision: Decision | None = None,
        *,
        phones: PhoneBook | None = None,
    ) -> HeldState:
        """Decide one command on ``state`` (unless ``decision`` is given), add it to
        ``plan`` and return the state after its events
        (:func:`stored_events`).

        With ``phones`` (what the tables' phones hold), an acceptance that would end the
        round first has the room wait for each phone that holds entries of it
        (``wait_for_phone``, :func:`~bunco.web.night.phone_book.to_wait_for`), the command then
        decided again; and an entry whose phone says it holds no more (``more`` 0) at a
        table the room waits for is followed by the ``go_on`` that releases it."""
        command = queued.command
        if decision is None:
            decision = decide(command, state, self.luck, moment)
        if decision.verdict == "accept" and phones is not None:
            waits = _waits(command, decision, state, phones, moment)
            for wait in waits:
                server = _server_queued(wait, f"wait_for_phone:{state.seq + 1}")
                state = self._plan_one(state, server, plan, created, moment)
            if waits:
                decision = decide(command, state, self.luck, moment)
        if decision.verdict != "accept":
            plan.append(_Planned(queued, decision))
            return state
        stored = stored_events(command, decision, state, created)
        for event, step in zip(stored, decision.steps, strict=True):
            state = state.advanced(event, step.after)
        plan.append(_Planned(queued, decision, stored))
        table = None if decision.event is None else event_table(decision.event)
        if (
            phones is not None
            and command.more == 0
            and table is not None
            and table in state.night.awaited
        ):
            release = go_on_command(state, table, "sent")
            state = self._plan_one(state, _queued(release), plan, created, moment)
        return state

    def _answer_repeat(self, live: LiveNight, decision: Decision) -> Ack:
        """The reply to a command id used before: the first reply, or the refusal."""
        if decision.refused:
            raise as_error(decision)
        assert decision.repeats is not None
        return self.nights.ack(live, live.log[decision.repeats], duplicate=True)


def _clock_queued(command: NightCommand) -> Queued:
    """A command the clock writes (timed rounds), with a reply nobody waits for."""
    return _queued(command)


def _queued(command: NightCommand) -> Queued:
    """A command the server writes itself, with a reply nobody waits for."""
    reply: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
    reply.add_done_callback(_retrieved)
    return Queued(command, reply)


def _server_queued(event: WaitForPhoneEvent, command_id: str) -> Queued:
    return _queued(NightCommand.of(event, command_id=command_id, caller=SERVER_CALLER))


def _waits(
    command: NightCommand, decision: Decision, state: HeldState, phones: PhoneBook, moment: datetime
) -> list[WaitForPhoneEvent]:
    """The ``wait_for_phone`` events an accepted command needs first: none unless it
    would end the round; then one per table whose phone holds entries of the round or
    fell silent (the command's own table by what it says it holds, ``more``)."""
    before, after = state.night, decision.after
    if after is None or before.phase != "playing":
        return []
    if (after.phase, after.set_no, after.round_no) == (
        before.phase,
        before.set_no,
        before.round_no,
    ):
        return []
    own = None
    if command.more is not None and decision.event is not None:
        own = event_table(decision.event)
    skip = frozenset() if own is None else frozenset({own})
    waits = to_wait_for(before, phones, now=moment.timestamp(), began=round_began(state), skip=skip)
    if own is not None and command.more and own not in before.awaited:
        waits.append({"type": "wait_for_phone", "of_table": own, "entries": command.more})
    return waits


def round_began(state: HeldState) -> float | None:
    """When the round in play began: the round before it ended (its last event was
    stored), or the night was made; seconds since the epoch."""
    start = state.night.round_start
    index = len(start.events) if start is not None else state.seq
    events = state.since(index - 1)
    return events[0].created_at.timestamp() if events else None


def go_on_command(state: HeldState, table: int, why: Literal["sent", "host"]) -> NightCommand:
    """The server's ``go_on`` releasing table ``table``, which the room waits for: its
    command id names the ``wait_for_phone`` it answers, so the release is written once
    whoever asks for it (the entry that said it holds no more, the phone's report)."""
    wait = next(
        (
            e.seq
            for e in reversed(state.since(max(0, state.seq - 5000)))
            if e.table is None and '"wait_for_phone"' in e.body and e.event.get("of_table") == table
        ),
        state.seq,
    )
    release: GoOnEvent = {"type": "go_on", "of_table": table, "why": why}
    return NightCommand.of(
        release,
        command_id=f"go_on:{wait}",
        caller=SERVER_CALLER,
    )


def _events(plan: list[_Planned]) -> list[StoredEvent]:
    return [stored for p in plan for stored in p.stored]


def _retrieved(reply: asyncio.Future[Ack]) -> None:
    """Take a refusal from a reply whose caller went away (so asyncio does not warn)."""
    if not reply.cancelled():
        reply.exception()
