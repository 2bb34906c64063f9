"""A night of the club: its party line from the club's roster, rules, dues and payouts.

The night's money is the club's: the buy-in is the dues, what the pot held after the last
night is carried over, and the club's payouts are the night's. The party line records
all of it, so the night's log stays its own truth.

>>> from bunco.club.club import Club
>>> club = Club.start({"name": "Tuesday Club", "dues": "5",
...                    "payouts": [{"prize": "most_buncos", "share": "50%"}]})
>>> club = club.apply_all([{"type": "member", "name": n} for n in ("Ann", "Bea", "Cat", "Dee")]
...                       + [{"type": "member", "name": "Zoe", "role": "substitute"}])
>>> players = roster_for_night(club, {"Dee": "Zoe"})
>>> players
['Ann', 'Bea', 'Cat', 'Zoe']
>>> night_setup(club, players, carried_over=Decimal("2.50"))["money"]["carried_over"]
'2.50'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from bunco.core.errors import InvalidSetup
from bunco.core.money import money_text
from bunco.core.setup import normalize_setup

if TYPE_CHECKING:
    from bunco.club.club import Club

NIGHT_OPTIONS = ("house_rules", "prizes", "prize_ties", "one_prize_per_person",
                 "must_be_present", "judged")


def roster_for_night(club: Club, swaps: Mapping[str, str]) -> list[str]:
    """The regulars, each one in ``swaps`` replaced by the substitute the host chose."""
    regulars = list(club.regulars)
    subs = list(swaps.values())
    for out, sub in swaps.items():
        if out not in regulars:
            raise InvalidSetup(f"{out!r} is not a regular of {club.name}",
                               expected="one of " + ", ".join(regulars))
        if sub in regulars or subs.count(sub) > 1:
            raise InvalidSetup(f"{sub!r} already plays tonight",
                               expected="a substitute who is not playing: "
                               + ", ".join(club.substitutes))
    players = [swaps.get(p, p) for p in regulars]
    if len(players) < 2:
        raise InvalidSetup(f"{club.name} has {len(players)} regulars",
                           expected="at least two regulars (add members first)")
    return players


def night_setup(club: Club, players: Sequence[str], *, carried_over: Decimal,
                name: str | None = None, date: str | None = None) -> dict[str, Any]:
    """The party line of a night of the club (checked: a bad one raises InvalidSetup)."""
    line: dict[str, Any] = {"type": "party", "rules": club.setup["rules"],
                            "name": name or f"{club.name}" + (f", {date}" if date else ""),
                            "players": list(players)}
    for key in NIGHT_OPTIONS:
        if key in club.setup:
            line[key] = club.setup[key]
    money: dict[str, Any] = {"currency": club.currency, "buy_in": money_text(club.dues),
                             "payouts": club.setup.get("payouts", [])}
    if carried_over:
        money["carried_over"] = money_text(carried_over)
    line["money"] = money
    return normalize_setup(line)
