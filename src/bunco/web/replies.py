"""What the command path answers, built around the stored event's JSON without parsing it
again: a refusal (:class:`ServiceError`, a 4xx or 5xx with a code and what is expected
instead), an accepted command's reply (:class:`Ack`), the envelope of a stored event (seq,
table, command id, time, event) in replies and WebSocket messages, and the night's status.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bunco.core.night import Night
from bunco.store import StoredEvent


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


def roll_for_me() -> list[int]:
    """Three dice drawn with the operating system's cryptographic generator."""
    return [secrets.randbelow(6) + 1 for _ in range(3)]


def event_table(event: Mapping[str, Any]) -> int | None:
    """The table an event happened at (``None`` for the whole night or a roll-off)."""
    table = event.get("table")
    return table if isinstance(table, int) and not isinstance(table, bool) else None


def fingerprint(*parts: Any) -> str:
    """The SHA-256 of a request (JSON values), stored beside its command id.

    >>> fingerprint("rolls", 1, {"dice": [1, 1, 4]}) == fingerprint("rolls", 1, {"dice": [1, 1, 4]})
    True
    """
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def at_of(stored: StoredEvent) -> str:
    """When the event was stored: UTC, ISO 8601 with milliseconds."""
    return stored.created_at.isoformat(timespec="milliseconds")


def envelope(stored: StoredEvent) -> str:
    """The JSON members of an event in its envelope (seq, table, command id, time, event),
    built around the stored event without re-parsing it."""
    table = "null" if stored.table is None else str(stored.table)
    command = "null" if stored.command_id is None else json_text(stored.command_id)
    return (
        f'"seq":{stored.seq},"table":{table},"command_id":{command},'
        f'"at":"{at_of(stored)}","event":{stored.body}'
    )


def envelope_dict(stored: StoredEvent) -> dict[str, Any]:
    """:func:`envelope` as a dict (for replies that are built as values)."""
    return {
        "seq": stored.seq,
        "table": stored.table,
        "command_id": stored.command_id,
        "at": at_of(stored),
        "event": stored.event,
    }


def event_text(stored: StoredEvent, extra: str = "") -> str:
    """The WebSocket message of an event, built around its stored JSON without re-parsing."""
    return f'{{"type":"event",{envelope(stored)}{extra}}}'


def status_of(night: Night, *, expects: bool = True) -> dict[str, Any]:
    """The night's phase, set, round, bell, the traveler's holder and who rolled the last
    Bunco (both may change with any roll: whole-night pages follow them from here, without
    reloading the night), the round's clock on a night of timed rounds, the tables whose
    phones the room waits for (``waiting_for``, only while it does), and (with
    ``expects``) who may roll now."""
    status: dict[str, Any] = {
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
    status: dict[str, Any]
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

    def as_dict(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.as_json())
        return value


def entry_json(before: Night, after: Night, table: int | None, kind: str) -> str:
    """``,"entry":{...}``: what a roll or tally at ``table`` scored (even when it ended the
    round, so the table's view is already the next round's), and ``,"ended":{...}`` when
    it ended the round (:class:`~bunco.core.night.RoundEnding`, with the round's number).

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
    r = rolls[-1]
    entry = {
        "table": table,
        "player": r.roller,
        "credited": r.credited,
        "dice": list(r.dice),
        "points": r.points,
        "kind": r.kind.value,
        "phase": r.phase.value,
    }
    return ',"entry":' + json_text(entry) + ended


def json_text(value: Any) -> str:
    """``value`` as compact JSON (UTF-8 text kept as it is)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
