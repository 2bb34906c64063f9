"""HTTP API: the host's correction console, the audit list and closing the night.

A correction is a ``correct`` event of the party log (:mod:`bunco.core.corrections`),
sent by the host or a co-host through the one command path, so command ids, versions
and rights apply as to any other command; the event records who sent it (``by``: "the
host" or the co-host's label). Until the host closes the night (``close_night``) its
results are provisional. The audit list names every correction and every undo: what,
who (from the token that sent it), when (when the server stored it) and why.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, model_validator

from bunco.core.audit import AuditEntry, audit_more
from bunco.core.corrections import CorrectEvent
from bunco.core.night import Night
from bunco.core.stored_event import StoredEvent
from bunco.core.table import RollRecord
from bunco.core.undo import entry_words
from bunco.web.api.access import require, require_read
from bunco.web.api.routing import DIGITS, ERRORS, NightId, night_command, service
from bunco.web.gate.cohost_labels import number_of
from bunco.web.gate.principal import Principal
from bunco.web.values.fields import Name
from bunco.web.values.night_replies import RoundTable
from bunco.web.values.replies import ServiceError
from bunco.web.values.schemas import AckOut, CommandBody

router = APIRouter(prefix="/api/nights/{night_id}", responses=ERRORS, tags=["corrections"])

Reason = Annotated[str, Field(min_length=1, max_length=200)]


class CorrectionIn(CommandBody):
    """A correction of one table's round (finished or in play), with the reason for it."""

    set: int = Field(1, ge=1, le=99, description="the set of the round corrected")
    round: int = Field(ge=1, le=6, description="the round corrected (1 to 6)")
    table: int = Field(ge=1, le=10_000, description="the table whose round it is")
    change: Literal["winner", "move", "add_roll", "remove_roll"] = Field(
        description="winner: player's side won; move: roll counts for player; add_roll: "
        "player rolled dice too; remove_roll: roll never happened"
    )
    player: Name | None = Field(
        None, description="the winner, the roll's new player, or who rolled"
    )
    roll: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="the roll's number at that table in that round (1 = first)",
    )
    dice: list[int] | None = Field(
        None, min_length=3, max_length=3, description="add_roll: the three faces"
    )
    reason: Reason = Field(description="why: the audit list shows it")

    @model_validator(mode="after")
    def _fields_of_change(self) -> CorrectionIn:
        needs = {
            "winner": ("player",),
            "move": ("roll", "player"),
            "add_roll": ("player", "dice"),
            "remove_roll": ("roll",),
        }[self.change]
        missing = [name for name in needs if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.change} correction needs {' and '.join(missing)}")
        if not self.reason.strip():
            raise ValueError("the reason is blank: say why the round is corrected")
        return self


class AuditOut(BaseModel):
    """The audit list, and whether the results are still provisional."""

    night: str
    provisional: bool = Field(description="true until the host closes the night")
    closed: bool
    closed_at: str | None = Field(
        None, description="when the host closed the night (UTC, ISO 8601); null while open"
    )
    entries: list[AuditEntry] = Field(
        description="every correction and undo: what changed in words, who (the host, a "
        "co-host's label or a table's phone), at (when the server stored it, UTC, ISO "
        "8601), why (a correction's reason), event (its index among the night's events); "
        "set, round and change null for an undo"
    )


class RollOut(BaseModel):
    number: int = Field(description="1 = the round's first entry at that table")
    player: str | None = Field(description="who it counts for (None: a ghost seat)")
    roller: str
    dice: list[int]
    points: int
    kind: str
    phase: str
    words: str = Field(description="the roll as the pages say it: +2, Bunco, Baby Bunco, ...")


class RoundTableOut(BaseModel):
    """One table's round as it now stands (corrections included): a finished round, or
    the round in play (``running``)."""

    night: str
    set: int
    round: int
    table: int
    players: list[str | None]
    team: bool
    scores: list[int] = Field(description="points per side (a team table: seats 1&3, 2&4)")
    winners: list[str]
    rolls: list[RollOut]
    corrected: int = Field(description="how many corrections this table's round has had")
    running: bool = Field(
        False, description="the round is still being played (its winner is decided at its end)"
    )
    status: str | None = Field(
        None,
        description="a running round's table: first_roll, playing, finishing, tie_break or done",
    )


def _by(who: Principal) -> str:
    """Who sent a correction, as the audit list names them."""
    return who.player if number_of(who.player) is not None and who.player else "the host"


@router.post("/corrections", response_model=AckOut)
async def correct(night_id: NightId, body: CorrectionIn, request: Request) -> Response:
    """Correct a table's finished round or the round in play (host or co-host), until the
    night is closed: during or after a roll-off the set winner and the prizes are decided
    again (a roll-off kept, cancelled or rolled again as the corrected standings say). 409
    ``not_allowed_now`` for a round not played yet, once the night is closed, for a
    ``winner`` of the round in play or a correction that would ring its bell;
    ``wrong_table``; ``invalid_setup`` for a player not at that table or no such roll."""
    ev: CorrectEvent = {
        "type": "correct",
        "set": body.set,
        "round": body.round,
        "of_table": body.table,
        "change": body.change,
        "reason": "",
    }
    if body.player is not None:
        ev["player"] = body.player
    if body.roll is not None:
        ev["roll"] = body.roll
    if body.dice is not None:
        ev["dice"] = list(body.dice)
    ev["reason"] = body.reason.strip()
    ev["by"] = _by(await require(request, night_id, "host", what="correcting results"))
    return await night_command(request, night_id, ev, body, "correcting results")


@router.post("/close", response_model=AckOut)
async def close_night(night_id: NightId, body: CommandBody, request: Request) -> Response:
    """Close the night once it is over (host or co-host): the results stop being
    provisional and no more corrections are taken (409 before the night is over)."""
    who = await require(request, night_id, "host", what="closing the night")
    return await night_command(
        request, night_id, {"type": "close_night", "by": _by(who)}, body, "closing the night"
    )


async def _callers(request: Request, night_id: str) -> dict[str, str]:
    """Whose token each caller (a token hash's first 32 hex digits) is, in words."""
    svc = service(request)
    named: dict[str, str] = {}
    for role in ("host", "table"):
        for record in await svc.db(svc.store.tokens, night_id, role):
            if role == "table":
                named[record.hash[:32]] = f"table {record.table}'s phone"
            else:
                named[record.hash[:32]] = record.player if number_of(record.player) else "the host"
    return named


_AUDITS: OrderedDict[str, tuple[int, Night, list[AuditEntry]]] = OrderedDict()
"""Per night: how many of its events the audit list has folded, the night after them and
the list, so a request folds only the events stored since (the host pages ask every 15 s)."""
MAX_AUDITS_KEPT = 16


@router.get("/corrections", response_model=AuditOut)
async def audit(night_id: NightId, request: Request) -> AuditOut:
    """The audit list: every correction and undo, with what, who, when and why (anyone who
    may read the night)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    log = live.log
    callers = await _callers(request, night_id)

    def who(index: int) -> str | None:
        stored = log[index + 1] if index + 1 < len(log) else None
        return callers.get(stored.caller) if stored is not None else None

    night = live.night
    kept = _AUDITS.get(night_id)
    if kept is None or kept[0] > len(night.events):
        kept = (0, Night.start(night.setup), [])
    done, state, entries = kept
    state, more = audit_more(state, night.events, done, who)  # only the events since
    entries = entries + more
    _AUDITS[night_id] = (len(night.events), state, entries)
    _AUDITS.move_to_end(night_id)
    while len(_AUDITS) > MAX_AUDITS_KEPT:
        _AUDITS.popitem(last=False)
    shown = [_listed(entry, log) for entry in entries]
    return AuditOut(
        night=night_id,
        provisional=not night.closed,
        closed=night.closed,
        closed_at=None if (at := live.closed_at()) is None else at.isoformat(timespec="seconds"),
        entries=shown,
    )


def _listed(entry: AuditEntry, log: Sequence[StoredEvent]) -> AuditEntry:
    """An audit entry as the list shows it: ``at`` when the server stored it, where the
    event itself says not, and an undo's ``set``, ``round`` and ``change`` as null (a copy:
    the entries kept for the next request stay as the night gave them)."""
    shown = entry.copy()
    stored = log[entry["event"] + 1] if entry["event"] + 1 < len(log) else None
    if entry["at"] is None and stored is not None:
        shown["at"] = stored.created_at.isoformat(timespec="seconds")
    shown.setdefault("set", None)
    shown.setdefault("round", None)
    shown.setdefault("change", None)
    return shown


def round_table(night: Night, set_no: int, round_no: int, table: int) -> RoundTable:
    """One table's finished round, or the round in play, with its rolls in words (404
    where there is none)."""
    played = next((r for r in night.history if (r.set_no, r.round_no) == (set_no, round_no)), None)
    running = (
        played is None
        and night.phase == "playing"
        and (set_no, round_no) == (night.set_no, night.round_no)
    )
    if played is None and not running:
        rounds = [f"set {r.set_no} round {r.round_no}" for r in night.history]
        if night.phase == "playing":
            rounds.append(f"set {night.set_no} round {night.round_no} (in play)")
        raise ServiceError(
            404,
            "not_found",
            f"round {round_no} of set {set_no} was not played tonight",
            "a round played tonight: " + ", ".join(rounds)
            if rounds
            else "a round once one is played",
        )
    count = len(night.tables) if played is None else len(played.tables)
    if table > count:
        raise ServiceError(
            404,
            "not_found",
            f"round {round_no} {'is' if running else 'was'} played at "
            f"{count} tables, so there is no table {table}",
            f"a table from 1 to {count}",
        )
    out: RoundTable = {"set": set_no, "round": round_no, "table": table, "running": running}
    if played is None:
        now = night.tables[table - 1]
        out["status"] = now.status.value
        out["players"], out["team"] = list(now.seats), now.team
        out["scores"], out["winners"] = list(now.side_scores), [w for w in now.winners if w]
        rolls: Sequence[RollRecord] = now.rolls
    else:
        res = played.tables[table - 1]
        out["players"], out["team"] = list(res.seats), res.team
        out["scores"] = list(res.side_scores)
        out["winners"] = [w for w in res.winners if w is not None]
        rolls = res.rolls
    out["rolls"] = [
        {
            "number": i,
            "player": r.credited,
            "roller": r.roller,
            "dice": list(r.dice),
            "points": r.points,
            "kind": r.kind.value,
            "phase": r.phase.value,
            "words": entry_words(r, night.rules),
        }
        for i, r in enumerate(rolls, start=1)
    ]
    out["corrected"] = sum(
        1 for c in night.corrections if (c.set_no, c.round_no, c.table) == (set_no, round_no, table)
    )
    return out


@router.get("/rounds/{set_no}/{round_no}/tables/{table}", response_model=RoundTableOut)
async def finished_round(
    night_id: NightId,
    request: Request,
    set_no: Annotated[int, DIGITS, Path(ge=1, le=99)],
    round_no: Annotated[int, DIGITS, Path(ge=1, le=6)],
    table: Annotated[int, DIGITS, Path(ge=1, le=10_000)],
) -> RoundTableOut:
    """One table's round as it now stands, finished or in play (``running``, with the
    table's ``status``): players, scores, winners and every roll, numbered as a correction
    names them (anyone who may read the night)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return RoundTableOut.model_validate(
        {"night": night_id, **round_table(live.night, set_no, round_no, table)}
    )
