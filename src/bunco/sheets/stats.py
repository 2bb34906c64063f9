"""Figures the filled sheets, the report and the CSV share: per-round lines and standings.

Everything is read from a folded :class:`~bunco.core.night.Night`.

>>> from bunco.core.log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> round_lines(night)["Ann"][0]
RoundLine(set_no=1, round_no=1, table=1, won=True, points=21, buncos=1, minis=0)
>>> [(s.rank, s.player, s.wins) for s in standings(night)]
[(1, 'Ann', 1), (2, 'Bea', 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

from bunco.core.night import Night
from bunco.core.report import ended_early
from bunco.core.rules import RollKind, SetWinner
from bunco.core.table import Phase

MINI_KINDS = (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO)


@dataclass(frozen=True, slots=True)
class RoundLine:
    """One player's line on the score card for one round."""

    set_no: int
    round_no: int
    table: int
    won: bool
    points: int
    buncos: int
    minis: int


def round_lines(night: Night) -> dict[str, list[RoundLine]]:
    """Every player's rounds, in the order played (players who sat out a round have no line)."""
    out: dict[str, list[RoundLine]] = {name: [] for name in night.roster}
    for rnd in night.history:
        for res in rnd.tables:
            for seat, name in enumerate(res.seats):
                if name is None:
                    continue
                mine = [
                    r for r in res.rolls
                    if r.seat == seat and r.credited == name and r.phase is not Phase.FIRST_ROLL
                ]
                out.setdefault(name, []).append(
                    RoundLine(
                        set_no=rnd.set_no,
                        round_no=rnd.round_no,
                        table=res.table,
                        won=seat in res.winning_seats,
                        points=res.seat_points[seat],
                        buncos=sum(r.kind is RollKind.BUNCO for r in mine),
                        minis=sum(r.kind in MINI_KINDS for r in mine),
                    )
                )
    return out


def prizes_won(night: Night) -> dict[str, list[str]]:
    """The prizes each player has won so far, as printed: set winners first, then prizes."""
    out: dict[str, list[str]] = {name: [] for name in night.roster}
    for result in night.set_results:
        if result.winner is not None:
            out.setdefault(result.winner, []).append(f"Winner of set {result.set_no}")
    for prize in night.prizes:
        label = prize.label + (f" ({prize.group})" if prize.group else "")
        if prize.category == "group_most_buncos":
            for group in prize.winners:
                for member in night.groups.get(group, ()):
                    out.setdefault(member, []).append(f"{prize.label} ({group})")
            continue
        for name in prize.winners:
            out.setdefault(name, []).append(label + (" (shared)" if prize.settled_by == "shared"
                                                     else ""))
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place at the end of the night (or so far)."""

    rank: int
    player: str
    wins: int
    losses: int
    buncos: int
    minis: int
    points: int
    sets_won: int
    prizes: tuple[str, ...]
    group: str | None


def standings(night: Night) -> list[Standing]:
    """Players by sets won (where the rules name a set winner), then W's, Buncos and points.

    Players level on all of those share a rank (1, 2, 2, 4, …) and keep roster order.
    """
    prizes = prizes_won(night)
    sets_won = {name: 0 for name in night.roster}
    if night.rules.set_winner is SetWinner.MOST_WINS:
        for result in night.set_results:
            if result.winner is not None:
                sets_won[result.winner] = sets_won.get(result.winner, 0) + 1
    group_of = {m: g for g, members in night.groups.items() for m in members}
    order = {name: i for i, name in enumerate(night.roster)}

    def key(name: str) -> tuple[int, int, int, int]:
        card = night.cards[name]
        return (-sets_won[name], -card.wins, -card.buncos, -card.points)

    ranked = sorted(night.roster, key=lambda n: (key(n), order[n]))
    out: list[Standing] = []
    for i, name in enumerate(ranked):
        card = night.cards[name]
        rank = out[-1].rank if out and key(out[-1].player) == key(name) else i + 1
        out.append(
            Standing(
                rank=rank,
                player=name,
                wins=card.wins,
                losses=card.losses,
                buncos=card.buncos,
                minis=card.minis,
                points=card.points,
                sets_won=sets_won[name],
                prizes=tuple(prizes.get(name, ())),
                group=group_of.get(name),
            )
        )
    return out


def night_title(night: Night) -> str:
    """The night's name, or "Bunco night"."""
    name = night.setup.get("name")
    return str(name) if name else "Bunco night"


def progress(night: Night) -> str:
    """Where the night stands, in words."""
    if night.phase == "over":
        early = ended_early(night)
        if early:
            return f"the night is over: the host ended it after set {early['set']}, round {early['round']}"
        return "the night is over"
    if night.phase == "rolloff" and night.rolloff is not None:
        return f"a roll-off for {night.rolloff.purpose} is due"
    played = len(night.history)
    return f"in progress: {played} round{'s' if played != 1 else ''} played, set {night.set_no} " \
        f"round {night.round_no} next"
