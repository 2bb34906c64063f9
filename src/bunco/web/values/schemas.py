"""Request and reply bodies of the HTTP API (pydantic models, documented in OpenAPI).

Every request model forbids unknown fields, so a typo is a 422 that names the field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    model_validator,
)

from bunco.core.names import name_key as name_key  # the engine's, for the routes
from bunco.core.round_results import RoundEnded
from bunco.party.shapes import TableView
from bunco.web.values.event_models import AnyEvent, PlayEvent
from bunco.web.values.fields import (
    CommandId,
    CreationId,
    Dice,
    ExpectedSeq,
    HighTotal,
    HouseValue,
    Label,
    Name,
    Outcome,
    Seating,
    SeatOverrides,
    Title,
    Word,
    clean_text,
)
from bunco.web.values.replies import NightStatus, RollEntry


class StrictModel(BaseModel):
    """Unknown fields are refused, and no value is coerced: ``true`` is not 1, ``"1"`` is
    not 1, and numbers are finite."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


DiceMode = Literal["real", "phones"]


class DiceModeIn(StrictModel):
    """A night's dice mode (host): ``real`` dice at the tables or ``phones`` roll."""

    dice: DiceMode


class NightCreate(StrictModel):
    """A new night: the party line of the log, plus server options."""

    name: Title = "Bunco night"
    rules: Word = Field(
        "classic", description="winning-moves, classic, scil, tournament (or an alias)"
    )
    house_rules: dict[Label, HouseValue] = Field(
        default_factory=dict, max_length=60, description="rule name → value, e.g. wipeout: true"
    )
    players: list[Name] = Field(
        min_length=2,
        max_length=2000,
        description="every player once; names that differ only in "
        "case, spacing or look-alike letters (Cyrillic А, fullwidth "
        "Ａ) are the same name",
    )
    tables: list[list[Name | None]] | None = Field(
        None, max_length=500, description="round 1's seating; null seats are ghosts"
    )
    sets: int = Field(1, ge=1, le=4)
    seed: int | None = Field(None, ge=-(2**63), le=2**63, description="shuffle the seating")
    prizes: list[Word] | None = Field(None, max_length=20)
    prize_ties: Literal["roll_off", "shared"] | None = None
    groups: dict[Label, list[Name]] | None = Field(
        None, max_length=500, description="tournament prize groups"
    )
    bots: list[Name] = Field(
        default_factory=list, max_length=2000, description="players whose rolls the server makes"
    )
    bot_pace: float = Field(1.0, ge=0, le=60, description="seconds between two bot rolls")
    dice: DiceMode = Field(
        "real",
        description="real: dice rolled at the tables, typed or "
        "tapped (the party default); phones: the server rolls (online)",
    )
    judged: list[Label] | None = Field(
        None, max_length=20, description="judged prizes, e.g. Best Costume"
    )
    must_be_present: bool | None = None
    one_prize_per_person: bool | None = None
    money: dict[str, Any] | str | None = Field(
        None, description="currency, buy_in, payouts (docs/party-log.md#money), or a preset name"
    )
    command_id: CreationId | None = None

    @model_validator(mode="after")
    def _distinct_names(self) -> NightCreate:
        seen: dict[str, int] = {}
        for i, name in enumerate(self.players):
            first = seen.setdefault(name_key(name), i)
            other = self.players[first]
            if other != name:  # the very same name twice: the engine says so
                raise ValueError(
                    f"players {other!r} and {name!r} are the same name (case, "
                    "spacing and look-alike letters are ignored when a name is "
                    "claimed)"
                )
        return self

    def setup(self) -> dict[str, Any]:
        """The party line (seq 0 of the log)."""
        line: dict[str, Any] = {
            "type": "party",
            "rules": self.rules,
            "name": self.name,
            "players": self.players,
            "sets": self.sets,
        }
        for key in (
            "house_rules",
            "tables",
            "seed",
            "prizes",
            "prize_ties",
            "groups",
            "judged",
            "must_be_present",
            "one_prize_per_person",
            "money",
        ):
            value = getattr(self, key)
            if value is not None and value != {}:
                line[key] = value
        if self.bots:
            line["bots"] = self.bots
        return line


class CommandBody(StrictModel):
    """The fields of every command: its id, and the version it was based on."""

    command_id: CommandId
    expected_seq: ExpectedSeq = None


class TappedIn(StrictModel):
    """Where an entry was tapped (the table page's outbox sends it with every entry): the
    server applies the entry only there, or refuses it (docs/outbox.md)."""

    set: int = Field(ge=1, le=1_000, description="the set the page showed")
    round: int = Field(ge=1, le=1_000, description="the round the page showed")
    table: int = Field(ge=1, le=10_000, description="the table it was tapped at")
    roller: Name | None = Field(None, description="whose turn the page showed")
    based_on: int = Field(
        ge=0,
        le=10_000_000,
        description="the table version the page showed when it was tapped (its versions)",
    )
    at: Annotated[
        str, Strict(), StringConstraints(min_length=1, max_length=40), AfterValidator(clean_text)
    ] = Field(description="the phone's time at the tap (ISO 8601)")
    stage: Literal["first_roll", "playing", "finishing", "tie_break"] | None = Field(
        None, description="the table's status the page showed"
    )


class RollIn(CommandBody):
    """One entry at a table: exactly one of ``dice``, ``outcome`` or ``roll_for_me``."""

    tapped: TappedIn | None = Field(
        None,
        description="where it was tapped: applied only "
        "there, else refused (409 round_closed, roller_changed)",
    )

    dice: Dice | None = None
    outcome: Outcome | None = None
    total: HighTotal | None = Field(
        None, description="while the table rolls for high: the total the real dice show"
    )
    roll_for_me: bool = Field(False, description="the server draws the dice")
    player: Name | None = Field(None, description="who rolls (checked against whose turn)")
    passed: int = Field(
        0,
        ge=0,
        le=100,
        description="credit the entry to player after this many turns that ended without "
        "scoring: each is entered as a miss first, all in one command (applied whole or "
        "not at all)",
    )
    more: int | None = Field(
        None,
        ge=0,
        le=100_000,
        description="a table's phone: how many entries of the round it still holds after "
        "this one (the room waits for a phone that holds more: docs/outbox.md); not part "
        "of the request a command id stands for",
    )

    @model_validator(mode="after")
    def _one_entry(self) -> RollIn:
        given = [
            self.dice is not None,
            self.outcome is not None,
            self.total is not None,
            self.roll_for_me,
        ]
        if sum(given) != 1:
            raise ValueError(
                "give exactly one of dice (three faces), outcome (a quick "
                "tally), total (a roll for high) or roll_for_me: true"
            )
        if self.passed and (self.player is None or self.roll_for_me):
            raise ValueError(
                "passed credits an entry to a player: give player (who rolled it) and "
                "dice or outcome (not roll_for_me)"
            )
        return self


class DiceIn(CommandBody):
    """A roll-off roll or a player's own roll: ``dice`` or ``roll_for_me``."""

    dice: Dice | None = None
    roll_for_me: bool = False
    player: Name | None = None

    @model_validator(mode="after")
    def _one_entry(self) -> DiceIn:
        if (self.dice is not None) == self.roll_for_me:
            raise ValueError("give exactly one of dice (three faces) or roll_for_me: true")
        return self


class UndoIn(CommandBody):
    """Remove the last roll or tally at the table."""

    tapped: TappedIn | None = Field(
        None,
        description="where it was tapped: applied only "
        "in that round, else refused (409 round_closed)",
    )


class SubstituteIn(CommandBody):
    """Between rounds, ``in`` takes the seat of ``out``."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    out: Name
    in_: Name = Field(alias="in")


class PlayerIn(CommandBody):
    """A late arrival or a departure, between rounds."""

    player: Name


class VerifyIn(CommandBody):
    """A checker verifies a player's card so far (tournament)."""

    player: Name
    checker: Label | None = None


class SeatIn(CommandBody):
    """Seat everyone by hand, between rounds."""

    tables: Seating
    overrides: SeatOverrides | None = None


class EventIn(CommandBody):
    """Any event of the party-log format (the host's escape hatch; scorekeepers: their table).

    The same checks as the other commands: dice are three integers from 1 to 6, a tally is
    one of the engine's names, names have no control characters, unknown fields are refused.
    """

    event: PlayEvent = Field(
        description="one event of the party log (docs/party-log.md); "
        "the host's own events beside the dice have their routes"
    )

    def event_dict(self) -> dict[str, Any]:
        """The event as the engine takes it."""
        value: dict[str, Any] = self.event.model_dump(by_alias=True, exclude_none=True)
        return value


class BotsIn(StrictModel):
    """Which players are bots, and their pace."""

    players: list[Name] = Field(max_length=2000)
    pace: float | None = Field(None, ge=0, le=60)


class JoinIn(StrictModel):
    """A table's join code (typed) or join token (from the QR link)."""

    code: str | None = Field(None, min_length=1, max_length=20)
    token: str | None = Field(None, min_length=1, max_length=100)
    night: str | None = Field(
        None,
        min_length=1,
        max_length=32,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="the night the code was typed at (its pages send it): the code is "
        "checked against that night's tables only, and a wrong one is counted for that "
        "night, not the whole server",
    )

    @model_validator(mode="after")
    def _one(self) -> JoinIn:
        if (self.code is None) == (self.token is None):
            raise ValueError("give exactly one of code (typed) or token (from the QR link)")
        return self


class ClaimIn(StrictModel):
    """A player's name, to follow their own card (and roll on their turn)."""

    name: Name


class ErrorOut(BaseModel):
    """Every refusal: what was wrong and what is expected instead."""

    error: str
    message: str
    expected: str | None = None


class AckOut(BaseModel):
    """An accepted command: its event, seq, the night's status and the table after it."""

    seq: int
    table: int | None
    command_id: str | None = Field(description="the command id the event was stored under")
    at: str = Field(description="when the server stored it (UTC, ISO 8601)")
    event: AnyEvent = Field(description="the stored event (docs/party-log.md)")
    duplicate: bool = Field(description="true when this command id was already applied")
    status: NightStatus
    table_view: TableView | None
    entry: RollEntry | None = Field(
        None,
        description="a roll or tally: what it scored (player, dice, points, kind), "
        "also when it ended the round and table_view is already the next round's",
    )
    ended: RoundEnded | None = Field(
        None,
        description="when this entry ended the round: the round, the table, the roll "
        "and why (target, bunco, last_table; time: the round's clock rang its bell, with no "
        "table and no roll)",
    )


class TableCredentials(BaseModel):
    table: int
    code: str = Field(description="short join code to type at /api/join")
    token: str = Field(description="long join token for the QR link")
    link: str


class CreatedOut(BaseModel):
    night: str
    name: str
    seq: int
    host_token: str
    viewer_token: str
    tables: list[TableCredentials]
    links: dict[str, str]


class TokenOut(BaseModel):
    night: str
    role: str
    token: str
    table: int | None = None
    player: str | None = None
