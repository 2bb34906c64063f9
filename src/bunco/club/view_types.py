"""What the club's views return, as types: the organizer's view of the club, a planned
night and who is coming, a member's own page, the ledger, the standings, the archive and
what share links show.

The API's reply models carry these types (:mod:`bunco.web.values.reply_models`), so the
OpenAPI document names every key. They are ``typing_extensions.TypedDict``: the API's
models read them on Python 3.11 too.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from bunco.core.club_events import ClubSetup, LadderRules, NoticeKind


class PlanLine(TypedDict):
    """A planned night in short: when, where, who hosts, how many are coming."""

    date: str
    time: str | None
    host: str | None
    address: str | None
    season: str
    seats: int
    coming: int
    roster: int
    tables: int
    not_answered: int
    open_seats: int
    night: str | None
    deadline: str | None
    deadline_passed: bool
    cancelled: bool
    sequence: int


SubIn = TypedDict("SubIn", {"sub": str, "for": str | None})
"""A sub holding a seat: the regular's who said no (None: an open seat of its own)."""


class AttendanceView(TypedDict):
    """Who is coming to a planned night: answers, the count against the seats and tables,
    who has not answered, the subs in, waiting and offered, and the roster."""

    date: str
    time: str | None
    host: str | None
    address: str | None
    season: str
    seats: int
    tables: int
    coming: list[str]
    maybe: list[str]
    not_answered: list[str]
    not_coming: list[str]
    subs_in: list[SubIn]
    waiting: list[str]
    offered_to: list[str]
    open_seats: int
    roster: list[str]
    night: str | None
    deadline: str | None
    deadline_passed: bool
    cancelled: bool


class SeatState(TypedDict):
    """Where a member stands for a night: ``seat`` (holds one), ``waiting`` (number
    ``in_line``), ``offered``, ``full`` (a yes would wait ``in_line``), or None."""

    seat: Literal["seat", "waiting", "offered", "full"] | None
    in_line: NotRequired[int]


class MemberSeat(TypedDict, total=False):
    """A member's place in line for a night, and who is coming when they host it."""

    in_line: int
    attendance: AttendanceView


class MemberNight(PlanLine):
    """A night to come on a member's page: the plan, their answer and seat, and who is
    coming when they host it."""

    answer: str | None
    seat: Literal["seat", "waiting", "offered", "full"] | None
    in_line: NotRequired[int]
    attendance: NotRequired[AttendanceView]


class MemberView(TypedDict):
    """A member's own page (the route adds their calendar links and phones)."""

    club: str
    member: str
    role: str
    nights: list[MemberNight]
    currency: str
    sub_fee: str
    calendar: NotRequired[str]
    calendar_files: NotRequired[dict[str, str]]
    phones: NotRequired[int]


class ClubNightLine(TypedDict):
    """A night of the club on its page: its id, season, date, name and phase."""

    night: str
    season: str
    date: str | None
    name: str | None
    phase: str | None
    played: bool


class HostLine(TypedDict):
    """Who hosts a month (YYYY-MM)."""

    month: str
    host: str


class LadderShown(TypedDict):
    """The standings rules, and the same in words."""

    rules: LadderRules
    text: str


class MailShown(TypedDict):
    """The club's mail server as shown (never its password)."""

    host: str
    port: int
    sender: str
    username: NotRequired[str]
    starttls: bool


class Contact(TypedDict, total=False):
    """A member's email and address, where given."""

    email: str
    address: str


class Notified(TypedDict):
    """What members were told lately."""

    kind: NoticeKind
    names: list[str]
    date: NotRequired[str]


class ClubView(TypedDict):
    """The club now, as its organizer sees it (``setup``: its set-up line)."""

    club: str
    name: str
    setup: ClubSetup
    regulars: list[str]
    substitutes: list[str]
    contacts: dict[str, Contact]
    season: str
    seasons: list[str]
    nights: list[ClubNightLine]
    plans: list[PlanLine]
    upcoming: list[str]
    hosts: list[HostLine]
    rotation: list[str]
    ladder: LadderShown
    mail: MailShown | None
    pot: str
    timezone: str | None
    notices: list[Notified]
    recovery: bool


class ClubStandingRow(TypedDict):
    """A player's line of the season's standings."""

    rank: int | None
    player: str
    role: str
    nights: int
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    points: int
    prizes: int
    won: str
    score: str
    counted: int
    dropped: list[str]
    qualified: bool


class StandingsView(TypedDict):
    """The season's standings under the club's rules (``rule``: in words)."""

    club: str
    season: str
    rule: str
    rules: LadderRules
    standings: list[ClubStandingRow]


class ResultRow(TypedDict):
    """A player's results of one night."""

    place: int
    player: str
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    points: int
    won: str


class PayoutLine(TypedDict):
    """Money a night paid a player, and for which prize."""

    player: str
    amount: str
    prize: str


class NightResults(TypedDict):
    """A night of the club with its results (the archive's entry)."""

    night: str
    date: str | None
    label: str
    season: str
    name: str | None
    phase: str
    players: int
    results: list[ResultRow]
    payouts: list[PayoutLine]
    pot: str | None


class SharedView(TypedDict):
    """What a share link shows: one night's results, or a season's standings and nights."""

    club: str
    currency: str
    shared: str
    night: NotRequired[NightResults | None]
    season: NotRequired[str]
    rule: NotRequired[str]
    standings: NotRequired[list[ClubStandingRow]]
    nights: NotRequired[list[NightResults]]


class NightPayout(TypedDict):
    """One payout of a night's money (:func:`bunco.core.settlement.prize_money`)."""

    player: str
    prize: str
    label: str
    group: str | None
    amount: str


class Settled(TypedDict):
    """What the ledger reads of a night's settled money
    (:func:`bunco.core.settlement.prize_money`'s ``money``)."""

    buy_in: str
    carried_over: str
    pot: str
    paid_out: str
    top_up: str
    left_in_pot: str
    final: bool


class LedgerNight(TypedDict):
    """A night on the season's ledger: played or not, its money, its dues."""

    night: str
    date: str | None
    name: str | None
    players: int
    phase: str | None
    played: bool
    payouts: list[NightPayout]
    buy_in: NotRequired[str]
    carried_over: NotRequired[str]
    pot: NotRequired[str]
    paid_out: NotRequired[str]
    top_up: NotRequired[str]
    left_in_pot: NotRequired[str]
    final: NotRequired[bool]
    dues: NotRequired[str]
    dues_collected: NotRequired[str]
    dues_owed: NotRequired[str]
    pot_collected: NotRequired[str]
    pot_owed: NotRequired[str]
    paid_from_owed: NotRequired[str]
    owed_by: NotRequired[dict[str, str]]


class LedgerMember(TypedDict):
    """A member's dues on the season's ledger."""

    player: str
    nights: int
    sub_seats: int
    sub_fees: str
    owed: str
    paid: str
    balance: str
    won: str


class LedgerTotals(TypedDict):
    """The season's money in all."""

    dues_owed: str
    dues_paid: str
    outstanding: str
    paid_out: str
    sub_fees: str
    pot: str
    pot_collected: str
    pot_owed: str
    nights_played: int


class LedgerView(TypedDict):
    """The season's dues and payouts: night by night, member by member, and in all."""

    season: str
    currency: str
    dues: str
    sub_fee: str
    nights: list[LedgerNight]
    members: list[LedgerMember]
    hosts: list[HostLine]
    totals: LedgerTotals


class MemberLink(TypedDict):
    """A member's personal link (None: none issued)."""

    name: str
    role: str
    email: str | None
    url: str | None


ShareLink = TypedDict("ShareLink", {"for": str, "subject": str, "url": str | None})
"""A live share link of a night or a season."""


class LinksView(TypedDict):
    """Every member's personal link, the live share links and the calendar feed."""

    members: list[MemberLink]
    shares: list[ShareLink]
    calendar: str | None
    calendar_files: dict[str, str]


class ClubMadeView(ClubView):
    """A new club: the club, its organizer's token (shown only then), its recovery code
    and the club's page."""

    token: str
    recovery_code: str
    url: str


ShareView = TypedDict("ShareView", {"for": str, "subject": str, "token": str, "url": str})
"""A share link: what it is for, its token and its address."""


class MailView(TypedDict):
    """The club's mail server, as shown."""

    mail: MailShown | None


class RemindView(TypedDict):
    """Who a reminder went to, who the server refused, who has no address, and whose
    phones were told."""

    date: str
    sent: list[str]
    refused: list[str]
    no_email: list[str]
    phones: list[str]
