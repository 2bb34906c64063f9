"""The shapes of what the read models build beside the live pages from the engine's
records: the prizes handed out and the money's words, the standings, the paper sheets. One
``TypedDict`` per shape (see :mod:`bunco.party.shapes` for the pages' own: the live view, a
table's page, the report).

The engine's records themselves (a score card, a prize, the roll-off, the money, the
host's records, the cards' verification) are typed once, where the engine builds them
(:mod:`bunco.core.cards`, :mod:`bunco.core.prizes`, :mod:`bunco.core.money_shapes`,
:mod:`bunco.core.host_shapes`, ...): these shapes hold them as they are.

These are ``typing_extensions.TypedDict`` (pydantic reads them on Python 3.11).
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from bunco.core.cards import CardTotals
from bunco.core.money_shapes import PaidTo, PassedOver
from bunco.core.settlement import PrizeMoneyReport

# -- prizes and money -----------------------------------------------------------------------


class WinnerLine(TypedDict):
    """One prize as handed out (:class:`bunco.party.winners.WinnerRow`)."""

    prize: str
    group: str | None
    name: str
    figure: str
    handed_to: list[str]
    amount: str
    status: str
    settled: str
    on_cards: list[str]
    passed_over: list[PassedOver]
    who: str
    paid: list[PaidTo]
    paid_text: str


class PayoutTotal(TypedDict):
    player: str
    total: str


class WinnersPart(PrizeMoneyReport):
    """:class:`~bunco.core.settlement.PrizeMoneyReport` with the prizes handed out, in rows and
    in words (:func:`bunco.party.winners.money_part`)."""

    prize_winners: list[WinnerLine]
    prizes_status: str | None


class MoneyPart(PrizeMoneyReport):
    """The money of the report and the live view (:func:`bunco.party.payouts.money_part`):
    the engine's ``awards``, ``money`` and ``payouts``, the prizes handed out and the
    payout sheet's words."""

    prize_winners: list[WinnerLine]
    prizes_status: str | None
    payout_notes: list[str]
    payout_totals: list[PayoutTotal]
    payout_status: str


# -- the standings -------------------------------------------------------------------------


class StandingRow(TypedDict):
    """One player's line of the standings (:func:`bunco.party.standings.standings_rows`)."""

    rank: int
    player: str
    wins: int
    losses: int
    buncos: int
    mini_buncos: int
    points: int
    sets_won: int
    prizes_won: list[str]
    group: str | None


# -- the sheets ----------------------------------------------------------------------------


class TableTally(TypedDict):
    """The table tally of one round (:func:`bunco.party.sheets.table_tally`): points per
    turn, per team (``us`` and ``them``, a team table) or per player (``turns``)."""

    table: int
    team: bool
    columns: list[str]
    us: NotRequired[list[int]]
    them: NotRequired[list[int]]
    turns: NotRequired[dict[str, list[int]]]
    totals: list[int]


class MasterRow(TypedDict):
    """One player's line of a set's master score sheet: a W per round won, a B per Bunco."""

    player: str
    rounds: list[str]
    wins: int
    buncos: int


class CardSet(TypedDict):
    """A set on a score card: W or L per round ("" for a round not played)."""

    set: int
    rounds: list[str]


class ScoreCard(CardTotals):
    """One player's score card (:func:`bunco.party.sheets.score_card`): the card's figures
    with the player, W or L per set and round, and what the rules call a Mini."""

    player: str
    sets: list[CardSet]
    mini_label: str
