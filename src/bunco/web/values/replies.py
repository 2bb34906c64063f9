"""What the command path answers, built around the stored event's JSON without parsing it
again: a refusal (:class:`ServiceError`, a 4xx or 5xx with a code and what is expected
instead), an accepted command's reply (:class:`Ack`), the envelope of a stored event (seq,
table, command id, time, event) in replies and WebSocket messages, and the night's status.

The decision about a command refuses in its own words, with a kind and no status
(:mod:`bunco.web.decision.refusals`); the command path makes that refusal a
:class:`ServiceError` (:data:`bunco.web.night.command_path.STATUS_OF_KIND`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NotRequired

from typing_extensions import TypedDict

from bunco.core.night import Night
from bunco.core.round_clock import ClockView
from bunco.core.round_results import RollFields, RoundEnded, roll_fields
from bunco.core.stored_event import StoredEvent
from bunco.party.shapes import Expect


class ServiceError(Exception):
    """A refusal with an HTTP status, a code, a message and what is expected instead."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        expected: str | None = None,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.expected = expected
        self.headers = headers
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {
            "error": self.code,
            "message": self.message,
            "expected": self.expected,
            **self.extra,
        }


def not_found(night_id: str) -> ServiceError:
    return ServiceError(
        404,
        "no_such_night",
        f"there is no night {night_id!r}",
        "the id of a night made with POST /api/nights",
    )


def envelope(stored: StoredEvent) -> str:
    """The JSON members of an event in its envelope (seq, table, command id, time, event),
    built around the stored event without re-parsing it."""
    table = "null" if stored.table is None else str(stored.table)
    command = "null" if stored.command_id is None else json_text(stored.command_id)
    return (
        f'"seq":{stored.seq},"table":{table},"command_id":{command},'
        f'"at":"{stored.at}","event":{stored.body}'
    )


def event_text(stored: StoredEvent, extra: str = "") -> str:
    """The WebSocket message of an event, built around its stored JSON without re-parsing."""
    return f'{{"type":"event",{envelope(stored)}{extra}}}'


class TableWaiting(TypedDict):
    """A table whose phone the room waits for, and how many entries it holds (None: it
    did not say)."""

    table: int
    entries: int | None


class NightStatus(TypedDict):
    """The night's status (:func:`status_of`), in replies, the hello and ``status``
    messages; ``dice`` (real or phones) and ``round_version`` (the ``expected_seq`` of the
    whole night) are added by the night held in memory."""

    phase: str
    set: int
    round: int
    bell: bool
    started: bool
    bell_roll: RoundEnded | None
    traveler: str | None
    last_bunco: str | None
    waiting_for: NotRequired[list[TableWaiting]]
    clock: NotRequired[ClockView | None]
    expects: NotRequired[list[Expect]]
    dice: NotRequired[str]
    round_version: NotRequired[int]


class RollEntry(RollFields):
    """What a roll or tally at ``table`` scored (the ``entry`` of a reply and an event
    message)."""

    table: int


def status_of(night: Night, *, expects: bool = True) -> NightStatus:
    """The night's phase, set, round, bell, the traveler's holder and who rolled the last
    Bunco (both may change with any roll: whole-night pages follow them from here, without
    reloading the night), the round's clock on a night of timed rounds, the tables whose
    phones the room waits for (``waiting_for``, only while it does), and (with
    ``expects``) who may roll now."""
    status: NightStatus = {
        "phase": night.phase,
        "set": night.set_no,
        "round": night.round_no,
        "bell": night.bell,
        "started": night.started,
        "bell_roll": night.bell_roll.as_dict() if night.bell_roll else None,
        "traveler": night.traveler,
        "last_bunco": night.last_bunco,
    }
    if night.awaited:  # the room waits for these tables' phones (bunco.core.late_entries)
        status["waiting_for"] = [
            {"table": t, "entries": n} for t, n in sorted(night.awaited.items())
        ]
    if night.rules.round_minutes:  # timed rounds: the round's clock (None: not started)
        status["clock"] = night.clock.as_dict() if night.clock else None
    if expects:
        status["expects"] = [{"table": t, "player": p} for t, p in night.expected_rollers()]
    return status


@dataclass(frozen=True)
class Ack:
    """The reply to an accepted (or already accepted) command."""

    stored: StoredEvent
    duplicate: bool
    status: NightStatus
    table_view_json: str = "null"
    entry_json: str = ""  # ',"entry":{...}' (and ',"ended":{...}') for a roll or tally

    def as_json(self) -> str:
        """The reply body, built around the stored event's JSON without re-parsing it."""
        return (
            f"{{{envelope(self.stored)},"
            f'"duplicate":{"true" if self.duplicate else "false"},'
            f'"status":{json_text(self.status)},"table_view":{self.table_view_json}'
            f"{self.entry_json}}}"
        )


def entry_json(before: Night, after: Night, table: int | None, kind: str) -> str:
    """``,"entry":{...}``: what a roll or tally at ``table`` scored (even when it ended the
    round, so the table's view is already the next round's), and ``,"ended":{...}`` when
    it ended the round (:class:`~bunco.core.round_results.RoundEnding`, with the round's number).

    >>> n = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
    >>> entry_json(n, n.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]}), 1, "roll")
    ',"entry":{"table":1,"player":"Ann","credited":"Ann","dice":[1,1,4],"points":2,"kind":"points","phase":"play"}'
    """
    if kind not in ("roll", "tally") or table is None:
        return ""
    ended = ""
    if len(after.history) > len(before.history):
        result = after.history[-1]
        rolls = result.tables[table - 1].rolls if table <= len(result.tables) else ()
        if result.ended_by is not None:
            ended = ',"ended":' + json_text(result.ended_by.as_dict())
    else:
        rolls = after.tables[table - 1].rolls if table <= len(after.tables) else ()
    if not rolls:
        return ended
    entry: RollEntry = {"table": table, **roll_fields(rolls[-1])}
    return ',"entry":' + json_text(entry) + ended


def json_text(value: Any) -> str:
    """``value`` as compact JSON (UTF-8 text kept as it is)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
