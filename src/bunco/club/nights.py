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
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from bunco.core.errors import InvalidSetup
from bunco.core.money import money_text
from bunco.core.setup import normalize_setup

NIGHT_OPTIONS = (
    "house_rules",
    "prizes",
    "prize_ties",
    "one_prize_per_person",
    "must_be_present",
    "judged",
)


def night_setup(
    club: Mapping[str, Any],
    players: Sequence[str],
    *,
    carried_over: Decimal,
    name: str | None = None,
    date: str | None = None,
) -> dict[str, Any]:
    """The party line of a night of the club (``club``: its set-up line); checked, so a bad
    one raises InvalidSetup."""
    line: dict[str, Any] = {
        "type": "party",
        "rules": club["rules"],
        "name": name or f"{club['name']}" + (f", {date}" if date else ""),
        "players": list(players),
    }
    for key in NIGHT_OPTIONS:
        if key in club:
            line[key] = club[key]
    money: dict[str, Any] = {
        "currency": club["currency"],
        "buy_in": club["dues"],
        "payouts": club.get("payouts", []),
    }
    if carried_over:
        money["carried_over"] = money_text(carried_over)
    line["money"] = money
    return normalize_setup(line)


def log_digest(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> str:
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
