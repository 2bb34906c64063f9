"""The live view: everything a live page needs now, and one table as it stands.

Field names here are promises to the pages and to people who script against the API.

>>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> view = live_view(night)
>>> view["phase"], view["tables"][0]["team_scores"], view["expects"]
('playing', [2, 0], [{'table': 1, 'player': 'Ann'}])
>>> [(s["rank"], s["player"]) for s in view["standings"]]  # the ranking of GET /standings
[(1, 'Ann'), (1, 'Bea'), (1, 'Cat'), (1, 'Dee')]
"""

from __future__ import annotations

from typing import Any

from bunco.core.night import Night
from bunco.core.table import TableRound
from bunco.party.report import ended_early, next_round, seat_scores, table_result_dict
from bunco.party.standings import standings_rows


def table_view(table: TableRound) -> dict[str, Any]:
    """One table now, for a live page."""
    last = table.rolls[-1] if table.rolls else None
    tb = table.tie_break
    return {
        "table": table.number,
        "players": list(table.seats),
        "team": table.team,
        "target": table.target,
        "status": table.status.value,
        **seat_scores(table.seats, table.team, table.side_scores),
        "points": list(table.points),
        "turn": table.turn,
        "roller": table.roller,
        "in_turn": table.in_turn,
        "first_roll": list(table.contenders) if table.contenders else None,
        "tie_break": None
        if tb is None
        else {
            "rule": tb.rule.value,
            "sides": list(tb.sides),
            "points": list(tb.points),
            "session": tb.session,
        },
        "winners": [w for w in table.winners if w is not None],
        "rolls": len(table.rolls),
        "last_roll": None
        if last is None
        else {
            "player": last.roller,
            "credited": last.credited,
            "dice": list(last.dice),
            "points": last.points,
            "kind": last.kind.value,
            "phase": last.phase.value,
        },
    }


def on_break(night: Night) -> bool:
    """True between rounds after a round the rules break after (``breaks_after_rounds``)."""
    if night.started or night.phase != "playing" or not night.history:
        return False
    return night.history[-1].round_no in night.rules.breaks_after_rounds


def live_view(night: Night) -> dict[str, Any]:
    """Everything a live page needs now."""
    return {
        "phase": night.phase,
        "set": night.set_no,
        "round": night.round_no,
        "sets": night.sets,
        "rules": night.setup["rules"],
        "bell": night.bell,
        "bell_roll": night.bell_roll.as_dict() if night.bell_roll else None,
        "started": night.started,
        "on_break": on_break(night),
        "tables": [table_view(t) for t in night.tables],
        "expects": [{"table": t, "player": p} for t, p in night.expected_rollers()],
        "rolloff": night.rolloff.as_dict() if night.rolloff else None,
        "players": {name: night.cards[name].as_dict() for name in night.roster},
        "standings": standings_rows(night),
        "seated": list(night.seated),
        "traveler": night.traveler,
        "last_bunco": night.last_bunco,
        "prizes": [p.as_dict() for p in night.prizes],
        "set_winners": [
            {"set": s.set_no, "winner": s.winner, "settled_by": s.settled_by}
            for s in night.set_results
        ],
        "last_round": (
            {
                "set": night.history[-1].set_no,
                "round": night.history[-1].round_no,
                "tables": [table_result_dict(t) for t in night.history[-1].tables],
                "ended_by": (
                    night.history[-1].ended_by.as_dict() if night.history[-1].ended_by else None
                ),
            }
            if night.history
            else None
        ),
        "ended_early": ended_early(night),
        "next": next_round(night),
    }
