"""Telling members what changed: the club's notices (:mod:`bunco.club.notices`) sent to
their phones (Web Push, :mod:`bunco.web.club.push`) and by email where the club has a mail
server and the member an address, and the club's clock: deadlines that pass and "answer
by" notices that fall due.

- After every change the API makes to a club, the notices it brings go out in the
  background (the reply does not wait for them); what was sent is recorded in the club's
  log (``notified``: kind, names, date), and a phone its push service says is gone is
  forgotten (``unpush``).
- The clock (:meth:`ClubNotifier.run`, every minute; and whenever a club is read) records
  each answers' deadline that has passed (``deadline_passed``: the seats without a yes go
  to the subs in line, who are told) and sends each "answer by" notice when it is due,
  recorded before it is sent so that it goes out once.

Without a mail server and with no phone subscribed, a notice reaches nobody and nothing
is recorded. Several server processes on one database each run the clock: what it
records is one command of the club's log (:mod:`bunco.web.club.log`), stored only if the
club is still as the clock read it, so an "answer by" notice is recorded, and sent, by
one process only (the others read the club again and find it recorded).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bunco.club.club import Club
from bunco.club.load import fold_club
from bunco.club.month import due_deadlines, reminders_due
from bunco.club.notices import Notice, answer_by, notices
from bunco.club.reminders import notice_mail
from bunco.core.club_events import (
    ClubDeadlinePassedEvent,
    ClubEvent,
    ClubNotifiedEvent,
    ClubUnpushEvent,
)
from bunco.core.errors import BuncoError
from bunco.store import ClubStore
from bunco.web.club import log as club_log
from bunco.web.club import push as club_push
from bunco.web.club.mail import MailError, send_all

if TYPE_CHECKING:
    from sqlalchemy import Engine

log = logging.getLogger("bunco.club")
EVERY = 60.0  # seconds between two looks at the clubs' deadlines


def payload(club_id: str, notice: Notice) -> club_push.PushPayload:
    """What a phone shows: the title, the text, and the member's page to open."""
    return {
        "title": notice.title,
        "body": notice.body,
        "url": f"/c/{club_id}/me",
        "tag": f"{club_id}-{notice.date}-{notice.kind}",
    }


def deliver(
    engine: Engine,
    club_id: str,
    sent: Sequence[Notice],
    *,
    record: bool = True,
    email: bool = True,
) -> dict[str, list[str]]:
    """Send ``sent`` to the members' phones and email (blocking: call it in a thread);
    returns who each kind reached. Records ``notified`` (when ``record``) and ``unpush``."""
    store = ClubStore(engine)
    club = fold_club(store.events(club_id))
    reached: dict[str, list[str]] = {}
    events: list[ClubEvent] = []
    gone: set[str] = set()
    for notice in sent:
        told: list[str] = []
        for name in notice.names:
            for endpoint, (who, p256dh, auth) in club.phones.items():
                if who != name or endpoint in gone or club.push_keys is None:
                    continue
                status = club_push.send(
                    club.push_keys,
                    club_push.contact_of(
                        club.push_keys.get("contact"), club.mail["sender"] if club.mail else None
                    ),
                    endpoint,
                    p256dh,
                    auth,
                    payload(club_id, notice),
                )
                if status == "gone":
                    gone.add(endpoint)
                elif status == "sent" and name not in told:
                    told.append(name)
        messages = [
            (name, m)
            for name in (notice.names if email else ())
            if (m := notice_mail(club, notice.title, notice.body, name)) is not None
        ]
        if messages:
            try:
                refused = send_all(club.mail, [m for _, m in messages])
            except MailError as exc:
                log.warning("club %s: %s", club_id, exc)
                refused = [str(m["To"]) for _, m in messages]
            told += [n for n, m in messages if str(m["To"]) not in refused and n not in told]
        reached[notice.kind] = told
        if record and told:
            events.append(
                ClubNotifiedEvent(type="notified", kind=notice.kind, names=told, date=notice.date)
            )
    events += [ClubUnpushEvent(type="unpush", endpoint=e) for e in sorted(gone)]
    club_log.keep_recording(store, club_id, club, lambda current: still_applying(current, events))
    return reached


def still_applying(club: Club, events: list[ClubEvent]) -> list[ClubEvent]:
    """The events that still apply to ``club``, each after the ones kept before it (a
    phone another process forgot already is passed over)."""
    kept: list[ClubEvent] = []
    after = club
    for event in events:
        try:
            after = after.apply(event)
        except BuncoError:
            continue
        kept.append(event)
    return kept


class ClubNotifier:
    """The server's notices: sends them in the background, and keeps the clubs' clock."""

    def __init__(
        self,
        engine: Engine,
        every: float = EVERY,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.engine = engine
        self.every = every
        self.now = now
        self._tasks: set[asyncio.Future[Any]] = set()
        self._loop: asyncio.Task[None] | None = None

    def send(self, club_id: str, sent: list[Notice], *, email: bool = True) -> None:
        """Send ``sent`` in the background (``email``: by email too)."""
        self._spawn(club_id, sent, email=email)

    def _spawn(
        self, club_id: str, sent: list[Notice], record: bool = True, email: bool = True
    ) -> None:
        task = asyncio.ensure_future(
            asyncio.to_thread(deliver, self.engine, club_id, sent, record=record, email=email)
        )
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("club notices failed: %r", task.exception())

    def after_change(self, club_id: str, before: Club, after: Club) -> None:
        """Send the notices a change brings (in the background)."""
        sent = notices(before, after)
        if sent:
            self._spawn(club_id, sent)

    async def keep_time(self, club_id: str, club: Club) -> Club:
        """The club once its clock has run: every deadline passed recorded (and its new
        seats told), every "answer by" notice due recorded and sent. Recorded as one
        command of the server's: when another process recorded first, the club is read
        again and its clock run on that (so a notice goes out from one process only)."""
        now = self.now()
        asked: list[Notice] = []

        def due(club: Club) -> list[ClubEvent]:
            asked[:] = [
                n for d in reminders_due(club, now) if (n := answer_by(club, d)) is not None
            ]
            events: list[ClubEvent] = [
                ClubDeadlinePassedEvent(type="deadline_passed", date=d)
                for d in due_deadlines(club, now)
            ]
            return events + [
                ClubNotifiedEvent(
                    type="notified", kind="answer_by", names=list(n.names), date=n.date
                )
                for n in asked
            ]

        if not due(club):
            return club
        store = ClubStore(self.engine)
        done = await asyncio.to_thread(club_log.keep_recording, store, club_id, club, due)
        if done is None:
            return fold_club(await asyncio.to_thread(store.events, club_id))
        before, recorded = done
        if not recorded.replayed:
            self.after_change(club_id, before, recorded.club)
            if asked:
                self._spawn(club_id, list(asked), record=False)
        return recorded.club

    async def sweep(self) -> None:
        """Run every club's clock once."""
        store = ClubStore(self.engine)
        for club_id in await asyncio.to_thread(store.ids):
            try:
                club = fold_club(await asyncio.to_thread(store.events, club_id))
                await self.keep_time(club_id, club)
            except BuncoError as exc:  # a club whose log no longer folds: leave it
                log.warning("club %s: %s", club_id, exc)

    def start(self) -> None:
        async def run() -> None:
            while True:
                await asyncio.sleep(self.every)
                try:
                    await self.sweep()
                except Exception as exc:  # the clock goes on: a database hiccup
                    log.warning("club clock: %r", exc)

        self._loop = asyncio.ensure_future(run())

    async def drain(self) -> None:
        """Wait for the notices being sent (the tests; the server's stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(BaseException):
                await self._loop
        await self.drain()
