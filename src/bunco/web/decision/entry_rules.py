"""Where an entry was tapped: the rules of the entry's context, part of the server's one
decision about a command (:func:`bunco.web.decision.decide.decide`), as a pure function: a typed
entry and a frozen state of the held table in, a :class:`Decision` out.

The rules of *where an entry was tapped* (docs/outbox.md): a table's
phone keeps every entry in an outbox until the server answers it, and each entry carries
the set, round and table it was tapped at, the roller the page showed and the table
version it was based on. The server applies an entry only there:

- an entry of another table than the address's is malformed (``invalid``: ``wrong_table``);
- an entry of a round whose score at that table the host entered from the paper is
  refused (``round_closed``, cause ``paper``): the paper is the table's round now;
- an entry whose set or round is not the night's round in play was tapped in a round
  that is over: it is refused (``round_closed``), never moved into a later round;
- an entry tapped during play (or while rolling for who starts) that arrives after the
  room's bell, based on the table's version (no entry there since), while the table has
  no entry since the bell (nor a result the host entered by hand) and the round is not
  over, was rolled before the bell: it is accepted *before the bell*
  (:mod:`bunco.core.late_entries`: the fold places it at the end of the table's play and
  applies the bell to the table again, so its result is worked out again and a tie-break
  it was put in is dropped or begun again); its roller is checked there, by the fold;
- otherwise, in its round, an entry is applied while its table's result is not final
  (the bell rang but this table still finishes its turn or plays its tie-break); at a
  table that is done, or not in play, it is refused (``round_closed``);
- an entry tapped in one stage of the table's round (rolling for who starts, play, the
  tie-break) is refused in another (``round_closed``), except a roll of the turn under
  way when the bell rang: the rules say that turn is finished, so it counts;
- an entry tapped for another roller than the one whose turn it is now is refused
  (``roller_changed``), never credited to the roller of the moment;
- an entry sent with another table version than the table's (``expected_seq``: the
  version it was based on, or the seq of the entry it followed) is refused as ``stale``:
  the table changed meanwhile (another phone's entry); every change of the table's round
  or seating changes its version;

A command id seen before is a *repeat* (answered with the first reply). Every refusal
but ``wrong_table`` (``invalid``) is a ``conflict``: the entry does not fit the table now
(kinds of refusal, not HTTP statuses: :mod:`bunco.web.decision.refusals`).

Every refusal says its cause (``cause``, for the page's words): ``moved_on`` (the round
closed and the room was seated for the next), ``table_done`` (the table's result was
final), ``after_bell`` (the table has entries since the bell), ``by_hand`` (the host
entered the table's result by hand), ``paper`` (the host entered the table's score from
the paper), ``stage`` (the table's stage changed), ``roller``
(another roller's turn), ``changed`` (the table's version changed: the decision names who
changed it, :func:`bunco.web.decision.decide.stale_cause`).

>>> state = HeldTable(set_no=1, round_no=2, phase="playing", in_play=True, done=False,
...                   roller="Fay", version=14, seq=20)
>>> late = Entry("tally", 3, Tapped(1, 1, 3, "Fay", 9, "2026-11-27T08:00:00Z"))
>>> decide_entry(late, state).code
'round_closed'
>>> decide_entry(Entry("tally", 3, Tapped(1, 2, 3, "Fay", 14, "")), state).verdict
'accept'
>>> rung = HeldTable(set_no=1, round_no=2, phase="playing", in_play=True, done=False,
...                  roller="Gus", version=14, seq=20, stage="tie_break", bell=True)
>>> decide_entry(Entry("tally", 3, Tapped(1, 2, 3, "Fay", 14, "", "playing"), 14), rung).code
'before_bell'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bunco.core.events import Event
from bunco.core.night import Night
from bunco.core.server_options import Stage, TappedShown
from bunco.core.stored_event import StoredEvent
from bunco.core.table import Status
from bunco.web.decision.refusals import RefusalExtra, RefusalKind, TableWhere

Verdict = Literal["accept", "repeat", "refuse"]


@dataclass(frozen=True, slots=True)
class Tapped:
    """Where and when an entry was tapped: the set, round and table the page showed, the
    roller it showed (``None``: the page could not tell, e.g. after an entry it cannot
    score by itself), the table version it was based on and the phone's clock at the tap
    (ISO 8601, as the phone sent it)."""

    set_no: int
    round_no: int
    table: int
    roller: str | None
    based_on: int
    at: str
    stage: Stage | None = None
    """The table's status the page showed: ``first_roll``, ``playing``, ``finishing``
    (after the bell), ``tie_break`` (``None``: not said)."""

    def as_dict(self) -> TappedShown:
        """Where the entry was tapped, as a refusal's answer shows it."""
        return {
            "set": self.set_no,
            "round": self.round_no,
            "table": self.table,
            "roller": self.roller,
            "based_on": self.based_on,
            "at": self.at,
            "stage": self.stage,
        }


@dataclass(frozen=True, slots=True)
class Entry:
    """A command that enters something at a table: a roll, a tally or an undo."""

    kind: Literal["roll", "tally", "undo"]
    table: int
    tapped: Tapped | None = None
    expected_seq: int | None = None
    """The table version the entry is sent with (``None``: not checked)."""
    repeats: int | None = None
    """The seq of the event an earlier command with the same id stored, if any."""


@dataclass(frozen=True, slots=True)
class HeldTable:
    """A frozen state of a held night, as one table sees it."""

    set_no: int
    round_no: int
    phase: str
    in_play: bool
    done: bool
    roller: str | None
    version: int
    seq: int
    stage: str = ""
    """The table's status now (``playing``, ``finishing``, ``tie_break``, ...)."""
    bell: bool = False
    """The room's bell has rung this round."""
    after_bell: int = 0
    """Entries at the table since the bell (and a result the host entered there by hand)."""
    by_hand: bool = False
    """The host entered the table's result by hand since the bell."""
    paper: frozenset[tuple[int, int]] = frozenset()
    """The rounds (set, round) whose score at this table the host entered from the paper."""

    @classmethod
    def of(cls, night: Night, table: int, version: int, seq: int) -> HeldTable:
        """Table ``table`` of ``night`` (at ``seq``; the table's ``version``)."""
        in_play = night.phase == "playing" and 1 <= table <= len(night.tables)
        current = night.tables[table - 1] if in_play else None
        rung = in_play and night.bell_at is not None
        return cls(
            set_no=night.set_no,
            round_no=night.round_no,
            phase=night.phase,
            in_play=in_play,
            done=current is not None and current.status is Status.DONE,
            roller=current.roller if current is not None else None,
            version=version,
            seq=seq,
            stage=current.status.value if current else "",
            bell=rung,
            after_bell=night.entries_after_bell(table) if rung else 0,
            by_hand=rung and night.settled_by_hand(table),
            paper=frozenset((s, r) for s, r, t in night.paper if t == table),
        )

    def where(self) -> TableWhere:
        """Where the table is now, as a refusal's answer shows it."""
        return {
            "set": self.set_no,
            "round": self.round_no,
            "phase": self.phase,
            "roller": self.roller,
        }


@dataclass(frozen=True, slots=True)
class Applied:
    """One event an accepted command writes: as the engine normalized it, and the night
    after it."""

    event: Event
    after: Night


@dataclass(frozen=True, slots=True)
class Decision:
    """Accept, repeat or refuse, with the reason.

    A refusal has its ``kind`` (:data:`~bunco.web.decision.refusals.RefusalKind`: no HTTP
    status, the command path gives it), the ``code``, the ``reason``, what is
    ``expected`` instead and any ``extra`` fields of the answer. A repeat names the
    event the first command stored (``repeats``, its seq; ``stored``, the event). An
    acceptance by :func:`bunco.web.decision.decide.decide` carries the events the command writes,
    in order (``steps``: one, or a credited entry's misses and then the entry), each with
    the night after it; ``event`` and ``after`` are the last one's."""

    verdict: Verdict
    code: str = ""
    kind: RefusalKind | None = None
    reason: str = ""
    expected: str = ""
    repeats: int | None = None
    extra: RefusalExtra | None = None
    stored: StoredEvent | None = None
    steps: tuple[Applied, ...] = ()

    @property
    def refused(self) -> bool:
        return self.verdict == "refuse"

    @property
    def event(self) -> Event | None:
        """The (last) event an acceptance writes."""
        return self.steps[-1].event if self.steps else None

    @property
    def after(self) -> Night | None:
        """The night after the (last) event an acceptance writes."""
        return self.steps[-1].after if self.steps else None


ACCEPT = Decision("accept")
BEFORE_BELL = Decision("accept", "before_bell")
"""An entry tapped before the bell, to be placed there (:mod:`bunco.core.late_entries`)."""
PLAY_STAGES = frozenset({"first_roll", "playing"})
"""The stages of a table's round before its bell."""


def _refuse(kind: RefusalKind, code: str, reason: str, expected: str, cause: str) -> Decision:
    return Decision("refuse", code, kind, reason, expected, extra={"cause": cause})


def decide_entry(entry: Entry, state: HeldTable) -> Decision:
    """Whether ``entry`` may be applied to the held night ``state`` (see the module's
    docstring for the rules, in the order they are checked)."""
    if entry.repeats is not None:
        return Decision("repeat", repeats=entry.repeats)
    tapped = entry.tapped
    if tapped is None:
        return ACCEPT  # a command without its context (the API's own clients)
    if tapped.table != entry.table:
        return _refuse(
            "invalid",
            "wrong_table",
            f"this entry was tapped at table {tapped.table}, and sent to table {entry.table}",
            f"the entry at the address of table {tapped.table}",
            "wrong_table",
        )
    if (tapped.set_no, tapped.round_no) in state.paper:
        return _refuse(
            "conflict",
            "round_closed",
            f"the host entered table {tapped.table}'s score of {_round(tapped)} from the "
            "paper before this entry arrived",
            "a person's decision: send it to the host or discard it (the paper is the "
            "table's score of that round)",
            "paper",
        )
    if (tapped.set_no, tapped.round_no) != (
        state.set_no,
        state.round_no,
    ) or state.phase != "playing":
        return _refuse(
            "conflict",
            "round_closed",
            f"this entry was tapped in {_round(tapped)}, "
            f"which closed before it arrived (the night is now at "
            f"{_now(state)})",
            "a person's decision: send it to the host or "
            "discard it (it is never moved into a later round)",
            "moved_on",
        )
    stale = entry.expected_seq is not None and entry.expected_seq != state.version
    if state.by_hand:
        return _refuse(
            "conflict",
            "round_closed",
            f"the host entered table {tapped.table}'s result of {_round(tapped)} by hand "
            "before this entry arrived",
            "a person's decision: send it to the host or discard it",
            "by_hand",
        )
    late = tapped.stage in PLAY_STAGES and state.bell and state.stage not in PLAY_STAGES
    if late and state.in_play and not state.after_bell and entry.kind != "undo":
        return _changed(tapped, state) if stale else BEFORE_BELL
    if not state.in_play or state.done:
        return _refuse(
            "conflict",
            "round_closed",
            f"this entry was tapped in {_round(tapped)} at "
            f"table {tapped.table}, whose result was final before it arrived"
            + _since_bell(state, late),
            "a person's decision: send it to the host or discard it",
            "after_bell" if late and state.after_bell else "table_done",
        )
    if stale:
        return _changed(tapped, state)
    if (
        tapped.stage is not None
        and tapped.stage != state.stage
        and (tapped.stage, state.stage) not in _GOES_ON
    ):
        return _refuse(
            "conflict",
            "round_closed",
            f"this entry was tapped "
            f"{_STAGES.get(tapped.stage, tapped.stage)} at table {tapped.table}, "
            f"which ended before it arrived (the table is "
            f"{_STAGES.get(state.stage, state.stage)} now)" + _since_bell(state, late),
            "a person's decision: send it to the host or discard it (it is "
            "never counted as another kind of roll)",
            "after_bell" if late and state.after_bell else "stage",
        )
    if entry.kind != "undo" and tapped.roller is not None and tapped.roller != state.roller:
        return _refuse(
            "conflict",
            "roller_changed",
            f"this entry was tapped for "
            f"{tapped.roller or 'nobody'}, but it is {state.roller or 'nobody'}'s "
            f"turn at table {tapped.table} now",
            "a person's decision: send it to the host or discard it (it is "
            "never credited to another roller)",
            "roller",
        )
    return ACCEPT


def _since_bell(state: HeldTable, late: bool) -> str:
    """Why an entry tapped before the bell cannot go there: the table played on after it."""
    if not (late and state.after_bell):
        return ""
    n = state.after_bell
    return f"; it has {n} entr{'y' if n == 1 else 'ies'} since the bell"


def _changed(tapped: Tapped, state: HeldTable) -> Decision:
    """The refusal of an entry based on another version of its table (who changed it is
    the decision's to say: :func:`bunco.web.decision.decide.stale_cause`)."""
    return _refuse(
        "conflict",
        "stale",
        f"table {tapped.table} changed since this entry was tapped",
        f"expected_seq {state.version} after looking at the table again",
        "changed",
    )


_GOES_ON = frozenset({("playing", "finishing")})
"""Stage changes an entry survives: a turn under way when the bell rings is finished (the
rules: each table finishes the turn in progress), so a roll tapped in it still counts."""
_STAGES = {
    "first_roll": "while rolling for who starts",
    "playing": "during play",
    "finishing": "in the turn finished after the bell",
    "tie_break": "in the tie-break",
    "done": "done",
}


def _round(tapped: Tapped) -> str:
    return (
        f"round {tapped.round_no} of set {tapped.set_no}"
        if tapped.set_no > 1
        else f"round {tapped.round_no}"
    )


def _now(state: HeldTable) -> str:
    if state.phase == "over":
        return "its end"
    if state.phase == "rolloff":
        return "a roll-off"
    return f"round {state.round_no}" + (f" of set {state.set_no}" if state.set_no > 1 else "")
