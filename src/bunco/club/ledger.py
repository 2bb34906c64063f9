"""The club's money: dues and the pot, counted from each night's first roll.

A night of the club owes nothing and holds no pot until its first roll: a night started
from the club and never played (taken back with ``cancel_night``, or still waiting) is in
no pot and no member's dues, and the next night's pot carries over what the last night
*played* left. From its first roll on, each of the night's players owes its buy-in (the
club's dues) and each substitute who played owes the club's sub fee.

Payments pay the oldest dues first (a member's payments of the season, in order, against
their dues night by night, the sub fee of a night after its dues). So each night's dues are
split into what is **collected** and what is still **owed**; a night's pot is *collected*
as far as the pot carried over and its collected dues go. A night that paid out more
than was collected paid that much **from dues not yet collected** (the payout sheet says
so).

>>> from bunco.club.club import Club
>>> from bunco.club.nights import night_setup
>>> from bunco.core.night import Night
>>> club = Club.start({"name": "Tuesday Club", "dues": "5"}).apply_all(
...     [{"type": "member", "name": n} for n in ("Ann", "Bea")]
...     + [{"type": "night", "night": "n1", "date": "2026-01-13"}])
>>> waiting = Night.start(night_setup(club.setup, ["Ann", "Bea"], carried_over=Decimal(0)))
>>> season_ledger(club, {"n1": waiting})["totals"]["dues_owed"]  # never rolled: owes nothing
'0.00'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from bunco.club.club import Club, ClubNight
from bunco.club.view_types import (
    HostLine,
    LedgerMember,
    LedgerNight,
    LedgerTotals,
    LedgerView,
    NightPayout,
    Settled,
)
from bunco.core.club_events import ClubCancelNightEvent
from bunco.core.errors import InvalidSetup
from bunco.core.money import money_text
from bunco.core.night import Night
from bunco.core.settlement import prize_money

ZERO = Decimal(0)


def first_roll(night: Night) -> bool:
    """Whether the night has had its first roll (a roll or a tally that still stands)."""
    return bool(night.history) or any(e["type"] in ("roll", "tally") for e in night.effective)


def played_nights(
    club: Club, nights: Mapping[str, Night], season: str | None = None
) -> list[tuple[ClubNight, Night]]:
    """The season's nights that have had their first roll, in the order they were added."""
    return [
        (ref, nights[ref.night])
        for ref in club.season_nights(season)
        if ref.night in nights and first_roll(nights[ref.night])
    ]


def open_nights(club: Club, nights: Mapping[str, Night]) -> list[ClubNight]:
    """The club's nights not over yet: started and waiting for their first roll, or under
    way (a new night's pot would carry over a pot that is not settled)."""
    return [ref for ref in club.nights if ref.night in nights and nights[ref.night].phase != "over"]


def pot_to_carry(club: Club, nights: Mapping[str, Night]) -> Decimal:
    """What the pot holds after the club's last night played (carried over to its next)."""
    for ref in reversed(club.nights):
        night = nights.get(ref.night)
        if night is not None and first_roll(night):
            money = prize_money(night)["money"]
            return Decimal(money["left_in_pot"]) if money else ZERO
    return ZERO


@dataclass(slots=True)
class _Due:
    """One amount a member owes: a night's dues, or a night's sub fee."""

    player: str
    night: str  # the night's id
    amount: Decimal
    dues: bool  # dues into the pot (else the sub fee, which is the club's)
    paid: Decimal = ZERO


@dataclass(slots=True)
class _Book:
    dues: list[_Due] = field(default_factory=list)
    players: dict[str, int] = field(default_factory=dict)  # nights played
    seats: dict[str, int] = field(default_factory=dict)  # sub seats
    won: dict[str, Decimal] = field(default_factory=dict)


def _allocate(dues: Sequence[_Due], paid: Mapping[str, Decimal]) -> None:
    """Each member's payments against their dues, oldest first."""
    left = dict(paid)
    for due in dues:
        take = min(due.amount, max(left.get(due.player, ZERO), ZERO))
        due.paid = take
        left[due.player] = left.get(due.player, ZERO) - take


def season_ledger(club: Club, nights: Mapping[str, Night], season: str | None = None) -> LedgerView:
    """Dues owed, paid and still owed per member; each night's pot, collected and owed,
    and its payouts; the pot now (collected and owed apart). Nights not played are listed
    with no money."""
    wanted = season or club.season
    played = {ref.night for ref, _ in played_nights(club, nights, wanted)}
    book = _Book()
    rows: list[LedgerNight] = []
    moneys: dict[str, Settled | None] = {}
    for ref in club.season_nights(wanted):
        night = nights.get(ref.night)
        if night is None or ref.night not in played:
            rows.append(_unplayed_row(ref, night))
            continue
        money = prize_money(night)
        m: Settled | None = money["money"]
        moneys[ref.night] = m
        buy_in = Decimal(m["buy_in"]) if m else club.dues  # a night without money owes dues
        for player in night.roster:
            book.dues.append(_Due(player, ref.night, buy_in, True))
            book.players[player] = book.players.get(player, 0) + 1
            if club.sub_fee and club.members.get(player) == "substitute":
                book.dues.append(_Due(player, ref.night, club.sub_fee, False))
                book.seats[player] = book.seats.get(player, 0) + 1
        for pay in money["payouts"]:
            book.won[pay["player"]] = book.won.get(pay["player"], ZERO) + Decimal(pay["amount"])
        rows.append(_played_row(ref, night, m, money["payouts"]))
    paid: dict[str, Decimal] = {}
    for pay_season, player, amount, _ in club.payments:
        if pay_season == wanted:
            paid[player] = paid.get(player, ZERO) + amount
    _allocate(book.dues, paid)
    owed_before = ZERO  # dues still owed of the nights so far (they are in the pot)
    for row in rows:
        if not row["played"]:
            continue
        dues = [d for d in book.dues if d.night == row["night"] and d.dues]
        due = sum((d.amount for d in dues), ZERO)
        collected = sum((d.paid for d in dues), ZERO)
        owed_before += due - collected
        m = moneys[row["night"]]
        pot = Decimal(m["pot"]) if m else due
        paid_out = Decimal(m["paid_out"]) if m else ZERO
        in_hand = pot - owed_before  # the pot as far as it was collected
        row["dues"] = money_text(due)
        row["dues_collected"] = money_text(collected)
        row["dues_owed"] = money_text(due - collected)
        row["pot_collected"] = money_text(max(in_hand, ZERO))
        row["pot_owed"] = money_text(pot - max(in_hand, ZERO))
        row["paid_from_owed"] = money_text(min(paid_out, max(paid_out - in_hand, ZERO)))
        row["owed_by"] = {
            d.player: money_text(d.amount - d.paid) for d in dues if d.amount > d.paid
        }
    return _ledger(club, wanted, rows, book, paid)


def _unplayed_row(ref: ClubNight, night: Night | None) -> LedgerNight:
    return {
        "night": ref.night,
        "date": ref.date,
        "name": night.setup.get("name") if night else None,
        "players": len(night.roster) if night else 0,
        "phase": night.phase if night else None,
        "played": False,
        "payouts": [],
    }


def _played_row(
    ref: ClubNight, night: Night, m: Settled | None, payouts: list[NightPayout]
) -> LedgerNight:
    row: LedgerNight = {
        "night": ref.night,
        "date": ref.date,
        "name": night.setup.get("name"),
        "players": len(night.roster),
        "phase": night.phase,
        "played": True,
        "payouts": payouts,
    }
    if m:
        row["buy_in"] = m["buy_in"]
        row["carried_over"] = m["carried_over"]
        row["pot"] = m["pot"]
        row["paid_out"] = m["paid_out"]
        row["top_up"] = m["top_up"]
        row["left_in_pot"] = m["left_in_pot"]
        row["final"] = m["final"]
    return row


def _ledger(
    club: Club,
    season: str,
    rows: list[LedgerNight],
    book: _Book,
    paid: Mapping[str, Decimal],
) -> LedgerView:
    owed: dict[str, Decimal] = {}
    fees: dict[str, Decimal] = {}
    for due in book.dues:
        owed[due.player] = owed.get(due.player, ZERO) + due.amount
        if not due.dues:
            fees[due.player] = fees.get(due.player, ZERO) + due.amount
    names = list(club.members) + [p for p in {**owed, **paid} if p not in club.members]
    members: list[LedgerMember] = [
        {
            "player": name,
            "nights": book.players.get(name, 0),
            "sub_seats": book.seats.get(name, 0),
            "sub_fees": money_text(fees.get(name, ZERO)),
            "owed": money_text(owed.get(name, ZERO)),
            "paid": money_text(paid.get(name, ZERO)),
            "balance": money_text(owed.get(name, ZERO) - paid.get(name, ZERO)),
            "won": money_text(book.won.get(name, ZERO)),
        }
        for name in names
    ]
    total_owed = sum(owed.values(), ZERO)
    total_paid = sum(paid.values(), ZERO)
    played = [r for r in rows if r["played"]]
    pot = Decimal(played[-1].get("left_in_pot", "0")) if played else ZERO
    pot_owed = sum((d.amount - d.paid for d in book.dues if d.dues), ZERO)
    paid_out = sum((Decimal(r.get("paid_out", "0")) for r in played), ZERO)
    return {
        "season": season,
        "currency": club.currency,
        "dues": money_text(club.dues),
        "sub_fee": money_text(club.sub_fee),
        "nights": rows,
        "members": members,
        "hosts": season_hosts(club, season),
        "totals": {
            "dues_owed": money_text(total_owed),
            "dues_paid": money_text(total_paid),
            "outstanding": money_text(total_owed - total_paid),
            "paid_out": money_text(paid_out),
            "sub_fees": money_text(sum(fees.values(), ZERO)),
            "pot": money_text(pot),
            "pot_collected": money_text(pot - pot_owed),
            "pot_owed": money_text(pot_owed),
            "nights_played": len(played),
        },
    }


def season_hosts(club: Club, season: str) -> list[HostLine]:
    """Who hosts which month: the months set by hand, and the season's planned nights."""
    months = dict(club.hosts)
    for date, plan in club.plans.items():
        if (
            plan.season == season
            and plan.host
            and date[:7] not in club.hosts
            and not plan.cancelled
        ):
            months[date[:7]] = plan.host
    return [{"month": m, "host": h} for m, h in sorted(months.items())]


def collection_notes(row: LedgerNight, currency: str) -> list[str]:
    """A played night's ledger row in words: its dues collected and owed, and how much of
    what it pays out comes from dues not yet collected (the payout sheet prints them).

    >>> collection_notes({"played": True, "dues": "20.00", "dues_collected": "15.00",
    ...     "dues_owed": "5.00", "owed_by": {"Dee": "5.00"}, "paid_from_owed": "5.00"}, "$")
    ['Dues tonight: $20.00; collected $15.00, not yet collected $5.00 (Dee $5.00).', \
'This sheet pays $5.00 from dues not yet collected: collect them first, or pay that much less for now.']
    """
    if not row.get("played") or "dues" not in row:
        return []
    c = currency
    owed = ", ".join(f"{name} {c}{amount}" for name, amount in row["owed_by"].items())
    lines = [
        f"Dues tonight: {c}{row['dues']}; collected {c}{row['dues_collected']}"
        + (f", not yet collected {c}{row['dues_owed']} ({owed})." if owed else ", all of them.")
    ]
    if Decimal(row["paid_from_owed"]):
        lines.append(
            f"This sheet pays {c}{row['paid_from_owed']} from dues not yet collected: "
            "collect them first, or pay that much less for now."
        )
    return lines


def pot_words(totals: LedgerTotals, currency: str) -> str:
    """The pot now in words: what is in hand and what is still owed into it.

    >>> pot_words({"pot": "5.00", "pot_collected": "-15.00", "pot_owed": "20.00"}, "$")
    'pot $5.00: $20.00 of it is dues not yet collected, $15.00 of which already paid out'
    >>> pot_words({"pot": "6.25", "pot_collected": "1.25", "pot_owed": "5.00"}, "$")
    'pot $6.25: $1.25 collected, $5.00 of dues not yet collected'
    """
    c = currency
    collected = Decimal(totals["pot_collected"])
    if collected < 0:
        return (
            f"pot {c}{totals['pot']}: {c}{totals['pot_owed']} of it is dues not yet collected, "
            f"{c}{money_text(-collected)} of which already paid out"
        )
    if not Decimal(totals["pot_owed"]):
        return f"pot {c}{totals['pot']}, all of it collected"
    return (
        f"pot {c}{totals['pot']}: {c}{totals['pot_collected']} collected, "
        f"{c}{totals['pot_owed']} of dues not yet collected"
    )


class NightPlayed(InvalidSetup):
    """A night that has had its first roll cannot be taken back: its money stands."""

    code = "night_played"


def take_back(club: Club, nights: Mapping[str, Night], night_id: str) -> ClubCancelNightEvent:
    """The ``cancel_night`` event of a night of the club never played; raises
    :class:`NightPlayed` for a night with a roll (its results and money stand)."""
    ref = next((n for n in club.nights if n.night == night_id), None)
    night = nights.get(night_id)
    if ref is not None and night is not None and first_roll(night):
        raise NightPlayed(
            f"the night {ref.date or night_id} has been played (night {night_id}): its "
            "results and money stand",
            expected="a night not yet played (no roll entered)",
        )
    return {"type": "cancel_night", "night": night_id}


def take_back_on(club: Club, nights: Mapping[str, Night], date: str) -> list[ClubCancelNightEvent]:
    """The ``cancel_night`` of the night started on ``date`` ([] when none was)."""
    ref = club.night_on(date)
    return [] if ref is None else [take_back(club, nights, ref.night)]
