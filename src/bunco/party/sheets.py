"""What the paper sheets of a night say: table tallies, score cards, the master score sheet.

Every function reads a folded :class:`~bunco.core.night.Night`; nothing here changes it.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> round_lines(night)["Ann"][0]
RoundLine(set_no=1, round_no=1, table=1, won=True, points=21, buncos=1, minis=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from bunco.core.night import Night
from bunco.core.round_results import TableResult, seat_counts
from bunco.core.rules import RollKind
from bunco.core.table import Phase
from bunco.party.record_shapes import CardSet, MasterRow, ScoreCard, TableTally

SCORING = (Phase.PLAY, Phase.AFTER_BELL, Phase.PAPER)  # a paper line: a turn of its own
MINI_KINDS = (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO)


def table_tally(result: TableResult) -> TableTally:
    """The table tally of one round: points per turn, per team (Us/Them) or per player.

    "Us" is the scorekeeper's team (seats 1 and 3).
    """
    turns: dict[int, tuple[int, int]] = {}
    for record in result.rolls:
        if record.phase not in SCORING:
            continue
        seat, points = turns.get(record.turn, (record.seat, 0))
        points = 0 if record.kind is RollKind.WIPEOUT else points + record.points
        turns[record.turn] = (seat, points)
    if result.team:
        us = [p for _, (s, p) in sorted(turns.items()) if s % 2 == 0]
        them = [p for _, (s, p) in sorted(turns.items()) if s % 2 == 1]
        return {
            "table": result.table,
            "team": True,
            "columns": ["Us", "Them"],
            "us": us,
            "them": them,
            "totals": list(result.side_scores),
        }
    columns = [name or "ghost" for name in result.seats]
    per = {c: [p for _, (s, p) in sorted(turns.items()) if s == i] for i, c in enumerate(columns)}
    return {
        "table": result.table,
        "team": False,
        "columns": columns,
        "turns": per,
        "totals": list(result.side_scores),
    }


def round_buncos(night: Night) -> dict[tuple[int, int, str], int]:
    """True Buncos rolled per (set, round, player), tie-break rolls included."""
    out: dict[tuple[int, int, str], int] = {}
    for rnd in night.history:
        for table in rnd.tables:
            for record in table.rolls:
                if (
                    record.kind is RollKind.BUNCO
                    and record.credited
                    and record.phase is not Phase.FIRST_ROLL
                ):
                    key = (rnd.set_no, rnd.round_no, record.credited)
                    out[key] = out.get(key, 0) + 1
    return out


def master_sheet(night: Night, set_no: int) -> list[MasterRow]:
    """The ``winning-moves`` master score sheet of one set: a W per round won, a B per Bunco."""
    buncos = round_buncos(night)
    rows: list[MasterRow] = []
    for name in night.seated_in_set(set_no) or night.roster:
        card = night.cards[name]
        marks = {}
        for s, r, _t, mark in card.marks:
            if s != set_no:
                continue
            text = "W" if mark == "W" else ""
            text += "B" * buncos.get((s, r, name), 0)
            marks[r] = text
        rows.append(
            {
                "player": name,
                "rounds": [marks.get(r, "") for r in range(1, 7)],
                "wins": card.set_wins(set_no),
                "buncos": card.buncos_in_set(set_no),
            }
        )
    return rows


def score_card(night: Night, name: str) -> ScoreCard:
    """One player's card: W/L per set and round, Buncos, Minis (Baby/Low/High) and points."""
    card = night.cards[name]
    sets: list[CardSet] = []
    for set_no in range(1, night.sets + 1):
        marks = {r: m for s, r, _t, m in card.marks if s == set_no}
        sets.append({"set": set_no, "rounds": [marks.get(r, "") for r in range(1, 7)]})
    return {
        "player": name,
        "sets": sets,
        **card.totals(),
        "mini_label": night.rules.mini_label,
    }


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
                counts = seat_counts(res.rolls, seat, name)
                out.setdefault(name, []).append(
                    RoundLine(
                        set_no=rnd.set_no,
                        round_no=rnd.round_no,
                        table=res.table,
                        won=seat in res.winning_seats,
                        points=res.seat_points[seat],
                        buncos=counts["buncos"],
                        minis=counts["minis"],
                    )
                )
    return out
