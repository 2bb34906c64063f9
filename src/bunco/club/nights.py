"""A night of the club: its party line from the club's roster, rules, dues and payouts.

The night's money is the club's: the buy-in is the dues, what the pot held after the last
night is carried over, and the club's payouts are the night's. The party line records
all of it, so the night's log stays its own truth.

>>> club = {"type": "club", "name": "Tuesday Club", "rules": "classic", "currency": "$",
...         "dues": "5.00", "payouts": [{"prize": "most_buncos", "share": "50%"}]}
>>> line = night_setup(club, ["Ann", "Bea", "Zoe"], carried_over=Decimal("2.50"))
>>> line["name"], line["money"]["buy_in"], line["money"]["carried_over"]
('Tuesday Club', '5.00', '2.50')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, TypedDict

from bunco.club.events import Raw
from bunco.core.club_events import ClubSetup, Payout
from bunco.core.errors import InvalidSetup
from bunco.core.money import money_text
from bunco.core.party_setup import PartySetup
from bunco.core.setup import normalize_setup


class NightMoney(TypedDict, total=False):
    """A club night's money as its party line gives it (the night checks it)."""

    currency: str
    buy_in: str
    payouts: list[Payout]
    carried_over: str


class NightLine(TypedDict, total=False):
    """A club night's party line as the club makes it (the night checks it)."""

    type: str
    rules: str
    name: str
    players: list[str]
    house_rules: dict[str, bool | int | float | str]
    prizes: list[str]
    prize_ties: str
    one_prize_per_person: bool
    must_be_present: bool
    judged: list[str]
    money: NightMoney


def night_setup(
    club: ClubSetup,
    players: Sequence[str],
    *,
    carried_over: Decimal,
    name: str | None = None,
    date: str | None = None,
) -> PartySetup:
    """The party line of a night of the club (``club``: its set-up line), as the night
    puts it (:func:`bunco.core.setup.normalize_setup`); checked, so a bad one raises
    InvalidSetup."""
    line: NightLine = {
        "type": "party",
        "rules": club["rules"],
        "name": name or f"{club['name']}" + (f", {date}" if date else ""),
        "players": list(players),
    }
    if "house_rules" in club:
        line["house_rules"] = club["house_rules"]
    if "prizes" in club:
        line["prizes"] = club["prizes"]
    if "prize_ties" in club:
        line["prize_ties"] = club["prize_ties"]
    if "one_prize_per_person" in club:
        line["one_prize_per_person"] = club["one_prize_per_person"]
    if "must_be_present" in club:
        line["must_be_present"] = club["must_be_present"]
    if "judged" in club:
        line["judged"] = club["judged"]
    money: NightMoney = {
        "currency": club["currency"],
        "buy_in": club["dues"],
        "payouts": club.get("payouts", []),
    }
    if carried_over:
        money["carried_over"] = money_text(carried_over)
    line["money"] = money
    return normalize_setup(line)


def log_digest(setup: Raw, events: Iterable[Raw]) -> str:
    """The SHA-256 of a night's log (its set-up line and events, in canonical JSON): the
    same log added twice gives the same digest."""
    text = "\n".join(
        json.dumps(line, sort_keys=True, separators=(",", ":")) for line in [setup, *events]
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def night_players_check(club: Any, players: Sequence[str], guests: Sequence[str]) -> None:
    """Refuse a night whose players are neither members of ``club`` nor listed guests,
    naming them (a night of strangers would corrupt the season's standings and dues)."""
    strangers = [p for p in players if p not in club.members and p not in guests]
    if strangers:
        shown = ", ".join(strangers[:12]) + (
            f" and {len(strangers) - 12} more" if len(strangers) > 12 else ""
        )
        raise InvalidSetup(
            f"{len(strangers)} of the night's {len(players)} players "
            f"{'is' if len(strangers) == 1 else 'are'} not members of {club.name}: {shown}",
            expected="members of the club (bunco club member), or players listed as guests "
            "(--guest NAME)",
        )
