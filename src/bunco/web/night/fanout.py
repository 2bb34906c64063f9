"""Publishing what happened at a night to its listeners (:mod:`bunco.web.live.pubsub`): each
event with its table's view, the night's status when it changes, and each table's page
when it changes (built once per seq, sent to every phone of that table), after moving each
player's phone to the table its player sits at now.

The messages are those of :mod:`bunco.web.values.socket_messages`: an ``event`` message
is built around its stored JSON and a ``table`` message around its page's JSON (each
serialised once for every listener), a ``status`` message as its type.

It runs after the commit, on the event loop, and costs a queue put per listener of the
event's table (and of the whole night); the sockets send from their own queues.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bunco.party.view import same_pages
from bunco.store import StoredEvent
from bunco.web.live.pubsub import NO_TABLE, InProcessPubSub, Message, PubSub
from bunco.web.night.night_in_memory import LiveNight, TablePage
from bunco.web.values.replies import Ack, event_text, json_text
from bunco.web.values.socket_messages import StatusMessage


class Publisher:
    """Turns a night's committed changes into messages for its listeners."""

    def __init__(self, pubsub: PubSub) -> None:
        self.pubsub = pubsub

    def publish_event(
        self, live: LiveNight, stored: StoredEvent, before: tuple[Any, ...], ack: Ack
    ) -> None:
        """Publish a committed event (``ack``, its reply; ``before``, the night's phase,
        set, round, bell and start before it) and, when the round, phase or bell changed
        or the event is of the whole night, the status and the pages that changed."""
        night = live.night
        view = "" if ack.table_view_json == "null" else ',"table_view":' + ack.table_view_json
        extra = f'{view},"status":{json_text(ack.status)}{ack.entry_json}'
        self.deliver(Message(live.id, stored.seq, stored.table, event_text(stored, extra)))
        changed = (night.phase, night.set_no, night.round_no, night.bell) != before[:4]
        # a round started by its first roll at one table: every other table's phone learns
        # it from the status (its own results stop being "fresh", the start bell goes)
        # a table's confirmed seating (``seated``) changes what its page shows of the round
        seated = night.seated_tables != before[5]
        if changed or stored.table is None or night.started != before[4] or seated:
            for message in self.status_messages(live):
                self.deliver(message)
            self.push_pages(live)

    def push_pages(self, live: LiveNight) -> None:
        """The ``table`` messages of the tables whose page changed, after moving each
        player's phone to the table its player sits at now; a phone that moved to a
        table whose page did not change gets that page by itself (and one that moved to
        no table a ``table`` message with ``"table": null``)."""
        moved = self.pubsub.reseat(live.id, live.player_tables())
        pushed = set()
        for message in self.table_messages(live):
            self.deliver(message)
            pushed.add(message.table)
        for number, followers in moved.items():
            if number in pushed:
                continue
            message = self.page_message(live, number)
            for follower in followers:
                follower.offer(message)

    def status_messages(self, live: LiveNight) -> list[Message]:
        """The status at the night's current seq: in full (who may roll at every table) for
        whole-night followers, without ``expects`` for table followers (their ``table``
        message says whose turn it is)."""
        full: StatusMessage = {"type": "status", "seq": live.seq, "status": live.status()}
        brief: StatusMessage = {
            "type": "status",
            "seq": live.seq,
            "status": live.status(expects=False),
        }
        return [
            Message(live.id, live.seq, None, json_text(full), "status", "night"),
            Message(live.id, live.seq, None, json_text(brief), "status", "tables"),
        ]

    def publish_options(self, live: LiveNight) -> None:
        """Tell every page of ``live`` its options changed (the dice mode): the status
        messages again, which every listener takes although their seq is not new."""
        for message in self.status_messages(live):
            self.deliver(replace(message, kind="options"))

    def table_messages(self, live: LiveNight) -> list[Message]:
        """A ``table`` message for each table whose page changed since the last one pushed
        (sent after a change of round, set, phase or bell, and after an event of the whole
        night): ``table_view``, the table's view, and ``view``, the rest of what its phones
        draw (:func:`~bunco.party.view.table_page`), so no phone reloads the night."""
        cache = live.cache
        if cache.paged is not None and same_pages(cache.paged, live.night):
            return []  # nothing any table shows changed (a verification, say)
        cache.paged = live.night
        out = []
        for number, page in live.pages().items():
            if cache.pushed.get(number) == page:
                continue
            cache.pushed[number] = page
            out.append(_page_message(live, number, page))
        return out

    def page_message(self, live: LiveNight, number: int) -> Message:
        """The ``table`` message with table ``number``'s page now (for :data:`NO_TABLE`:
        ``{"type": "table", "seq", "table": null}``, no page)."""
        if number == NO_TABLE:
            return Message(
                live.id,
                live.seq,
                None,
                f'{{"type":"table","seq":{live.seq},"table":null}}',
                kind="table",
            )
        return _page_message(live, number, live.page(number))

    def deliver(self, message: Message) -> None:
        if isinstance(self.pubsub, InProcessPubSub):
            self.pubsub.publish_nowait(message)
        else:
            asyncio.get_running_loop().create_task(self.pubsub.publish(message))


def _page_message(live: LiveNight, number: int, page: TablePage) -> Message:
    return Message(
        live.id,
        live.seq,
        number,
        f'{{"type":"table","seq":{live.seq},"table":{number},'
        f'"table_view":{page.table},"view":{page.rest}}}',
        kind="table",
    )
