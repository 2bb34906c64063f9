"""The decisions about a night's server options: each change a pure function of the options.

A night's server options hold what is not a move of the game: the bots and their pace, the
dice mode, the door list (who is here, and the scanned card that marked them), the room
(the announcement, the tables calling the host), the entries a table set aside for the
host, the tables' join cards and the door cards' key. Each change here is decided on the
options *as stored*, not as a process held them: the writer hands the stored options to
the change and writes what it returns only if they are still those
(:meth:`NightWriter.change_options <bunco.store.writers.NightWriter.change_options>`,
compare-and-set), else decides again on the fresh ones. So two co-hosts checking players
in at the door on two processes each keep the other's marks, and a retry (the same
announcement's command id, the same set-aside entries, the same scan) changes nothing.

A change refuses with :class:`OptionRefused`, a :class:`~bunco.web.decision.refusals.Refused`
of kind ``missing`` (what it names is not there) or ``conflict`` (no room for more), no
HTTP status (the command path gives it, as to a command's refusal): nothing is written.

>>> mark = marked("Bea", here=True, now="2026-12-05T19:01:00+00:00", command_id="scan-1")
>>> mark({"checkin": {"Ann": "2026-12-05T19:00:00+00:00"}})["checkin"]
{'Ann': '2026-12-05T19:00:00+00:00', 'Bea': '2026-12-05T19:01:00+00:00'}
>>> handled(2, "e9")({"set_aside": []})
Traceback (most recent call last):
...
bunco.web.decision.night_options.OptionRefused: table 2 sent no entry 'e9'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from bunco.core.server_options import (
    JoinCard,
    NightOptions,
    RefusedEntry,
    Room,
    SetAsideEntry,
)
from bunco.web.decision.refusals import Refused

OptionsChange = Callable[[NightOptions], NightOptions]
"""A change of a night's options (:class:`~bunco.core.server_options.NightOptions`): the
options as stored in (a copy), the new ones out (the store's
:data:`~bunco.store.events.OptionsChange`)."""

MAX_HELD = 500
"""How many entries set aside the host holds at most (a table sending more is refused)."""


class OptionRefused(Refused):
    """A change the options refuse: its ``kind`` is ``missing`` (what it names is not
    there) or ``conflict`` (no room for more)."""

    def __init__(
        self, kind: Literal["missing", "conflict"], code: str, message: str, expected: str
    ) -> None:
        super().__init__(kind, code, message, expected)


def bots_chosen(players: Sequence[str], pace: float | None) -> OptionsChange:
    """The night's bots are ``players`` (in that order, once each), at ``pace`` when
    given (else the pace kept)."""

    def change(options: NightOptions) -> NightOptions:
        options["bots"] = list(dict.fromkeys(players))
        if pace is not None:
            options["bot_pace"] = pace
        return options

    return change


def dice_chosen(dice: str) -> OptionsChange:
    """The night's dice mode is ``dice`` (``real`` or ``phones``)."""
    return lambda options: {**options, "dice": dice}


def marked(player: str, *, here: bool, now: str, command_id: str | None = None) -> OptionsChange:
    """``player`` marked here at ``now`` (a first mark's time stays; ``command_id``, a
    scanned card's, is kept beside it) or the mark taken back."""

    def change(options: NightOptions) -> NightOptions:
        marks: dict[str, str] = dict(options.get("checkin") or {})
        ids: dict[str, str] = dict(options.get("checkin_ids") or {})
        if here:
            if player not in marks:
                marks[player] = now
                if command_id is not None:
                    ids[player] = command_id
        else:
            marks.pop(player, None)
            ids.pop(player, None)
        return {**options, "checkin": marks, "checkin_ids": ids}

    return change


def set_aside(table: int, entries: Sequence[RefusedEntry], now: str) -> OptionsChange:
    """``entries`` (each with its ``id``) a table sent to the host, kept until handled; an
    entry already held is not added again. Refused (``conflict``) past :data:`MAX_HELD`."""

    def change(options: NightOptions) -> NightOptions:
        held = list(options.get("set_aside") or [])
        known = {(h["table"], h["id"]) for h in held}
        fresh: list[SetAsideEntry] = []
        for entry in entries:
            if (table, entry["id"]) not in known:
                known.add((table, entry["id"]))
                kept: SetAsideEntry = {
                    **entry,
                    "table": table,
                    "sent": now,
                    "handled": False,
                }
                fresh.append(kept)
        if fresh and len(held) + len(fresh) > MAX_HELD:
            raise OptionRefused(
                "conflict",
                "too_many",
                f"the host already holds {len(held)} entries set aside",
                "the host marks some handled first",
            )
        return {**options, "set_aside": held + fresh} if fresh else options

    return change


def handled(table: int, entry: str) -> OptionsChange:
    """The entry ``entry`` table ``table`` sent leaves the host's list (``missing`` when
    it is not there)."""

    def change(options: NightOptions) -> NightOptions:
        held = list(options.get("set_aside") or [])
        left = [h for h in held if not (h["table"] == table and h["id"] == entry)]
        if len(left) == len(held):
            raise OptionRefused(
                "missing",
                "no_such_entry",
                f"table {table} sent no entry {entry!r}",
                "an entry listed in GET .../phones (set_aside)",
            )
        return {**options, "set_aside": left}

    return change


def room_of(options: NightOptions) -> Room:
    """The room kept in ``options`` (a copy): the announcement (or ``None``) and the calls
    by table."""
    room = options.get("room")
    if room is None:
        return {"announcement": None, "calls": {}}
    return {"announcement": room.get("announcement"), "calls": dict(room.get("calls") or {})}


def announced(command_id: str, text: str, now: str) -> OptionsChange:
    """``text`` shown on every page (replacing the last announcement); the same command
    sent again changes nothing."""

    def change(options: NightOptions) -> NightOptions:
        room = room_of(options)
        shown = room["announcement"]
        if shown and shown["id"] == command_id:
            return options
        room["announcement"] = {"id": command_id, "text": text, "at": now}
        return {**options, "room": room}

    return change


def announcement_cleared(options: NightOptions) -> NightOptions:
    """The announcement taken down (none shown: nothing changes)."""
    room = room_of(options)
    if room["announcement"] is None:
        return options
    return {**options, "room": {**room, "announcement": None}}


def host_called(table: int, note: str | None, now: str) -> OptionsChange:
    """Table ``table`` calls the host; a second call while one waits keeps the first's
    time, with the newer note."""

    def change(options: NightOptions) -> NightOptions:
        room = room_of(options)
        known = room["calls"].get(str(table))
        room["calls"][str(table)] = {
            "table": table,
            "at": known["at"] if known else now,
            "note": note or (known["note"] if known else None),
        }
        return {**options, "room": room}

    return change


def call_cleared(table: int) -> OptionsChange:
    """Table ``table``'s call answered (``missing`` when it is not calling)."""

    def change(options: NightOptions) -> NightOptions:
        room = room_of(options)
        if str(table) not in room["calls"]:
            raise OptionRefused(
                "missing",
                "no_such_call",
                f"table {table} is not calling the host",
                "a table listed in GET .../room (calls)",
            )
        del room["calls"][str(table)]
        return {**options, "room": room}

    return change


def cards_kept(
    key: Literal["join_cards"], cards: Mapping[int, tuple[str, str]], *, replace: bool
) -> OptionsChange:
    """The tables' join cards (table → code and join token) kept under ``key``;
    ``replace=False`` keeps a table's card already kept."""

    def change(options: NightOptions) -> NightOptions:
        kept: dict[str, JoinCard] = dict(options.get(key) or {})
        for table, (code, token) in cards.items():
            if replace or str(table) not in kept:
                kept[str(table)] = {"code": code, "token": token}
        return {**options, key: kept}

    return change


def key_kept(option: Literal["door_key"], drawn: str) -> OptionsChange:
    """The night's key ``drawn`` kept under ``option``, unless one is kept already (the
    first one drawn stays: every card made from it keeps working)."""

    def change(options: NightOptions) -> NightOptions:
        kept = options.get(option)
        return options if isinstance(kept, str) and kept else {**options, option: drawn}

    return change
