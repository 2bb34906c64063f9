"""The shapes of what the live pages and the report read: a table now, the night, the
live view, a table's page, the night report. One ``TypedDict`` per shape, so
a type checker holds every builder to its keys and the API's OpenAPI document (the reply
models of :mod:`bunco.web.values.reply_models`, the socket's messages) shows them.

Field names here are promises to the pages and to people who script against bunco. The
engine's records they hold (a score card, a prize, the roll-off, the round's clock, a
tie-break, the host's records, the money, the audit list) keep the one type the engine
gives them (:class:`~bunco.core.cards.CardView`, :class:`~bunco.core.prizes.PrizeView`,
:class:`~bunco.core.rolloff.RollOffView`, ...); what the read models build beside them is
in :mod:`bunco.party.record_shapes`.

These are ``typing_extensions.TypedDict`` (pydantic reads them on Python 3.11).
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from bunco.core.audit import AuditEntry
from bunco.core.cards import CardView
from bunco.core.host_shapes import HostReport, SetRound
from bunco.core.prizes import PrizeView
from bunco.core.rolloff import RollOffView
from bunco.core.round_clock import ClockView
from bunco.core.round_results import RollFields, RoundEnded, TieBreakView
from bunco.core.rules import HouseRuleValue
from bunco.core.seating_partners import NightChange
from bunco.core.verification import VerificationReport
from bunco.party.record_shapes import MoneyPart, StandingRow

# -- a table now ----------------------------------------------------------------------------


class Tap(TypedDict):
    """A tally button as a scorekeeper's phone draws it."""

    outcome: str
    label: str
    hint: str
    possible: bool
    asks_who: bool


class TieBreakNow(TypedDict):
    """A table's tie-break in play: its rule, the tied sides, their points, in words."""

    rule: str
    sides: list[int]
    points: list[int]
    session: int
    text: str
    why: str


class SeatScores(TypedDict, total=False):
    """A table's scores: ``teams`` and ``team_scores`` (a team table), or ``scores`` by
    player (ghosts named "ghost 2")."""

    teams: list[list[str | None]]
    team_scores: list[int]
    scores: dict[str, int]


class TableView(TypedDict):
    """One table now (:func:`bunco.party.view.table_view`)."""

    table: int
    players: list[str | None]
    team: bool
    target: int
    status: str
    teams: NotRequired[list[list[str | None]]]
    team_scores: NotRequired[list[int]]
    scores: NotRequired[dict[str, int]]
    points: list[int]
    turn: int
    roller: str | None
    rolling_side: int | None
    in_turn: bool
    first_roll: list[int] | None
    rolling_for_high: bool
    tie_break: TieBreakNow | None
    winners: list[str]
    result: str | None
    rolls: int
    tallies: list[str] | None
    rotation: list[str]
    taps: list[Tap] | None
    asks_who: list[int] | None
    partners: list[str | None]
    last_roll: RollFields | None


# -- the night ------------------------------------------------------------------------------


class Expect(TypedDict):
    """Who may roll: at ``table`` (None: a roll-off of the whole night), ``player``."""

    table: int | None
    player: str


class NightWords(TypedDict):
    """The night's words for its rules (:func:`bunco.party.words.night_words`)."""

    rules: str
    kinds: dict[str, str]
    mini: str
    minis: str
    bell: str


class SetWinnerLine(TypedDict):
    """Who won a set, and how."""

    set: int
    winner: str | None
    settled_by: str


class SetWinnerReport(SetWinnerLine):
    """A set's winner in the report, with who was tied on wins and then on Buncos."""

    tied_on_wins: list[str]
    tied_on_buncos: list[str]


class NightPart(TypedDict):
    """What every page shows alike (:func:`bunco.party.view.night_part`)."""

    phase: str
    set: int
    round: int
    sets: int
    rules: str
    words: NightWords
    bell: bool
    bell_roll: RoundEnded | None
    started: bool
    seating_waits: list[int]
    seating_confirmed: list[int]
    on_break: bool
    rolloff: RollOffView | None
    prizes: list[PrizeView]
    set_winners: list[SetWinnerLine]
    ended_early: SetRound | None
    closed: bool
    corrections: int
    clock: NotRequired[ClockView | None]


class PaperMark(TypedDict, total=False):
    """``paper``: true when the host entered a table's round from its paper tally."""

    paper: bool


class TableResultView(TypedDict):
    """One table of a finished round (:func:`bunco.party.night_report.table_result_dict`):
    its scores as in :class:`SeatScores`, ``paper`` as in :class:`PaperMark` (the members
    in the order the replies write them)."""

    table: int
    players: list[str | None]
    team: bool
    teams: NotRequired[list[list[str | None]]]
    team_scores: NotRequired[list[int]]
    scores: NotRequired[dict[str, int]]
    points: dict[str, int]
    winners: list[str]
    losers: list[str]
    tie_break: TieBreakView | None
    rolls: int
    paper: NotRequired[bool]
    words: str


class LastRound(TypedDict):
    """The round played last: its set, number, each table's result and how it ended."""

    set: int
    round: int
    tables: list[TableResultView]
    ended_by: RoundEnded | None


class NextRound(TypedDict):
    """The seating of the round that comes next (or is under way)."""

    set: int
    round: int
    tables: list[list[str | None]]


class NextWithPartners(NextRound):
    """:class:`NextRound` with each table's ``teams`` and ``partners``."""

    teams: list[bool]
    partners: list[list[str | None]]


class Seat(TypedDict):
    """A seat: table and seat number, from 1."""

    table: int
    seat: int


Move = TypedDict(
    "Move",
    {"player": str, "result": str | None, "from": Seat | None, "to": Seat | None},
)
"""Who goes where after the last round (``from`` is a word Python keeps to itself)."""


class EntryProjection(TypedDict):
    """What each entry does in a round (:func:`bunco.party.entry_projection.entry_projection`):
    ``[points, passes, unknown]`` by tally and by set of dice."""

    round: int
    taps: dict[str, list[int]]
    dice: dict[str, list[int]]


# -- the pages ------------------------------------------------------------------------------


class LiveView(NightPart, MoneyPart, HostReport):
    """Everything a live page needs now (:func:`bunco.party.view.live_view`)."""

    tables: list[TableView]
    expects: list[Expect]
    players: dict[str, CardView]
    standings: list[StandingRow]
    seated: list[str]
    traveler: str | None
    last_bunco: str | None
    last_round: LastRound | None
    next: NextWithPartners | None
    moves: list[Move]
    verification: VerificationReport


class TablePageRest(NightPart):
    """What a table's phone draws but the table itself (the ``view`` of a ``table``
    message and of the hello of a table's socket)."""

    projection: EntryProjection | None
    expects: list[Expect]
    last_round: LastRound | None
    moves: list[Move]
    cards: dict[str, CardView]


class TablePage(TablePageRest):
    """What a table's phone draws (:func:`bunco.party.view.table_page`)."""

    table: TableView | None


class NightReport(MoneyPart, HostReport):
    """The ``bunco replay --json`` document (:func:`bunco.party.night_report.night_report`)."""

    rules: str
    house_rules: dict[str, HouseRuleValue]
    name: str | None
    sets: int
    phase: str
    rounds: list[ReportRound]
    players: dict[str, CardView]
    winner: str | None
    set_winners: list[SetWinnerReport]
    prizes: list[PrizeView]
    rolloff: RollOffView | None
    traveler: str | None
    last_bunco: str | None
    changes: list[NightChange]
    ended_early: SetRound | None
    next: NextRound | None
    verification: VerificationReport
    closed: bool
    corrections: list[AuditEntry]


class ReportRound(TypedDict):
    """A round of the report: its set, number and each table's result."""

    set: int
    round: int
    tables: list[TableResultView]
