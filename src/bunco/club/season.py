"""A club's season: standings (and, from :mod:`bunco.club.ledger`, the dues ledger),
folded over its nights played.

Each night's figures come from its own log (folded into a
:class:`~bunco.core.night.Night`); the ledger adds the club's payments. Nothing here is
stored: the same logs always give the same season.

Standings rank by wins, then Buncos, then points (level players share a rank), like a
night's; ``prizes`` counts the prizes handed to the player (after passing over) and
``won`` the money paid to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from bunco.club.club import Club, ClubNight
from bunco.club.ladder import ladder_scores, night_places, night_value
from bunco.club.ledger import played_nights, pot_to_carry, season_hosts, season_ledger
from bunco.club.view_types import ClubStandingRow
from bunco.core.money import money_text
from bunco.core.night import Night
from bunco.core.settlement import prize_money


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int | None  # None: not qualified under the club's rules (too few nights)
    player: str
    role: str  # regular, substitute, or guest (played, not a member)
    nights: int
    wins: int
    losses: int
    buncos: int
    minis: int
    points: int
    prizes: int
    won: Decimal
    score: str = "0"  # under the club's standings rules (see bunco.club.ladder)
    counted: int = 0  # nights counted
    dropped: tuple[str, ...] = ()  # nights left out (best N / drop the worst)
    qualified: bool = True

    def as_dict(self) -> ClubStandingRow:
        return {
            "rank": self.rank,
            "player": self.player,
            "role": self.role,
            "nights": self.nights,
            "wins": self.wins,
            "losses": self.losses,
            "buncos": self.buncos,
            "mini_buncos": self.minis,
            "points": self.points,
            "prizes": self.prizes,
            "won": money_text(self.won),
            "score": self.score,
            "counted": self.counted,
            "dropped": list(self.dropped),
            "qualified": self.qualified,
        }


def _played(night: Night) -> list[str]:
    """Who played at least one round of ``night``, in roster order."""
    return [p for p in night.roster if night.cards[p].marks]


def _season(
    club: Club, nights: Mapping[str, Night], season: str | None
) -> list[tuple[ClubNight, Night]]:
    """The season's nights played (from their first roll): a night started and never
    played is in no standings, no chart and no archive."""
    return played_nights(club, nights, season)


def night_label(ref: ClubNight, number: int) -> str:
    """How a night is named in the standings: its date, else "Night 3"."""
    return ref.date or f"Night {number}"


def season_standings(
    club: Club, nights: Mapping[str, Night], season: str | None = None
) -> list[SeasonRow]:
    """Every member (and guest who played) with their season's figures, ranked under the
    club's standings rules (:mod:`bunco.club.ladder`), qualified players first."""
    totals: dict[str, list[int]] = {}
    won: dict[str, Decimal] = {}
    per_night: dict[str, list[tuple[str, int]]] = {}
    rules = club.ladder
    for number, (ref, night) in enumerate(_season(club, nights, season), start=1):
        money = prize_money(night)
        played = _played(night)
        places = night_places(night, played)
        for player in played:
            card = night.cards[player]
            row = totals.setdefault(player, [0] * 7)
            for i, value in enumerate(
                (1, card.wins, card.losses, card.buncos, card.minis, card.points, 0)
            ):
                row[i] += value
            per_night.setdefault(player, []).append(
                (night_label(ref, number), night_value(rules, night, player, places[player]))
            )
        for award in money["awards"]:
            if award["status"] == "won" and not award["team"]:
                for name in award["winners"]:
                    totals.setdefault(name, [0] * 7)[6] += 1
        for pay in money["payouts"]:
            won[pay["player"]] = won.get(pay["player"], Decimal(0)) + Decimal(pay["amount"])
    names = list(club.members) + [p for p in totals if p not in club.members]
    scores = ladder_scores(rules, {n: per_night.get(n, []) for n in names})
    average = bool(rules.get("average"))

    def key(name: str) -> tuple[bool, Fraction, int, int, int]:
        t = totals.get(name, [0] * 7)
        return (not scores[name].qualified, -scores[name].score, -t[1], -t[3], -t[5])

    out: list[SeasonRow] = []
    for i, name in enumerate(sorted(names, key=key)):
        t = totals.get(name, [0] * 7)
        s = scores[name]
        rank: int | None = None
        if s.qualified:
            same = out and key(out[-1].player) == key(name)
            rank = out[-1].rank if same else i + 1
        out.append(
            SeasonRow(
                rank,
                name,
                club.members.get(name, "guest"),
                t[0],
                t[1],
                t[2],
                t[3],
                t[4],
                t[5],
                t[6],
                won.get(name, Decimal(0)),
                s.score_text(average),
                s.counted,
                s.dropped,
                s.qualified,
            )
        )
    return out


def season_names(club: Club) -> list[str]:
    """Every season the club has: those begun, the current one ("Season 1" until one is
    begun) and any a night, a payment or a planned night belongs to, in first-seen order.

    >>> club = Club.start({"name": "Tuesday Club"})
    >>> season_names(club), season_names(club.apply({"type": "season", "name": "2026"}))
    (['Season 1'], ['2026'])
    """
    names = [
        *club.seasons,
        club.season,
        *(ref.season for ref in club.nights),
        *(payment[0] for payment in club.payments),
        *(plan.season for plan in club.plans.values()),
    ]
    return list(dict.fromkeys(names))


def season_progress(
    club: Club, nights: Mapping[str, Night], season: str | None = None
) -> tuple[list[str], dict[str, list[int]]]:
    """The chart's data: a label per night, and each player's wins so far after each."""
    labels: list[str] = []
    running: dict[str, int] = {}
    series: dict[str, list[int]] = {}
    for number, (ref, night) in enumerate(_season(club, nights, season), start=1):
        labels.append(night_label(ref, number))
        for player in _played(night):
            running[player] = running.get(player, 0) + night.cards[player].wins
        for player in running:
            series.setdefault(player, [0] * (number - 1)).append(running[player])
    return labels, series


__all__ = [
    "SeasonRow",
    "night_label",
    "pot_to_carry",
    "season_hosts",
    "season_ledger",
    "season_names",
    "season_progress",
    "season_standings",
]
