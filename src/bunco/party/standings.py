"""The standings: players ranked, with the set wins and prizes each has won.

One ranking for every reader: the filled sheets, the night report, the CSV and the
server's ``/standings`` all read :func:`standings`.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> [(s.rank, s.player, s.wins) for s in standings(night)]
[(1, 'Ann', 1), (2, 'Bea', 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

from bunco.core.night import Night
from bunco.core.rules import SetWinner
from bunco.party.record_shapes import StandingRow
from bunco.party.winners import handed_prizes


def prizes_won(night: Night) -> dict[str, list[str]]:
    """The prizes each player has won so far, as printed: set winners first, then the
    prizes each is handed (after passing over, judged prizes too: bunco.party.winners)."""
    out: dict[str, list[str]] = {name: [] for name in night.roster}
    for result in night.set_results:
        if result.winner is not None:
            out.setdefault(result.winner, []).append(f"Winner of set {result.set_no}")
    for name, handed in handed_prizes(night).items():
        out.setdefault(name, []).extend(handed)
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


def standings_rows(night: Night) -> list[StandingRow]:
    """The standings as plain data (``bunco export --json``, the server's ``/standings``).

    >>> from bunco.core.party_log import read_log
    >>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
    ...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
    >>> standings_rows(night)[0]["player"], standings_rows(night)[0]["points"]
    ('Ann', 21)
    """
    return [
        {
            "rank": s.rank, "player": s.player, "wins": s.wins, "losses": s.losses,
            "buncos": s.buncos, "mini_buncos": s.minis, "points": s.points,
            "sets_won": s.sets_won, "prizes_won": list(s.prizes), "group": s.group,
        }
        for s in standings(night)
    ]  # fmt: skip
