"""What the API's routes answer, as models the OpenAPI document shows (one per reply shape).

Each model names the members every reply of its route carries, with their types; a reply
may carry more (a read model's fields, the report's sections), which it keeps: the models
allow extra members, so declaring them never drops what a route returns. Files (PDF, CSV,
HTML, iCalendar, SVG) are declared by their media type (:func:`file_reply`).

The events inside replies are the party log's (``RollEvent``, ``JudgeEvent``, ...,
:mod:`bunco.web.values.event_models`): :data:`StoredEventBody` points at them without checking a
stored event again on its way out.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from pydantic.json_schema import JsonSchemaValue

from bunco.club.view_types import (
    ClubNightLine,
    ClubStandingRow,
    LedgerMember,
    LedgerNight,
    LedgerTotals,
    MailShown,
    MemberLink,
    MemberNight,
    PlanLine,
    ShareLink,
    SubIn,
)
from bunco.core.awards import AwardView
from bunco.core.cards import CardView
from bunco.core.club_events import LadderRules
from bunco.core.money_shapes import NightMoney, Payout
from bunco.core.prizes import PrizeView
from bunco.core.rolloff import RollOffView
from bunco.party.record_shapes import StandingRow
from bunco.party.shapes import LiveView, ReportRound, SetWinnerReport, TablePage
from bunco.web.values.event_models import EVENT_MODELS
from bunco.web.values.replies import NightStatus


class PartyLine(BaseModel):
    """The party line, the first line of every night's log (seq 0): its rules, players and
    sets, and whatever else the night was set up with (docs/party-log.md)."""

    model_config = ConfigDict(extra="allow")

    type: Literal["party"]
    rules: str
    players: list[str]
    sets: int
    name: str | None = None


_STORED = {"party": PartyLine} | {kind: m for kind, m in EVENT_MODELS.items()}
STORED_EVENT_SCHEMA: JsonSchemaValue = {
    "oneOf": [{"$ref": f"#/components/schemas/{m.__name__}"} for m in _STORED.values()],
    "discriminator": {
        "propertyName": "type",
        "mapping": {kind: f"#/components/schemas/{m.__name__}" for kind, m in _STORED.items()},
    },
    "description": "the party line (seq 0) or one event of the party log "
    "(docs/party-log.md), as stored",
}
"""The schema of a stored event in the OpenAPI document: one of the party log's."""
StoredEventBody = Annotated[dict[str, Any], WithJsonSchema(STORED_EVENT_SCHEMA)]
"""A stored event in a reply: the party line or one of the party log's event types (already
checked when it was stored, so not checked again)."""


class Reply(BaseModel):
    """A reply: the members named, and any more the route adds."""

    model_config = ConfigDict(extra="allow")


# -- nights ---------------------------------------------------------------------------------


class You(BaseModel):
    """What the token you hold is."""

    role: str = Field(description="host, table, player or viewer")
    table: int | None = Field(description="the table a table's token scores")
    player: str | None = Field(description="the player a player's token follows")


class NightOut(Reply):
    """A night now (``GET /api/nights/{id}``); a table's GET has the same members, with
    ``view`` holding what that table's phones draw."""

    night: str
    name: str
    created_at: str = Field(description="when the night was made (ISO 8601)")
    seq: int = Field(description="the seq of the night's last event")
    setup: PartyLine = Field(description="the party line (docs/party-log.md)")
    status: NightStatus = Field(description="phase, set, round, bell, who may roll now")
    versions: dict[str, int] = Field(
        description="the versions to send as expected_seq: night, rolloff, and (a table's "
        "GET) the table's number"
    )
    bots: list[str]
    bot_pace: float | None
    dice: str = Field(description="real or phones")
    you: You
    verified: dict[str, dict[str, int]] | None = Field(
        None, description="the night's GET only: each verified card's Buncos, Minis, Wins"
    )
    view: LiveView | TablePage = Field(
        description="the live view (the night's GET) or what the table's phones draw (a "
        "table's GET)"
    )


class StoredEventOut(BaseModel):
    """An event as the server stored it: its seq, table, command id and time beside it."""

    seq: int
    table: int | None
    command_id: str | None
    at: str | None = Field(description="when the server stored it (UTC, ISO 8601)")
    event: StoredEventBody


class EventsOut(Reply):
    """The stored events after ``since``."""

    night: str
    seq: int
    events: list[StoredEventOut]


class NightRows(Reply):
    """A list about the night (standings, players), with the seq it was read at."""

    night: str
    seq: int


class StandingsOut(NightRows):
    """Every player's line, best first."""

    standings: list[StandingRow]


class PlayersOut(NightRows):
    """The night's name and its players in the order listed."""

    name: str
    players: list[str]


class CardOut(NightRows):
    """One player's score card, seat and verification."""

    player: str
    card: CardView
    table: int | None
    seat: int | None
    verified: dict[str, int] | None


class PrizesOut(NightRows):
    """Prizes, set winners, the roll-off, the traveler, the last Bunco."""

    phase: str
    prizes: list[PrizeView]
    winner: str | None
    set_winners: list[SetWinnerReport]
    rolloff: RollOffView | None
    traveler: str | None
    last_bunco: str | None


class ReportOut(Reply):
    """The whole night as ``bunco replay --json`` prints it."""

    rules: str
    phase: str
    sets: int
    rounds: list[ReportRound]
    players: dict[str, CardView]
    prizes: list[PrizeView]


class UndoPreviewOut(NightRows):
    """What an undo at the table would do, before doing it."""

    expected_seq: int
    table: int
    what: str
    host_only: bool
    allowed: bool
    other_tables: list[int]


class RevokedOut(Reply):
    """How many tokens a revocation signed out."""

    night: str
    revoked: int


class BotsOut(Reply):
    """The night's bots and their pace."""

    night: str
    bots: list[str]
    bot_pace: float | None


class DiceOut(Reply):
    """The night's dice mode."""

    night: str
    dice: str


class WhoAmIOut(Reply):
    """What the token you hold lets you do."""

    night: str | None
    role: str
    table: int | None
    player: str | None


class CoHost(BaseModel):
    """A co-host's token: its number, label and whether it is revoked."""

    id: int
    label: str | None
    revoked: bool
    created_at: str | None


class ViewerLink(BaseModel):
    """A viewer link a host's phone made: its number, who made it, whether revoked."""

    id: int
    made_by: str = Field(description="the host, or a co-host's label (co-host 2 · Bea)")
    revoked: bool
    created_at: str | None


class ViewerLinksOut(Reply):
    """The viewer links the night's hosts made (not the one made with the night)."""

    night: str
    links: list[ViewerLink]


class CoHostRevokedOut(RevokedOut):
    """A co-host revoked, and the viewer links it had made, revoked with it."""

    id: int
    viewer_links: int = Field(description="the co-host's viewer links revoked with it")


class CoHostsOut(Reply):
    """The night's co-hosts."""

    night: str
    cohosts: list[CoHost]


class CoHostMadeOut(Reply):
    """A new co-host: the token and the link to hand them."""

    night: str
    id: int
    label: str | None
    token: str
    link: str


class PayoutsOut(NightRows):
    """Who is handed each prize, the money and the payouts."""

    phase: str
    awards: list[AwardView]
    money: NightMoney | None
    payouts: list[Payout]


class HealthOut(Reply):
    """The server is up."""

    status: str
    version: str
    database: str
    following_other_processes: bool
    connections: dict[str, int] = Field(
        description="this process's connections: open now, refused past a cap, closed for "
        "pipelining past the bound, WebSockets closed for too many messages (1008)"
    )


# -- clubs ----------------------------------------------------------------------------------


class ClubOut(Reply):
    """A club: members, seasons, nights, plans, hosts, the ladder, the pot."""

    club: str
    name: str
    regulars: list[str]
    substitutes: list[str]
    season: str
    nights: list[ClubNightLine]
    plans: list[PlanLine]


class ClubMadeOut(ClubOut):
    """A new club and its organizer's token."""

    token: str


class LedgerOut(Reply):
    """A season's dues and payouts: night by night, member by member, and the totals."""

    season: str
    currency: str
    nights: list[LedgerNight]
    members: list[LedgerMember]
    totals: LedgerTotals


class ClubStandingsOut(Reply):
    """A season's standings under the club's ladder rule."""

    club: str
    season: str
    rule: str
    rules: LadderRules
    standings: list[ClubStandingRow]


class AttendanceOut(Reply):
    """Who is coming to a planned night, the seats and the waiting list."""

    date: str
    coming: list[str]
    roster: list[str]
    subs_in: list[SubIn]


class MemberOut(Reply):
    """A member's own page: their nights and answers."""

    club: str
    member: str
    role: str
    nights: list[MemberNight]


class LinksOut(Reply):
    """The club's private links: each member's, the shared pages', the calendar feed."""

    members: list[MemberLink]
    shares: list[ShareLink]
    calendar: str | None


class ShareOut(Reply):
    """A new shared page's link."""

    subject: str
    token: str
    url: str


class SharedOut(Reply):
    """A shared page: a night's results or a season's standings."""

    club: str
    shared: str


class MailOut(Reply):
    """The club's mail settings (without the password)."""

    mail: MailShown | None


class RemindersOut(Reply):
    """Who a reminder went to, who refused it, who has no address."""

    date: str
    sent: list[str]
    refused: list[str]
    no_email: list[str]


# -- files ----------------------------------------------------------------------------------


def file_reply(media_type: str, what: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that answers a file of ``media_type``."""
    binary = media_type.split(";")[0] in ("application/pdf", "image/svg+xml")
    schema = {"type": "string", "format": "binary"} if binary else {"type": "string"}
    return {200: {"description": what, "content": {media_type: {"schema": schema}}}}


# -- phones ---------------------------------------------------------------------------------


class HeardOut(Reply):
    """A table's outbox report, noted."""

    night: str
    table: int
    heard: Any


class SetAsideOut(Reply):
    """Entries a table's phone set aside, kept for the host."""

    night: str
    table: int
    added: int
    held: int


class HandledOut(Reply):
    """A set-aside entry marked handled."""

    night: str
    table: int
    id: str
    handled: bool


class PhonesOut(Reply):
    """Each table's phones as last heard, and the entries set aside."""

    night: str
    tables: list[dict[str, Any]]
    set_aside: list[Any]
    paper_minis: str = Field(
        description="what the preset calls a three of a kind that is not a Bunco (Mini "
        "Bunco, Baby Bunco, Low/High Bunco): the column of the host's form for a table's "
        "score from the paper that the cards count as Mini Buncos",
    )
