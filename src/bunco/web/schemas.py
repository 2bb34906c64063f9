"""Request and reply bodies of the HTTP API (pydantic models, documented in OpenAPI).

Every request model forbids unknown fields, so a typo is a 422 that names the field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Name = Annotated[str, Field(min_length=1, max_length=60, description="a player's name")]
CommandId = Annotated[str, Field(
    min_length=1, max_length=100, pattern=r"^[!-~]+$",
    description="an id the client makes for this command (e.g. a UUID); a retried request "
    "with the same id is applied once and answered with the first result",
)]
ExpectedSeq = Annotated[int | None, Field(
    default=None, ge=0, le=10_000_000,
    description="the seq of the last event you saw at this table (or of the whole night, for "
    "commands of the whole night); if something changed since, the reply is 409 with the "
    "events you missed. Leave it out to skip the check.",
)]
Die = Annotated[int, Field(ge=1, le=6)]
HouseValue = str | int | float | bool | list[str] | None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


DiceMode = Literal["real", "phones"]


class DiceModeIn(Strict):
    """A night's dice mode (host): ``real`` dice at the tables or ``phones`` roll."""

    dice: DiceMode


class NightCreate(Strict):
    """A new night: the party line of the log, plus server options."""

    name: str = Field("Bunco night", min_length=1, max_length=200)
    rules: str = Field("classic", min_length=1, max_length=40,
                       description="winning-moves, classic, scil, tournament (or an alias)")
    house_rules: dict[Annotated[str, Field(max_length=60)], HouseValue] = Field(
        default_factory=dict, max_length=60, description="rule name → value, e.g. wipeout: true")
    players: list[Name] = Field(min_length=2, max_length=2000)
    tables: list[list[Name | None]] | None = Field(
        None, max_length=500, description="round 1's seating; null seats are ghosts")
    sets: int = Field(1, ge=1, le=4)
    seed: int | None = Field(None, ge=-(2**63), le=2**63, description="shuffle the seating")
    prizes: list[Annotated[str, Field(max_length=40)]] | None = Field(None, max_length=20)
    prize_ties: Literal["roll_off", "shared"] | None = None
    groups: dict[Annotated[str, Field(max_length=60)], list[Name]] | None = Field(
        None, max_length=500, description="tournament prize groups")
    bots: list[Name] = Field(default_factory=list, max_length=2000,
                             description="players whose rolls the server makes")
    bot_pace: float = Field(1.0, ge=0, le=60, description="seconds between two bot rolls")
    dice: DiceMode = Field("real", description="real: dice rolled at the tables, typed or "
                           "tapped (the party default); phones: the server rolls (online)")
    judged: list[Annotated[str, Field(max_length=60)]] | None = Field(
        None, max_length=20, description="judged prizes, e.g. Best Costume")
    must_be_present: bool | None = None
    one_prize_per_person: bool | None = None
    money: dict[str, Any] | str | None = Field(
        None, description="currency, buy_in, payouts (docs/party-log.md#money), or a preset name")
    command_id: CommandId | None = None

    def setup(self) -> dict[str, Any]:
        """The party line (seq 0 of the log)."""
        line: dict[str, Any] = {"type": "party", "rules": self.rules, "name": self.name,
                                "players": self.players, "sets": self.sets}
        for key in ("house_rules", "tables", "seed", "prizes", "prize_ties", "groups", "judged",
                    "must_be_present", "one_prize_per_person", "money"):
            value = getattr(self, key)
            if value is not None and value != {}:
                line[key] = value
        if self.bots:
            line["bots"] = self.bots
        return line


class Command(Strict):
    command_id: CommandId
    expected_seq: ExpectedSeq = None


class RollIn(Command):
    """One entry at a table: exactly one of ``dice``, ``outcome`` or ``roll_for_me``."""

    dice: list[Die] | None = Field(None, min_length=3, max_length=3,
                                   description="three faces, e.g. [1, 1, 4]")
    outcome: str | None = Field(None, max_length=20,
                                description="a quick tally: +1, +2, miss, bunco, mini, ...")
    roll_for_me: bool = Field(False, description="the server draws the dice")
    player: Name | None = Field(None, description="who rolls (checked against whose turn)")

    @model_validator(mode="after")
    def _one_entry(self) -> RollIn:
        given = [self.dice is not None, self.outcome is not None, self.roll_for_me]
        if sum(given) != 1:
            raise ValueError("give exactly one of dice (three faces), outcome (a quick "
                             "tally) or roll_for_me: true")
        return self


class DiceIn(Command):
    """A roll-off roll or a player's own roll: ``dice`` or ``roll_for_me``."""

    dice: list[Die] | None = Field(None, min_length=3, max_length=3)
    roll_for_me: bool = False
    player: Name | None = None

    @model_validator(mode="after")
    def _one_entry(self) -> DiceIn:
        if (self.dice is not None) == self.roll_for_me:
            raise ValueError("give exactly one of dice (three faces) or roll_for_me: true")
        return self


class UndoIn(Command):
    """Remove the last roll or tally at the table."""


class SubstituteIn(Command):
    """Between rounds, ``in`` takes the seat of ``out``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    out: Name
    in_: Name = Field(alias="in")


class PlayerIn(Command):
    """A late arrival or a departure, between rounds."""

    player: Name


class VerifyIn(Command):
    """A checker verifies a player's card so far (tournament)."""

    player: Name
    checker: str | None = Field(None, max_length=60)


class SeatIn(Command):
    """Seat everyone by hand, between rounds."""

    tables: list[list[Name | None]] = Field(min_length=1, max_length=500)


class EventIn(Command):
    """Any event of the party-log format (the host's escape hatch; scorekeepers: their table)."""

    event: dict[str, Any]


class BotsIn(Strict):
    """Which players are bots, and their pace."""

    players: list[Name] = Field(max_length=2000)
    pace: float | None = Field(None, ge=0, le=60)


class JoinIn(Strict):
    """A table's join code (typed) or join token (from the QR link)."""

    code: str | None = Field(None, min_length=1, max_length=20)
    token: str | None = Field(None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one(self) -> JoinIn:
        if (self.code is None) == (self.token is None):
            raise ValueError("give exactly one of code (typed) or token (from the QR link)")
        return self


class ClaimIn(Strict):
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
    event: dict[str, Any]
    duplicate: bool = Field(description="true when this command id was already applied")
    status: dict[str, Any]
    table_view: dict[str, Any] | None
    entry: dict[str, Any] | None = Field(
        None, description="a roll or tally: what it scored (player, dice, points, kind), "
        "also when it ended the round and table_view is already the next round's")
    ended: dict[str, Any] | None = Field(
        None, description="when this entry ended the round: the round, the table, the roll "
        "and why (target, bunco, last_table)")


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
